"""What Session(config=ConfigProto(...)) changes on edgelite's single CPU device: placement checks, placement
logging and the intra-op thread count."""
from __future__ import annotations

import contextlib
import sys
import threading
from typing import Any, ContextManager, Iterable

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


_controller_lock = threading.Lock()
_controller: Any = None
_modules_at_scan = -1


def _blas_controller() -> Any:
    """threadpoolctl's view of the loaded BLAS/OpenMP libraries, rescanned only after new modules were imported.

    Scanning the process's libraries costs ~80 µs, far more than a small graph's step; a library that brings a
    new thread pool arrives with an imported module, so the module count says when to scan again.
    """
    global _controller, _modules_at_scan
    with _controller_lock:
        if _controller is None or len(sys.modules) != _modules_at_scan:
            from threadpoolctl import ThreadpoolController
            _controller = ThreadpoolController()
            _modules_at_scan = len(sys.modules)
        return _controller


def intra_op_thread_count(config: Any) -> int:
    """ConfigProto's intra_op_parallelism_threads (0: leave the libraries' own thread counts)."""
    threads = getattr(config, "intra_op_parallelism_threads", 0) if config is not None else 0
    return max(int(threads or 0), 0)


def intra_op_threads(config: Any) -> ContextManager:
    """Limit the compiled kernels' threads and the BLAS/OpenMP pools of the numpy kernels to
    intra_op_parallelism_threads (0 = leave as is)."""
    threads = intra_op_thread_count(config)
    if threads == 0:
        return contextlib.nullcontext()
    from edgelite.kernels.native_lib import threads_for_calls
    stack = contextlib.ExitStack()
    stack.enter_context(_blas_controller().limit(limits=threads))
    stack.enter_context(threads_for_calls(threads))
    return stack
