"""variable_scope / get_variable: named, shareable variables with TF1's scoping and reuse rules."""
from __future__ import annotations

import copy
import enum
import functools
import inspect
import math
from typing import Any, Callable, Optional

import numpy as np

from edgelite.framework import dtypes
from edgelite.framework import ops
from edgelite.framework import tensor_shape
from edgelite.ops import init_ops
from edgelite.ops import variables


class _ReuseMode(enum.Enum):
    """Reuse modes beyond True/None."""

    AUTO_REUSE = 1


AUTO_REUSE = _ReuseMode.AUTO_REUSE
_VARSTORE_KEY = ("__variable_store",)
_VARSCOPESTORE_KEY = ("__varscope",)


class _PartitionInfo:
    """Where a partition sits in the full variable (passed to initializers)."""

    def __init__(self, full_shape: list, var_offset: list) -> None:
        self.full_shape = list(full_shape)
        self.var_offset = list(var_offset)


class _SaveSliceInfo:
    """Slice of a full variable stored by one partition (used by savers)."""

    def __init__(self, full_name: str, full_shape: list, var_offset: list, var_shape: list) -> None:
        self.full_name = full_name
        self.full_shape = list(full_shape)
        self.var_offset = list(var_offset)
        self.var_shape = list(var_shape)

    @property
    def spec(self) -> str:
        """'<full shape> <offset,len:...>' as TF writes a slice spec."""
        full = " ".join(str(d) for d in self.full_shape)
        sl = ":".join(f"{o},{s}" for o, s in zip(self.var_offset, self.var_shape))
        return f"{full} {sl}"


