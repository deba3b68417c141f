"""One small local Ray cluster for the distributed tests, always shut down (also when a test fails)."""
from __future__ import annotations

import pytest


@pytest.fixture(scope="session")
def ray_cluster():
    ray = pytest.importorskip("ray", reason="Ray (the `distributed` extra) has no wheel for this Python/platform")
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False, object_store_memory=100 * 1024 * 1024)
    try:
        yield ray
    finally:
        ray.shutdown()
