"""tf.data.Dataset (TF1 graph mode): a description of an input pipeline, run by an iterator in a session.

A dataset knows its element structure (nested dtypes and static shapes), the graph tensors it reads
(`_inputs`, evaluated when its iterator is initialized) and how to produce its elements (`_gen(env)`,
a generator of flat lists of numpy arrays). User functions are traced once (functions.py).
"""
from __future__ import annotations

import queue as _queue
import threading
from typing import Any, Callable, Iterator, List, Optional

import numpy as np

from edgelite.framework import dtypes, errors, ops, random_seed, tensor_shape

from . import structure as st
from .functions import TracedFunction
from .options import Options, merge_options

AUTOTUNE = -1
INFINITE_CARDINALITY = -1
UNKNOWN_CARDINALITY = -2


class TensorSpec:
    """Type and static shape of one component of a dataset element."""

    def __init__(self, shape: Any, dtype: Any = dtypes.float32, name: Optional[str] = None) -> None:
        self.shape = tensor_shape.as_shape(shape)
        self.dtype = dtypes.as_dtype(dtype)
        self.name = name

    def __eq__(self, other: Any) -> bool:
        def dims(s: Any) -> Any:
            return None if s.ndims is None else s.as_list()
        return isinstance(other, TensorSpec) and self.dtype == other.dtype and dims(self.shape) == dims(other.shape)

    def __repr__(self) -> str:
        return f"TensorSpec(shape={self.shape}, dtype={self.dtype!r}, name={self.name!r})"


class SparseTensorSpec(TensorSpec):
    """Type and static dense shape of a SparseTensor component of a dataset element."""

    def __repr__(self) -> str:
        dims = None if self.shape.ndims is None else \
            "[" + ", ".join(f"Dimension({d})" for d in self.shape.as_list()) + "]"
        return f"SparseTensorSpec(TensorShape({dims}), {self.dtype!r})"


def _np_dtype(dt: dtypes.DType) -> Any:
    return object if dt == dtypes.string else dt.as_numpy_dtype


class ElementStructure:
    """output_types/output_shapes/output_classes/element_spec from _structure, _flat_types, _flat_shapes."""

    _structure: Any
    _flat_types: list
    _flat_shapes: list
    _flat_classes: list

    def _packed(self, flat: list) -> Any:
        """flat in the element's nesting; a dataset-valued (window) component shows its DatasetSpec instead."""
        from .window_ops import DatasetSpec
        return st.pack(self._structure, [DatasetSpec(TensorSpec(s, t)) if c is DatasetSpec else v for v, s, t, c in
                                         zip(flat, self._flat_shapes, self._flat_types, self._flat_classes)])

    @property
    def output_types(self) -> Any:
        """The type of each component of an element."""
        return self._packed(self._flat_types)

    @property
    def output_shapes(self) -> Any:
        """The shape of each component of an element."""
        return self._packed(self._flat_shapes)

    @property
    def output_classes(self) -> Any:
        """The class of each component of an element."""
        return self._packed(list(self._flat_classes))

    @property
    def element_spec(self) -> Any:
        """The type specification of an element."""
        return self._packed([c if st.is_ragged_class(c) else (TensorSpec if c is ops.Tensor else SparseTensorSpec)(s, t)
                             for s, t, c in zip(self._flat_shapes, self._flat_types, self._flat_classes)])