class _VariableStore:
    """Per-graph map from full variable names to the variables get_variable created."""

    def __init__(self) -> None:
        self._vars: dict = {}
        self._partitioned_vars: dict = {}

    def get_variable(self, name: str, shape: Any = None, dtype: Any = dtypes.float32, initializer: Any = None,
                     regularizer: Any = None, reuse: Any = None, trainable: Optional[bool] = None,
                     collections: Any = None, caching_device: Any = None, partitioner: Any = None,
                     validate_shape: bool = True, use_resource: Any = None, custom_getter: Any = None,
                     constraint: Any = None, synchronization: Any = variables.VariableSynchronization.AUTO,
                     aggregation: Any = variables.VariableAggregation.NONE) -> Any:
        if custom_getter is not None and not callable(custom_getter):
            raise ValueError(f"Passed a custom_getter which is not callable: {custom_getter}")
        if isinstance(dtype, dtypes.DType):
            dtype = dtype.base_dtype

        def _true_getter(name: str, shape: Any = None, dtype: Any = dtypes.float32, initializer: Any = None,
                         regularizer: Any = None, reuse: Any = None, trainable: Any = None, collections: Any = None,
                         caching_device: Any = None, partitioner: Any = None, validate_shape: bool = True,
                         use_resource: Any = None, constraint: Any = None,
                         synchronization: Any = variables.VariableSynchronization.AUTO,
                         aggregation: Any = variables.VariableAggregation.NONE) -> Any:
            is_scalar = shape is not None and isinstance(shape, (list, tuple)) and not shape
            if partitioner is not None and not is_scalar:
                if not callable(partitioner):
                    raise ValueError(f"Partitioner must be callable, but received: {partitioner}")
                with ops.name_scope(None):
                    return self._get_partitioned_variable(name, partitioner, shape, dtype, initializer, regularizer,
                                                          reuse, trainable, collections, validate_shape, constraint)
            if reuse is True and partitioner is None and name in self._partitioned_vars:
                return self._get_partitioned_variable(name, None, shape, dtype, initializer, regularizer, reuse,
                                                      trainable, collections, validate_shape, constraint)
            if f"{name}/part_0" in self._vars:
                raise ValueError(f"No partitioner was provided, but a partitioned version of the variable was "
                                 f"found: {name}/part_0. Perhaps a variable of the same name was already created "
                                 "with partitioning?")
            return self._get_single_variable(name, shape, dtype, initializer, regularizer, None, reuse, trainable,
                                             collections, caching_device, validate_shape, constraint,
                                             synchronization, aggregation)

        if custom_getter is not None:
            kwargs = dict(getter=_true_getter, name=name, shape=shape, dtype=dtype, initializer=initializer,
                          regularizer=regularizer, reuse=reuse, trainable=trainable, collections=collections,
                          caching_device=caching_device, partitioner=partitioner, validate_shape=validate_shape,
                          use_resource=use_resource, synchronization=synchronization, aggregation=aggregation)
            params = inspect.signature(custom_getter).parameters
            if "constraint" in params or any(p.kind == p.VAR_KEYWORD for p in params.values()):
                kwargs["constraint"] = constraint
            return custom_getter(**kwargs)
        return _true_getter(name, shape=shape, dtype=dtype, initializer=initializer, regularizer=regularizer,
                            reuse=reuse, trainable=trainable, collections=collections,
                            caching_device=caching_device, partitioner=partitioner, validate_shape=validate_shape,
                            use_resource=use_resource, constraint=constraint, synchronization=synchronization,
                            aggregation=aggregation)

    def _get_single_variable(self, name: str, shape: Any, dtype: Any, initializer: Any, regularizer: Any,
                             partition_info: Any, reuse: Any, trainable: Any, collections: Any,
                             caching_device: Any, validate_shape: bool, constraint: Any,
                             synchronization: Any = variables.VariableSynchronization.AUTO,
                             aggregation: Any = variables.VariableAggregation.NONE) -> Any:
        initializing_from_value = initializer is not None and not callable(initializer)
        if shape is not None and initializing_from_value:
            raise ValueError("If initializer is a constant, do not specify shape.")
        dtype = dtypes.as_dtype(dtype)
        shape = tensor_shape.as_shape(shape)
        if name in self._vars:
            if reuse is False or reuse is None:
                raise ValueError(f"Variable {name} already exists, disallowed. Did you mean to set reuse=True or "
                                 "reuse=tf.AUTO_REUSE in VarScope?")
            found = self._vars[name]
            if not shape.is_compatible_with(found.get_shape()):
                raise ValueError(f"Trying to share variable {name}, but specified shape {shape} and found shape "
                                 f"{found.get_shape()}.")
            if not dtype.is_compatible_with(found.dtype):
                raise ValueError(f"Trying to share variable {name}, but specified dtype {dtype.name} and found "
                                 f"dtype {found.dtype.name}.")
            return found
        if reuse is True:
            raise ValueError(f"Variable {name} does not exist, or was not created with tf.get_variable(). Did you "
                             "mean to set reuse=tf.AUTO_REUSE in VarScope?")
        if initializer is None:
            initializer, initializing_from_value = self._default_initializer(name, dtype)
        if initializing_from_value:
            init_val: Any = initializer
            variable_dtype = None
        else:
            if inspect.isclass(initializer):
                initializer = initializer()
            if shape.is_fully_defined():
                try:
                    params = inspect.signature(initializer).parameters
                except (TypeError, ValueError):
                    params = {}
                if "partition_info" in params:
                    init_val = functools.partial(initializer, shape.as_list(), dtype=dtype,
                                                 partition_info=partition_info)
                else:
                    init_val = functools.partial(initializer, shape.as_list(), dtype=dtype)
                variable_dtype = dtype.base_dtype
            elif _needs_no_arguments(initializer):
                init_val = initializer
                variable_dtype = None
            else:
                raise ValueError("The initializer passed is not valid. It should be a callable with no arguments and "
                                 "the shape should not be provided or an instance of `tf.keras.initializers.*' and "
                                 "`shape` should be fully defined.")
        v = variables.Variable(initial_value=init_val, name=name, trainable=trainable, collections=collections,
                               caching_device=caching_device, dtype=variable_dtype, validate_shape=validate_shape,
                               constraint=constraint, synchronization=synchronization, aggregation=aggregation)
        self._vars[name] = v
        if regularizer:
            with ops.colocate_with(v.op):
                with ops.name_scope(name + "/Regularizer/"):
                    loss = regularizer(v)
            if loss is not None:
                ops.add_to_collection(ops.GraphKeys.REGULARIZATION_LOSSES, loss)
        return v

    def _get_partitioned_variable(self, name: str, partitioner: Any, shape: Any, dtype: Any, initializer: Any,
                                  regularizer: Any, reuse: Any, trainable: Any, collections: Any,
                                  validate_shape: bool, constraint: Any) -> Any:
        initializing_from_value = initializer is not None and not callable(initializer)
        dtype = dtypes.as_dtype(dtype)
        if initializing_from_value:
            value_shape = ops.convert_to_tensor(initializer).shape
            shape = value_shape if shape is None else tensor_shape.as_shape(shape).merge_with(value_shape)
        shape = tensor_shape.as_shape(shape)
        if name in self._partitioned_vars:
            if reuse is False or reuse is None:
                raise ValueError(f"Partitioned variable with name {name} already exists. Did you mean to set "
                                 "reuse=True or reuse=tf.AUTO_REUSE in VarScope?")
            existing = self._partitioned_vars[name]
            if not shape.is_compatible_with(existing.get_shape()):
                raise ValueError(f"Trying to reuse partitioned variable {name}, but specified shape {shape} and found "
                                 f"shape {existing.get_shape()}.")
            return existing
        if reuse is True:
            raise ValueError(f"PartitionedVariable {name} does not exist, or was not created with "
                             "tf.get_variable(). Did you mean to set reuse=False or reuse=tf.AUTO_REUSE in VarScope?")
        if not shape.is_fully_defined():
            raise ValueError(f"Shape of a new partitioned variable ({name}) must be fully defined, but instead was "
                             f"{shape}.")
        if shape.ndims < 1:
            raise ValueError(f"A partitioned Variable must have rank at least 1, shape: {shape}")
        partitions = list(partitioner(shape=shape, dtype=dtype))
        if len(partitions) != shape.ndims:
            raise ValueError(f"Partitioner returned a partition list that does not match the Variable's rank: "
                             f"{partitions} vs. {shape}")
        if any(p < 1 for p in partitions):
            raise ValueError(f"Partitioner returned zero partitions for some axes: {partitions}")
        axis = next((i for i, p in enumerate(partitions) if p > 1), 0)
        if sum(1 for p in partitions if p > 1) > 1:
            raise ValueError(f"Can only slice a variable along one dimension: shape: {shape}, partitioning: "
                             f"{partitions}")
        full = shape.as_list()
        n = min(partitions[axis], full[axis]) if full[axis] else 1
        base, extra = divmod(full[axis], n)
        vs = []
        offset = 0
        for i in range(n):
            size = base + (1 if i < extra else 0)
            part_shape = list(full)
            part_shape[axis] = size
            var_offset = [0] * len(full)
            var_offset[axis] = offset
            info = _PartitionInfo(full, var_offset)
            if initializing_from_value:
                value = np.asarray(initializer)
                idx = [slice(None)] * len(full)
                idx[axis] = slice(offset, offset + size)
                init: Any = value[tuple(idx)]
            else:
                init = initializer
            with ops.name_scope(None):
                v = self._get_single_variable(f"{name}/part_{i}", None if initializing_from_value else part_shape,
                                              dtype, init, regularizer, info, reuse, trainable, collections, None,
                                              validate_shape, constraint)
            v._set_save_slice_info(_SaveSliceInfo(name, full, var_offset, part_shape))
            vs.append(v)
            offset += size
        pv = variables.PartitionedVariable(name, full, dtype, vs, partitions)
        self._partitioned_vars[name] = pv
        return pv

    @staticmethod
    def _default_initializer(name: str, dtype: dtypes.DType) -> tuple:
        if dtype.is_floating:
            return init_ops.glorot_uniform_initializer(), False
        if dtype.is_integer or dtype.is_unsigned or dtype.is_bool or dtype == dtypes.string:
            return init_ops.zeros_initializer(), False
        raise ValueError(f"An initializer for variable {name} of {dtype.base_dtype} is required")


