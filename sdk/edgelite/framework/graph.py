"""The dataflow graph: Graph, Operation and Tensor, with TF's naming, scoping and collection rules."""
from __future__ import annotations

import contextlib
import re
import threading
from dataclasses import dataclass, field
from typing import Any, Callable, ContextManager, Iterator, Optional

from edgelite.framework import device as pydev
from edgelite.framework import dtypes
from edgelite.framework import op_def_registry
from edgelite.framework import tensor_shape

_VALID_OP_NAME_REGEX = re.compile(r"^[A-Za-z0-9.][A-Za-z0-9_.\\/>-]*$")
_VALID_SCOPE_NAME_REGEX = re.compile(r"^[A-Za-z0-9_.\\/>-]*$")

GRAPH_DEF_VERSION = 561
GRAPH_DEF_VERSION_MIN_CONSUMER = 0
GRAPH_DEF_VERSION_MIN_PRODUCER = 0


def name_from_scope_name(name: str) -> str:
    """The op name for a scope name: strip one trailing '/'."""
    return name[:-1] if (name and name[-1] == "/") else name


@dataclass
class VersionDef:
    """Graph-def versions (TF's VersionDef proto, as plain fields)."""

    producer: int = GRAPH_DEF_VERSION
    min_consumer: int = GRAPH_DEF_VERSION_MIN_CONSUMER
    bad_consumers: list = field(default_factory=list)


@dataclass
class NodeDef:
    """A read-only view of an operation in NodeDef terms (name, op, input strings, device, attr)."""

    name: str
    op: str
    input: list
    device: str
    attr: dict


class Tensor:
    """A symbolic handle to one output of an Operation."""

    __array_priority__ = 100
    OVERLOADABLE_OPERATORS = {
        "__add__", "__radd__", "__sub__", "__rsub__", "__mul__", "__rmul__", "__div__", "__rdiv__",
        "__truediv__", "__rtruediv__", "__floordiv__", "__rfloordiv__", "__mod__", "__rmod__", "__lt__",
        "__le__", "__gt__", "__ge__", "__ne__", "__eq__", "__and__", "__rand__", "__or__", "__ror__",
        "__xor__", "__rxor__", "__getitem__", "__pow__", "__rpow__", "__invert__", "__neg__", "__abs__",
        "__matmul__", "__rmatmul__",
    }

    def __init__(self, op: "Operation", value_index: int, dtype: Any) -> None:
        if not isinstance(op, Operation):
            raise TypeError(f"op needs to be an Operation: {op}")
        self._op = op
        self._value_index = value_index
        self._dtype = dtypes.as_dtype(dtype)
        self._shape = tensor_shape.unknown_shape()
        self._consumers: list = []
        self._id = op.graph._next_tensor_id()

    @property
    def op(self) -> "Operation":
        """The Operation that produces this tensor."""
        return self._op

    @property
    def dtype(self) -> dtypes.DType:
        """The element type."""
        return self._dtype

    @property
    def graph(self) -> "Graph":
        """The Graph containing this tensor."""
        return self._op.graph

    @property
    def name(self) -> str:
        """'<op name>:<output index>'."""
        return f"{self._op.name}:{self._value_index}"

    @property
    def device(self) -> str:
        """The device of the producing op."""
        return self._op.device

    @property
    def value_index(self) -> int:
        """The index of this output in its op's outputs."""
        return self._value_index

    @property
    def shape(self) -> tensor_shape.TensorShape:
        """The statically inferred shape."""
        return self._shape

    def get_shape(self) -> tensor_shape.TensorShape:
        """The statically inferred shape (alias of .shape)."""
        return self._shape

    def set_shape(self, shape: Any) -> None:
        """Refine the static shape; ValueError if incompatible."""
        self._shape = self._shape.merge_with(tensor_shape.as_shape(shape))

    @property
    def ndim(self) -> Optional[int]:
        """The static rank (None if unknown)."""
        return self._shape.ndims

    def consumers(self) -> list:
        """The ops that take this tensor as an input."""
        return list(self._consumers)

    def eval(self, feed_dict: Optional[dict] = None, session: Any = None) -> Any:
        """Run the graph up to this tensor in a session (the default one if None)."""
        from edgelite.framework import ops
        return ops.run_using_default_session(self, feed_dict, self.graph, session)

    def experimental_ref(self) -> "Reference":
        """A hashable reference to this tensor."""
        return Reference(self)

    def ref(self) -> "Reference":
        """A hashable reference to this tensor."""
        return Reference(self)

    def _as_node_def_input(self) -> str:
        return self._op.name if self._value_index == 0 else f"{self._op.name}:{self._value_index}"

    def __repr__(self) -> str:
        return f"<tf.Tensor '{self.name}' shape={self._shape} dtype={self._dtype.name}>"

    def __str__(self) -> str:
        # TensorFlow prints no shape for a tensor of unknown rank (repr still says shape=<unknown>).
        shape = "" if self._shape.ndims is None else f", shape={self._shape}"
        return f'Tensor("{self.name}"{shape}, dtype={self._dtype.name})'

    def __hash__(self) -> int:
        return id(self)

    def __eq__(self, other: Any) -> bool:
        return self is other

    def __ne__(self, other: Any) -> bool:
        return self is not other

    def __bool__(self) -> bool:
        raise TypeError("Using a `tf.Tensor` as a Python `bool` is not allowed. Use `if t is not None:` "
                        "instead of `if t:` to test if a tensor is defined, and use TensorFlow ops such as "
                        "tf.cond to execute subgraphs conditioned on the value of a tensor.")

    def __iter__(self) -> Iterator:
        raise TypeError("Tensor objects are only iterable when eager execution is enabled. To iterate over "
                        "this tensor use tf.map_fn.")

    def __len__(self) -> int:
        raise TypeError(f"len is not well defined for symbolic Tensors. ({self.name}) Please call `x.shape` "
                        "rather than `len(x)` for shape information.")

    def __array__(self, dtype: Any = None, copy: Any = None) -> Any:
        raise TypeError(f"Cannot convert a symbolic Tensor ({self.name}) to a numpy array.")

    @classmethod
    def _override_operator(cls, operator: str, func: Callable) -> None:
        if operator not in cls.OVERLOADABLE_OPERATORS:
            raise ValueError(f"Overriding {operator} is disallowed")
        setattr(cls, operator, func)