class DatasetV1(ElementStructure):
    """Represents a potentially large set of elements (TF1 graph-mode API)."""

    def __init__(self, structure: Any, flat_types: list, flat_shapes: list, flat_classes: Optional[list] = None) -> None:
        self._structure = structure
        self._flat_types = [dtypes.as_dtype(t) for t in flat_types]
        self._flat_shapes = [tensor_shape.as_shape(s) for s in flat_shapes]
        self._flat_classes = list(flat_classes) if flat_classes is not None else [ops.Tensor] * len(flat_types)

    # ---- what subclasses provide ------------------------------------------------------------------------
    def _inputs(self) -> List[ops.Tensor]:
        """Graph tensors this dataset (and the datasets it reads) needs at iterator initialization.

        Each concrete dataset also has `_gen(env)`: a generator of its elements as flat lists of arrays.
        """
        return []

    def __repr__(self) -> str:
        return f"<{type(self).__name__} element_spec={self.element_spec}>"

    # ---- sources ----------------------------------------------------------------------------------------------
    @staticmethod
    def from_tensor_slices(tensors: Any, name: Optional[str] = None) -> "DatasetV1":
        """A dataset whose elements are slices (along dimension 0) of the given tensors."""
        return TensorSliceDataset(tensors)

    @staticmethod
    def from_tensors(tensors: Any, name: Optional[str] = None) -> "DatasetV1":
        """A dataset with a single element, comprising the given tensors."""
        return TensorDataset(tensors)

    @staticmethod
    def from_generator(generator: Callable, output_types: Any = None, output_shapes: Any = None, args: Any = None,
                       output_signature: Any = None, name: Optional[str] = None) -> "DatasetV1":
        """A dataset whose elements are produced by a Python generator (called anew per initialization)."""
        return GeneratorDataset(generator, output_types, output_shapes, args, output_signature)

    @staticmethod
    def range(*args: Any, **kwargs: Any) -> "DatasetV1":
        """A dataset of a step-separated range of values (int64), like Python's range."""
        return RangeDataset(*args, **kwargs)

    @staticmethod
    def random(seed: Optional[int] = None, rerandomize_each_iteration: Optional[bool] = None,
               name: Optional[str] = None) -> "DatasetV1":
        """An endless dataset of pseudorandom int64 values (TensorFlow's sequence for a seed)."""
        from .random_dataset import RandomDataset
        return RandomDataset(seed, rerandomize_each_iteration)

    @staticmethod
    def zip(datasets: Any, name: Optional[str] = None) -> "DatasetV1":
        """A dataset by zipping together the given (nested tuple/dict of) datasets."""
        return ZipDataset(datasets)

    @staticmethod
    def list_files(file_pattern: Any, shuffle: Optional[bool] = None, seed: Optional[int] = None,
                   name: Optional[str] = None) -> "DatasetV1":
        """A dataset of all files matching one or more glob patterns (shuffled unless shuffle=False)."""
        return ListFilesDataset(file_pattern, True if shuffle is None else shuffle, seed)

    # ---- transformations ------------------------------------------------------------------------------------
    def map(self, map_func: Callable, num_parallel_calls: Optional[int] = None, deterministic: Any = None,
            synchronous: Optional[bool] = None, use_unbounded_threadpool: bool = False,
            name: Optional[str] = None) -> "DatasetV1":
        """Maps map_func across the elements of this dataset (synchronous: never parallelized by the
        map_parallelization option; use_unbounded_threadpool changes nothing in graph mode, as in TensorFlow)."""
        return MapDataset(self, map_func, num_parallel_calls, deterministic, synchronous)

    def filter(self, predicate: Callable, name: Optional[str] = None) -> "DatasetV1":
        """Keeps the elements for which predicate returns True."""
        return FilterDataset(self, predicate)

    def batch(self, batch_size: Any, drop_remainder: bool = False, num_parallel_calls: Any = None,
              deterministic: Any = None, name: Optional[str] = None) -> "DatasetV1":
        """Combines consecutive elements of this dataset into batches."""
        return BatchDataset(self, batch_size, drop_remainder)

    def padded_batch(self, batch_size: Any, padded_shapes: Any = None, padding_values: Any = None,
                     drop_remainder: bool = False, name: Optional[str] = None) -> "DatasetV1":
        """Combines consecutive elements into padded batches."""
        return PaddedBatchDataset(self, batch_size, padded_shapes, padding_values, drop_remainder)

    def unbatch(self, name: Optional[str] = None) -> "DatasetV1":
        """Splits elements of a dataset into multiple elements along their first dimension."""
        return UnbatchDataset(self)

    def shuffle(self, buffer_size: Any, seed: Optional[int] = None, reshuffle_each_iteration: Optional[bool] = None,
                name: Optional[str] = None) -> "DatasetV1":
        """Randomly shuffles the elements of this dataset through a buffer of buffer_size elements."""
        return ShuffleDataset(self, buffer_size, seed, True if reshuffle_each_iteration is None
                              else reshuffle_each_iteration)

    def repeat(self, count: Any = None, name: Optional[str] = None) -> "DatasetV1":
        """Repeats this dataset count times (forever if None or -1)."""
        return RepeatDataset(self, count)

    def take(self, count: Any, name: Optional[str] = None) -> "DatasetV1":
        """At most count elements from this dataset (all if -1)."""
        return TakeDataset(self, count)

    def skip(self, count: Any, name: Optional[str] = None) -> "DatasetV1":
        """This dataset without its first count elements (all skipped if -1)."""
        return SkipDataset(self, count)

    def prefetch(self, buffer_size: Any, name: Optional[str] = None) -> "DatasetV1":
        """Produces elements ahead on a background thread, up to buffer_size of them."""
        return PrefetchDataset(self, buffer_size)

    def cache(self, filename: str = "", name: Optional[str] = None) -> "DatasetV1":
        """Caches the elements of the first full pass (in memory, or in the given file) for later passes."""
        return CacheDataset(self, filename)

    def concatenate(self, dataset: "DatasetV1", name: Optional[str] = None) -> "DatasetV1":
        """This dataset's elements followed by those of another with the same structure."""
        return ConcatenateDataset(self, dataset)

    def enumerate(self, start: int = 0, name: Optional[str] = None) -> "DatasetV1":
        """Pairs each element with its (int64) index, counting from start."""
        return ZipDataset((RangeDataset(start, np.iinfo(np.int64).max), self))

    def flat_map(self, map_func: Callable, name: Optional[str] = None) -> "DatasetV1":
        """Maps map_func (returning a dataset) across this dataset and flattens the results."""
        return InterleaveDataset(self, map_func, 1, 1)

    def interleave(self, map_func: Callable, cycle_length: Optional[int] = None, block_length: Optional[int] = None,
                   num_parallel_calls: Optional[int] = None, deterministic: Any = None,
                   name: Optional[str] = None) -> "DatasetV1":
        """Maps map_func across this dataset and interleaves the resulting datasets, block_length at a time."""
        return InterleaveDataset(self, map_func, cycle_length, block_length)

    def window(self, size: Any, shift: Any = None, stride: Any = 1, drop_remainder: bool = False,
               name: Optional[str] = None) -> "DatasetV1":
        """Groups elements into windows of size elements (each window a dataset per component), starting every
        shift elements and taking every stride-th one; partial windows at the end unless drop_remainder."""
        from .window_ops import WindowDataset
        return WindowDataset(self, size, shift, stride, drop_remainder)

    def with_options(self, options: Any, name: Optional[str] = None) -> "DatasetV1":
        """This dataset with the given tf.data.Options merged over the options it has."""
        if not isinstance(options, Options):
            raise AttributeError(f"'{type(options).__name__}' object has no attribute '_to_proto'")
        return _OptionsDataset(self, options)

    def options(self) -> Options:
        """The options of this dataset and its inputs, merged (read-only)."""
        found = [d.options() for d in self._input_datasets()]
        own = getattr(self, "_own_options", None)
        return merge_options(Options(), *found, *([own] if own is not None else []))._frozen()

    def _input_datasets(self) -> list:
        """The datasets this one reads (their options apply to it)."""
        return []

    def apply(self, transformation_func: Callable) -> "DatasetV1":
        """Applies a transformation function (dataset -> dataset) to this dataset."""
        result = transformation_func(self)
        if not isinstance(result, DatasetV1):
            raise TypeError("`transformation_func` must return a Dataset. Got: {}.".format(result))
        return result

    # ---- iterators ------------------------------------------------------------------------------------------
    def make_one_shot_iterator(self) -> Any:
        """An iterator over this dataset, initialized automatically on first use."""
        from .iterator_ops import Iterator as _Iterator
        return _Iterator._one_shot(self)

    def make_initializable_iterator(self, shared_name: Optional[str] = None) -> Any:
        """An iterator over this dataset that must be initialized with its `initializer` op."""
        from .iterator_ops import Iterator as _Iterator
        from .iterator_ops import refuse_windows
        refuse_windows(self)
        it = _Iterator.from_structure(self.output_types, self.output_shapes, shared_name)
        it._initializer = it.make_initializer(self)
        return it