def _needs_no_arguments(fn: Callable) -> bool:
    try:
        params = inspect.signature(fn).parameters
    except (TypeError, ValueError):
        return False
    return all(p.default is not p.empty or p.kind in (p.VAR_POSITIONAL, p.VAR_KEYWORD) for p in params.values())


class VariableScope:
    """A scope's defaults for get_variable: name, reuse, initializer, regularizer, dtype, partitioner..."""

    def __init__(self, reuse: Any, name: str = "", initializer: Any = None, regularizer: Any = None,
                 caching_device: Any = None, partitioner: Any = None, custom_getter: Any = None,
                 name_scope: str = "", dtype: Any = dtypes.float32, use_resource: Any = None,
                 constraint: Any = None) -> None:
        self._name = name
        self._initializer = initializer
        self._regularizer = regularizer
        self._reuse = reuse
        self._caching_device = caching_device
        self._partitioner = partitioner
        self._custom_getter = custom_getter
        self._name_scope = name_scope
        self._dtype = dtype
        self._use_resource = use_resource
        self._constraint = constraint

    @property
    def name(self) -> str:
        """The full scope name."""
        return self._name

    @property
    def original_name_scope(self) -> str:
        """The name scope opened when this variable scope was first entered."""
        return self._name_scope

    @property
    def reuse(self) -> Any:
        """True, None/False or AUTO_REUSE."""
        return self._reuse

    @property
    def initializer(self) -> Any:
        """Default initializer."""
        return self._initializer

    @property
    def dtype(self) -> Any:
        """Default dtype."""
        return self._dtype

    @property
    def use_resource(self) -> Any:
        """Accepted for compatibility; edgelite variables are reference variables."""
        return self._use_resource

    @property
    def regularizer(self) -> Any:
        """Default regularizer."""
        return self._regularizer

    @property
    def caching_device(self) -> Any:
        """Default caching device."""
        return self._caching_device

    @property
    def partitioner(self) -> Any:
        """Default partitioner."""
        return self._partitioner

    @property
    def custom_getter(self) -> Any:
        """Default custom getter."""
        return self._custom_getter

    @property
    def constraint(self) -> Any:
        """Default constraint."""
        return self._constraint

    def reuse_variables(self) -> None:
        """Reuse variables in this scope from now on."""
        self._reuse = True

    def set_initializer(self, initializer: Any) -> None:
        """Set the default initializer."""
        self._initializer = initializer

    def set_dtype(self, dtype: Any) -> None:
        """Set the default dtype."""
        self._dtype = dtype

    def set_use_resource(self, use_resource: Any) -> None:
        """Set use_resource (recorded only)."""
        self._use_resource = use_resource

    def set_regularizer(self, regularizer: Any) -> None:
        """Set the default regularizer."""
        self._regularizer = regularizer

    def set_caching_device(self, caching_device: Any) -> None:
        """Set the default caching device."""
        self._caching_device = caching_device

    def set_partitioner(self, partitioner: Any) -> None:
        """Set the default partitioner."""
        self._partitioner = partitioner

    def set_custom_getter(self, custom_getter: Any) -> None:
        """Set the default custom getter."""
        self._custom_getter = custom_getter

    def get_collection(self, name: Any) -> list:
        """Items of a collection whose names start with this scope."""
        scope = self._name + "/" if self._name else ""
        return ops.get_collection(name, scope)

    def trainable_variables(self) -> list:
        """Trainable variables in this scope."""
        return self.get_collection(ops.GraphKeys.TRAINABLE_VARIABLES)

    def global_variables(self) -> list:
        """Global variables in this scope."""
        return self.get_collection(ops.GraphKeys.GLOBAL_VARIABLES)

    def local_variables(self) -> list:
        """Local variables in this scope."""
        return self.get_collection(ops.GraphKeys.LOCAL_VARIABLES)

    def get_variable(self, var_store: _VariableStore, name: str, shape: Any = None, dtype: Any = None,
                     initializer: Any = None, regularizer: Any = None, reuse: Any = None, trainable: Any = None,
                     collections: Any = None, caching_device: Any = None, partitioner: Any = None,
                     validate_shape: bool = True, use_resource: Any = None, custom_getter: Any = None,
                     constraint: Any = None, synchronization: Any = variables.VariableSynchronization.AUTO,
                     aggregation: Any = variables.VariableAggregation.NONE) -> Any:
        """get_variable with this scope's defaults."""
        if regularizer is None:
            regularizer = self._regularizer
        if caching_device is None:
            caching_device = self._caching_device
        if partitioner is None:
            partitioner = self._partitioner
        if custom_getter is None:
            custom_getter = self._custom_getter
        if reuse is None:
            reuse = self._reuse
        full_name = self.name + "/" + name if self.name else name
        with ops.name_scope(None):
            if dtype is not None and initializer is not None and not callable(initializer):
                init_dtype = ops.convert_to_tensor(initializer).dtype.base_dtype
                if init_dtype != dtypes.as_dtype(dtype):
                    raise ValueError(f"Initializer type '{init_dtype}' and explicit dtype '{dtype}' don't match.")
            if initializer is None:
                initializer = self._initializer
            if constraint is None:
                constraint = self._constraint
            if dtype is None:
                dtype = self._dtype
            return var_store.get_variable(full_name, shape=shape, dtype=dtype, initializer=initializer,
                                          regularizer=regularizer, reuse=reuse, trainable=trainable,
                                          collections=collections, caching_device=caching_device,
                                          partitioner=partitioner, validate_shape=validate_shape,
                                          use_resource=use_resource, custom_getter=custom_getter,
                                          constraint=constraint, synchronization=synchronization,
                                          aggregation=aggregation)


