"""Run-time checks and printing: Assert, Print, print, check_numerics (and its graph-wide and finite-check
forms), ensure_shape, guarantee_const."""
from __future__ import annotations

import sys
from typing import Any, Optional

import numpy as np

from edgelite.framework import common_shapes
from edgelite.framework import dtypes
from edgelite.framework import errors
from edgelite.framework import ops
from edgelite.framework import tensor_shape
from edgelite.framework.op_def_registry import register_op
from edgelite.ops.control_flow_ops import group, with_dependencies
from edgelite.ops.numerics import check_numerics
from edgelite.ops.shape_checks import shape_error
from edgelite.ops.tensor_format import summarize_v1, summarize_v2


def _create(op_type: str, inputs: list, out_types: list, attrs: dict, name: str) -> ops.Operation:
    """An op whose trailing inputs form a list of mixed dtypes (TF's `T: list(type)`), created directly."""
    g = ops.get_default_graph()
    attrs = dict(attrs, T=[t.dtype.base_dtype for t in inputs[1:]])
    return g.create_op(op_type, inputs, out_types, name=name, attrs=attrs)


# ---- Assert -------------------------------------------------------------------------------------------------------
def _assert_kernel(ctx: Any, condition: np.ndarray, *data: np.ndarray) -> tuple:
    if condition.ndim != 0:
        raise errors.InvalidArgumentError(None, None, f"In[0] should be a scalar: {list(condition.shape)}")
    if not bool(condition):
        summarize = ctx.attrs["summarize"]
        parts = " ".join("[" + summarize_v1(x, summarize) + "]" for x in data)
        raise errors.InvalidArgumentError(None, None, "assertion failed: " + parts)
    return ()


register_op("Assert", inputs=["condition: bool"], outputs=[], attrs={"summarize": 3}, kernel=_assert_kernel,
            shape_fn=lambda op: [], stateful=True)


def Assert(condition: Any, data: list, summarize: Optional[int] = None,  # noqa: N802 - TF's name
           name: Optional[str] = None) -> ops.Operation:
    """An op that fails with InvalidArgumentError 'assertion failed: [d0] [d1] ...' when condition is False."""
    with ops.name_scope(name, "Assert", [condition, data]):
        condition = ops.convert_to_tensor(condition, name="Condition")
        if condition.dtype.base_dtype != dtypes.bool:
            raise TypeError(f"Input 'condition' of 'Assert' Op has type {condition.dtype.name} that does not match "
                            "expected type of bool.")
        xs = [ops.convert_to_tensor(x, name=f"data_{i}") for i, x in enumerate(data)]
        # TF guards asserts on non-int32/string data with a cond and returns its merge op; edgelite runs the Assert
        # op itself (same failure, same name Assert/Assert)
        return _create("Assert", [condition] + xs, [], {"summarize": 3 if summarize is None else summarize},
                       "Assert")


# ---- Print (v1) ---------------------------------------------------------------------------------------------------
def _print_kernel(ctx: Any, x: np.ndarray, *data: np.ndarray) -> np.ndarray:
    first_n = ctx.attrs["first_n"]
    key = ("print_count", ctx.op.name)
    seen = ctx.state.op_state.get(key, 0)
    ctx.state.op_state[key] = seen + 1
    if first_n < 0 or seen < first_n:
        text = ctx.attrs["message"] + "".join("[" + summarize_v1(d, ctx.attrs["summarize"]) + "]" for d in data)
        sys.stderr.write(text + "\n")
        sys.stderr.flush()
    return x


register_op("Print", inputs=["input: T"], outputs=["output: T"],
            attrs={"message": "", "first_n": -1, "summarize": 3}, kernel=_print_kernel,
            shape_fn=lambda op: [op.inputs[0].shape], dtype_fn=lambda op: [op.inputs[0].dtype.base_dtype],
            stateful=True)


@ops.RegisterGradient("Print")
def _print_grad(op: Any, *grads: Any) -> list:
    return list(grads) + [None] * (len(op.inputs) - 1)


