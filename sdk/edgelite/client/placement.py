"""What Session(config=ConfigProto(...)) changes on edgelite's single CPU device: placement checks, placement
logging and the intra-op thread count."""
from __future__ import annotations

import contextlib
import sys
from typing import Any, Iterable, Iterator

from edgelite.framework import errors
from edgelite.framework.device import DeviceSpec

CPU_DEVICE = "/job:localhost/replica:0/task:0/device:CPU:0"


def check_placement(ops: Iterable[Any], config: Any) -> None:
    """Raise TensorFlow's InvalidArgumentError for an op pinned to a non-CPU device, unless soft placement is on."""
    if config is not None and getattr(config, "allow_soft_placement", False):
        return
    for op in ops:
        if not op.device:
            continue
        device_type = DeviceSpec.from_string(op.device).device_type
        if device_type is not None and device_type.upper() != "CPU":
            raise errors.InvalidArgumentError(
                None, op,
                f"Cannot assign a device for operation {op.name}: {{{{node {op.name}}}}} was explicitly assigned "
                f"to {op.device} but available devices are [ {CPU_DEVICE} ]. Make sure the device specification "
                f"refers to a valid device.")


def log_placement(ops: Iterable[Any], config: Any) -> None:
    """With log_device_placement, write each op's device to stderr in TensorFlow's 'name: (Type): device' form."""
    if config is None or not getattr(config, "log_device_placement", False):
        return
    for op in ops:
        sys.stderr.write(f"{op.name}: ({op.type}): {CPU_DEVICE}\n")
    sys.stderr.flush()


@contextlib.contextmanager
def intra_op_threads(config: Any) -> Iterator[None]:
    """Limit the BLAS/OpenMP pools the numpy kernels use to intra_op_parallelism_threads (0 = leave as is)."""
    threads = getattr(config, "intra_op_parallelism_threads", 0) if config is not None else 0
    if threads <= 0:
        yield
        return
    from threadpoolctl import threadpool_limits

    with threadpool_limits(limits=threads):
        yield
