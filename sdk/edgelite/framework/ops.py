"""Graph-building entry points: conversion to tensors, op application, scopes, gradients registry, sessions."""
from __future__ import annotations

import contextlib
import threading
from typing import Any, Callable, ContextManager, Iterator, Optional

from edgelite.framework import dtypes
from edgelite.framework import op_def_registry
from edgelite.framework.device import DeviceSpec  # noqa: F401 - re-exported
from edgelite.framework.graph import (  # noqa: F401 - re-exported
    Graph, NodeDef, Operation, Reference, Tensor, get_default_graph, name_from_scope_name,
    reset_default_graph, _shape_overrides, GRAPH_DEF_VERSION, pushed,
)


class GraphKeys:
    """Standard names of graph collections."""

    GLOBAL_VARIABLES = "variables"
    VARIABLES = "variables"
    ALL_VARIABLES = "variables"
    LOCAL_VARIABLES = "local_variables"
    METRIC_VARIABLES = "metric_variables"
    MODEL_VARIABLES = "model_variables"
    TRAINABLE_VARIABLES = "trainable_variables"
    SUMMARIES = "summaries"
    QUEUE_RUNNERS = "queue_runners"
    TABLE_INITIALIZERS = "table_initializer"
    ASSET_FILEPATHS = "asset_filepaths"
    MOVING_AVERAGE_VARIABLES = "moving_average_variables"
    REGULARIZATION_LOSSES = "regularization_losses"
    CONCATENATED_VARIABLES = "concatenated_variables"
    SAVERS = "savers"
    WEIGHTS = "weights"
    BIASES = "biases"
    ACTIVATIONS = "activations"
    UPDATE_OPS = "update_ops"
    LOSSES = "losses"
    SAVEABLE_OBJECTS = "saveable_objects"
    RESOURCES = "resources"
    LOCAL_RESOURCES = "local_resources"
    TRAINABLE_RESOURCE_VARIABLES = "trainable_resource_variables"
    INIT_OP = "init_op"
    LOCAL_INIT_OP = "local_init_op"
    READY_OP = "ready_op"
    READY_FOR_LOCAL_INIT_OP = "ready_for_local_init_op"
    SUMMARY_OP = "summary_op"
    GLOBAL_STEP = "global_step"
    EVAL_STEP = "eval_step"
    TRAIN_OP = "train_op"
    COND_CONTEXT = "cond_context"
    WHILE_CONTEXT = "while_context"
    _SUMMARY_COLLECTION = "_SUMMARY_V2"
    _VARIABLE_COLLECTIONS = [GLOBAL_VARIABLES, LOCAL_VARIABLES, METRIC_VARIABLES, MODEL_VARIABLES,
                             TRAINABLE_VARIABLES, MOVING_AVERAGE_VARIABLES, CONCATENATED_VARIABLES,
                             TRAINABLE_RESOURCE_VARIABLES]
    _STREAMING_MODEL_PORTS = "streaming_model_ports"


# ---- tensor conversion ------------------------------------------------------------------------------
_conversion_registry: list = []  # (priority, order, base_type, fn)
_conversion_cache: dict = {}


def register_tensor_conversion_function(base_type: Any, conversion_func: Callable, priority: int = 100) -> None:
    """Register fn(value, dtype=None, name=None, as_ref=False) converting base_type values to Tensors."""
    types = base_type if isinstance(base_type, tuple) else (base_type,)
    for t in types:
        if not isinstance(t, type):
            raise TypeError(f"base_type must be a type or a tuple of types, got {base_type!r}")
    if not callable(conversion_func):
        raise TypeError("conversion_func must be callable.")
    _conversion_registry.append((priority, len(_conversion_registry), types, conversion_func))
    _conversion_registry.sort(key=lambda e: (e[0], e[1]))
    _conversion_cache.clear()


