"""tf.Variable (TF1 reference variables), variable collections and initializer ops."""
from __future__ import annotations

import contextlib
import enum
import threading
from typing import Any, Callable, Iterator, Optional

import numpy as np

from edgelite.framework import dtypes
from edgelite.framework import ops
from edgelite.framework import tensor_shape
from edgelite.ops import array_ops
from edgelite.ops import control_flow_ops
from edgelite.ops import math_ops
from edgelite.ops import state_ops


class VariableSynchronization(enum.Enum):
    """When a distributed variable is aggregated."""

    AUTO = 0
    NONE = 1
    ON_WRITE = 2
    ON_READ = 3


class VariableAggregation(enum.Enum):
    """How a distributed variable's updates are aggregated."""

    NONE = 0
    SUM = 1
    MEAN = 2
    ONLY_FIRST_REPLICA = 3
    ONLY_FIRST_TOWER = 3


class _CreatorStack(threading.local):
    def __init__(self) -> None:
        super().__init__()
        self.stack: list = []


_creators = _CreatorStack()


@contextlib.contextmanager
def variable_creator_scope(variable_creator: Callable) -> Iterator[None]:
    """Route Variable creation through variable_creator(next_creator, **kwargs) within the block."""
    _creators.stack.append(variable_creator)
    try:
        yield
    finally:
        _creators.stack.pop()


class _VariableMeta(type):
    """Apply the active variable creators when a Variable is constructed."""

    def __call__(cls, *args: Any, **kwargs: Any) -> Any:
        if not _creators.stack:
            return super().__call__(*args, **kwargs)
        names = ["initial_value", "trainable", "collections", "validate_shape", "caching_device", "name",
                 "variable_def", "dtype", "expected_shape", "import_scope", "constraint", "use_resource",
                 "synchronization", "aggregation", "shape"]
        kwargs = dict(zip(names, args), **kwargs)

        def base(**kw: Any) -> Any:
            return type.__call__(cls, **kw)

        creator = base
        for fn in _creators.stack:
            creator = (lambda f, nxt: lambda **kw: f(nxt, **kw))(fn, creator)
        return creator(**kwargs)