class _VariableScopeStore:
    """The current variable scope and how often each scope name was opened (per graph)."""

    def __init__(self) -> None:
        self.current_scope = VariableScope(False)
        self.variable_scopes_count: dict = {}

    def open_variable_scope(self, scope_name: str) -> None:
        self.variable_scopes_count[scope_name] = self.variable_scopes_count.get(scope_name, 0) + 1

    def close_variable_subscopes(self, scope_name: Optional[str]) -> None:
        if scope_name is None:
            for k in self.variable_scopes_count:
                self.variable_scopes_count[k] = 0
            return
        prefix = scope_name + "/"
        for k in self.variable_scopes_count:
            if k.startswith(prefix):
                self.variable_scopes_count[k] = 0

    def variable_scope_count(self, scope_name: str) -> int:
        return self.variable_scopes_count.get(scope_name, 0)


def get_variable_scope_store() -> _VariableScopeStore:
    """The variable-scope store of the default graph."""
    coll = ops.get_collection(_VARSCOPESTORE_KEY)
    if not coll:
        store = _VariableScopeStore()
        ops.add_to_collection(_VARSCOPESTORE_KEY, store)
        return store
    return coll[0]


def get_variable_scope() -> VariableScope:
    """The current VariableScope."""
    return get_variable_scope_store().current_scope