def _conversion_functions_for(value_type: type) -> list:
    fns = _conversion_cache.get(value_type)
    if fns is None:
        fns = [fn for _, _, types, fn in _conversion_registry if issubclass(value_type, types)]
        _conversion_cache[value_type] = fns
    return fns


def convert_to_tensor(value: Any, dtype: Any = None, name: Optional[str] = None, as_ref: bool = False,
                      preferred_dtype: Any = None, dtype_hint: Any = None) -> Tensor:
    """Convert a Tensor, Variable, numpy array, Python scalar/list (or registered type) to a Tensor."""
    if dtype is not None:
        dtype = dtypes.as_dtype(dtype)
    preferred_dtype = preferred_dtype if preferred_dtype is not None else dtype_hint
    if isinstance(value, Tensor):
        if dtype is not None and not dtype.is_compatible_with(value.dtype):
            raise ValueError(f"Tensor conversion requested dtype {dtype.name} for Tensor with dtype "
                             f"{value.dtype.name}: {value!r}")
        return value
    if preferred_dtype is not None and dtype is None:
        try:
            return convert_to_tensor(value, dtypes.as_dtype(preferred_dtype), name, as_ref)
        except (TypeError, ValueError):
            pass
    for fn in _conversion_functions_for(type(value)):
        ret = fn(value, dtype=dtype, name=name, as_ref=as_ref)
        if ret is NotImplemented:
            continue
        if not isinstance(ret, Tensor):
            raise RuntimeError(f"{fn!r}: Conversion function {fn!r} for type {type(value)} returned non-Tensor: "
                               f"{ret!r}")
        if dtype is not None and not dtype.is_compatible_with(ret.dtype):
            raise RuntimeError(f"{fn!r}: Conversion function {fn!r} for type {type(value)} returned incompatible "
                               f"dtype: requested = {dtype.name}, actual = {ret.dtype.name}")
        return ret
    raise TypeError(f"Failed to convert elements of {value!r} to Tensor. Consider casting elements to a "
                    "supported type.")


def convert_n_to_tensor(values: list, dtype: Any = None, name: Optional[str] = None,
                        preferred_dtype: Any = None) -> list:
    """Convert each element of a list to a Tensor."""
    if not isinstance(values, (list, tuple)):
        raise TypeError("values must be a sequence.")
    return [convert_to_tensor(v, dtype, None if name is None else f"{name}_{i}", preferred_dtype=preferred_dtype)
            for i, v in enumerate(values)]


def convert_to_tensor_or_indexed_slices(value: Any, dtype: Any = None, name: Optional[str] = None,
                                        as_ref: bool = False) -> Any:
    """Like convert_to_tensor but passes IndexedSlices through (ValueError on dtype mismatch)."""
    if hasattr(value, "indices") and hasattr(value, "values") and hasattr(value, "dense_shape"):
        if dtype is not None and not dtypes.as_dtype(dtype).is_compatible_with(value.dtype):
            raise ValueError(f"Tensor conversion requested dtype {dtypes.as_dtype(dtype).name} for Tensor with "
                             f"dtype {value.dtype.name}: {value!r}")
        return value
    return convert_to_tensor(value, dtype, name, as_ref)


def _tensor_conversion_identity(value: Tensor, dtype: Any = None, name: Optional[str] = None,
                                as_ref: bool = False) -> Tensor:
    return value


register_tensor_conversion_function(Tensor, _tensor_conversion_identity, 0)


# ---- op application -----------------------------------------------------------------------------------
def _graph_for(values: list) -> Graph:
    g = get_default_graph()
    if g.building_function:
        return g
    for v in _flat(values):
        vg = getattr(v, "graph", None)
        if isinstance(vg, Graph) and (isinstance(v, Tensor) or hasattr(v, "_as_graph_element")):
            return vg
    return g


def _flat(values: Any) -> list:
    out = []
    for v in values or ():
        if isinstance(v, (list, tuple)):
            out.extend(_flat(v))
        else:
            out.append(v)
    return out