class Variable(metaclass=_VariableMeta):
    """A TF1 reference variable: a VariableV2 op, its Assign initializer and a 'read' snapshot."""

    __array_priority__ = 100

    def __init__(self, initial_value: Any = None, trainable: Optional[bool] = None,
                 collections: Optional[Any] = None, validate_shape: bool = True, caching_device: Any = None,
                 name: Optional[str] = None, variable_def: Any = None, dtype: Any = None,
                 expected_shape: Any = None, import_scope: Optional[str] = None,
                 constraint: Optional[Callable] = None, use_resource: Optional[bool] = None,
                 synchronization: VariableSynchronization = VariableSynchronization.AUTO,
                 aggregation: VariableAggregation = VariableAggregation.NONE, shape: Any = None) -> None:
        if variable_def is not None:
            if initial_value is not None:
                raise ValueError("variable_def and initial_value are mutually exclusive.")
            self._init_from_proto(variable_def, import_scope)
            return
        if initial_value is None:
            raise ValueError("initial_value must be specified.")
        if trainable is None:
            trainable = synchronization != VariableSynchronization.ON_READ
        elif synchronization == VariableSynchronization.ON_READ and trainable:
            raise ValueError("Synchronization value can be set to VariableSynchronization.ON_READ only for "
                             "non-trainable variables. You have specified trainable=True and "
                             "synchronization=VariableSynchronization.ON_READ.")
        if collections is None:
            collections = [ops.GraphKeys.GLOBAL_VARIABLES]
        if not isinstance(collections, (list, tuple, set)):
            raise ValueError(f"collections argument to Variable constructor must be a list, tuple, or set. Got "
                             f"{collections} of type {type(collections)}")
        if constraint is not None and not callable(constraint):
            raise ValueError("The `constraint` argument must be a callable.")
        collections = list(collections)
        if trainable and ops.GraphKeys.TRAINABLE_VARIABLES not in collections:
            collections = collections + [ops.GraphKeys.TRAINABLE_VARIABLES]
        self._trainable = trainable
        self._constraint = constraint
        self._synchronization = synchronization
        self._aggregation = aggregation
        self._caching_device = caching_device
        self._save_slice_info = None
        init_from_fn = callable(initial_value)
        g = ops.get_default_graph()
        with ops.control_dependencies(None), ops.name_scope(
                name, "Variable", [] if init_from_fn else [initial_value]) as scope_name:
            if init_from_fn:
                true_name = ops.name_from_scope_name(scope_name)
                with ops.name_scope("Initializer"), ops.device(None):
                    value = initial_value()
                    self._initial_value = ops.convert_to_tensor(value, name="initial_value", dtype=dtype)
                for op in g.get_operations()[::-1]:
                    if not op.name.startswith(true_name + "/Initializer/"):
                        break
                    op._set_attr("_class", [b"loc:@" + true_name.encode()])
            else:
                self._initial_value = ops.convert_to_tensor(initial_value, name="initial_value", dtype=dtype)
                if self._initial_value.op._control_inputs:
                    raise ValueError(f"Initializer for variable {scope_name} is from inside a control-flow "
                                     "construct, such as a loop or conditional. When creating a variable inside a "
                                     "loop or conditional, use a lambda as the initializer.")
            init_shape = self._initial_value.shape
            if shape is not None:
                var_shape = tensor_shape.as_shape(shape)
            elif validate_shape:
                var_shape = init_shape
            else:
                var_shape = tensor_shape.unknown_shape()
            if validate_shape and not init_shape.is_fully_defined():
                raise ValueError(f"initial_value must have a shape specified: {self._initial_value}")
            self._variable = state_ops.variable_op_v2(var_shape, self._initial_value.dtype.base_dtype,
                                                      name=scope_name)
            self._name = self._variable.name
            with ops.colocate_with(self._variable.op):
                self._initializer_op = ops.apply_op(
                    "Assign", [self._variable, self._initial_value], {"validate_shape": validate_shape},
                    name="Assign").op
                self._snapshot = array_ops.identity(self._variable, name="read")
        ops.add_to_collections(collections, self)
        self._graph_key = g._graph_key

    # ---- identity ---------------------------------------------------------------------------------
    @property
    def name(self) -> str:
        """'<op name>:0'."""
        return self._name

    @property
    def op(self) -> ops.Operation:
        """The VariableV2 op."""
        return self._variable.op

    @property
    def graph(self) -> ops.Graph:
        """The graph of the variable."""
        return self._variable.graph

    @property
    def dtype(self) -> dtypes.DType:
        """The reference dtype (e.g. float32_ref), as TF1 reports it."""
        return self._variable.dtype

    @property
    def shape(self) -> tensor_shape.TensorShape:
        """The static shape."""
        return self._variable.shape

    def get_shape(self) -> tensor_shape.TensorShape:
        """The static shape."""
        return self._variable.shape

    def set_shape(self, shape: Any) -> None:
        """Refine the static shape of the variable and its snapshot."""
        self._variable.set_shape(shape)
        self._snapshot.set_shape(shape)

    @property
    def device(self) -> str:
        """The device of the variable op."""
        return self._variable.device

    @property
    def trainable(self) -> bool:
        """Whether the variable is in TRAINABLE_VARIABLES by default."""
        return self._trainable

    @property
    def constraint(self) -> Optional[Callable]:
        """The projection function applied after optimizer updates, or None."""
        return self._constraint

    @property
    def synchronization(self) -> VariableSynchronization:
        """The synchronization mode."""
        return self._synchronization

    @property
    def aggregation(self) -> VariableAggregation:
        """The aggregation mode."""
        return self._aggregation

    @property
    def initializer(self) -> ops.Operation:
        """The Assign op that sets the initial value."""
        return self._initializer_op

    @property
    def initial_value(self) -> ops.Tensor:
        """The tensor giving the initial value."""
        return self._initial_value

    def value(self) -> ops.Tensor:
        """The 'read' snapshot of the variable."""
        return self._snapshot

    def read_value(self) -> ops.Tensor:
        """A fresh read of the variable."""
        return array_ops.identity(self._variable, name="read")

    def _ref(self) -> ops.Tensor:
        return self._variable

    def _as_graph_element(self) -> ops.Tensor:
        return self._variable

    def _graph_element(self) -> ops.Tensor:
        return self._variable

    def ref(self) -> ops.Reference:
        """A hashable reference to this variable."""
        return ops.Reference(self)

    experimental_ref = ref

    def initialized_value(self) -> ops.Tensor:
        """The value, initializing the variable first if it is not yet initialized."""
        with ops.control_dependencies(None):
            return control_flow_ops.cond(state_ops.is_variable_initialized(self), self.read_value,
                                         lambda: self.initial_value)

    # ---- session helpers ------------------------------------------------------------------------------
    def eval(self, session: Any = None) -> np.ndarray:
        """The current value in a session (the default one if None)."""
        return self._variable.eval(session=session)

    def load(self, value: Any, session: Any = None) -> None:
        """Write value into the variable in session without adding ops to the graph."""
        if session is None:
            session = ops.get_default_session()
            if session is None:
                raise ValueError("Either session argument should be provided or default session should be "
                                 "established")
        arr = np.array(value, dtype=self.dtype.base_dtype.as_numpy_dtype)
        if self.shape.ndims is not None and not self.shape.is_compatible_with(arr.shape):
            raise ValueError(f"Cannot load value of shape {arr.shape} into variable {self.name} of shape "
                             f"{self.shape}")
        session._state.set_variable(state_ops._var_key(self.op), arr)

    # ---- updates -----------------------------------------------------------------------------------------
    def assign(self, value: Any, use_locking: bool = False, name: Optional[str] = None,
               read_value: bool = True) -> Any:
        """Assign value; returns the updated ref tensor (or the op when read_value is False)."""
        out = ops.apply_op("Assign", [self._variable, value], {"use_locking": use_locking}, name=name)
        return out if read_value else out.op

    def assign_add(self, delta: Any, use_locking: bool = False, name: Optional[str] = None,
                   read_value: bool = True) -> Any:
        """Add delta; returns the updated ref tensor (or the op when read_value is False)."""
        out = ops.apply_op("AssignAdd", [self._variable, delta], {"use_locking": use_locking}, name=name)
        return out if read_value else out.op

    def assign_sub(self, delta: Any, use_locking: bool = False, name: Optional[str] = None,
                   read_value: bool = True) -> Any:
        """Subtract delta; returns the updated ref tensor (or the op when read_value is False)."""
        out = ops.apply_op("AssignSub", [self._variable, delta], {"use_locking": use_locking}, name=name)
        return out if read_value else out.op

    def _scatter(self, op_type: str, sparse_delta: Any, use_locking: bool, name: Optional[str]) -> ops.Tensor:
        from edgelite.framework.indexed_slices import IndexedSlices
        if not isinstance(sparse_delta, IndexedSlices):
            raise TypeError(f"sparse_delta is not IndexedSlices: {sparse_delta}")
        return ops.apply_op(op_type, [self._variable, sparse_delta.indices, sparse_delta.values],
                            {"use_locking": use_locking}, name=name)

    def scatter_update(self, sparse_delta: Any, use_locking: bool = False, name: Optional[str] = None) -> ops.Tensor:
        """Rows of sparse_delta replace the variable's rows."""
        return self._scatter("ScatterUpdate", sparse_delta, use_locking, name)

    def scatter_add(self, sparse_delta: Any, use_locking: bool = False, name: Optional[str] = None) -> ops.Tensor:
        """Rows of sparse_delta are added."""
        return self._scatter("ScatterAdd", sparse_delta, use_locking, name)

    def scatter_sub(self, sparse_delta: Any, use_locking: bool = False, name: Optional[str] = None) -> ops.Tensor:
        """Rows of sparse_delta are subtracted."""
        return self._scatter("ScatterSub", sparse_delta, use_locking, name)

    def scatter_mul(self, sparse_delta: Any, use_locking: bool = False, name: Optional[str] = None) -> ops.Tensor:
        """Rows are multiplied by sparse_delta's rows."""
        return self._scatter("ScatterMul", sparse_delta, use_locking, name)

    def scatter_div(self, sparse_delta: Any, use_locking: bool = False, name: Optional[str] = None) -> ops.Tensor:
        """Rows are divided by sparse_delta's rows."""
        return self._scatter("ScatterDiv", sparse_delta, use_locking, name)

    def scatter_min(self, sparse_delta: Any, use_locking: bool = False, name: Optional[str] = None) -> ops.Tensor:
        """Rows become the minimum with sparse_delta's rows."""
        return self._scatter("ScatterMin", sparse_delta, use_locking, name)

    def scatter_max(self, sparse_delta: Any, use_locking: bool = False, name: Optional[str] = None) -> ops.Tensor:
        """Rows become the maximum with sparse_delta's rows."""
        return self._scatter("ScatterMax", sparse_delta, use_locking, name)

    def scatter_nd_update(self, indices: Any, updates: Any, name: Optional[str] = None) -> ops.Tensor:
        """Elements/slices at indices are replaced by updates."""
        return ops.apply_op("ScatterNdUpdate", [self._variable, indices, updates], {"use_locking": True}, name=name)

    def scatter_nd_add(self, indices: Any, updates: Any, name: Optional[str] = None) -> ops.Tensor:
        """updates are added at indices."""
        return ops.apply_op("ScatterNdAdd", [self._variable, indices, updates], {"use_locking": False}, name=name)

    def scatter_nd_sub(self, indices: Any, updates: Any, name: Optional[str] = None) -> ops.Tensor:
        """updates are subtracted at indices."""
        return ops.apply_op("ScatterNdSub", [self._variable, indices, updates], {"use_locking": False}, name=name)

    def count_up_to(self, limit: int) -> ops.Tensor:
        """Increment until limit (then OutOfRangeError); returns the value before the increment."""
        return state_ops.count_up_to(self._variable, limit)

    def sparse_read(self, indices: Any, name: Optional[str] = None) -> ops.Tensor:
        """Gather rows of the variable."""
        with ops.name_scope(name, "Gather", [self, indices]) as name:
            return ops.apply_op("GatherV2", [self._snapshot, indices, 0], name=name)

    def gather_nd(self, indices: Any, name: Optional[str] = None) -> ops.Tensor:
        """gather_nd on the variable's value."""
        return array_ops.gather_nd(self._snapshot, indices, name=name)

    def _init_from_proto(self, variable_def: Any, import_scope: Optional[str]) -> None:
        """Rebinds this object to a variable whose ops already exist in the default graph (an imported one)."""
        from edgelite.framework.meta_graph import variable_from_def_fields
        fields = variable_from_def_fields(variable_def, import_scope)
        self._variable = fields["variable"]
        self._name = self._variable.name
        self._initializer_op = fields["initializer"]
        self._initial_value = fields["initial_value"]
        self._snapshot = fields["snapshot"]
        self._trainable = fields["trainable"]
        self._save_slice_info = fields["save_slice_info"]
        self._synchronization = VariableSynchronization(fields["synchronization"])
        self._aggregation = VariableAggregation(fields["aggregation"])
        self._constraint = None
        self._caching_device = None
        self._graph_key = self._variable.graph._graph_key

    @staticmethod
    def from_proto(variable_def: Any, import_scope: Optional[str] = None) -> "Variable":
        """The Variable described by a VariableDef whose ops are already in the default graph."""
        return Variable(variable_def=variable_def, import_scope=import_scope)

    def to_proto(self, export_scope: Optional[str] = None) -> Any:
        """The VariableDef naming this variable's tensors and ops (None if it lies outside export_scope)."""
        from edgelite.framework.meta_graph import variable_to_def
        return variable_to_def(self, export_scope)

    def _get_save_slice_info(self) -> Any:
        return self._save_slice_info

    def _set_save_slice_info(self, info: Any) -> None:
        self._save_slice_info = info

    # ---- python protocol ---------------------------------------------------------------------------------
    def __iter__(self) -> Iterator:
        raise TypeError("'Variable' object is not iterable.")

    def __bool__(self) -> bool:
        raise TypeError("Using a `tf.Variable` as a Python `bool` is not allowed.")

    def __getitem__(self, slice_spec: Any) -> ops.Tensor:
        return array_ops._slice_helper(self.value(), slice_spec, self)

    def __repr__(self) -> str:
        return f"<tf.Variable '{self.name}' shape={self.shape} dtype={self.dtype.name}>"

    @classmethod
    def _override_operator(cls, operator: str, func: Callable) -> None:
        setattr(cls, operator, func)