Dataset = DatasetV1


# ---- run-time environment ---------------------------------------------------------------------------------------
class Env:
    """What a running pipeline reads: the values of its input tensors, the session state, per-dataset RNGs."""

    def __init__(self, values: dict, state: Any, options: Optional[Options] = None) -> None:
        self.values = values
        self.state = state
        self.options = Options() if options is None else options
        self.rngs: dict = {}
        self.stop = threading.Event()

    def value(self, t: ops.Tensor) -> Any:
        return self.values[id(t)]

    def child(self, values: dict) -> "Env":
        """An environment for a dataset built inside a function (interleave), sharing state and stop flag."""
        env = Env({**self.values, **values}, self.state, self.options)
        env.rngs = self.rngs
        env.stop = self.stop
        return env


def _dedupe(tensors: list) -> list:
    seen, out = set(), []
    for t in tensors:
        if id(t) not in seen:
            seen.add(id(t))
            out.append(t)
    return out


def _scalar_int(x: Any, name: str) -> Any:
    """A Python int or an int64 scalar tensor argument (read at initialization)."""
    if isinstance(x, ops.Tensor):
        return ops.convert_to_tensor(x, dtype=dtypes.int64) if x.dtype.base_dtype != dtypes.int64 else x
    if hasattr(x, "value") and hasattr(x, "op"):
        return ops.convert_to_tensor(x)
    return int(x)


def _int_value(env: Env, x: Any) -> int:
    return int(env.value(x)) if isinstance(x, ops.Tensor) else x


def _tensor_inputs(*xs: Any) -> list:
    return [x for x in xs if isinstance(x, ops.Tensor)]


# ---- sources --------------------------------------------------------------------------------------------------
class _TensorSource(DatasetV1):
    """A dataset made from given tensors and SparseTensors (their components are the dataset's inputs)."""

    def __init__(self, tensors: Any, unbatched: bool) -> None:
        structure, flat = st.to_tensors(tensors, allow_sparse=True)
        specs = [st.leaf_spec(leaf) for leaf in flat]
        if unbatched:
            if not flat:
                raise ValueError("Invalid `tensors`: `tensors` must not be empty.")
            specs = [(dt, _unbatched_shape(shape, leaf), cls.unbatched() if st.is_ragged_class(cls) else cls)
                     for (dt, shape, cls), leaf in zip(specs, flat)]
        super().__init__(structure, [s[0] for s in specs], [s[1] for s in specs], [s[2] for s in specs])
        self._tensors = flat

    def _inputs(self) -> list:
        return [c for leaf in self._tensors for c in st.components(leaf)]

    def _values(self, env: Env) -> list:
        return [st.regroup([np.asarray(env.value(c)) for c in st.components(leaf)], [st.leaf_spec(leaf)[2]])[0]
                for leaf in self._tensors]


def _unbatched_shape(shape: tensor_shape.TensorShape, leaf: Any) -> tensor_shape.TensorShape:
    """A component's element shape once its first dimension is sliced off (rank 0 cannot be)."""
    if shape.ndims == 0:
        if st.is_sparse(leaf):
            raise ValueError(f"Unbatching a sparse tensor is only supported for rank >= 1. Obtained input: {leaf}.")
        raise ValueError("Unbatching a tensor is only supported for rank >= 1")
    return shape[1:] if shape.ndims is not None else tensor_shape.unknown_shape()


class TensorSliceDataset(_TensorSource):
    def __init__(self, tensors: Any) -> None:
        super().__init__(tensors, unbatched=True)

    def _gen(self, env: Env) -> Iterator[list]:
        from edgelite.ops.sparse_rows import split_rows
        from edgelite.ragged.ragged_rows import split_values
        values = [split_rows(v, "from_tensor_slices") if _is_sparse_value(v) else
                  (split_values(v) if _is_ragged_value(v) else v) for v in self._values(env)]
        n = len(values[0]) if isinstance(values[0], list) else values[0].shape[0]
        for v in values[1:]:
            m = len(v) if isinstance(v, list) else v.shape[0]
            if m != n:
                raise errors.InvalidArgumentError(None, None, "Dimension 0 in both shapes must be equal, but are "
                                                              f"{n} and {m}")
        for i in range(n):
            yield [v[i] if isinstance(v, list) else _row(v, i) for v in values]


class TensorDataset(_TensorSource):
    def __init__(self, tensors: Any) -> None:
        super().__init__(tensors, unbatched=False)

    def _gen(self, env: Env) -> Iterator[list]:
        yield self._values(env)