def apply_op(op_type: str, inputs: list, attrs: Optional[dict] = None, name: Optional[str] = None) -> Any:
    """Create an op of a registered type in the default graph, TF-style.

    Inputs are converted to tensors (named after the input args, inside the op's name scope), type
    attrs are inferred from the inputs, and the result is the single output Tensor, the list of outputs,
    or the Operation itself when the op has no outputs.
    """
    od = op_def_registry.get_op_def(op_type)
    if len(inputs) != len(od.inputs):
        raise TypeError(f"{op_type} expects {len(od.inputs)} inputs, got {len(inputs)}")
    attrs = dict(attrs or {})
    g = _graph_for(inputs)
    with g.as_default(), g.name_scope(name if name else op_type) as scope:
        type_attrs = _infer_type_attrs(od, inputs, attrs)
        flat: list = []
        first_arg: dict = {}
        for spec, value in zip(od.inputs, inputs):
            want = spec.fixed_dtype if spec.fixed_dtype is not None else type_attrs.get(spec.type_attr)
            hint = od.attrs.get(spec.type_attr) if spec.type_attr is not None else None
            values = value if spec.number_attr else [value]
            if spec.number_attr and not isinstance(value, (list, tuple)):
                raise TypeError(f"Expected list for '{spec.name}' argument to '{op_type}' Op, not {value!r}.")
            for v in values:
                t = _convert_arg(v, want, hint, spec, op_type, first_arg.get(spec.type_attr))
                if want is None:
                    want = t.dtype.base_dtype
                flat.append(t)
            if spec.number_attr:
                attrs.setdefault(spec.number_attr, len(values))
            if spec.type_attr is not None:
                first_arg.setdefault(spec.type_attr, spec.name)
                if want is not None:
                    type_attrs.setdefault(spec.type_attr, want)
        for k, v in type_attrs.items():
            allowed = od.allowed_dtypes.get(k)
            if allowed is not None and v not in allowed:
                arg = next(s.name for s in od.inputs if s.type_attr == k)
                raise TypeError(f"Value passed to parameter '{arg}' has DataType {v.name} not in list of allowed "
                                f"values: {', '.join(d.name for d in allowed)}")
            attrs[k] = v
        for k, allowed in od.allowed_dtypes.items():
            # type attrs that only name an output's dtype (out_idx, out_type) are checked as TF checks inputs
            if k not in type_attrs and k in attrs and dtypes.as_dtype(attrs[k]) not in allowed:
                raise TypeError(f"Value passed to parameter '{k}' has DataType {dtypes.as_dtype(attrs[k]).name} not "
                                f"in list of allowed values: {', '.join(d.name for d in allowed)}")
        op = g.create_op(op_type, flat, None, name=scope, attrs=attrs, op_def=od)
    if not od.outputs:
        return op
    if len(od.outputs) == 1 and od.outputs[0].number_attr is None:
        return op.outputs[0]
    return op.outputs


def _infer_type_attrs(od: Any, inputs: list, attrs: dict) -> dict:
    """Type attrs fixed by explicit attrs or by inputs that already are tensors (or variables)."""
    found: dict = {}
    for spec in od.inputs:
        if spec.type_attr is not None and spec.type_attr in attrs:
            found[spec.type_attr] = dtypes.as_dtype(attrs[spec.type_attr])
    for spec, value in zip(od.inputs, inputs):
        if spec.type_attr is None or spec.type_attr in found:
            continue
        for v in (value if spec.number_attr and isinstance(value, (list, tuple)) else [value]):
            dt = getattr(v, "dtype", None)
            if isinstance(v, Tensor) or (hasattr(v, "_as_graph_element") and isinstance(dt, dtypes.DType)):
                found[spec.type_attr] = dt.base_dtype
                break
    return found