class Reference:
    """A hashable wrapper of a Tensor or Variable (TF's .ref())."""

    def __init__(self, wrapped: Any) -> None:
        self._wrapped = wrapped

    def deref(self) -> Any:
        """The wrapped object."""
        return self._wrapped

    def __hash__(self) -> int:
        return id(self._wrapped)

    def __eq__(self, other: Any) -> bool:
        return isinstance(other, Reference) and self._wrapped is other._wrapped

    def __repr__(self) -> str:
        return f"<Reference wrapping {self._wrapped!r}>"


class Operation:
    """A node of the graph: a typed computation with input and output tensors."""

    def __init__(self, graph: "Graph", op_type: str, name: str, inputs: list, output_types: list,
                 attrs: dict, control_inputs: list, op_def: Any) -> None:
        if not _VALID_OP_NAME_REGEX.match(name):
            raise ValueError(f"'{name}' is not a valid node name")
        self._graph = graph
        self._type = op_type
        self._name = name
        self._inputs = list(inputs)
        self._attrs = dict(attrs)
        self._control_inputs = list(control_inputs)
        self._op_def = op_def
        self._device = ""
        self._id_value = graph._next_id()
        self._outputs = [Tensor(self, i, dt) for i, dt in enumerate(output_types)]
        self._control_outputs: list = []

    @property
    def name(self) -> str:
        """The full name of the operation."""
        return self._name

    @property
    def type(self) -> str:
        """The op type, e.g. 'MatMul'."""
        return self._type

    @property
    def graph(self) -> "Graph":
        """The Graph containing this op."""
        return self._graph

    @property
    def inputs(self) -> tuple:
        """The input tensors."""
        return tuple(self._inputs)

    @property
    def outputs(self) -> list:
        """The output tensors."""
        return list(self._outputs)

    @property
    def control_inputs(self) -> list:
        """Operations that must run before this one."""
        return list(self._control_inputs)

    @property
    def _control_outputs_list(self) -> list:
        return list(self._control_outputs)

    @property
    def device(self) -> str:
        """The recorded device string ('' if unassigned)."""
        return self._device

    @property
    def _id(self) -> int:
        return self._id_value

    @property
    def op_def(self) -> Any:
        """The OpDef of this op's type (None for types without one)."""
        return self._op_def

    @property
    def node_def(self) -> NodeDef:
        """This op as a NodeDef view."""
        ins = [t._as_node_def_input() for t in self._inputs] + [f"^{c.name}" for c in self._control_inputs]
        return NodeDef(self._name, self._type, ins, self._device, dict(self._attrs))

    @property
    def traceback(self) -> list:
        """Creation stack (not recorded)."""
        return []

    @property
    def values(self) -> Callable:
        """DEPRECATED: the outputs as a tuple (call it)."""
        return lambda: tuple(self._outputs)

    @property
    def attrs(self) -> dict:
        """A copy of all attributes of this op."""
        return dict(self._attrs)

    def get_attr(self, name: str) -> Any:
        """The value of attribute `name`; ValueError if absent."""
        if name not in self._attrs:
            raise ValueError(f"Operation '{self._name}' has no attr named '{name}'.")
        return self._attrs[name]

    def _set_attr(self, name: str, value: Any) -> None:
        self._attrs[name] = value

    def _set_device(self, device: Any) -> None:
        self._device = pydev.canonical_name(device)

    def _add_control_input(self, op: "Operation") -> None:
        if not isinstance(op, Operation):
            raise TypeError(f"op must be an Operation: {op}")
        if op not in self._control_inputs:
            self._control_inputs.append(op)
            op._control_outputs.append(self)

    def _add_control_inputs(self, ops: list) -> None:
        for op in ops:
            self._add_control_input(op)

    def _update_input(self, index: int, tensor: Tensor) -> None:
        if not isinstance(tensor, Tensor):
            raise TypeError(f"tensor must be a Tensor: {tensor}")
        old = self._inputs[index]
        old._consumers.remove(self)
        self._inputs[index] = tensor
        tensor._consumers.append(self)
        self._graph._version_bump()

    def colocation_groups(self) -> list:
        """The colocation group names of this op."""
        cls = self._attrs.get("_class")
        groups = [c for c in (cls or []) if c.startswith(b"loc:@")]
        return groups if groups else [b"loc:@" + self._name.encode()]

    def run(self, feed_dict: Optional[dict] = None, session: Any = None) -> None:
        """Run this op in a session (the default one if None)."""
        from edgelite.framework import ops
        ops.run_using_default_session(self, feed_dict, self.graph, session)

    def __repr__(self) -> str:
        return f"<tf.Operation '{self._name}' type={self._type}>"

    def __str__(self) -> str:
        return str(self.node_def)


