"""tf.train.replica_device_setter: place variables round-robin on ps tasks, everything else on the worker.

edgelite records devices and does not dial them; under edgelite.distribute every replica keeps its own copy of
the variables (kept equal by the synchronous optimizer), so the placement is accepted and visible on the ops
(`op.device`), which is what between-graph replication scripts need to run unchanged.
"""
from __future__ import annotations

import logging
from typing import Any, Callable, List, Optional

from edgelite.framework.device import DeviceSpec

from .cluster_spec import ClusterSpec

logger = logging.getLogger("edgelite.distribute")

STANDARD_PS_OPS = ("Variable", "VariableV2", "AutoReloadVariable", "MutableHashTable", "MutableHashTableV2",
                   "MutableHashTableOfTensors", "MutableHashTableOfTensorsV2", "MutableDenseHashTable",
                   "MutableDenseHashTableV2", "VarHandleOp", "BoostedTreesEnsembleResourceHandleOp",
                   "BoostedTreesQuantileStreamResourceHandleOp")


class _RoundRobinStrategy:
    """Task 0, 1, ..., n-1, 0, ... for successive ps ops."""

    def __init__(self, num_tasks: int) -> None:
        self._num_tasks = num_tasks
        self._next = 0

    def __call__(self, op: Any) -> int:
        task = self._next
        self._next = (self._next + 1) % self._num_tasks
        return task


class _ReplicaDeviceChooser:
    def __init__(self, ps_tasks: int, ps_device: str, worker_device: str, merge_devices: bool,
                 ps_ops: List[str], ps_strategy: Callable[[Any], int]) -> None:
        self._ps_tasks = ps_tasks
        self._ps_device = ps_device
        self._worker_device = worker_device
        self._merge_devices = merge_devices
        self._ps_ops = ps_ops
        self._ps_strategy = ps_strategy

    def device_function(self, op: Any) -> str:
        """The device of `op`: a ps task for variable-like ops, else the worker device, merged with op's own."""
        if not self._merge_devices and op.device:
            return op.device
        current = DeviceSpec.from_string(op.device or "")
        if self._ps_tasks and self._ps_device and op.type in self._ps_ops:
            ps = DeviceSpec.from_string(self._ps_device)
            if ps.job and (not current.job or current.job == ps.job):
                ps.task = self._ps_strategy(op)
            return ps.make_merged_spec(current).to_string()
        worker = DeviceSpec.from_string(self._worker_device or "")
        return worker.make_merged_spec(current).to_string()


def replica_device_setter(ps_tasks: int = 0, ps_device: str = "/job:ps", worker_device: str = "/job:worker",
                          merge_devices: bool = True, cluster: Any = None, ps_ops: Optional[List[str]] = None,
                          ps_strategy: Optional[Callable[[Any], int]] = None) -> Optional[Callable[[Any], str]]:
    """A device function for `tf.device`: variables round-robin over the ps tasks, other ops on the worker.

    None (a no-op for tf.device) when there is no ps task: `cluster` is None and `ps_tasks` is 0, or the
    cluster has no job named as `ps_device`'s.
    """
    if cluster is not None:
        spec = (cluster if isinstance(cluster, ClusterSpec) else ClusterSpec(cluster)).as_dict()
        ps_job = DeviceSpec.from_string(ps_device).job
        if ps_job not in spec or spec[ps_job] is None:
            return None
        ps_tasks = len(spec[ps_job])
    if ps_tasks == 0:
        return None
    if ps_ops is None:
        ps_ops = list(STANDARD_PS_OPS)
    if not merge_devices:
        logger.warning("DEPRECATION NOTE: merge_devices=False in replica_device_setter will be removed; "
                       "devices are then only set on ops that have none.")
    if ps_strategy is None:
        ps_strategy = _RoundRobinStrategy(ps_tasks)
    if not callable(ps_strategy):
        raise TypeError("ps_strategy must be callable")
    return _ReplicaDeviceChooser(ps_tasks, ps_device, worker_device, merge_devices, ps_ops,
                                 ps_strategy).device_function
