"""tf.keras.backend for graph mode: the Keras session, the learning phase, per-graph name counters, K.function."""
from __future__ import annotations

import weakref
from typing import Any, Callable, Dict, List, Optional, Sequence

import numpy as np

from edgelite.client.session import Session
from edgelite.framework import dtypes, ops
from edgelite.ops import array_ops, control_flow_ops, variables

_EPSILON = 1e-7
_FLOATX = "float32"
_IMAGE_DATA_FORMAT = "channels_last"

# Per-graph state, keyed weakly so a discarded graph takes its counters, phase tensor and variables with it.
_UIDS: "weakref.WeakKeyDictionary[Any, Dict[str, int]]" = weakref.WeakKeyDictionary()
_LEARNING_PHASE: "weakref.WeakKeyDictionary[Any, Any]" = weakref.WeakKeyDictionary()
_GRAPH_VARIABLES: "weakref.WeakKeyDictionary[Any, list]" = weakref.WeakKeyDictionary()
_state: Dict[str, Any] = {"session": None, "phase": None}


def epsilon() -> float:
    """The fuzz factor Keras adds to avoid division by zero and log(0) (1e-7)."""
    return _EPSILON


def set_epsilon(value: float) -> None:
    """Sets the fuzz factor."""
    global _EPSILON
    _EPSILON = float(value)


def floatx() -> str:
    """The default float type of Keras weights ('float32')."""
    return _FLOATX


def set_floatx(value: str) -> None:
    """Sets the default float type ('float16', 'float32' or 'float64')."""
    global _FLOATX
    if value not in ("float16", "float32", "float64"):
        raise ValueError(f"Unknown `floatx` value: {value}. Expected one of {{'float16', 'float32', 'float64'}}")
    _FLOATX = str(value)


def image_data_format() -> str:
    """'channels_last' unless changed."""
    return _IMAGE_DATA_FORMAT


def set_image_data_format(data_format: str) -> None:
    """Sets the default data_format of the convolution and pooling layers."""
    global _IMAGE_DATA_FORMAT
    if data_format not in ("channels_last", "channels_first"):
        raise ValueError(f"Unknown `data_format`: {data_format}")
    _IMAGE_DATA_FORMAT = str(data_format)


def get_uid(prefix: str = "") -> int:
    """1, 2, 3, ... per prefix and graph (Keras numbers unnamed Inputs 'input_1', 'input_2', ...)."""
    uids = _UIDS.setdefault(ops.get_default_graph(), {})
    uids[prefix] = uids.get(prefix, 0) + 1
    return uids[prefix]


def unique_object_name(base: str, zero_based: bool = True) -> str:
    """'dense', 'dense_1', ... (zero_based) or 'input_1', 'input_2', ... per graph."""
    number = get_uid(base)
    if zero_based:
        number -= 1
        return base if number == 0 else f"{base}_{number}"
    return f"{base}_{number}"


def reset_uids() -> None:
    """Restarts the layer-name counters of the default graph."""
    _UIDS.pop(ops.get_default_graph(), None)


def clear_session() -> None:
    """Resets the default graph and forgets the Keras session, name counters and learning phase."""
    _state["session"] = None
    _state["phase"] = None
    ops.reset_default_graph()


def learning_phase() -> Any:
    """The learning phase: the value set by set_learning_phase, else the graph's bool 'keras_learning_phase'
    placeholder (default False) that fit feeds True."""
    if _state["phase"] is not None:
        return _state["phase"]
    graph = ops.get_default_graph()
    phase = _LEARNING_PHASE.get(graph)
    if phase is None:
        with ops.name_scope(""), ops.control_dependencies(None):
            phase = array_ops.placeholder_with_default(False, shape=(), name="keras_learning_phase")
        _LEARNING_PHASE[graph] = phase
    return phase


def graph_learning_phase(graph: Any) -> Optional[Any]:
    """The graph's learning-phase placeholder if one was made (what fit must feed)."""
    return _LEARNING_PHASE.get(graph)


def set_learning_phase(value: int) -> None:
    """Fixes the learning phase to 0 (test) or 1 (train) for layers built afterwards."""
    if value not in (0, 1):
        raise ValueError("Expected learning phase to be 0 or 1.")
    _state["phase"] = value


def track_variable(var: Any) -> None:
    """Remembers a Keras-made variable so get_session initialises it."""
    _GRAPH_VARIABLES.setdefault(var.graph, []).append(var)


def get_session() -> Session:
    """The default session if one is active, else the Keras session; Keras variables are initialised."""
    session = ops.get_default_session()
    if session is None:
        session = _state["session"]
        if session is None or session.graph is not ops.get_default_graph() or getattr(session, "_closed", False):
            session = Session(graph=ops.get_default_graph())
            _state["session"] = session
    _initialize_variables(session)
    return session