class _ControlDependenciesController:
    """Context that adds control inputs to ops created inside it."""

    def __init__(self, graph: "Graph", control_inputs: Optional[list]) -> None:
        self._graph = graph
        self._new_stack = control_inputs is None
        self._control_inputs = [] if control_inputs is None else control_inputs
        self._seen_nodes: set = set()
        self._old_stack: Optional[list] = None

    @property
    def control_inputs(self) -> list:
        return self._control_inputs

    def add_op(self, op: Operation) -> None:
        self._seen_nodes.add(op)

    def op_in_group(self, op: Operation) -> bool:
        return op in self._seen_nodes

    def __enter__(self) -> None:
        if self._new_stack:
            self._old_stack = self._graph._control_dependencies_stack
            self._graph._control_dependencies_stack = []
        self._graph._control_dependencies_stack.append(self)

    def __exit__(self, *exc: Any) -> None:
        self._graph._control_dependencies_stack.pop()
        if self._new_stack:
            self._graph._control_dependencies_stack = self._old_stack


class Graph:
    """A TensorFlow computation, represented as a dataflow graph."""

    def __init__(self) -> None:
        self._lock = threading.RLock()
        self._nodes_by_name: dict = {}
        self._nodes_in_order: list = []
        self._last_id = 0
        self._tensor_id = 0
        self._version = 0
        self._names_in_use: dict = {}
        self._name_stack = ""
        self._collections: dict = {}
        self._finalized = False
        self._seed: Optional[int] = None
        self._random_op_counter = 0
        self._control_dependencies_stack: list = []
        self._device_stack: list = []
        self._colocation_stack: list = []
        self._container = ""
        self._gradient_override_map: dict = {}
        self._unfeedable_tensors: set = set()
        self._unfetchable_ops: set = set()
        self._graph_key = f"grap-key-{id(self)}/"
        self._building_function = False
        self._variable_store: Any = None
        self._var_scope_store: Any = None
        self._graph_def_versions = VersionDef()

    # ---- ids and versions -------------------------------------------------------------------
    def _next_id(self) -> int:
        self._last_id += 1
        return self._last_id

    def _next_tensor_id(self) -> int:
        self._tensor_id += 1
        return self._tensor_id

    def _version_bump(self) -> None:
        self._version += 1

    @property
    def version(self) -> int:
        """Increases as ops are added (not the GraphDef version)."""
        return self._last_id

    @property
    def graph_def_versions(self) -> VersionDef:
        """The GraphDef versions of this graph."""
        return self._graph_def_versions

    @property
    def seed(self) -> Optional[int]:
        """The graph-level random seed."""
        return self._seed

    @seed.setter
    def seed(self, seed: Optional[int]) -> None:
        self._seed = seed

    @property
    def building_function(self) -> bool:
        """True for function bodies (cond branches, while bodies)."""
        return self._building_function

    @property
    def finalized(self) -> bool:
        """True once finalize() was called."""
        return self._finalized

    def finalize(self) -> None:
        """Make the graph read-only: no more ops can be added."""
        self._finalized = True

    def _unsafe_unfinalize(self) -> None:
        self._finalized = False

    def _check_not_finalized(self) -> None:
        if self._finalized:
            raise RuntimeError("Graph is finalized and cannot be modified.")

    # ---- default graph -----------------------------------------------------------------------
    def as_default(self) -> contextlib.AbstractContextManager:
        """Make this graph the default graph of the current thread within a `with` block."""
        return _default_graph_stack.get_controller(self)

    def as_graph_def(self, from_version: Optional[int] = None, add_shapes: bool = False) -> Any:
        """This graph as a GraphDef message (SerializeToString() gives TensorFlow's bytes)."""
        from edgelite.framework.graph_def import graph_to_graph_def
        with self._lock:
            return graph_to_graph_def(self, from_version, add_shapes)

    # ---- op creation --------------------------------------------------------------------------
    def create_op(self, op_type: str, inputs: list, dtypes: Optional[list] = None,  # noqa: C901
                  input_types: Optional[list] = None, name: Optional[str] = None,
                  attrs: Optional[dict] = None, op_def: Any = None, compute_shapes: bool = True,
                  compute_device: bool = True) -> Operation:
        """Add an Operation to the graph; output dtypes default to the op type's dtype rule."""
        self._check_not_finalized()
        for t in inputs:
            if not isinstance(t, Tensor):
                raise TypeError(f"Input #{inputs.index(t)} is not a tensor: {t}")
        inputs = [self._capture_if_needed(t) for t in inputs]
        if name is None:
            name = op_type
        if name and name[-1] == "/":
            name = name_from_scope_name(name)
        else:
            name = self.unique_name(name)
        if op_def is None and op_def_registry.is_registered(op_type):
            op_def = op_def_registry.get_op_def(op_type)
        attrs = dict(attrs or {})
        if op_def is not None:
            for k, v in op_def.attrs.items():
                attrs.setdefault(k, v)
        if dtypes is None:
            if op_def is None:
                raise TypeError(f"create_op of unregistered op type '{op_type}' needs explicit dtypes")
            dtypes = self._infer_output_dtypes(op_def, inputs, attrs)
        input_ops = {t.op for t in inputs}
        control_inputs = [c for c in self._control_dependencies_for_inputs(input_ops)]
        if self._building_function:
            control_inputs = self._capture_control_inputs(control_inputs)
        op = Operation(self, op_type, name, inputs, list(dtypes), attrs, control_inputs, op_def)
        if compute_shapes:
            _set_shapes_for_outputs(op)
        self._register_new_op(op, compute_device)
        return op

    def _infer_output_dtypes(self, op_def: Any, inputs: list, attrs: dict) -> list:
        if op_def.dtype_fn is not None:
            return list(op_def.dtype_fn(_PendingOp(op_def.name, inputs, attrs)))
        return op_def.output_dtypes(attrs)

    def _capture_if_needed(self, t: Tensor) -> Tensor:
        if t.graph is self:
            return t
        raise ValueError(f"Tensor {t} must be from the same graph as the ops created in {self!r}.")

    def _capture_control_inputs(self, control_inputs: list) -> list:
        return control_inputs

    def _register_new_op(self, op: Operation, compute_device: bool = True) -> None:
        with self._lock:
            for t in op._inputs:
                t._consumers.append(op)
            for c in op._control_inputs:
                c._control_outputs.append(op)
            self._nodes_by_name[op.name] = op
            self._nodes_in_order.append(op)
            self._version += 1
        for controller in self._control_dependencies_stack:
            controller.add_op(op)
        if self._colocation_stack:
            groups = sorted({b"loc:@" + c.name.encode() for c in self._colocation_stack})
            op._set_attr("_class", groups)
            dev = self._colocation_stack[-1].device
            if dev:
                op._set_device(dev)
        if compute_device and not self._colocation_stack:
            self._apply_device_functions(op)
        if self._container and op.op_def is not None and "container" in op.op_def.attrs:
            if not op._attrs.get("container"):
                op._set_attr("container", self._container)
        mapped = self._gradient_override_map.get(op.type)
        if mapped is not None:
            op._set_attr("_gradient_op_type", mapped)

    def _apply_device_functions(self, op: Operation) -> None:
        dev = ""
        for entry in self._device_stack:
            if entry is None:
                dev = ""
            elif callable(entry):
                op._device = dev
                dev = pydev.canonical_name(entry(op))
            else:
                dev = pydev.merge_device(dev, entry)
        op._device = dev

    # ---- names -----------------------------------------------------------------------------------
    def get_name_scope(self) -> str:
        """The current name scope (without trailing '/')."""
        return self._name_stack

    def unique_name(self, name: str, mark_as_used: bool = True) -> str:
        """Prefix name with the current scope and make it unique ('x', 'x_1', ... case-insensitively)."""
        if self._name_stack:
            name = self._name_stack + "/" + name
        name_key = name.lower()
        i = self._names_in_use.get(name_key, 0)
        if mark_as_used:
            self._names_in_use[name_key] = i + 1
        if i > 0:
            base_name_key = name_key
            while name_key in self._names_in_use:
                name_key = f"{base_name_key}_{i}"
                i += 1
            if mark_as_used:
                self._names_in_use[name_key] = 1
            name = f"{name}_{i - 1}"
        return name

    @contextlib.contextmanager
    def name_scope(self, name: Optional[str]) -> Iterator[str]:
        """Open a name scope; None or '' resets to the top level, a name ending in '/' re-enters it."""
        if name:
            if isinstance(name, bytes):
                name = name.decode()
            if not isinstance(name, str):
                raise TypeError(f"name_scope name must be a string, got {type(name)}")
            regex = _VALID_SCOPE_NAME_REGEX if self._name_stack else _VALID_OP_NAME_REGEX
            if not regex.match(name):
                raise ValueError(f"'{name}' is not a valid scope name")
        old_stack = self._name_stack
        if not name:
            new_stack = ""
            returned = ""
        elif name[-1] == "/":
            new_stack = name_from_scope_name(name)
            returned = name
        else:
            new_stack = self.unique_name(name)
            returned = new_stack + "/"
        self._name_stack = new_stack
        try:
            yield returned
        finally:
            self._name_stack = old_stack

    # ---- lookups -----------------------------------------------------------------------------------
    def get_operations(self) -> list:
        """All operations, in creation order."""
        with self._lock:
            return list(self._nodes_in_order)

    def get_operation_by_name(self, name: Any) -> Operation:
        """The op of that name; TypeError for a non-string, KeyError if missing."""
        if not isinstance(name, str):
            raise TypeError(f"Operation names are strings (or similar), not {type(name).__name__}.")
        return self.as_graph_element(name, allow_tensor=False, allow_operation=True)

    def _get_operation_by_name_unsafe(self, name: str) -> Operation:
        return self._nodes_by_name[name]

    def get_tensor_by_name(self, name: Any) -> Tensor:
        """The tensor 'op:i'; TypeError for a non-string, KeyError/ValueError if missing or malformed."""
        if not isinstance(name, str):
            raise TypeError(f"Tensor names are strings (or similar), not {type(name).__name__}.")
        return self.as_graph_element(name, allow_tensor=True, allow_operation=False)

    def as_graph_element(self, obj: Any, allow_tensor: bool = True, allow_operation: bool = True) -> Any:
        """Resolve obj (Tensor, Operation, name, or object with _as_graph_element) within this graph."""
        with self._lock:
            return self._as_graph_element_locked(obj, allow_tensor, allow_operation)

    def _as_graph_element_locked(self, obj: Any, allow_tensor: bool, allow_operation: bool) -> Any:  # noqa: C901
        if allow_tensor and allow_operation:
            types_str = "Tensor or Operation"
        elif allow_tensor:
            types_str = "Tensor"
        elif allow_operation:
            types_str = "Operation"
        else:
            raise ValueError("allow_tensor and allow_operation can't both be False.")
        conv = getattr(obj, "_as_graph_element", None)
        if conv is not None and callable(conv):
            obj = conv()
        if isinstance(obj, str):
            name = obj
            if ":" in name and allow_tensor:
                try:
                    op_name, out_n = name.split(":")
                    out_n = int(out_n)
                except ValueError:
                    raise ValueError(f"The name {name!r} looks a like a Tensor name, but is not a valid one. "
                                     "Tensor names must be of the form \"<op_name>:<output_index>\".") from None
                if op_name in self._nodes_by_name:
                    op = self._nodes_by_name[op_name]
                else:
                    raise KeyError(f"The name {name!r} refers to a Tensor which does not exist. The operation, "
                                   f"{op_name!r}, does not exist in the graph.")
                try:
                    return op.outputs[out_n]
                except IndexError:
                    raise KeyError(f"The name {name!r} refers to a Tensor which does not exist. The operation, "
                                   f"{op_name!r}, exists but only has {len(op.outputs)} outputs.") from None
            if ":" in name and not allow_tensor:
                raise ValueError(f"Name {name!r} appears to refer to a Tensor, not a {types_str}.")
            if ":" not in name and allow_operation:
                if name not in self._nodes_by_name:
                    raise KeyError(f"The name {name!r} refers to an Operation not in the graph.")
                return self._nodes_by_name[name]
            if name in self._nodes_by_name:
                err = (f"The name {name!r} refers to an Operation, not a {types_str}. Tensor names must be of "
                       "the form \"<op_name>:<output_index>\".")
            else:
                err = (f"The name {name!r} looks like an (invalid) Operation name, not a {types_str}. Tensor "
                       "names must be of the form \"<op_name>:<output_index>\".")
            raise ValueError(err)
        if isinstance(obj, Tensor) and allow_tensor:
            if obj.graph is not self:
                raise ValueError(f"Tensor {obj} is not an element of this graph.")
            return obj
        if isinstance(obj, Operation) and allow_operation:
            if obj.graph is not self:
                raise ValueError(f"Operation {obj} is not an element of this graph.")
            return obj
        raise TypeError(f"Can not convert a {type(obj).__name__} into a {types_str}.")

    # ---- collections ----------------------------------------------------------------------------------
    def add_to_collection(self, name: Any, value: Any) -> None:
        """Append value to the named collection (collections are lists, not sets)."""
        self._check_not_finalized()
        with self._lock:
            self._collections.setdefault(name, []).append(value)

    def add_to_collections(self, names: Any, value: Any) -> None:
        """Add value to each named collection; a string is a single name, duplicates are ignored."""
        names = (names,) if isinstance(names, str) else set(names)
        for name in names:
            self.add_to_collection(name, value)

    def get_collection_ref(self, name: Any) -> list:
        """The live list of the collection, created if missing."""
        with self._lock:
            return self._collections.setdefault(name, [])

    def get_collection(self, name: Any, scope: Optional[str] = None) -> list:
        """A copy of the collection, optionally filtered by re.match(scope, item.name)."""
        with self._lock:
            coll = self._collections.get(name)
            if coll is None:
                return []
            if scope is None:
                return list(coll)
            regex = re.compile(scope)
            out = []
            for item in coll:
                item_name = getattr(item, "name", None)
                if isinstance(item_name, str) and regex.match(item_name):
                    out.append(item)
            return out

    def get_all_collection_keys(self) -> list:
        """Names of all (string-keyed) collections."""
        with self._lock:
            return [k for k in self._collections if isinstance(k, str)]

    def clear_collection(self, name: Any) -> None:
        """Remove a collection."""
        self._check_not_finalized()
        with self._lock:
            self._collections.pop(name, None)

    # ---- contexts ------------------------------------------------------------------------------------------
    def control_dependencies(self, control_inputs: Optional[list]) -> _ControlDependenciesController:
        """Ops created inside depend on control_inputs; None clears outer dependencies."""
        if control_inputs is None:
            return _ControlDependenciesController(self, None)
        current = set()
        for controller in self._control_dependencies_stack:
            current.update(controller.control_inputs)
        control_ops = []
        for c in control_inputs:
            if hasattr(c, "_as_graph_element") or isinstance(c, str):
                c = self.as_graph_element(c)
            elif hasattr(c, "values") and hasattr(c, "indices") and hasattr(c, "op"):
                c = c.op
            if isinstance(c, Tensor):
                c = c.op
            elif not isinstance(c, Operation):
                raise TypeError(f"Control input must be Operation or Tensor: {c}")
            if c not in current:
                control_ops.append(c)
                current.add(c)
        return _ControlDependenciesController(self, control_ops)

    def _control_dependencies_for_inputs(self, input_ops: set) -> list:
        ret = []
        for controller in self._control_dependencies_stack:
            if any(controller.op_in_group(op) for op in input_ops):
                continue
            ret.extend(c for c in controller.control_inputs if c not in input_ops and c not in ret)
        return ret

    def _current_control_dependencies(self) -> set:
        out = set()
        for controller in self._control_dependencies_stack:
            out.update(controller.control_inputs)
        return out

    @contextlib.contextmanager
    def device(self, device_name_or_function: Any) -> Iterator[None]:
        """Record a device for ops created inside (string, DeviceSpec, function, or None to clear)."""
        entry = device_name_or_function
        if isinstance(entry, pydev.DeviceSpec):
            entry = entry.to_string()
        elif entry is not None and not callable(entry):
            entry = pydev.canonical_name(entry)
        self._device_stack.append(entry)
        try:
            yield
        finally:
            self._device_stack.pop()

    @contextlib.contextmanager
    def colocate_with(self, op: Any, ignore_existing: bool = False) -> Iterator[None]:
        """Ops created inside are colocated with op (recorded in their '_class' attr)."""
        if op is None and not ignore_existing:
            raise ValueError("Trying to reset colocation (op is None) but ignore_existing is not True")
        if op is not None:
            if hasattr(op, "_as_graph_element") or isinstance(op, str):
                op = self.as_graph_element(op)
            if isinstance(op, Tensor):
                op = op.op
            if not isinstance(op, Operation):
                raise TypeError(f"colocate_with expects an Operation or Tensor, got {op!r}")
        old_stack = self._colocation_stack
        old_devices = self._device_stack
        if ignore_existing:
            self._colocation_stack = []
        if op is not None:
            self._colocation_stack = self._colocation_stack + [op]
            self._device_stack = []
        try:
            yield
        finally:
            self._colocation_stack = old_stack
            self._device_stack = old_devices

    @contextlib.contextmanager
    def container(self, container_name: str) -> Iterator[str]:
        """Stateful ops created inside are placed in this resource container."""
        old = self._container
        self._container = container_name
        try:
            yield self._container
        finally:
            self._container = old

    @contextlib.contextmanager
    def gradient_override_map(self, op_type_map: dict) -> Iterator[None]:
        """Use other registered gradient functions for ops of the given types created inside."""
        if not isinstance(op_type_map, dict):
            raise TypeError("op_type_map must be a dictionary mapping strings to strings")
        for k, v in op_type_map.items():
            if not (isinstance(k, str) and isinstance(v, str)):
                raise TypeError("op_type_map must be a dictionary mapping strings to strings")
        saved = dict(self._gradient_override_map)
        self._gradient_override_map.update(op_type_map)
        try:
            yield
        finally:
            self._gradient_override_map = saved

    # ---- feeding / fetching ----------------------------------------------------------------------------
    def prevent_feeding(self, tensor: Tensor) -> None:
        """Mark tensor as not feedable."""
        self._unfeedable_tensors.add(tensor)

    def is_feedable(self, tensor: Tensor) -> bool:
        """Whether tensor may be fed."""
        return tensor not in self._unfeedable_tensors

    def prevent_fetching(self, op: Operation) -> None:
        """Mark op as not fetchable."""
        self._unfetchable_ops.add(op)

    def is_fetchable(self, tensor_or_op: Any) -> bool:
        """Whether the tensor or op may be fetched."""
        op = tensor_or_op.op if isinstance(tensor_or_op, Tensor) else tensor_or_op
        return op not in self._unfetchable_ops

    def __repr__(self) -> str:
        return f"<edgelite.Graph object at {id(self):#x}>"