def _variable_conversion(v: Variable, dtype: Any = None, name: Optional[str] = None,
                         as_ref: bool = False) -> ops.Tensor:
    if dtype is not None and not dtypes.as_dtype(dtype).is_compatible_with(v.dtype):
        raise ValueError(f"Incompatible type conversion requested to type '{dtypes.as_dtype(dtype).name}' for "
                         f"variable of type '{v.dtype.name}'")
    return v._ref() if as_ref else v.value()


ops.register_tensor_conversion_function(Variable, _variable_conversion)
math_ops._install_operators(Variable)
VariableV1 = Variable
RefVariable = Variable


class PartitionedVariable:
    """A variable stored as several part variables concatenated along one axis."""

    def __init__(self, name: str, shape: list, dtype: Any, variable_list: list, partitions: list) -> None:
        self._name = name
        self._shape = tensor_shape.as_shape(shape)
        self._dtype = dtypes.as_dtype(dtype)
        self._variable_list = sorted(variable_list, key=lambda v: v._get_save_slice_info().var_offset)
        self._partitions = list(partitions)

    def __iter__(self) -> Iterator:
        return iter(self._variable_list)

    def __len__(self) -> int:
        return len(self._variable_list)

    @property
    def name(self) -> str:
        """The full (unpartitioned) variable name."""
        return self._name

    @property
    def dtype(self) -> dtypes.DType:
        """The element type."""
        return self._dtype

    @property
    def shape(self) -> tensor_shape.TensorShape:
        """The full shape."""
        return self._shape

    def get_shape(self) -> tensor_shape.TensorShape:
        """The full shape."""
        return self._shape

    def _get_variable_list(self) -> list:
        return list(self._variable_list)

    def _get_partitions(self) -> list:
        return list(self._partitions)

    def _concat_axis(self) -> int:
        return next((i for i, p in enumerate(self._partitions) if p > 1), 0)

    def as_tensor(self) -> ops.Tensor:
        """The parts concatenated into one tensor."""
        with ops.name_scope(None):
            with ops.name_scope(self._name + "/ConcatPartitions/"):
                if len(self._variable_list) == 1:
                    return array_ops.identity(self._variable_list[0].value(), name="concat")
                return array_ops.concat([v.value() for v in self._variable_list], self._concat_axis(), name="concat")

    def _as_graph_element(self) -> ops.Tensor:
        return self.as_tensor()

    def assign(self, value: Any, use_locking: bool = False, name: Optional[str] = None,
               read_value: bool = True) -> Any:
        """Assign a full value, split across the parts."""
        sizes = [v.shape.as_list()[self._concat_axis()] for v in self._variable_list]
        parts = array_ops.split(value, sizes, axis=self._concat_axis())
        assigns = [v.assign(p, use_locking=use_locking) for v, p in zip(self._variable_list, parts)]
        return assigns if read_value else [a.op for a in assigns]


