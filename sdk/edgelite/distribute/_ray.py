"""The one place that imports Ray, so every entry point fails the same way when the extra is missing."""
from __future__ import annotations

from typing import Any

MISSING_RAY = ('edgelite.distribute needs Ray, which is not installed; install the extra with: '
               'pip install "edgelite[distributed]"')


def require_ray() -> Any:
    """The `ray` module, or ImportError naming the `distributed` extra."""
    try:
        import ray
    except ImportError as exc:
        raise ImportError(MISSING_RAY) from exc
    return ray


def init_cluster(num_workers: int, address: Any = None, object_store_mb: int = 100) -> bool:
    """Attach to `address`, or start a small local cluster (no dashboard) with one CPU per worker.

    Returns True if this call started Ray, so the caller knows to shut it down again.
    """
    ray = require_ray()
    if ray.is_initialized():
        return False
    if address:
        ray.init(address=address, include_dashboard=False, log_to_driver=False)
    else:
        ray.init(num_cpus=max(1, num_workers), include_dashboard=False, log_to_driver=False,
                 object_store_memory=object_store_mb * 1024 * 1024)
    return True
