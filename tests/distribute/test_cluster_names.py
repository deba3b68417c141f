"""ClusterSpec, replica_device_setter and Server behave as TensorFlow 2.21's (fixtures recorded by
fixtures/generate_tf_cluster_fixtures.py from the cases in cluster_cases.py); no Ray needed."""
from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

import edgelite as tf

sys.path.insert(0, str(Path(__file__).parent))
from cluster_cases import CASES, outcome  # noqa: E402

RECORDED = json.loads((Path(__file__).parent / "fixtures" / "tf_cluster_cases.json").read_text())


def test_every_case_is_recorded():
    assert sorted(RECORDED) == sorted(CASES)


@pytest.mark.parametrize("name", sorted(CASES))
def test_matches_tensorflow(name):
    got = json.loads(json.dumps(outcome(tf, name)))
    assert got == RECORDED[name]


def test_server_checks_the_replica_it_runs_in():
    from edgelite.distribute import context
    context.set_current(context.ReplicaContext(1, 2, aggregator=None))
    try:
        assert tf.train.Server({"ps": ["p:1"], "worker": ["a:1", "b:1"]}, "worker", 1).target == "grpc://b:1"
        with pytest.raises(ValueError, match="runs task 1 of job 'worker', not task 0"):
            tf.train.Server({"ps": ["p:1"], "worker": ["a:1", "b:1"]}, "worker", 0)
    finally:
        context.set_current(None)