class RangeDataset(DatasetV1):
    def __init__(self, *args: Any, output_type: Any = dtypes.int64, name: Optional[str] = None) -> None:
        if not 1 <= len(args) <= 3:
            raise ValueError(f"Invalid `args`. The length of `args` should be between 1 and 3 but was {len(args)}.")
        start, stop, step = (0, args[0], 1) if len(args) == 1 else (args[0], args[1], args[2] if len(args) == 3
                                                                    else 1)
        self._args = [_scalar_int(a, "range") for a in (start, stop, step)]
        self._dtype = dtypes.as_dtype(output_type)
        super().__init__(None, [self._dtype], [[]])
        self._structure = self._dtype

    def _inputs(self) -> list:
        return _tensor_inputs(*self._args)

    def _gen(self, env: Env) -> Iterator[list]:
        start, stop, step = (_int_value(env, a) for a in self._args)
        if step == 0:
            raise errors.InvalidArgumentError(None, None, "step must be a non-zero integer.")
        dt = self._dtype.as_numpy_dtype
        for v in range(start, stop, step):
            yield [np.asarray(v, dtype=dt)]


class GeneratorDataset(DatasetV1):
    def __init__(self, generator: Callable, output_types: Any, output_shapes: Any, args: Any,
                 output_signature: Any) -> None:
        if not callable(generator):
            raise TypeError("`generator` must be a Python callable.")
        if output_signature is not None:
            output_types = st.map_structure(lambda s: s.dtype, output_signature)
            output_shapes = st.map_structure(lambda s: s.shape, output_signature)
        if output_types is None:
            raise TypeError("To specify the output signature you need to provide either the `output_signature` "
                            "argument or the `output_types` argument.")
        structure, flat_types, flat_shapes = st.as_specs(output_types, output_shapes)
        super().__init__(structure, flat_types, flat_shapes)
        self._generator = generator
        self._args = [] if args is None else [ops.convert_to_tensor(a) for a in args]

    def _inputs(self) -> list:
        return list(self._args)

    def _gen(self, env: Env) -> Iterator[list]:
        args = [env.value(a) for a in self._args]
        args = [a.item() if isinstance(a, np.ndarray) and a.ndim == 0 else a for a in args]
        for element in self._generator(*args):
            flat = st.flatten(tuple(element) if isinstance(element, list) and isinstance(self._structure, tuple)
                              else element)
            if len(flat) != len(self._flat_types):
                raise errors.InvalidArgumentError(
                    None, None, "`generator` yielded an element that did not match the expected structure. The "
                                f"expected structure was {self.output_types}, but the yielded element was {element}.")
            out = []
            for v, dt, shape in zip(flat, self._flat_types, self._flat_shapes):
                try:
                    arr = np.asarray(v, dtype=_np_dtype(dt))
                except (TypeError, ValueError):
                    raise errors.InvalidArgumentError(
                        None, None, f"TypeError: `generator` yielded an element that could not be converted to the "
                                    f"expected type. The expected type was {dt.name}, but the yielded element was "
                                    f"{v}.") from None
                if not shape.is_compatible_with(arr.shape):
                    raise errors.InvalidArgumentError(
                        None, None, f"TypeError: `generator` yielded an element of shape {arr.shape} where an element of "
                                    f"shape {tuple(shape.as_list()) if shape.ndims is not None else shape} was "
                                    "expected.")
                out.append(arr)
            yield out


class ZipDataset(DatasetV1):
    def __init__(self, datasets: Any) -> None:
        flat = st.flatten(datasets)
        for d in flat:
            if not isinstance(d, DatasetV1):
                raise TypeError(f"Invalid `datasets`. `datasets` is expected to be a (nested) structure of "
                                f"`tf.data.Dataset` objects. Python `list` is not supported and you should use "
                                f"`tuple` instead.")
        structure = st.pack(datasets, [d._structure for d in flat])
        super().__init__(structure, [t for d in flat for t in d._flat_types],
                         [s for d in flat for s in d._flat_shapes], [c for d in flat for c in d._flat_classes])
        self._datasets = flat

    def _inputs(self) -> list:
        return _dedupe([t for d in self._datasets for t in d._inputs()])

    def _input_datasets(self) -> list:
        return list(self._datasets)

    def _gen(self, env: Env) -> Iterator[list]:
        its = [d._gen(env) for d in self._datasets]
        while True:
            out = []
            for it in its:
                try:
                    out.extend(next(it))
                except StopIteration:
                    return
            yield out


class ListFilesDataset(DatasetV1):
    def __init__(self, pattern: Any, shuffle: bool, seed: Optional[int]) -> None:
        super().__init__(None, [dtypes.string], [[]])
        self._structure = dtypes.string
        self._pattern = ops.convert_to_tensor(pattern, dtype=dtypes.string)
        self._shuffle = shuffle
        self._seeds = _seeds(seed)

    def _inputs(self) -> list:
        return [self._pattern]

    def _gen(self, env: Env) -> Iterator[list]:
        from edgelite.io.file_ops import matching_paths

        from .philox import PhiloxSamples, philox_shuffle, shuffle_seeds
        patterns = env.value(self._pattern)
        elements = ([np.asarray(n.encode("utf-8"), dtype=object)] for n in matching_paths(patterns))
        if not self._shuffle:
            yield from elements
            return
        # TensorFlow shuffles the names with a reshuffling shuffle whose buffer holds all of them.
        seeds = shuffle_seeds(self._seeds, True, env.rngs, id(self))
        yield from philox_shuffle(elements, -1, PhiloxSamples(*seeds))


def _seeds(seed: Optional[int]) -> Optional[tuple]:
    """The (seed, seed2) pair TensorFlow derives for a dataset op (graph and op seed), or None for fresh entropy."""
    s1, s2 = random_seed.get_seed(seed)
    if s1 is None and s2 is None:
        return None
    s1, s2 = int(s1 or 0), int(s2 or 0)
    return None if (s1, s2) == (0, 0) else (s1, s2)