def _get_default_variable_store() -> _VariableStore:
    store = ops.get_collection(_VARSTORE_KEY)
    if store:
        return store[0]
    store = _VariableStore()
    ops.add_to_collection(_VARSTORE_KEY, store)
    return store


def get_variable(name: str, shape: Any = None, dtype: Any = None, initializer: Any = None, regularizer: Any = None,
                 trainable: Optional[bool] = None, collections: Any = None, caching_device: Any = None,
                 partitioner: Any = None, validate_shape: bool = True, use_resource: Any = None,
                 custom_getter: Any = None, constraint: Any = None,
                 synchronization: Any = variables.VariableSynchronization.AUTO,
                 aggregation: Any = variables.VariableAggregation.NONE) -> Any:
    """Get an existing variable (when reusing) or create a new one, named by the variable scope."""
    return get_variable_scope().get_variable(
        _get_default_variable_store(), name, shape=shape, dtype=dtype, initializer=initializer,
        regularizer=regularizer, trainable=trainable, collections=collections, caching_device=caching_device,
        partitioner=partitioner, validate_shape=validate_shape, use_resource=use_resource,
        custom_getter=custom_getter, constraint=constraint, synchronization=synchronization,
        aggregation=aggregation)


def get_local_variable(name: str, shape: Any = None, dtype: Any = None, initializer: Any = None,
                       regularizer: Any = None, trainable: bool = False, collections: Any = None,
                       caching_device: Any = None, partitioner: Any = None, validate_shape: bool = True,
                       use_resource: Any = None, custom_getter: Any = None, constraint: Any = None) -> Any:
    """get_variable placed in LOCAL_VARIABLES (not trainable)."""
    collections = list(collections or []) + [ops.GraphKeys.LOCAL_VARIABLES]
    return get_variable(name, shape, dtype, initializer, regularizer, False, collections, caching_device,
                        partitioner, validate_shape, use_resource, custom_getter, constraint)


def _maybe_wrap_custom_getter(custom_getter: Any, old_getter: Any) -> Any:
    if old_getter is None:
        return custom_getter

    def wrapped(getter: Any, *args: Any, **kwargs: Any) -> Any:
        return custom_getter(functools.partial(old_getter, getter), *args, **kwargs)
    return wrapped