def _partitioned_conversion(v: PartitionedVariable, dtype: Any = None, name: Optional[str] = None,
                            as_ref: bool = False) -> ops.Tensor:
    if as_ref:
        raise TypeError("PartitionedVariable doesn't support being used as a reference.")
    return v.as_tensor()


ops.register_tensor_conversion_function(PartitionedVariable, _partitioned_conversion)


# ---- collections --------------------------------------------------------------------------------------------
def global_variables(scope: Optional[str] = None) -> list:
    """Variables in GLOBAL_VARIABLES (optionally filtered by scope)."""
    return ops.get_collection(ops.GraphKeys.GLOBAL_VARIABLES, scope)


def all_variables() -> list:
    """DEPRECATED alias of global_variables()."""
    return global_variables()


def local_variables(scope: Optional[str] = None) -> list:
    """Variables in LOCAL_VARIABLES."""
    return ops.get_collection(ops.GraphKeys.LOCAL_VARIABLES, scope)


def model_variables(scope: Optional[str] = None) -> list:
    """Variables in MODEL_VARIABLES."""
    return ops.get_collection(ops.GraphKeys.MODEL_VARIABLES, scope)


def trainable_variables(scope: Optional[str] = None) -> list:
    """Variables in TRAINABLE_VARIABLES."""
    return ops.get_collection(ops.GraphKeys.TRAINABLE_VARIABLES, scope)