# ---- transformations ---------------------------------------------------------------------------------------------
class _Unary(DatasetV1):
    def __init__(self, input_dataset: DatasetV1, structure: Any, flat_types: list, flat_shapes: list,
                 extra_inputs: Optional[list] = None, flat_classes: Optional[list] = None) -> None:
        super().__init__(structure, flat_types, flat_shapes,
                         input_dataset._flat_classes if flat_classes is None else flat_classes)
        self._input = input_dataset
        self._extra = list(extra_inputs or [])

    def _inputs(self) -> list:
        return _dedupe(self._input._inputs() + self._extra)

    def _input_datasets(self) -> list:
        return [self._input]


class _OptionsDataset(_Unary):
    """with_options: the input's elements, with options."""

    def __init__(self, input_dataset: DatasetV1, options: Options) -> None:
        super().__init__(input_dataset, input_dataset._structure, input_dataset._flat_types,
                         input_dataset._flat_shapes)
        self._own_options = options

    def _gen(self, env: Env) -> Iterator[list]:
        return self._input._gen(env)


def _trace(ds: DatasetV1, fn: Callable, name: str, returns_dataset: bool = False) -> TracedFunction:
    return TracedFunction(fn, ds._structure, ds._flat_types, ds._flat_shapes, ds._flat_classes, name,
                          returns_dataset)


def _is_sparse_value(x: Any) -> bool:
    from edgelite.framework.sparse_tensor import SparseTensorValue
    return isinstance(x, SparseTensorValue)


def _is_ragged_value(x: Any) -> bool:
    from edgelite.ragged.ragged_tensor_value import RaggedTensorValue
    return isinstance(x, RaggedTensorValue)


class MapDataset(_Unary):
    def __init__(self, input_dataset: DatasetV1, fn: Callable, num_parallel_calls: Optional[int],
                 deterministic: Optional[bool] = None, synchronous: Optional[bool] = None) -> None:
        from .parallel_map import op_types
        f = _trace(input_dataset, fn, "map_fn")
        super().__init__(input_dataset, f.structure, f.out_types(), f.out_shapes(), f.captures, f.out_classes())
        self._fn = f
        self._parallel = None if num_parallel_calls is None else int(num_parallel_calls)
        self._deterministic = deterministic
        self._synchronous = synchronous
        self._op_types = op_types(f.graph)
        self.batchable = _row_polymorphic(f, input_dataset)

    def _gen(self, env: Env) -> Iterator[list]:
        from .parallel_map import map_workers, parallel_map
        if self._parallel is not None and self._parallel < 1 and self._parallel != AUTOTUNE:
            raise errors.InvalidArgumentError(None, None, "num_parallel_calls must be greater than zero.")
        # The transformation's own `deterministic` wins over the pipeline's tf.data.Options, as in TensorFlow.
        workers, ordered = map_workers(self._parallel, self._deterministic, self._synchronous, self._op_types,
                                       env.options)
        if workers == 1:
            for element in self._input._gen(env):
                yield self._fn(env, element)
            return
        self._fn.prepare(env)
        yield from parallel_map(self._input._gen(env), lambda element: self._fn(env, element), workers, ordered,
                                env.stop)


# Ops whose kernels give, for a batch of scalar inputs, exactly the stacked per-element results.
_ROW_OPS = {"Placeholder", "Const", "Identity", "Cast", "ParseExampleV2", "DecodeRaw", "DecodeBase64",
            "DecodeCompressed", "DecodeJSONExample"}


def _row_polymorphic(f: TracedFunction, source: DatasetV1) -> bool:
    """Whether a map function may run once on a whole batch of its scalar inputs instead of per element:
    parse_single_example and the byte decoders on records (sequence features pad per batch, so not those)."""
    if not f.leaf_specs or any(c is not ops.Tensor or s.ndims != 0 for s, c in zip(source._flat_shapes,
                                                                                   source._flat_classes)):
        return False
    for op in f.graph.get_operations():
        if op.type not in _ROW_OPS:
            return False
        # ragged values of a batch come out concatenated, not stacked
        if op.type == "ParseExampleV2" and (any(d.seq for d in op.get_attr("_specs")[0]) or op.get_attr("_specs")[2]):
            return False
    return True


class FilterDataset(_Unary):
    def __init__(self, input_dataset: DatasetV1, predicate: Callable) -> None:
        f = _trace(input_dataset, predicate, "filter_fn")
        if len(f.outputs) != 1 or f.outputs[0].dtype.base_dtype != dtypes.bool or \
                not f.outputs[0].shape.is_compatible_with([]):
            raise ValueError(f"Invalid `predicate`. `predicate` must return a `tf.bool` scalar tensor, but its return "
                             f"type was {f.result}.")
        super().__init__(input_dataset, input_dataset._structure, input_dataset._flat_types,
                         input_dataset._flat_shapes, f.captures)
        self._fn = f

    def _gen(self, env: Env) -> Iterator[list]:
        for element in self._input._gen(env):
            if bool(np.asarray(self._fn(env, element)[0])):
                yield element


def _row(v: np.ndarray, i: int) -> np.ndarray:
    """Row i of v as an array (indexing an object array would give a bare bytes value)."""
    return v[i:i + 1].reshape(v.shape[1:])


def _put(out: np.ndarray, index: Any, part: np.ndarray) -> None:
    """Store part at out[index]; a 0-d object array's content, not the array, goes into an object slot."""
    out[index] = part.item() if out.dtype == object and part.ndim == 0 else part


