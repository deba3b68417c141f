"""ConfigProto and the option messages it holds (TensorFlow's config.proto), accepted by Session(config=...).

Field numbers follow TensorFlow's config.proto, so the bytes match what TensorFlow writes. On edgelite's single
CPU device the settings that mean something are intra_op_parallelism_threads (the BLAS thread count during a
run), log_device_placement and allow_soft_placement; the GPU and graph-rewrite options are carried unchanged.
"""
from __future__ import annotations

from edgelite.summary._wire import Field, Message, declare


class ThreadPoolOptionProto(Message):
    """Size (and shared name) of one inter-op thread pool."""


class GPUOptions(Message):
    """GPU memory and visibility settings (carried; edgelite runs on the CPU)."""


class OptimizerOptions(Message):
    """Graph-optimisation switches of TensorFlow's runtime (carried)."""

    L1, L0 = 0, -1
    DEFAULT, OFF, ON_1, ON_2 = 0, -1, 1, 2


class GraphOptions(Message):
    """Graph-level options: optimizer options, shape inference, cost-model switches (carried)."""


class ConfigProto(Message):
    """Session configuration: thread counts, device counts, placement logging and soft placement."""

    class DeviceCountEntry(Message):
        """A map<string, int32> entry of device_count."""


declare(ThreadPoolOptionProto, [Field("num_threads", 1, "int32"), Field("global_name", 2, "string")])
declare(GPUOptions, [
    Field("per_process_gpu_memory_fraction", 1, "double"), Field("allocator_type", 2, "string"),
    Field("deferred_deletion_bytes", 3, "int64"), Field("allow_growth", 4, "bool"),
    Field("visible_device_list", 5, "string"), Field("polling_active_delay_usecs", 6, "int32"),
    Field("polling_inactive_delay_msecs", 7, "int32"), Field("force_gpu_compatible", 8, "bool"),
])
declare(OptimizerOptions, [
    Field("do_common_subexpression_elimination", 1, "bool"), Field("do_constant_folding", 2, "bool"),
    Field("opt_level", 3, "enum"), Field("do_function_inlining", 4, "bool"), Field("global_jit_level", 5, "enum"),
    Field("max_folded_constant_in_bytes", 6, "int64"), Field("cpu_global_jit", 7, "bool"),
])
declare(GraphOptions, [
    Field("enable_recv_scheduling", 2, "bool"), Field("optimizer_options", 3, OptimizerOptions),
    Field("build_cost_model", 4, "int64"), Field("infer_shapes", 5, "bool"),
    Field("place_pruned_graph", 6, "bool"), Field("enable_bfloat16_sendrecv", 7, "bool"),
    Field("timeline_step", 8, "int32"), Field("build_cost_model_after", 9, "int64"),
])
declare(ConfigProto.DeviceCountEntry, [Field("key", 1, "string"), Field("value", 2, "int32")])
declare(ConfigProto, [
    Field("device_count", 1, ConfigProto.DeviceCountEntry, repeated=True, is_map=True),
    Field("intra_op_parallelism_threads", 2, "int32"), Field("placement_period", 3, "int32"),
    Field("device_filters", 4, "string", repeated=True), Field("inter_op_parallelism_threads", 5, "int32"),
    Field("gpu_options", 6, GPUOptions), Field("allow_soft_placement", 7, "bool"),
    Field("log_device_placement", 8, "bool"), Field("use_per_session_threads", 9, "bool"),
    Field("graph_options", 10, GraphOptions), Field("operation_timeout_in_ms", 11, "int64"),
    Field("session_inter_op_thread_pool", 12, ThreadPoolOptionProto, repeated=True),
    Field("isolate_session_state", 15, "bool"), Field("share_cluster_devices_in_session", 17, "bool"),
])