def moving_average_variables(scope: Optional[str] = None) -> list:
    """Variables in MOVING_AVERAGE_VARIABLES."""
    return ops.get_collection(ops.GraphKeys.MOVING_AVERAGE_VARIABLES, scope)


def variables_initializer(var_list: list, name: str = "init") -> ops.Operation:
    """An op running the initializers of var_list (a no-op for an empty list)."""
    if var_list:
        return control_flow_ops.group(*[v.initializer for v in var_list], name=name)
    return control_flow_ops.no_op(name=name)


def global_variables_initializer() -> ops.Operation:
    """Initializer for all global variables, named 'init'."""
    return variables_initializer(global_variables())


def local_variables_initializer() -> ops.Operation:
    """Initializer for all local variables, named 'init'."""
    return variables_initializer(local_variables())


initialize_variables = variables_initializer
initialize_all_variables = global_variables_initializer
initialize_local_variables = local_variables_initializer


def is_variable_initialized(variable: Any) -> ops.Tensor:
    """Bool scalar: whether the variable is initialized."""
    return state_ops.is_variable_initialized(variable)


def assert_variables_initialized(var_list: Optional[list] = None) -> Optional[ops.Tensor]:
    """An op that fails with FailedPreconditionError when run if any variable is uninitialized (None if none)."""
    if var_list is None:
        var_list = global_variables() + local_variables()
    if not var_list:
        var_list = [v for v in ops.get_collection(ops.GraphKeys.SAVEABLE_OBJECTS)] or []
    if not var_list:
        return None
    ranks = []
    for var in var_list:
        with ops.colocate_with(var.op):
            ranks.append(ops.apply_op("Rank", [var._ref() if hasattr(var, "_ref") else var]))
    if len(ranks) == 1:
        return ranks[0]
    return array_ops.stack(ranks)


def report_uninitialized_variables(var_list: Optional[list] = None,
                                   name: str = "report_uninitialized_variables") -> ops.Tensor:
    """A 1-D string tensor with the names of the uninitialized variables."""
    if var_list is None:
        var_list = global_variables() + local_variables()
        if not var_list:
            var_list = list(ops.get_collection(ops.GraphKeys.SAVEABLE_OBJECTS))
    with ops.name_scope(name):
        if not var_list:
            return array_ops.constant([], dtype=dtypes.string)
        variables_mask = math_ops.logical_not(
            array_ops.stack([state_ops.is_variable_initialized(v) for v in var_list]))
        variable_names_tensor = array_ops.constant([v.op.name for v in var_list])
        return array_ops.boolean_mask(variable_names_tensor, variables_mask)