def _stack(items: list, c: int, dt: dtypes.DType) -> np.ndarray:
    parts = [it[c] for it in items]
    if all(type(p) is np.ndarray and p.ndim == 0 for p in parts):
        # Scalars (records, labels): one list conversion instead of a copy per element.
        out = np.empty(len(parts), dtype=_np_dtype(dt))
        out[:] = [p.item() for p in parts]
        return out
    parts = [np.asarray(p) for p in parts]
    for p in parts:
        if p.shape != parts[0].shape:
            raise errors.InvalidArgumentError(
                None, None, "Cannot add tensor to the batch: number of elements does not match. Shapes are: "
                            f"[tensor]: [{','.join(map(str, parts[0].shape))}], [batch]: "
                            f"[{','.join(map(str, p.shape))}]")
    out = np.empty((len(parts),) + parts[0].shape, dtype=_np_dtype(dt))
    for i, p in enumerate(parts):
        _put(out, i, p)
    return out


class BatchDataset(_Unary):
    def __init__(self, input_dataset: DatasetV1, batch_size: Any, drop_remainder: bool) -> None:
        size = _scalar_int(batch_size, "batch_size")
        lead = size if (drop_remainder and isinstance(size, int)) else None
        super().__init__(input_dataset, input_dataset._structure, input_dataset._flat_types,
                         [tensor_shape.TensorShape([lead]).concatenate(s) for s in input_dataset._flat_shapes],
                         _tensor_inputs(size), [c.batched(lead) if st.is_ragged_class(c) else c
                                                for c in input_dataset._flat_classes])
        self._size = size
        self._drop = bool(drop_remainder)

    def _batches(self, env: Env, source: Optional[DatasetV1] = None) -> Iterator[list]:
        size = _int_value(env, self._size)
        if size <= 0:
            raise errors.InvalidArgumentError(None, None, "Batch size must be greater than zero.")
        items: list = []
        for element in (source or self._input)._gen(env):
            items.append(element)
            if len(items) == size:
                yield items
                items = []
        if items and not self._drop:
            yield items

    def _stacked(self, items: list) -> list:
        from edgelite.ops.sparse_rows import stack_rows
        from edgelite.ragged.ragged_rows import stack_values
        return [_stack(items, c, dt) if cls is ops.Tensor else
                (stack_values([it[c] for it in items], cls.row_splits_dtype.as_numpy_dtype)
                 if st.is_ragged_class(cls) else stack_rows([it[c] for it in items]))
                for c, (dt, cls) in enumerate(zip(self._flat_types, self._flat_classes))]

    def _record_batches(self, env: Env, source: DatasetV1) -> Iterator[list]:
        """Batches of a record file dataset as [string array], cut from its bulk chunks of records."""
        size = _int_value(env, self._size)
        if size <= 0:
            raise errors.InvalidArgumentError(None, None, "Batch size must be greater than zero.")
        pending: list = []
        for chunk in source._chunks(env):
            pending.extend(chunk)
            while len(pending) >= size:
                out = np.empty(size, dtype=object)
                out[:] = pending[:size]
                del pending[:size]
                yield [out]
        if pending and not self._drop:
            out = np.empty(len(pending), dtype=object)
            out[:] = pending
            yield [out]

    def _gen(self, env: Env) -> Iterator[list]:
        mapped = self._input
        fused = isinstance(mapped, MapDataset) and mapped.batchable
        source = mapped._input if fused else mapped
        if hasattr(source, "_chunks"):
            for args in self._record_batches(env, source):
                if not fused:
                    yield args
                    continue
                try:
                    yield mapped._fn(env, args)
                except errors.OpError:
                    yield self._stacked([mapped._fn(env, [np.asarray(r, dtype=object)]) for r in args[0]])
            return
        if not fused:
            for items in self._batches(env):
                yield self._stacked(items)
            return
        # map(parse_single_example).batch(n) runs as one parse_example per batch; a failing batch is redone
        # record by record so that the error is the one TensorFlow raises for that record.
        for items in self._batches(env, source):
            args = [_stack(items, c, dt) for c, dt in enumerate(source._flat_types)]
            try:
                yield mapped._fn(env, args)
            except errors.OpError:
                yield self._stacked([mapped._fn(env, it) for it in items])


class PaddedBatchDataset(BatchDataset):
    def __init__(self, input_dataset: DatasetV1, batch_size: Any, padded_shapes: Any, padding_values: Any,
                 drop_remainder: bool) -> None:
        for spec in st.flatten(input_dataset.element_spec):
            if type(spec) is not TensorSpec:
                raise TypeError("`padded_batch` is only supported for datasets that produce tensor elements but "
                                "type spec of elements in the input dataset is not a subclass of TensorSpec: "
                                f"`{spec}`.")
        super().__init__(input_dataset, batch_size, drop_remainder)
        n = len(input_dataset._flat_types)
        if padded_shapes is None:
            shapes = [tensor_shape.TensorShape([None] * s.ndims) if s.ndims is not None else None
                      for s in input_dataset._flat_shapes]
            if any(s is None for s in shapes):
                raise ValueError("You must provide `padded_shapes` argument because component has unknown rank.")
        else:
            shapes = [tensor_shape.as_shape([None if d == -1 else d for d in np.ravel(s).tolist()])
                      if not isinstance(s, tensor_shape.TensorShape) else s
                      for s in st._flatten_shapes(input_dataset._structure, padded_shapes)]
        if padding_values is None:
            pads = [b"" if dt == dtypes.string else 0 for dt in input_dataset._flat_types]
        else:
            from edgelite.framework.tensor_util import constant_value
            flat = st.flatten(padding_values) if isinstance(padding_values, (tuple, dict)) else [padding_values] * n
            pads = [constant_value(v) if isinstance(v, ops.Tensor) else v for v in flat]
            if any(v is None for v in pads):
                raise ValueError("padding_values must be constants (Python values or constant tensors)")
        self._padded = shapes
        self._pads = pads
        lead = self._flat_shapes[0][0] if self._flat_shapes else None
        self._flat_shapes = [tensor_shape.TensorShape([lead]).concatenate(s) for s in shapes]

    def _gen(self, env: Env) -> Iterator[list]:
        for items in self._batches(env):
            out = []
            for c, (dt, shape, pad) in enumerate(zip(self._flat_types, self._padded, self._pads)):
                parts = [np.asarray(it[c]) for it in items]
                dims = [max(p.shape[d] for p in parts) if shape[d].value is None else shape[d].value
                        for d in range(shape.ndims)]
                arr = np.empty((len(parts),) + tuple(dims), dtype=_np_dtype(dt))
                arr[...] = pad
                for i, p in enumerate(parts):
                    if any(a > b for a, b in zip(p.shape, dims)):
                        raise errors.InvalidArgumentError(
                            None, None, f"Attempted to pad to a smaller size than the input element. Component {c} "
                                        f"has shape [{','.join(map(str, p.shape))}], padded shape "
                                        f"[{','.join(map(str, dims))}]")
                    _put(arr, (i,) + tuple(slice(0, k) for k in p.shape), p)
                out.append(arr)
            yield out