def Print(input_: Any, data: list, message: Optional[str] = None, first_n: Optional[int] = None,  # noqa: N802
          summarize: Optional[int] = None, name: Optional[str] = None) -> ops.Tensor:
    """input_, unchanged; running it writes message and the data's values to stderr (the first first_n times)."""
    with ops.name_scope(name, "Print", [input_]) as scope:
        input_ = ops.convert_to_tensor(input_, name="input")
        xs = [ops.convert_to_tensor(x, name=f"data_{i}") for i, x in enumerate(data or [])]
        attrs = {"message": message or "", "first_n": -1 if first_n is None else first_n,
                 "summarize": 3 if summarize is None else summarize, "U": [x.dtype.base_dtype for x in xs]}
        g = ops.get_default_graph()
        op = g.create_op("Print", [input_] + xs, [input_.dtype.base_dtype], name=scope,
                         attrs=dict(attrs, T=input_.dtype.base_dtype))
        return op.outputs[0]


# ---- print (v2) ---------------------------------------------------------------------------------------------------
def _string_format_kernel(ctx: Any, *values: np.ndarray) -> np.ndarray:
    template, placeholder = ctx.attrs["template"], ctx.attrs["placeholder"]
    pieces = template.split(placeholder)
    out = pieces[0]
    for value, piece in zip(values, pieces[1:]):
        out += summarize_v2(value, ctx.attrs["summarize"]) + piece
    return np.array(out.encode("utf-8"), dtype=object)


register_op("StringFormat", inputs=[], outputs=["output: string"],
            attrs={"template": "%s", "placeholder": "%s", "summarize": 3}, kernel=_string_format_kernel,
            shape_fn=common_shapes.scalar_shape)


def _print_v2_kernel(ctx: Any, text: np.ndarray) -> tuple:
    message = text[()]
    message = message.decode("utf-8") if isinstance(message, bytes) else str(message)
    stream = ctx.attrs["output_stream"]
    if stream.startswith("file://"):
        with open(stream[len("file://"):], "a", encoding="utf-8") as f:
            f.write(message + ctx.attrs["end"])
        return ()
    out = sys.stdout if stream == "stdout" else sys.stderr
    out.write(message + ctx.attrs["end"])
    out.flush()
    return ()


register_op("PrintV2", inputs=["input: string"], outputs=[], attrs={"output_stream": "stderr", "end": "\n"},
            kernel=_print_v2_kernel, shape_fn=lambda op: [], stateful=True)


def _stream_name(output_stream: Any) -> str:
    if output_stream is sys.stdout:
        return "stdout"
    if output_stream is sys.stderr:
        return "stderr"
    if isinstance(output_stream, str) and output_stream.startswith("file://"):
        return output_stream
    raise ValueError(f"Unsupported output stream, logging level, or file.{output_stream}. Supported streams are "
                     "sys.stdout, sys.stderr, tf.logging.info, tf.logging.warning, tf.logging.error. File needs "
                     "to be in the form file://path/to/file.")


def print_v2(*inputs: Any, **kwargs: Any) -> ops.Operation:
    """An op printing the inputs (tensors in numpy-like layout, other values as str) joined by sep, then end."""
    output_stream = kwargs.pop("output_stream", sys.stderr)
    name = kwargs.pop("name", None)
    summarize = kwargs.pop("summarize", 3)
    sep = kwargs.pop("sep", " ")
    end = kwargs.pop("end", "\n")
    if kwargs:
        raise ValueError(f"Unrecognized keyword arguments for tf.print: {kwargs}")
    stream = _stream_name(output_stream)
    placeholder = "{}"
    parts, tensors = [], []
    for x in inputs:
        if isinstance(x, ops.Tensor):
            parts.append(placeholder)
            tensors.append(x)
        else:
            parts.append(str(x).replace(placeholder, "{ }"))
    g = ops.get_default_graph()
    attrs = {"template": sep.join(parts), "placeholder": placeholder,
             "summarize": -1 if summarize is None else summarize, "T": [t.dtype.base_dtype for t in tensors]}
    text = g.create_op("StringFormat", tensors, [dtypes.string], name="StringFormat", attrs=attrs).outputs[0]
    return g.create_op("PrintV2", [text], [], name=name or "PrintV2", attrs={"output_stream": stream, "end": end})


