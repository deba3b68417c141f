"""tf.data.Options and its option groups: typed properties (None until set), merged by with_options.

What changes how edgelite runs a pipeline, as in TensorFlow: `deterministic` (the order of parallel map
results), `threading.private_threadpool_size` (how many map calls run at once) and
`experimental_optimization.map_parallelization` / `apply_default_optimizations` (stateless Python maps run in
parallel); see data/parallel_map.py. The other options are accepted and kept, as the graph rewrites and
autotuning they steer do not exist here.
"""
from __future__ import annotations

import enum
import logging
from typing import Any, Callable, Optional


def _option(name: str, ty: type, doc: str, default: Callable[[], Any] = lambda: None) -> property:
    """A property checked against ty when set, created by default on first read."""
    def get(self: "OptionsBase") -> Any:
        if name not in self._options:
            self._options[name] = default()
        return self._options[name]

    def put(self: "OptionsBase", value: Any) -> None:
        if not isinstance(value, ty):
            raise TypeError(f'Property "{name}" must be of type {ty}, got: {value} (type: {type(value)})')
        self._options[name] = value
    return property(get, put, None, doc)


class OptionsBase:
    """A set of options; only declared properties can be set, and a dataset's own options are read-only."""

    def __init__(self) -> None:
        object.__setattr__(self, "_options", {})
        object.__setattr__(self, "_mutable", True)

    def __eq__(self, other: Any) -> bool:
        if not isinstance(other, self.__class__):
            return NotImplemented
        return all(getattr(self, n) == getattr(other, n) for n in set(self._options) | set(other._options))

    def __ne__(self, other: Any) -> bool:
        if not isinstance(other, self.__class__):
            return NotImplemented
        return not self.__eq__(other)

    __hash__ = None  # type: ignore[assignment]

    def __setattr__(self, name: str, value: Any) -> None:
        if not self._mutable:
            raise ValueError("Mutating `tf.data.Options()` returned by `tf.data.Dataset.options()` has no effect. "
                             "Use `tf.data.Dataset.with_options(options)` to set or update dataset options.")
        if not hasattr(self, name):
            raise AttributeError(f"Cannot set the property {name} on {type(self).__name__}.")
        object.__setattr__(self, name, value)

    def _frozen(self) -> "OptionsBase":
        """This object (and its groups) made read-only."""
        for value in self._options.values():
            if isinstance(value, OptionsBase):
                value._frozen()
        object.__setattr__(self, "_mutable", False)
        return self


def merge_options(*options_list: OptionsBase) -> OptionsBase:
    """A new options object: the options set in each argument, a later setting replacing an earlier one."""
    if not options_list:
        raise ValueError("At least one options should be provided")
    kind = type(options_list[0])
    for options in options_list:
        if not isinstance(options, kind):
            raise TypeError(f"Could not merge incompatible options of type {type(options)} and {kind}.")
    if not isinstance(options_list[0], OptionsBase):
        raise TypeError("All options to be merged should inherit from `OptionsBase` but found option of type "
                        f"{kind} which does not.")
    defaults, result = kind(), kind()
    for options in options_list:
        for name in options._options:
            mine, theirs, default = getattr(result, name), getattr(options, name), getattr(defaults, name)
            if theirs == default:
                continue
            if mine == default:
                setattr(result, name, theirs)
            elif isinstance(mine, OptionsBase):
                setattr(result, name, merge_options(mine, theirs))
            elif name == "framework_type":
                setattr(result, name, mine + theirs)
            elif mine != theirs:
                logging.getLogger("edgelite").warning("Changing the value of option %s from %r to %r.", name, mine,
                                                      theirs)
                setattr(result, name, theirs)
    return result


class AutoShardPolicy(enum.IntEnum):
    """How a multi-worker input pipeline is sharded."""

    OFF = -1
    AUTO = 0
    FILE = 1
    DATA = 2
    HINT = 3


class ExternalStatePolicy(enum.Enum):
    """What to do with external state (e.g. a random seed) when a pipeline is serialized."""

    WARN = 0
    IGNORE = 1
    FAIL = 2


class AutotuneAlgorithm(enum.Enum):
    """The algorithm tf.data's autotuning uses."""

    DEFAULT = 0
    HILL_CLIMB = 1
    GRADIENT_DESCENT = 2
    MAX_PARALLELISM = 3
    STAGE_BASED = 4