class _pure_variable_scope:  # noqa: N801
    """Enter a variable scope without touching name scopes."""

    def __init__(self, name_or_scope: Any, reuse: Any = None, initializer: Any = None, regularizer: Any = None,
                 caching_device: Any = None, partitioner: Any = None, custom_getter: Any = None,
                 old_name_scope: Optional[str] = None, dtype: Any = dtypes.float32, use_resource: Any = None,
                 constraint: Any = None) -> None:
        self._name_or_scope = name_or_scope
        self._reuse = reuse
        self._initializer = initializer
        self._regularizer = regularizer
        self._caching_device = caching_device
        self._partitioner = partitioner
        self._custom_getter = custom_getter
        self._old_name_scope = old_name_scope
        self._dtype = dtype
        self._use_resource = use_resource
        self._constraint = constraint
        self._var_store = _get_default_variable_store()
        self._var_scope_store = get_variable_scope_store()
        self._last_variable_scope_object: Any = None
        if isinstance(name_or_scope, VariableScope):
            self._new_name = name_or_scope.name
            vs = VariableScope(name_or_scope.reuse if not reuse else reuse, name=self._new_name,
                               initializer=name_or_scope.initializer, regularizer=name_or_scope.regularizer,
                               caching_device=name_or_scope.caching_device, partitioner=name_or_scope.partitioner,
                               dtype=name_or_scope.dtype, custom_getter=name_or_scope.custom_getter,
                               name_scope=name_or_scope.original_name_scope, use_resource=name_or_scope.use_resource,
                               constraint=self._constraint)
            self._apply_overrides(vs)
            self._cached_variable_scope_object = vs

    def _apply_overrides(self, vs: VariableScope) -> None:
        if self._initializer is not None:
            vs.set_initializer(self._initializer)
        if self._regularizer is not None:
            vs.set_regularizer(self._regularizer)
        if self._caching_device is not None:
            vs.set_caching_device(self._caching_device)
        if self._partitioner is not None:
            vs.set_partitioner(self._partitioner)
        if self._custom_getter is not None:
            vs.set_custom_getter(_maybe_wrap_custom_getter(self._custom_getter, vs.custom_getter))
        if self._dtype is not None:
            vs.set_dtype(self._dtype)
        if self._use_resource is not None:
            vs.set_use_resource(self._use_resource)

    def __enter__(self) -> VariableScope:
        self._old = self._var_scope_store.current_scope
        if isinstance(self._name_or_scope, VariableScope):
            self._var_scope_store.open_variable_scope(self._new_name)
            self._old_subscopes = copy.copy(self._var_scope_store.variable_scopes_count)
            vs = self._cached_variable_scope_object
        else:
            self._new_name = (self._old.name + "/" + self._name_or_scope if self._old.name
                              else self._name_or_scope)
            self._reuse = self._reuse or self._old.reuse
            name_scope = self._name_or_scope if self._old_name_scope is None else self._old_name_scope
            vs = VariableScope(self._reuse, name=self._new_name, initializer=self._old.initializer,
                               regularizer=self._old.regularizer, caching_device=self._old.caching_device,
                               partitioner=self._old.partitioner, dtype=self._old.dtype,
                               use_resource=self._old.use_resource, custom_getter=self._old.custom_getter,
                               name_scope=name_scope, constraint=self._constraint)
            self._apply_overrides(vs)
            self._var_scope_store.open_variable_scope(self._new_name)
        self._var_scope_store.current_scope = vs
        self._last_variable_scope_object = vs
        return vs

    def __exit__(self, *exc: Any) -> None:
        if isinstance(self._name_or_scope, VariableScope):
            self._var_scope_store.variable_scopes_count = self._old_subscopes
        else:
            self._var_scope_store.close_variable_subscopes(self._new_name)
        self._var_scope_store.current_scope = self._old


def _get_unique_variable_scope(prefix: str) -> str:
    store = get_variable_scope_store()
    current = get_variable_scope()
    name = current.name + "/" + prefix if current.name else prefix
    if store.variable_scope_count(name) == 0:
        return prefix
    idx = 1
    while store.variable_scope_count(name + f"_{idx}") > 0:
        idx += 1
    return prefix + f"_{idx}"


