"""tf.debugging.assert_shapes (TF1): checks tensors' ranks and the sizes named by symbols across tensors; statically
known violations raise ValueError while building, the rest become Assert ops."""
from __future__ import annotations

from typing import Any, List, Optional

from edgelite.framework import dtypes, ops
from edgelite.framework.sparse_tensor import SparseTensor
from edgelite.ops import array_ops, math_ops
from edgelite.ops.check_ops import _message_prefix, assert_rank, assert_rank_at_least, assert_rank_in
from edgelite.ops.control_flow_ops import group
from edgelite.ops.logging_ops import Assert


def _is_int(size: Any) -> bool:
    """Whether a size entry is an explicit size (anything int() accepts)."""
    if size is None:
        return False
    try:
        int(size)
    except (ValueError, TypeError):
        return False
    return True


def _sizes(x: Any) -> List[Any]:
    """Each dimension's size: an int when static, a scalar tensor otherwise; a scalar counts as shape [1]."""
    rank = x.get_shape().ndims
    if rank == 0:
        return [1]
    if rank is not None:
        dynamic = array_ops.shape(x)
        return [d if d is not None else dynamic[i] for i, d in enumerate(x.get_shape().as_list())]
    padded = array_ops.concat([array_ops.shape(x), [1]], 0)
    return array_ops.slice(padded, [0], array_ops.reshape(math_ops.maximum(array_ops.rank(x), 1), [1]))


def _rank_assertion(x: Any, rank: int, innermost: bool, data: Any, summarize: Optional[int],
                    message: Optional[str], name: Optional[str]) -> Any:
    # rank 0 and rank 1 are the same here (a scalar is treated as shape [1])
    if innermost:
        if rank in (0, 1):
            return None
        return assert_rank_at_least(x, rank, data=data, summarize=summarize, message=message, name=name)
    if rank in (0, 1):
        return assert_rank_in(x, [0, 1], data=data, summarize=summarize, message=message, name=name)
    return assert_rank(x, rank, data=data, summarize=summarize, message=message, name=name)


def assert_shapes(shapes: Any, data: Any = None, summarize: Optional[int] = None, message: Optional[str] = None,
                  name: Optional[str] = None) -> Any:
    """Assert each (tensor, shape) pair: shape entries are ints (exact sizes), None or '.' (any size), or symbols
    whose size must agree everywhere they appear; a leading '*' or ... allows any outer dimensions."""
    if isinstance(shapes, dict):
        shapes = shapes.items()
    prefix = _message_prefix(message)
    with ops.name_scope(name, "assert_shapes", [shapes, data]):
        constraints = [(x if isinstance(x, SparseTensor) else ops.convert_to_tensor(x), s)
                       for x, s in shapes if s is not None]
        specs = []
        for x, symbolic in constraints:
            if not (hasattr(symbolic, "__iter__") or hasattr(symbolic, "__getitem__")):
                raise ValueError(f"{prefix}Tensor {x.name}.  Specified shape must be an iterable.  An iterable has "
                                 f"the attribute `__iter__` or `__getitem__`.  Received specified shape: {symbolic}")
            symbols = tuple(symbolic)
            innermost = False
            for i, symbol in enumerate(symbols):
                if symbol is Ellipsis or (isinstance(symbol, str) and symbol == "*"):
                    if i != 0:
                        raise ValueError(f"{prefix}Tensor {x.name} specified shape index {i}.  Symbol `...` or `*` "
                                         "for a variable number of unspecified dimensions is only allowed as the "
                                         "first entry")
                    innermost = True
            symbols = (symbols[1:] if innermost else symbols) or (1,)
            specs.append((x, innermost, _sizes(x), symbols))

        rank_checks = [a for a in (_rank_assertion(x, len(symbols), innermost, data, summarize, message, name)
                                   for x, innermost, _, symbols in specs) if a is not None]
        size_checks = []
        known: dict = {}
        for x, innermost, actual_sizes, symbols in specs:
            for i, symbol in enumerate(symbols):
                if symbol is None or (isinstance(symbol, str) and symbol == "."):
                    continue
                dim = i - len(symbols) if innermost else i
                with ops.control_dependencies(rank_checks):
                    actual = actual_sizes[dim]
                if not _is_int(symbol) and symbol not in known:
                    known[symbol] = (actual, x, dim)
                    continue
                if _is_int(symbol):
                    expected, how = int(symbol), "Specified explicitly"
                else:
                    expected, by, by_dim = known[symbol]
                    how = f"Specified by tensor {by.name} dimension {by_dim}"
                if _is_int(actual) and _is_int(expected):
                    if int(actual) != int(expected):
                        raise ValueError(f"{prefix}{how}.  Tensor {x.name} dimension {dim} must have size "
                                         f"{int(expected)}.  Received size {int(actual)}, shape {x.get_shape()}")
                    continue
                condition = math_ops.equal(ops.convert_to_tensor(actual, dtypes.int32),
                                           ops.convert_to_tensor(expected, dtypes.int32))
                items = data if data is not None else [prefix, how, f"Tensor {x.name} dimension", dim,
                                                       "must have size", expected, "Received shape: ",
                                                       array_ops.shape(x)]
                size_checks.append(Assert(condition, items, summarize=summarize))
    with ops.control_dependencies(rank_checks):
        return group(size_checks)
