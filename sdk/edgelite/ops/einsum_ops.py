"""einsum: the Einsum op (numpy's einsum as kernel), its static shape and its gradient."""
from __future__ import annotations

from typing import Any, Optional

import numpy as np

from edgelite.framework import ops
from edgelite.framework.op_def_registry import register_op
from edgelite.ops import array_ops
from edgelite.ops import math_ops
from edgelite.ops.shape_checks import shape_error


def resolve_equation(equation: str, num_inputs: int) -> tuple:
    """(input subscripts, output subscripts) with spaces removed and an implicit output made explicit
    (numpy's rule: '...' first, then the letters used exactly once, sorted)."""
    equation = equation.replace(" ", "")
    lhs, arrow, rhs = equation.partition("->")
    inputs = lhs.split(",")
    if len(inputs) != num_inputs:
        raise ValueError(f"Got {num_inputs} inputs for equation \"{equation}\", expecting {len(inputs)}")
    if not arrow:
        letters = [c for c in lhs if c.isalpha()]
        rhs = ("..." if "..." in lhs else "") + "".join(sorted(c for c in set(letters) if letters.count(c) == 1))
    return inputs, rhs


def _dims_of(sub: str, shape: list, n_ell: int) -> tuple:
    """Letter -> dims map for one input, and its ellipsis dims right-aligned to n_ell entries."""
    letters = sub.replace("...", "")
    own_ell = len(shape) - len(letters)
    head = sub.index("...") if "..." in sub else len(sub)
    ell = shape[head:head + own_ell] if "..." in sub else []
    rest = shape[:head] + shape[head + own_ell:]
    return dict(zip(letters, rest)), [None] * (n_ell - len(ell)) + list(ell), own_ell


def _einsum_shape(op: Any) -> list:
    shapes = [t.shape for t in op.inputs]
    if any(s.ndims is None for s in shapes):
        return [None]
    inputs, rhs = resolve_equation(op.get_attr("equation"), len(shapes))
    n_ell = 0
    for i, (sub, s) in enumerate(zip(inputs, shapes)):
        n_letters = len(sub.replace("...", ""))
        if "..." not in sub and s.ndims != n_letters:
            raise shape_error(op, f"Shape must be rank {n_letters} but is rank {s.ndims}\n\t for {i}th input and "
                                  f"equation: {op.get_attr('equation')}")
        if s.ndims < n_letters:
            raise shape_error(op, f"Shape must be at least rank {n_letters} but is rank {s.ndims}\n\t for {i}th "
                                  f"input and equation: {op.get_attr('equation')}")
        n_ell = max(n_ell, s.ndims - n_letters)
    letter_dims: dict = {}
    ell = [1] * n_ell
    ell_known = [True] * n_ell
    for sub, s in zip(inputs, shapes):
        dims, own, count = _dims_of(sub, s.as_list(), n_ell)
        for c, d in dims.items():
            prev = letter_dims.get(c)
            if prev is not None and d is not None and prev != d and 1 not in (prev, d):
                raise shape_error(op, f"Expected dimension {prev} at axis of the input shaped {s.as_list()} but "
                                      f"got dimension {d}")
            letter_dims[c] = d if prev in (None, 1) else prev
        for j in range(n_ell - count, n_ell):
            d = own[j]
            if d is None:
                ell_known[j] = False
            elif d != 1:
                ell[j] = d
    out = []
    for part in rhs.split("..."):
        out.append([letter_dims.get(c) for c in part])
    ell_dims = [d if k else None for d, k in zip(ell, ell_known)]
    return [out[0] + (ell_dims + out[1] if len(out) > 1 else [])]


register_op("Einsum", inputs=["inputs: N * T"], outputs=["output: T"],
            kernel=lambda ctx, xs: np.einsum(ctx.attrs["equation"], *xs), shape_fn=_einsum_shape)


def _reduce_to_input(grad: Any, x: Any, sub: str, reduced: str) -> Any:
    """Sum away ellipsis dims that x broadcast over (statically known shapes)."""
    if "..." not in sub or x.shape.ndims is None:
        return grad
    head = reduced.index("...")
    own = x.shape.ndims - len(sub.replace("...", ""))
    full = grad.shape.ndims - len(reduced.replace("...", "")) if grad.shape.ndims is not None else own
    extra = full - own
    if extra > 0:
        grad = math_ops.reduce_sum(grad, list(range(head, head + extra)))
    start = sub.index("...")
    x_dims = x.shape.as_list()[start:start + own]
    g_dims = grad.shape.as_list()[head:head + own] if grad.shape.ndims is not None else [None] * own
    axes = [head + j for j, (a, b) in enumerate(zip(x_dims, g_dims)) if a == 1 and b != 1]
    return math_ops.reduce_sum(grad, axes, keepdims=True) if axes else grad


@ops.RegisterGradient("Einsum")
def _einsum_grad(op: Any, grad: Any) -> list:
    """d/dx_i = einsum(output, other inputs -> x_i); letters only x_i has are broadcast back afterwards."""
    xs = list(op.inputs)
    inputs, rhs = resolve_equation(op.get_attr("equation"), len(xs))
    grads = []
    for i, (x, sub) in enumerate(zip(xs, inputs)):
        letters = sub.replace("...", "")
        if len(set(letters)) != len(letters):
            raise ValueError(f"The gradient of einsum '{op.get_attr('equation')}' is not available in edgelite: "
                             f"input {i} repeats a subscript (a diagonal)")
        others = [s for j, s in enumerate(inputs) if j != i]
        elsewhere = set(rhs + "".join(others))
        only_here = [c for c in letters if c not in elsewhere]
        reduced = "".join(c for c in sub if c not in only_here)
        # output ellipsis dims that x never had are summed away after the contraction
        drop_ellipsis = "..." in rhs and "..." not in sub
        eq = ",".join([rhs] + others) + "->" + ("..." + reduced if drop_ellipsis else reduced)
        g = ops.apply_op("Einsum", [[grad] + [x_ for j, x_ in enumerate(xs) if j != i]], {"equation": eq})
        if drop_ellipsis:
            g = math_ops.reduce_sum(g, list(range(g.shape.ndims - len(reduced))))
        else:
            g = _reduce_to_input(g, x, sub, reduced)
        if only_here:
            positions = [k for k, c in enumerate(sub.replace("...", "." * _ellipsis_rank(x, sub)))
                         if c in only_here]
            for k in positions:
                g = array_ops.expand_dims(g, k)
            g = g * array_ops.ones_like(x)
        grads.append(g)
    return grads


def _ellipsis_rank(x: Any, sub: str) -> int:
    return x.shape.ndims - len(sub.replace("...", "")) if "..." in sub else 0


def einsum(equation: str, *inputs: Any, **kwargs: Any) -> ops.Tensor:
    """Tensor contraction over the Einstein summation equation (numpy's syntax, '...' included)."""
    name: Optional[str] = kwargs.pop("name", None)
    kwargs.pop("optimize", None)
    if kwargs:
        raise TypeError(f"Invalid keyword arguments for this function: {', '.join(sorted(kwargs))}. Expected: "
                        "name, optimize")
    with ops.name_scope(name, "einsum", list(inputs)):
        tensors = [ops.convert_to_tensor(x, name=f"input_{i}") if not isinstance(x, ops.Tensor) else x
                   for i, x in enumerate(inputs)]
        subs, rhs = resolve_equation(equation, len(tensors))
        return ops.apply_op("Einsum", [tensors], {"equation": ",".join(subs) + "->" + rhs})