def _convert_arg(value: Any, want: Any, hint: Any, spec: Any, op_type: str, first_name: Optional[str]) -> Tensor:
    try:
        if want is None and hint is not None:
            t = convert_to_tensor(value, name=spec.name, as_ref=spec.is_ref, preferred_dtype=hint)
        else:
            t = convert_to_tensor(value, dtype=want, name=spec.name, as_ref=spec.is_ref)
    except ValueError as e:
        dt = getattr(value, "dtype", None)
        raise TypeError(f"Input '{spec.name}' of '{op_type}' Op has type {getattr(dt, 'name', dt)} that does not "
                        f"match type {getattr(want, 'name', want)} of argument '{first_name or spec.name}'.") from e
    except TypeError as e:
        raise TypeError(f"Expected {getattr(want, 'name', 'a tensor')} passed to parameter '{spec.name}' of op "
                        f"'{op_type}', got {value!r} of type '{type(value).__name__}' instead. Error: {e}") from e
    if spec.is_ref and not t.dtype.is_ref_dtype:
        raise TypeError(f"'{op_type}' Op requires that input '{spec.name}' be a mutable tensor (e.g.: a "
                        "tf.Variable)")
    return t


# ---- scopes and graph-context wrappers -------------------------------------------------------------------
class name_scope:  # noqa: N801 - TensorFlow's spelling
    """Context manager for a name scope: name, else default_name (uniquified); values pick the graph."""

    def __init__(self, name: Optional[str], default_name: Optional[str] = None, values: Any = None) -> None:
        if not (default_name is None or isinstance(default_name, str)):
            raise TypeError(f"`default_name` type ({type(default_name)}) is not a string type. You likely meant to "
                            "pass this into the `values` kwarg.")
        self._name = default_name if name is None else name
        self._default_name = default_name
        self._values = values
        self._ctx: Any = None
        self._g_ctx: Any = None

    def __enter__(self) -> str:
        if self._name is None and self._values is not None:
            raise ValueError(f"At least one of name ({self._name}) and default_name ({self._default_name}) must be "
                             "provided.")
        g = _graph_for(self._values) if self._values else get_default_graph()
        if g is not get_default_graph():
            self._g_ctx = g.as_default()
            self._g_ctx.__enter__()
        self._ctx = g.name_scope(self._name)
        try:
            return self._ctx.__enter__()
        except BaseException:
            if self._g_ctx is not None:
                self._g_ctx.__exit__(None, None, None)
            raise

    def __exit__(self, *exc: Any) -> Any:
        self._ctx.__exit__(*exc)
        if self._g_ctx is not None:
            self._g_ctx.__exit__(*exc)
        return False


name_scope_v1 = name_scope


@contextlib.contextmanager
def op_scope(values: Any, name: Optional[str], default_name: Optional[str] = None) -> Iterator[str]:
    """DEPRECATED name_scope with the argument order (values, name, default_name)."""
    if name is None and default_name is None:
        raise ValueError("At least one of name and default_name must be provided.")
    with name_scope(name, default_name=default_name, values=values) as scope:
        yield scope


def control_dependencies(control_inputs: Optional[list]) -> Any:
    """Default-graph control_dependencies."""
    return get_default_graph().control_dependencies(control_inputs)


def device(device_name_or_function: Any) -> Any:
    """Default-graph device scope."""
    return get_default_graph().device(device_name_or_function)


def container(container_name: str) -> Any:
    """Default-graph container scope."""
    return get_default_graph().container(container_name)


def colocate_with(op: Any, ignore_existing: bool = False) -> Any:
    """Default-graph colocation scope."""
    return get_default_graph().colocate_with(op, ignore_existing)


def add_to_collection(name: Any, value: Any) -> None:
    """Add value to a collection of the default graph."""
    get_default_graph().add_to_collection(name, value)


def add_to_collections(names: Any, value: Any) -> None:
    """Add value to several collections of the default graph."""
    get_default_graph().add_to_collections(names, value)