def _unbatched_class(cls: Any) -> Any:
    """A row's class: a ragged component loses one ragged dimension (a dense row of a ragged_rank 0 one)."""
    if not st.is_ragged_class(cls):
        return cls
    return ops.Tensor if cls.ragged_rank == 0 else cls.unbatched()


class UnbatchDataset(_Unary):
    def __init__(self, input_dataset: DatasetV1) -> None:
        for s, c in zip(input_dataset._flat_shapes, input_dataset._flat_classes):
            if s.ndims == 0:
                raise ValueError("Unbatching a sparse tensor is only supported for rank >= 1." if c is not ops.Tensor
                                 else "Cannot unbatch an input with scalar components.")
        known = tensor_shape.Dimension(None)
        for s in input_dataset._flat_shapes:
            if s.ndims:
                if not known.is_compatible_with(s[0]):
                    raise ValueError("`unbatch()` is only supported for datasets of elements whose components have a "
                                     f"matching leading dimension. Encountered both {known} and {s[0]}.")
                known = known.merge_with(s[0])
        super().__init__(input_dataset, input_dataset._structure, input_dataset._flat_types,
                         [s[1:] if s.ndims is not None else s for s in input_dataset._flat_shapes], None,
                         [_unbatched_class(c) for c in input_dataset._flat_classes])

    def _gen(self, env: Env) -> Iterator[list]:
        from edgelite.ops.sparse_rows import split_rows
        from edgelite.ragged.ragged_rows import split_values
        for element in self._input._gen(env):
            parts = [split_rows(c, "unbatch") if _is_sparse_value(c) else
                     (split_values(c) if _is_ragged_value(c) else np.asarray(c)) for c in element]
            sizes = {len(p) if isinstance(p, list) else p.shape[0] for p in parts}
            if len(sizes) > 1:
                raise errors.InvalidArgumentError(None, None, "Input element must have the same batch size in each "
                                                              f"component. Component 0 had size {min(sizes)} but "
                                                              f"component 1 had size {max(sizes)}.")
            for i in range(sizes.pop() if sizes else 0):
                yield [p[i] if isinstance(p, list) else _row(p, i) for p in parts]


class ShuffleDataset(_Unary):
    def __init__(self, input_dataset: DatasetV1, buffer_size: Any, seed: Optional[int], reshuffle: bool) -> None:
        size = _scalar_int(buffer_size, "buffer_size")
        super().__init__(input_dataset, input_dataset._structure, input_dataset._flat_types,
                         input_dataset._flat_shapes, _tensor_inputs(size))
        self._size = size
        self._seeds = _seeds(seed)
        self._reshuffle = reshuffle

    def _gen(self, env: Env) -> Iterator[list]:
        from .philox import PhiloxSamples, philox_shuffle, shuffle_seeds
        size = _int_value(env, self._size)
        if size <= 0 and size != UNKNOWN_CARDINALITY:
            raise errors.InvalidArgumentError(None, None, "buffer_size must be greater than zero or "
                                                          "UNKNOWN_CARDINALITY")
        # A reshuffling dataset draws each pass's seeds from a generator kept per iterator, so repeated passes
        # (and sessions) follow TensorFlow's sequence of orders.
        seeds = shuffle_seeds(self._seeds, self._reshuffle, env.rngs, id(self))
        yield from philox_shuffle(self._input._gen(env), size, PhiloxSamples(*seeds))


class RepeatDataset(_Unary):
    def __init__(self, input_dataset: DatasetV1, count: Any) -> None:
        count = -1 if count is None else _scalar_int(count, "count")
        super().__init__(input_dataset, input_dataset._structure, input_dataset._flat_types,
                         input_dataset._flat_shapes, _tensor_inputs(count))
        self._count = count

    def _gen(self, env: Env) -> Iterator[list]:
        count = _int_value(env, self._count)
        epoch = 0
        while count < 0 or epoch < count:
            produced = False
            for element in self._input._gen(env):
                produced = True
                yield element
            epoch += 1
            if not produced:
                return


class _Counted(_Unary):
    """A transformation keeping its input's elements and structure, with an int64 count argument."""

    def __init__(self, input_dataset: DatasetV1, count: Any) -> None:
        count = _scalar_int(count, "count")
        super().__init__(input_dataset, input_dataset._structure, input_dataset._flat_types,
                         input_dataset._flat_shapes, _tensor_inputs(count))
        self._count = count


class TakeDataset(_Counted):
    def _gen(self, env: Env) -> Iterator[list]:
        count = _int_value(env, self._count)
        if count == 0:
            return
        for i, element in enumerate(self._input._gen(env)):
            yield element
            if count >= 0 and i + 1 >= count:
                return


