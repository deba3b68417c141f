"""py_func / numpy_function / py_function: graph ops that call a Python function on their inputs' values."""
from __future__ import annotations

import itertools
import threading
import traceback
from typing import Any, Callable, Optional

import numpy as np

from edgelite.framework import dtypes
from edgelite.framework import errors
from edgelite.framework import ops
from edgelite.framework.op_def_registry import register_op

_FUNCS: dict = {}
_COUNTER = itertools.count()
_LOCK = threading.Lock()

# the error class TF raises in place of each Python exception type escaping the function
_ERROR_FOR = ((TypeError, errors.InvalidArgumentError), (ValueError, errors.InvalidArgumentError),
              (StopIteration, errors.OutOfRangeError), (MemoryError, errors.ResourceExhaustedError),
              (NotImplementedError, errors.UnimplementedError))


class EagerValue(np.ndarray):
    """The value py_function hands its function: a numpy array that also answers .numpy(), like an EagerTensor."""

    def numpy(self) -> np.ndarray:
        """The value as a plain numpy array."""
        return np.asarray(self)


def _register(func: Callable, graph: Any) -> str:
    with _LOCK:
        token = f"pyfunc_{next(_COUNTER)}"
    _FUNCS[token] = func
    # the graph keeps the function alive as long as ops referring to it can run
    keep = getattr(graph, "_py_funcs_used_in_graph", None)
    if keep is None:
        keep = []
        setattr(graph, "_py_funcs_used_in_graph", keep)
    keep.append(func)
    return token


def _as_array(value: Any) -> np.ndarray:
    """A returned value as an array; text becomes bytes objects (TF's string tensors)."""
    arr = np.asarray(value, order="C")
    if arr.dtype.kind in "SU":
        flat = [s.encode("utf-8") if isinstance(s, str) else bytes(s) for s in arr.ravel().tolist()]
        return np.array(flat, dtype=object).reshape(arr.shape)
    return arr


# TF's DataTypeString spellings, which its messages use
_TF_NAMES = {"float32": "float", "float64": "double", "float16": "half"}


def _tf_name(dtype: dtypes.DType) -> str:
    return _TF_NAMES.get(dtype.name, dtype.name)


def _same_kind(got: np.ndarray, want: dtypes.DType) -> bool:
    if want == dtypes.string:
        return got.dtype == object
    return got.dtype == np.dtype(want.as_numpy_dtype)


def _kernel(eager: bool) -> Callable:
    def kernel(ctx: Any, *args: np.ndarray) -> Any:
        token = ctx.attrs["token"]
        func = _FUNCS.get(token)
        if func is None:
            raise errors.InvalidArgumentError(None, None, f"Could not find callback with key={token} in the registry.")
        values = [np.asarray(a).view(EagerValue) if eager and isinstance(a, np.ndarray) and a.dtype != object else a
                  for a in args]
        try:
            ret = func(*values)
        except Exception as e:  # noqa: BLE001 - every Python error becomes TF's error for its class
            cls = next((c for t, c in _ERROR_FOR if isinstance(e, t)), errors.UnknownError)
            detail = "".join(traceback.format_exception(type(e), e, e.__traceback__))
            raise cls(None, None, f"{type(e).__name__}: {e}\nTraceback (most recent call last):\n\n{detail}") from e
        out_types = ctx.attrs["Tout"]
        if not out_types:
            return ()
        results = list(ret) if isinstance(ret, (list, tuple)) else [ret]
        if len(results) != len(out_types):
            raise errors.InvalidArgumentError(None, None, f"{token} returns {len(results)} values, but expects to see "
                                                          f"{len(out_types)} values.")
        arrays = []
        for i, (value, want) in enumerate(zip(results, out_types)):
            arr = _as_array(value.numpy() if hasattr(value, "numpy") else value)
            if not _same_kind(arr, want):
                got = "string" if arr.dtype == object else _tf_name(dtypes.as_dtype(arr.dtype))
                raise errors.InvalidArgumentError(None, None, f"{i}-th value returned by {token} is {got}, but "
                                                              f"expects {_tf_name(want)}")
            arrays.append(arr)
        return arrays[0] if len(arrays) == 1 else tuple(arrays)
    return kernel


for _type, _eager, _stateful in (("PyFunc", False, True), ("PyFuncStateless", False, False),
                                 ("EagerPyFunc", True, True)):
    register_op(_type, inputs=[], outputs=[], attrs={"token": ""}, kernel=_kernel(_eager),
                shape_fn=lambda op: [None] * len(op.outputs), stateful=_stateful)
for _type in ("PyFunc", "PyFuncStateless"):
    ops.NoGradient(_type)


def _internal_py_func(func: Callable, inp: Any, tout: Any, stateful: bool, eager: bool, name: Optional[str],
                      default_name: str) -> Any:
    is_list = isinstance(tout, (list, tuple))
    out_types = [dtypes.as_dtype(t) for t in (tout if is_list else [tout])]
    g = ops.get_default_graph()
    token = _register(func, g)
    op_type = "EagerPyFunc" if eager else ("PyFunc" if stateful else "PyFuncStateless")
    with ops.name_scope(name, default_name, list(inp or [])) as scope:
        inputs = [ops.convert_to_tensor(x, name=f"input_{i}") for i, x in enumerate(inp or [])]
        attrs = {"token": token, "Tin": [t.dtype.base_dtype for t in inputs], "Tout": out_types}
        op = g.create_op(op_type, inputs, out_types, name=scope, attrs=attrs)
    if not out_types:
        return op
    outs = list(op.outputs)
    return outs if is_list else outs[0]


def py_func(func: Callable, inp: list, Tout: Any, stateful: bool = True,  # noqa: N803 - TF's name
            name: Optional[str] = None) -> Any:
    """An op calling func on the numpy values of inp; its results must have the dtypes in Tout (no gradient)."""
    return _internal_py_func(func, inp, Tout, stateful, False, name, "PyFunc")


def numpy_function(func: Callable, inp: list, Tout: Any, stateful: bool = True,  # noqa: N803
                   name: Optional[str] = None) -> Any:
    """py_func under its TF2 name."""
    return _internal_py_func(func, inp, Tout, stateful, False, name, "PyFunc")


def py_function(func: Callable, inp: list, Tout: Any, name: Optional[str] = None) -> Any:  # noqa: N803
    """An op calling func on its inputs' values (numpy arrays that also have .numpy(), in place of EagerTensors).
    edgelite has no eager mode, so TF ops cannot run inside func and the op has no gradient."""
    return _internal_py_func(func, inp, Tout, True, True, name, "EagerPyFunc")