def get_collection(key: Any, scope: Optional[str] = None) -> list:
    """A copy of a default-graph collection, optionally filtered by scope."""
    return get_default_graph().get_collection(key, scope)


def get_collection_ref(key: Any) -> list:
    """The live list of a default-graph collection."""
    return get_default_graph().get_collection_ref(key)


def get_name_scope() -> str:
    """The current name scope of the default graph."""
    return get_default_graph().get_name_scope()


def executing_eagerly() -> bool:
    """Always False: edgelite builds graphs."""
    return False


def inside_function() -> bool:
    """Whether the default graph is a function body."""
    return get_default_graph().building_function


# ---- gradient and shape registries ---------------------------------------------------------------------------
_gradient_registry: dict = {}


class RegisterGradient:
    """Decorator registering fn(op, *grads) -> grads-per-input as the gradient of an op type."""

    def __init__(self, op_type: str) -> None:
        if not isinstance(op_type, str):
            raise TypeError("op_type must be a string")
        self._op_type = op_type

    def __call__(self, f: Callable) -> Callable:
        if self._op_type in _gradient_registry:
            raise KeyError(f"Registering two gradient with name '{self._op_type}'! (Previous registration was "
                           "in another module)")
        _gradient_registry[self._op_type] = f
        return f


def no_gradient(op_type: str) -> None:
    """Declare that ops of this type have no gradient (their inputs get None)."""
    if not isinstance(op_type, str):
        raise TypeError("op_type must be a string")
    _gradient_registry[op_type] = None


NoGradient = no_gradient
NotDifferentiable = no_gradient


def get_gradient_function(op: Operation) -> Optional[Callable]:
    """The gradient function of op (honouring gradient_override_map); LookupError if none registered."""
    op_type = op._attrs.get("_gradient_op_type", op.type)
    if op_type not in _gradient_registry:
        raise LookupError(f"No gradient defined for operation '{op.name}' (op type: {op.type}). In general every "
                          "operation must have an associated `@tf.RegisterGradient` for correct autodiff.")
    return _gradient_registry[op_type]


class RegisterShape:
    """Decorator registering fn(op) -> [TensorShape] as the static shape function of an op type."""

    def __init__(self, op_type: str) -> None:
        if not isinstance(op_type, str):
            raise TypeError("op_type must be a string")
        self._op_type = op_type

    def __call__(self, f: Callable) -> Callable:
        _shape_overrides[self._op_type] = f
        return f


# ---- default session ---------------------------------------------------------------------------------------------
class _DefaultSessionStack(threading.local):
    def __init__(self) -> None:
        super().__init__()
        self.stack: list = []


_default_session_stack = _DefaultSessionStack()


def get_default_session() -> Any:
    """The innermost session entered with `with sess.as_default()` (or InteractiveSession), else None."""
    return _default_session_stack.stack[-1] if _default_session_stack.stack else None


def default_session(session: Any) -> ContextManager[Any]:
    """Make session the default session within a `with` block."""
    return pushed(_default_session_stack.stack, session)


def run_using_default_session(fetch: Any, feed_dict: Optional[dict], graph: Graph, session: Any = None) -> Any:
    """Run fetch in session (or the default session), checking it belongs to session's graph."""
    if session is None:
        session = get_default_session()
        if session is None:
            raise ValueError("Cannot evaluate tensor using `eval()`: No default session is registered. Use "
                             "`with sess.as_default()` or pass an explicit session to `eval(session=sess)`")
        if session.graph is not graph:
            raise ValueError("Cannot use the default session to evaluate tensor: the tensor's graph is different "
                             "from the session's graph. Pass an explicit session to `eval(session=sess)`.")
    elif session.graph is not graph:
        raise ValueError("Cannot use the given session to evaluate tensor: the tensor's graph is different from "
                         "the session's graph.")
    return session.run(fetch, feed_dict)