class SkipDataset(_Counted):
    def _gen(self, env: Env) -> Iterator[list]:
        count = _int_value(env, self._count)
        for i, element in enumerate(self._input._gen(env)):
            if count < 0 or i < count:
                continue
            yield element


class ConcatenateDataset(_Unary):
    def __init__(self, first: DatasetV1, second: DatasetV1) -> None:
        if first._flat_types != second._flat_types or first._flat_classes != second._flat_classes:
            raise TypeError(f"Incompatible dataset elements:\n{first.element_spec} vs. \n{second.element_spec}")
        shapes = [a.most_specific_compatible_shape(b) if hasattr(a, "most_specific_compatible_shape") else
                  (a if a.as_list() == b.as_list() else tensor_shape.unknown_shape())
                  for a, b in zip(first._flat_shapes, second._flat_shapes)]
        super().__init__(first, first._structure, first._flat_types, shapes)
        self._second = second

    def _inputs(self) -> list:
        return _dedupe(self._input._inputs() + self._second._inputs())

    def _input_datasets(self) -> list:
        return [self._input, self._second]

    def _gen(self, env: Env) -> Iterator[list]:
        yield from self._input._gen(env)
        yield from self._second._gen(env)


class InterleaveDataset(_Unary):
    def __init__(self, input_dataset: DatasetV1, fn: Callable, cycle_length: Optional[int],
                 block_length: Optional[int]) -> None:
        f = _trace(input_dataset, fn, "interleave_fn", returns_dataset=True)
        inner = f.dataset
        super().__init__(input_dataset, inner._structure, inner._flat_types, inner._flat_shapes, f.captures,
                         inner._flat_classes)
        self._fn = f
        self._cycle = AUTOTUNE if cycle_length is None else int(cycle_length)
        self._block = 1 if block_length is None else int(block_length)

    def _open(self, env: Env, element: list) -> Iterator[list]:
        values = self._fn(env, element)
        given = {id(t): v for t, v in zip(self._fn.sources, values)}
        given.update(self._fn.window_values(element))
        return self._fn.dataset._gen(env.child(given))

    def _gen(self, env: Env) -> Iterator[list]:
        # TensorFlow's order: visit the cycle's slots in turn, block_length elements each; an exhausted slot
        # is refilled from the next input element when the cycle comes back to it.
        import os
        cycle = (os.cpu_count() or 1) if self._cycle in (AUTOTUNE, 0) else self._cycle
        source = self._input._gen(env)
        slots: list = [None] * cycle
        index = block = num_open = 0
        end_of_input = False
        while not end_of_input or num_open > 0:
            if slots[index] is not None:
                try:
                    element = next(slots[index])
                except StopIteration:
                    slots[index] = None
                    num_open -= 1
                    index, block = (index + 1) % cycle, 0
                    continue
                block += 1
                if block == self._block:
                    index, block = (index + 1) % cycle, 0
                yield element
            elif not end_of_input:
                try:
                    slots[index] = self._open(env, next(source))
                    num_open += 1
                except StopIteration:
                    end_of_input = True
            else:
                index, block = (index + 1) % cycle, 0


class CacheDataset(_Unary):
    def __init__(self, input_dataset: DatasetV1, filename: str) -> None:
        super().__init__(input_dataset, input_dataset._structure, input_dataset._flat_types,
                         input_dataset._flat_shapes)
        self._filename = filename

    def _gen(self, env: Env) -> Iterator[list]:
        import os
        import pickle
        path = f"{self._filename}.edgelite-cache" if self._filename else None
        cached = env.rngs.get(("cache", id(self)))
        if cached is None and path and os.path.exists(path):
            with open(path, "rb") as f:
                cached = pickle.load(f)
        if cached is not None:
            yield from cached
            return
        seen = []
        for element in self._input._gen(env):
            seen.append(element)
            yield element
        env.rngs[("cache", id(self))] = seen
        if path:
            with open(path, "wb") as f:
                pickle.dump(seen, f)


class PrefetchDataset(_Unary):
    def __init__(self, input_dataset: DatasetV1, buffer_size: Any) -> None:
        size = _scalar_int(buffer_size, "buffer_size")
        super().__init__(input_dataset, input_dataset._structure, input_dataset._flat_types,
                         input_dataset._flat_shapes, _tensor_inputs(size))
        self._size = size

    def _gen(self, env: Env) -> Iterator[list]:
        size = _int_value(env, self._size)
        buf: "_queue.Queue" = _queue.Queue(maxsize=8 if size in (AUTOTUNE, 0) or size < 0 else size)
        done = object()
        stop = threading.Event()

        def produce() -> None:
            try:
                for element in self._input._gen(env):
                    while not (stop.is_set() or env.stop.is_set()):
                        try:
                            buf.put(element, timeout=0.05)
                            break
                        except _queue.Full:
                            continue
                    else:
                        return
                item: Any = done
            except BaseException as e:  # noqa: BLE001 - handed to the consumer, which raises it in its step
                item = e
            while not (stop.is_set() or env.stop.is_set()):
                try:
                    buf.put(item, timeout=0.05)
                    return
                except _queue.Full:
                    continue

        worker = threading.Thread(target=produce, daemon=True, name="edgelite-prefetch")
        worker.start()
        try:
            while True:
                while True:
                    if env.stop.is_set():
                        raise errors.CancelledError(None, None, "Iterator was cancelled (its session was closed).")
                    try:
                        item = buf.get(timeout=0.05)
                        break
                    except _queue.Empty:
                        continue
                if item is done:
                    return
                if isinstance(item, BaseException):
                    raise item
                yield item
        finally:
            stop.set()
            worker.join(timeout=5)