class variable_scope:  # noqa: N801 - TensorFlow's spelling
    """Context manager for a variable scope (and, by default, a matching name scope)."""

    def __init__(self, name_or_scope: Any, default_name: Optional[str] = None, values: Any = None,
                 initializer: Any = None, regularizer: Any = None, caching_device: Any = None,
                 partitioner: Any = None, custom_getter: Any = None, reuse: Any = None, dtype: Any = None,
                 use_resource: Any = None, constraint: Any = None, auxiliary_name_scope: bool = True) -> None:
        self._name_or_scope = name_or_scope
        self._default_name = default_name
        self._values = values
        self._initializer = initializer
        self._regularizer = regularizer
        self._caching_device = caching_device
        self._partitioner = partitioner
        self._custom_getter = custom_getter
        self._reuse = reuse
        self._dtype = dtype
        self._use_resource = use_resource
        self._constraint = constraint
        if self._default_name is None and self._name_or_scope is None:
            raise TypeError("If default_name is None then name_or_scope is required")
        if self._reuse is False:
            self._reuse = None
        if not (self._reuse is True or self._reuse is None or self._reuse is AUTO_REUSE):
            raise ValueError("The reuse parameter must be True or False or None.")
        if self._values is None:
            self._values = []
        self._graph = ops._graph_for(self._values) if self._values else ops.get_default_graph()
        self._cached_pure_variable_scope: Any = None
        self._current_name_scope: Any = None
        if not isinstance(auxiliary_name_scope, bool):
            raise TypeError(f"The auxiliary_name_scope must be `True` or `False`, while get {auxiliary_name_scope}")
        self._auxiliary_name_scope = auxiliary_name_scope

    def __enter__(self) -> VariableScope:
        self._graph_context_manager = self._graph.as_default()
        self._graph_context_manager.__enter__()
        if self._cached_pure_variable_scope is not None:
            if self._current_name_scope is not None:
                self._current_name_scope.__enter__()
            return self._cached_pure_variable_scope.__enter__()
        try:
            return self._enter_scope_uncached()
        except BaseException:
            self._graph_context_manager.__exit__(None, None, None)
            raise

    def _enter_scope_uncached(self) -> VariableScope:
        if self._auxiliary_name_scope:
            current_name_scope = None
        else:
            name_scope = ops.get_name_scope()
            current_name_scope = ops.name_scope(name_scope + "/" if name_scope else name_scope)
        if self._name_or_scope is not None:
            if not isinstance(self._name_or_scope, (VariableScope, str)):
                raise TypeError("VariableScope: name_or_scope must be a string or VariableScope.")
            if isinstance(self._name_or_scope, str):
                name_scope = self._name_or_scope
            else:
                name_scope = self._name_or_scope.name.split("/")[-1]
            if name_scope or current_name_scope:
                current_name_scope = current_name_scope or ops.name_scope(name_scope)
                current_name_scope_name = current_name_scope.__enter__()
                self._current_name_scope = current_name_scope
                if isinstance(self._name_or_scope, str):
                    old_name_scope = current_name_scope_name
                else:
                    old_name_scope = self._name_or_scope.original_name_scope
                pvs = _pure_variable_scope(self._name_or_scope, reuse=self._reuse, initializer=self._initializer,
                                           regularizer=self._regularizer, caching_device=self._caching_device,
                                           partitioner=self._partitioner, custom_getter=self._custom_getter,
                                           old_name_scope=old_name_scope, dtype=self._dtype,
                                           use_resource=self._use_resource, constraint=self._constraint)
                try:
                    entered = pvs.__enter__()
                except BaseException:
                    current_name_scope.__exit__(None, None, None)
                    raise
                self._cached_pure_variable_scope = pvs
                return entered
            self._current_name_scope = None
            pvs = _pure_variable_scope(self._name_or_scope, reuse=self._reuse, initializer=self._initializer,
                                       regularizer=self._regularizer, caching_device=self._caching_device,
                                       partitioner=self._partitioner, custom_getter=self._custom_getter,
                                       dtype=self._dtype, use_resource=self._use_resource,
                                       constraint=self._constraint)
            entered = pvs.__enter__()
            self._cached_pure_variable_scope = pvs
            return entered
        if self._reuse:
            raise ValueError("reuse=True cannot be used without a name_or_scope")
        current_name_scope = current_name_scope or ops.name_scope(self._default_name)
        current_name_scope_name = current_name_scope.__enter__()
        self._current_name_scope = current_name_scope
        unique_default_name = _get_unique_variable_scope(self._default_name)
        pvs = _pure_variable_scope(unique_default_name, initializer=self._initializer, regularizer=self._regularizer,
                                   caching_device=self._caching_device, partitioner=self._partitioner,
                                   custom_getter=self._custom_getter, old_name_scope=current_name_scope_name,
                                   dtype=self._dtype, use_resource=self._use_resource, constraint=self._constraint)
        try:
            entered = pvs.__enter__()
        except BaseException:
            current_name_scope.__exit__(None, None, None)
            raise
        self._cached_pure_variable_scope = pvs
        return entered

    def __exit__(self, type_arg: Any, value_arg: Any, traceback_arg: Any) -> None:
        try:
            self._cached_pure_variable_scope.__exit__(type_arg, value_arg, traceback_arg)
        finally:
            try:
                if self._current_name_scope:
                    self._current_name_scope.__exit__(type_arg, value_arg, traceback_arg)
            finally:
                self._graph_context_manager.__exit__(type_arg, value_arg, traceback_arg)


