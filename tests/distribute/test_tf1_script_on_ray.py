"""A TF1 between-graph replication script runs on two Ray replicas through run_cluster, with variables placed on
the ps job by replica_device_setter, and trains as one process would on the whole batch."""
from __future__ import annotations

import functools
import sys
from pathlib import Path

import numpy as np
import pytest

ray = pytest.importorskip("ray", reason="Ray (the `distributed` extra) has no wheel for this Python/platform")

from edgelite.distribute import run_cluster  # noqa: E402

sys.path.insert(0, str(Path(__file__).parent))
import tf1_between_graph as script  # noqa: E402

# The Ray workers cannot import the test directory: send the script's functions by value.
ray.cloudpickle.register_pickle_by_value(script)


def test_between_graph_script_runs_on_two_replicas(ray_cluster, tmp_path):
    job = run_cluster(functools.partial(script.main, checkpoint_dir=str(tmp_path)), script.CLUSTER)
    chief, other = job.results
    assert len(chief["losses"]) == len(other["losses"]) == script.STEPS
    assert job.stats["ledger"] == list(range(script.STEPS))
    # replica_device_setter put the variables on the ps task, as under TensorFlow.
    assert chief["devices"]["hidden/kernel"] == "/job:ps/task:0"
    for name, value in chief["weights"].items():
        np.testing.assert_array_equal(value, other["weights"][name])
    reference = script.one_process()
    for name, value in reference.items():
        np.testing.assert_allclose(chief["weights"][name], value, rtol=1e-4, atol=1e-5)
    assert chief["losses"][-1] < chief["losses"][0]
    # The chief checkpointed the last step.
    import edgelite as tf
    assert tf.train.latest_checkpoint(str(tmp_path)).endswith(f"model.ckpt-{script.STEPS}")


@pytest.mark.parametrize("replicas_to_aggregate, total_num_replicas, runs_per_step, max_dropped", [
    # A backup replica: a step closes on its first gradient and the other one, arriving later, is stale. When
    # both arrive before the step can close (the previous average not yet taken by both), both are averaged,
    # as TF's ConditionalAccumulator averages every gradient it holds at take_grad: so at most one drop a step.
    (1, 2, 1, script.STEPS),
    (4, 2, 2, 0),             # fewer replicas than gradients: each replica computes two batches per step
])
def test_replicas_to_aggregate_and_total_num_replicas(ray_cluster, replicas_to_aggregate, total_num_replicas,
                                                      runs_per_step, max_dropped):
    job = run_cluster(functools.partial(script.main, replicas_to_aggregate=replicas_to_aggregate,
                                        total_num_replicas=total_num_replicas), script.CLUSTER)
    chief, other = job.results
    assert job.stats["ledger"] == list(range(script.STEPS))
    assert job.stats["dropped"] <= max_dropped
    # Every gradient pushed was either averaged into a commit (each commit took at least the quota) or dropped.
    assert job.stats["averaged"] + job.stats["dropped"] == 2 * runs_per_step * script.STEPS
    assert job.stats["averaged"] >= replicas_to_aggregate * script.STEPS
    assert len(chief["losses"]) == len(other["losses"]) == runs_per_step * script.STEPS
    for name, value in chief["weights"].items():
        np.testing.assert_array_equal(value, other["weights"][name])
    assert chief["losses"][-1] < chief["losses"][0]