def set_session(session: Session) -> None:
    """Makes `session` the one Keras uses outside `with sess.as_default()` blocks."""
    _state["session"] = session


def _initialize_variables(session: Session) -> None:
    tracked = [v for v in _GRAPH_VARIABLES.get(session.graph, []) if not getattr(v, "_keras_initialized", False)]
    if not tracked:
        return
    with session.graph.as_default():
        flags = session.run([variables.is_variable_initialized(v) for v in tracked])
        fresh = [v for v, done in zip(tracked, flags) if not done]
        if fresh:
            session.run(variables.variables_initializer(fresh))
    for v in tracked:
        v._keras_initialized = True


def get_value(x: Any) -> np.ndarray:
    """The current value of a variable or tensor, run in the Keras session."""
    return get_session().run(x)


def batch_get_value(tensors: Sequence[Any]) -> List[np.ndarray]:
    """Values of several variables in one run."""
    return list(get_session().run(list(tensors))) if tensors else []


def set_value(x: Any, value: Any) -> None:
    """Assigns a numpy value to a variable."""
    batch_set_value([(x, value)])


def batch_set_value(pairs: Sequence[tuple]) -> None:
    """Assigns numpy values to variables, reusing one placeholder-fed assign op per variable."""
    if not pairs:
        return
    session = get_session()
    feed, assigns = {}, []
    with session.graph.as_default():
        for var, value in pairs:
            value = np.asarray(value, dtype=var.dtype.base_dtype.as_numpy_dtype)
            op = getattr(var, "_keras_assign", None)
            if op is None:
                with ops.name_scope(None):
                    ph = array_ops.placeholder(var.dtype.base_dtype, shape=var.shape, name="assign_placeholder")
                    op = (ph, var.assign(ph))
                var._keras_assign = op
            feed[op[0]] = value
            assigns.append(op[1])
    session.run(assigns, feed_dict=feed)


def name_scope(name: str) -> Any:
    """ops.name_scope, as Keras code spells it."""
    return ops.name_scope(name)


def placeholder(shape: Any = None, ndim: Optional[int] = None, dtype: Any = None, name: Optional[str] = None) -> Any:
    """A placeholder of floatx() (or `dtype`) with `shape` or `ndim` unknown dimensions."""
    if shape is None and ndim is not None:
        shape = (None,) * ndim
    return array_ops.placeholder(dtypes.as_dtype(dtype or floatx()), shape=shape, name=name)


class Function:
    """K.function: runs `outputs` (and the `updates` ops) for numpy values fed to `inputs`."""

    def __init__(self, inputs: Sequence[Any], outputs: Sequence[Any], updates: Optional[Sequence[Any]] = None,
                 name: Optional[str] = None) -> None:
        self.inputs = list(inputs)
        self.outputs = list(outputs)
        self.updates = list(updates or [])
        with ops.control_dependencies(self.outputs):
            self._update = control_flow_ops.group(*self.updates) if self.updates else None

    def __call__(self, values: Sequence[Any]) -> list:
        if len(values) != len(self.inputs):
            raise ValueError(f"Expected {len(self.inputs)} inputs, got {len(values)}")
        feed = {t: v for t, v in zip(self.inputs, values)}
        fetches = self.outputs + ([self._update] if self._update is not None else [])
        return list(get_session().run(fetches, feed_dict=feed))[:len(self.outputs)]


def function(inputs: Sequence[Any], outputs: Sequence[Any], updates: Optional[Sequence[Any]] = None,
             name: Optional[str] = None, **kwargs: Any) -> Callable:
    """A callable running outputs and updates in the Keras session for fed inputs."""
    return Function(inputs, outputs, updates=updates, name=name)


# The tensor functions (K.mean, K.dot, K.variable, ...) live in their own module; importing them last lets that
# module use this one.
from .backend_math import (  # noqa: E402,F401,A004
    abs, all, any, arange, argmax, argmin, batch_flatten, bias_add, binary_crossentropy, cast,
    categorical_crossentropy, clip, concatenate, constant, count_params, cumprod, cumsum, dot, dropout, dtype,
    elu, equal, eval, exp, expand_dims, eye, flatten, gather, gradients, greater, greater_equal, hard_sigmoid,
    in_test_phase, in_train_phase, int_shape, is_keras_tensor, l2_normalize, less, less_equal, log, max, maximum,
    mean, min, minimum, ndim, not_equal, one_hot, ones, ones_like, permute_dimensions, pow, prod, random_normal,
    random_uniform, relu, reshape, round, shape, sigmoid, sign, softmax, softplus, softsign,
    sparse_categorical_crossentropy, sqrt, square, squeeze, stack, std, stop_gradient, sum, switch, tanh, tile,
    transpose, update, update_add, update_sub, var, variable, zeros, zeros_like,
)