# ---- numerics checks ----------------------------------------------------------------------------------------------
def verify_tensor_all_finite(t: Any = None, msg: Optional[str] = None, name: Optional[str] = None,
                             x: Any = None, message: Optional[str] = None) -> ops.Tensor:
    """t, after a check_numerics of it has run."""
    t = x if t is None else t
    msg = message if msg is None else msg
    with ops.name_scope(name, "VerifyFinite", [t]):
        t = ops.convert_to_tensor(t, name="t")
        with ops.colocate_with(t):
            verify = check_numerics(t, message=msg)
            return with_dependencies([verify], t)


def add_check_numerics_ops() -> ops.Operation:
    """One group op checking every float16/32/64 output in the default graph, chained in creation order."""
    checks: list = []
    for op in ops.get_default_graph().get_operations():
        for out in op.outputs:
            if out.dtype.base_dtype in (dtypes.float16, dtypes.float32, dtypes.float64) and not out.dtype.is_ref_dtype:
                with ops.control_dependencies(checks):
                    checks = [check_numerics(out, message=f"{op.name}:{out.value_index}")]
    return group(*checks)


# ---- ensure_shape / guarantee_const -------------------------------------------------------------------------------
def _ensure_shape_kernel(ctx: Any, x: np.ndarray) -> np.ndarray:
    want = ctx.attrs["shape"]
    if not tensor_shape.TensorShape(list(x.shape)).is_compatible_with(want):
        raise errors.InvalidArgumentError(None, None, f"Shape of tensor {ctx.op.inputs[0].op.name} "
                                                      f"{_fmt(x.shape)} is not compatible with expected shape "
                                                      f"{_fmt_shape(want)}.")
    return x


def _fmt(shape: tuple) -> str:
    return "[" + ",".join(str(d) for d in shape) + "]"


def _fmt_shape(shape: tensor_shape.TensorShape) -> str:
    return "<unknown>" if shape.ndims is None else "[" + ",".join("?" if d is None else str(d)
                                                                  for d in shape.as_list()) + "]"


def _ensure_shape_shape(op: Any) -> list:
    want = op.get_attr("shape")
    have = op.inputs[0].shape
    if have.ndims is None or want.ndims is None:
        return [want if have.ndims is None else have]
    if have.ndims != want.ndims:
        raise shape_error(op, f"Shape must be rank {want.ndims} but is rank {have.ndims}")
    for i, (w, h) in enumerate(zip(want.as_list(), have.as_list())):
        if w is not None and h is not None and w != h:
            raise shape_error(op, f"Dimension {i} in both shapes must be equal, but are {w} and {h}. Shapes are "
                                  f"{common_shapes.format_shape(want)} and {common_shapes.format_shape(have)}.")
    return [have.merge_with(want)]


register_op("EnsureShape", inputs=["input: T"], outputs=["output: T"], kernel=_ensure_shape_kernel,
            shape_fn=_ensure_shape_shape)


@ops.RegisterGradient("EnsureShape")
def _ensure_shape_grad(op: Any, grad: Any) -> Any:
    return grad


def ensure_shape(x: Any, shape: Any, name: Optional[str] = None) -> ops.Tensor:
    """x, with its static shape refined to shape and a run-time check that its value has that shape."""
    shape = shape if isinstance(shape, tensor_shape.TensorShape) else tensor_shape.TensorShape(shape)
    return ops.apply_op("EnsureShape", [x], {"shape": shape}, name=name)


register_op("GuaranteeConst", inputs=["input: T"], outputs=["output: T"], kernel=lambda ctx, x: x,
            shape_fn=common_shapes.unchanged_shape, stateful=True)


def guarantee_const(input: Any, name: Optional[str] = None) -> ops.Tensor:  # noqa: A002
    """input, marked as constant for the lifetime of the session (a promise to the runtime; no check)."""
    return ops.apply_op("GuaranteeConst", [input], name=name)

