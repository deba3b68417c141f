"""Cases shared by the TensorFlow fixture generator and the edgelite test: ClusterSpec queries and errors,
replica_device_setter placements and Server's task resolution. Each case takes the `tf` module and returns
a JSON-able value, or raises."""
from __future__ import annotations

CLUSTER = {"ps": ["ps0:2222", "ps1:2222"], "worker": {1: "w1:2222", 3: "w3:2222"}}


def _spec(tf):
    return tf.train.ClusterSpec(CLUSTER)


def _placements(tf, **kwargs):
    with tf.Graph().as_default():
        with tf.device(tf.train.replica_device_setter(**kwargs)):
            v1 = tf.Variable(1.0, name="v1")
            v2 = tf.Variable(2.0, name="v2")
            v3 = tf.Variable(3.0, name="v3")
            total = tf.add(v1, v2, name="total")
            with tf.device("/job:worker/task:7"):
                pinned = tf.Variable(4.0, name="pinned")
                scaled = tf.multiply(total, 2.0, name="scaled")
        return {t.op.name: t.op.device for t in (v1, v2, v3, total, pinned, scaled)}


CASES = {
    "jobs": lambda tf: _spec(tf).jobs,
    "as_dict": lambda tf: {k: (v if isinstance(v, list) else {str(i): a for i, a in v.items()})
                           for k, v in _spec(tf).as_dict().items()},
    "repr": lambda tf: repr(_spec(tf)),
    "job_tasks": lambda tf: _spec(tf).job_tasks("worker"),
    "num_tasks": lambda tf: _spec(tf).num_tasks("worker"),
    "task_indices": lambda tf: _spec(tf).task_indices("worker"),
    "task_address": lambda tf: _spec(tf).task_address("ps", 1),
    "bool_empty": lambda tf: bool(tf.train.ClusterSpec({})),
    "eq_spec": lambda tf: _spec(tf) == tf.train.ClusterSpec(_spec(tf).as_dict()),
    "eq_dict": lambda tf: _spec(tf) == _spec(tf).as_dict(),
    "ne_empty": lambda tf: _spec(tf) != tf.train.ClusterSpec({}),
    "copy": lambda tf: repr(tf.train.ClusterSpec(_spec(tf))),
    "err_job_tasks": lambda tf: _spec(tf).job_tasks("chief"),
    "err_task_address": lambda tf: _spec(tf).task_address("ps", 5),
    "err_num_tasks": lambda tf: _spec(tf).num_tasks("chief"),
    "err_not_dict": lambda tf: tf.train.ClusterSpec(["a:1"]),
    "err_tasks_str": lambda tf: tf.train.ClusterSpec({"w": "a:1"}),
    "err_address_int": lambda tf: tf.train.ClusterSpec({"w": [1]}),
    "setter_cluster": lambda tf: _placements(tf, cluster=CLUSTER),
    "setter_ps_tasks": lambda tf: _placements(tf, ps_tasks=3, worker_device="/job:worker/task:1"),
    "setter_custom_ps_device": lambda tf: _placements(tf, ps_tasks=2, ps_device="/job:params/device:CPU:0"),
    "setter_no_ps": lambda tf: tf.train.replica_device_setter(cluster={"worker": ["w:1"]}) is None,
    "setter_zero_tasks": lambda tf: tf.train.replica_device_setter() is None,
    "setter_bad_strategy": lambda tf: tf.train.replica_device_setter(ps_tasks=1, ps_strategy=3),
    "setter_bad_cluster": lambda tf: tf.train.replica_device_setter(cluster=["a:1"]),
    "server_target_single": lambda tf: tf.train.Server(tf.train.ClusterSpec({"w": ["localhost:2222"]}),
                                                       start=False).target,
    "server_needs_job": lambda tf: tf.train.Server(CLUSTER, start=False),
    "server_needs_task": lambda tf: tf.train.Server({"w": ["a:1", "b:1"]}, job_name="w", start=False),
    "server_unknown_task": lambda tf: tf.train.Server(CLUSTER, job_name="ps", task_index=4, start=False),
}


def outcome(tf, name):
    """{"value": ...} or {"error": type name, "message": text} for case `name`."""
    try:
        return {"value": CASES[name](tf)}
    except Exception as e:  # noqa: BLE001 - the error is the recorded outcome
        return {"error": type(e).__name__, "message": str(e)}