class AutotuneOptions(OptionsBase):
    """Autotuning options (enabled, CPU and RAM budgets, algorithm, parallelism bounds)."""

    autotune_algorithm = _option("autotune_algorithm", AutotuneAlgorithm, "The autotuning algorithm.")
    cpu_budget = _option("cpu_budget", int, "The CPU budget of autotuning.")
    enabled = _option("enabled", bool, "Whether to tune performance knobs automatically (None: True).")
    initial_parallelism = _option("initial_parallelism", int, "Parallelism before autotuning has run.")
    min_parallelism = _option("min_parallelism", int, "The least parallelism autotuning may choose.")
    ram_budget = _option("ram_budget", int, "The RAM budget of autotuning, in bytes.")


class DistributeOptions(OptionsBase):
    """Options for input pipelines distributed over devices or workers."""

    auto_shard_policy = _option("auto_shard_policy", AutoShardPolicy, "The type of sharding to use.",
                                lambda: AutoShardPolicy.AUTO)
    num_devices = _option("num_devices", int, "The number of devices attached to this input pipeline.")


class OptimizationOptions(OptionsBase):
    """Which static optimizations of the input pipeline graph are applied."""

    apply_default_optimizations = _option("apply_default_optimizations", bool, "Apply the default optimizations.")
    filter_fusion = _option("filter_fusion", bool, "Fuse filter transformations (None: False).")
    filter_parallelization = _option("filter_parallelization", bool, "Parallelize stateless filters (None: False).")
    inject_prefetch = _option("inject_prefetch", bool, "Append a prefetch to the pipeline (None: True).")
    map_and_batch_fusion = _option("map_and_batch_fusion", bool, "Fuse map and batch (None: True).")
    map_and_filter_fusion = _option("map_and_filter_fusion", bool, "Fuse map and filter (None: False).")
    map_fusion = _option("map_fusion", bool, "Fuse map transformations (None: False).")
    map_parallelization = _option("map_parallelization", bool, "Parallelize stateless maps (None: True).")
    noop_elimination = _option("noop_elimination", bool, "Eliminate no-op transformations (None: True).")
    parallel_batch = _option("parallel_batch", bool, "Parallelize copying of batch elements (None: True).")
    seq_interleave_prefetch = _option("seq_interleave_prefetch", bool, "Sequential prefetching interleave.")
    shuffle_and_repeat_fusion = _option("shuffle_and_repeat_fusion", bool, "Fuse shuffle and repeat (None: True).")


class ServiceOptions(OptionsBase):
    """tf.data service options."""

    pinned = _option("pinned", bool, "Whether the service client allocates pinned memory.")


class ThreadingOptions(OptionsBase):
    """Thread pool options of the input pipeline."""

    max_intra_op_parallelism = _option("max_intra_op_parallelism", int, "The maximum intra-op parallelism.")
    private_threadpool_size = _option("private_threadpool_size", int, "The size of a private thread pool.")


class Options(OptionsBase):
    """The options of a dataset, set with Dataset.with_options (deterministic, threading, optimization...)."""

    autotune = _option("autotune", AutotuneOptions, "The autotuning options.", AutotuneOptions)
    dataset_name = _option("dataset_name", str, "A name for the dataset, to help in debugging.")
    deterministic = _option("deterministic", bool, "Whether outputs come in deterministic order (None: True).")
    experimental_distribute = _option("experimental_distribute", DistributeOptions, "The distribution options.",
                                      DistributeOptions)
    experimental_external_state_policy = _option("experimental_external_state_policy", ExternalStatePolicy,
                                                 "How external state is handled when serializing.")
    experimental_optimization = _option("experimental_optimization", OptimizationOptions,
                                        "The optimization options.", OptimizationOptions)
    experimental_service = _option("experimental_service", ServiceOptions, "The tf.data service options.",
                                   ServiceOptions)
    experimental_slack = _option("experimental_slack", bool, "Whether the last prefetch introduces slack.")
    experimental_symbolic_checkpoint = _option("experimental_symbolic_checkpoint", bool,
                                               "Whether to checkpoint cursors instead of buffered data.")
    experimental_warm_start = _option("experimental_warm_start", bool,
                                      "Whether background threads start when the iterator is created.")
    framework_type = _option("framework_type", list, "The frameworks used to build this pipeline.")
    threading = _option("threading", ThreadingOptions, "The threading options.", ThreadingOptions)

    @property
    def experimental_deterministic(self) -> Optional[bool]:
        """DEPRECATED. Use `deterministic` instead."""
        return self.deterministic

    @property
    def experimental_threading(self) -> ThreadingOptions:
        """DEPRECATED. Use `threading` instead."""
        return self.threading

    def __setattr__(self, name: str, value: Any) -> None:
        alias = {"experimental_deterministic": "deterministic", "experimental_threading": "threading"}
        super().__setattr__(alias.get(name, name), value)

    def merge(self, options: "Options") -> "Options":
        """A new Options: this one's settings with those set in options replacing them."""
        return merge_options(self, options)