def variable_op_scope(values: Any, name_or_scope: Any, default_name: Optional[str] = None, initializer: Any = None,
                      regularizer: Any = None, caching_device: Any = None, partitioner: Any = None,
                      custom_getter: Any = None, reuse: Any = None, dtype: Any = None, use_resource: Any = None,
                      constraint: Any = None) -> variable_scope:
    """DEPRECATED: variable_scope with values first."""
    return variable_scope(name_or_scope, default_name=default_name, values=values, initializer=initializer,
                          regularizer=regularizer, caching_device=caching_device, partitioner=partitioner,
                          custom_getter=custom_getter, reuse=reuse, dtype=dtype, use_resource=use_resource,
                          constraint=constraint)


def fixed_size_partitioner(num_shards: int, axis: int = 0) -> Callable:
    """Partitioner splitting one axis into num_shards parts."""
    def _partitioner(shape: Any, **unused: Any) -> list:
        partitions = [1] * len(shape)
        partitions[axis] = min(num_shards, shape.dims[axis].value)
        return partitions
    return _partitioner


def variable_axis_size_partitioner(max_shard_bytes: int, axis: int = 0, bytes_per_string_element: int = 16,
                                   max_shards: Optional[int] = None) -> Callable:
    """Partitioner keeping each shard below max_shard_bytes along axis."""
    if max_shard_bytes < 1 or bytes_per_string_element < 1:
        raise ValueError("Both max_shard_bytes and bytes_per_string_element must be positive.")
    if max_shards and max_shards < 1:
        raise ValueError("max_shards must be positive.")

    def _partitioner(shape: Any, dtype: Any) -> list:
        shape = tensor_shape.as_shape(shape)
        if not shape.is_fully_defined():
            raise ValueError(f"shape is not fully defined: {shape}")
        dtype = dtypes.as_dtype(dtype)
        if dtype.base_dtype == dtypes.string:
            element_size = bytes_per_string_element
        else:
            element_size = dtype.size
        partitions = [1] * shape.ndims
        dims = shape.as_list()
        bytes_per_slice = 1.0 * (int(np.prod(dims)) / dims[axis]) * element_size
        slices_per_shard = max(1, int(np.floor(max_shard_bytes / bytes_per_slice)))
        axis_shards = int(np.ceil(1.0 * dims[axis] / slices_per_shard))
        if max_shards:
            axis_shards = min(max_shards, axis_shards)
        partitions[axis] = axis_shards
        return partitions
    return _partitioner


def min_max_variable_partitioner(max_partitions: int = 1, axis: int = 0, min_slice_size: int = 256 << 10,
                                 bytes_per_string_element: int = 16) -> Callable:
    """Partitioner with at most max_partitions shards of at least min_slice_size bytes."""
    def _partitioner(shape: Any, dtype: Any) -> list:
        shape = tensor_shape.as_shape(shape)
        dims = shape.as_list()
        dtype = dtypes.as_dtype(dtype)
        elem = bytes_per_string_element if dtype.base_dtype == dtypes.string else dtype.size
        total = int(np.prod(dims)) * elem
        # TF's rule: at least one shard, even for max_partitions=0 (canned estimators pass num_ps_replicas=0).
        partitions = max(1, int(min(dims[axis], max_partitions, math.ceil(total / min_slice_size))))
        out = [1] * len(dims)
        out[axis] = partitions
        return out
    return _partitioner