class _PendingOp:
    """What a dtype rule sees before the Operation exists: type, inputs and attrs."""

    def __init__(self, op_type: str, inputs: list, attrs: dict) -> None:
        self.type = op_type
        self.inputs = tuple(inputs)
        self._attrs = attrs

    def get_attr(self, name: str) -> Any:
        if name not in self._attrs:
            raise ValueError(f"Operation '{self.type}' has no attr named '{name}'.")
        return self._attrs[name]


_shape_overrides: dict = {}


def _set_shapes_for_outputs(op: Operation) -> None:
    fn = _shape_overrides.get(op.type)
    if fn is None and op.op_def is not None:
        fn = op.op_def.shape_fn
    if fn is None:
        return
    shapes = fn(op)
    if isinstance(shapes, (tensor_shape.TensorShape,)) or shapes is None:
        shapes = [shapes]
    shapes = list(shapes)
    if len(shapes) != len(op._outputs):
        raise RuntimeError(f"Shape function for op {op} returned {len(shapes)} shapes but expected "
                           f"{len(op._outputs)}")
    for t, s in zip(op._outputs, shapes):
        t._shape = tensor_shape.as_shape(s)


@contextlib.contextmanager
def pushed(stack: list, item: Any) -> Iterator[Any]:
    """Keeps `item` on top of a default stack for a `with` block, even if inner blocks exit out of order."""
    stack.append(item)
    try:
        yield item
    finally:
        if stack and stack[-1] is item:
            stack.pop()
        elif item in stack:
            stack.remove(item)


class _DefaultGraphStack(threading.local):
    """Per-thread stack of default graphs, with a per-thread global default graph."""

    def __init__(self) -> None:
        super().__init__()
        self.stack: list = []
        self.global_default: Optional[Graph] = None

    def get_default(self) -> Graph:
        if self.stack:
            return self.stack[-1]
        if self.global_default is None:
            self.global_default = Graph()
        return self.global_default

    def reset(self) -> None:
        self.global_default = None

    def get_controller(self, graph: Graph) -> ContextManager[Graph]:
        return pushed(self.stack, graph)


_default_graph_stack = _DefaultGraphStack()


def get_default_graph() -> Graph:
    """The default graph of the current thread."""
    return _default_graph_stack.get_default()


def reset_default_graph() -> None:
    """Clear the current thread's global default graph; AssertionError inside a nested graph."""
    if _default_graph_stack.stack:
        raise AssertionError("Do not use tf.reset_default_graph() to clear nested graphs. If you need a cleared "
                             "graph, exit the nesting and create a new graph.")
    _default_graph_stack.reset()
