"""A TF1 between-graph replication training script (ps/worker cluster, replica_device_setter,
SyncReplicasOptimizer, MonitoredTrainingSession), written as for TensorFlow. The one change for
edgelite.distribute: the body runs as `main(job_name, task_index)` started by `run_cluster` instead of once per
machine with --job_name/--task_index flags."""
import numpy as np

import edgelite as tf

CLUSTER = {"ps": ["ps0.example.com:2222"], "worker": ["worker0.example.com:2222", "worker1.example.com:2222"]}
STEPS = 30
BATCH = 64


def data(seed=0):
    rng = np.random.default_rng(seed)
    x = rng.standard_normal((512, 10)).astype(np.float32)
    w = rng.standard_normal((10, 3)).astype(np.float32)
    return x, np.argmax(x @ w, axis=1).astype(np.int64)


def build_model(x, y):
    logits = tf.layers.dense(tf.layers.dense(x, 16, activation=tf.nn.relu, name="hidden"), 3, name="logits")
    return tf.reduce_mean(tf.nn.sparse_softmax_cross_entropy_with_logits(labels=y, logits=logits))


def main(job_name, task_index, checkpoint_dir=None, replicas_to_aggregate=None, total_num_replicas=None):
    cluster = tf.train.ClusterSpec(CLUSTER)
    server = tf.train.Server(cluster, job_name=job_name, task_index=task_index)
    if job_name == "ps":
        server.join()
        return None
    num_workers = cluster.num_tasks("worker")
    is_chief = task_index == 0
    xs, ys = data()
    with tf.Graph().as_default():
        tf.set_random_seed(1)
        with tf.device(tf.train.replica_device_setter(worker_device="/job:worker/task:%d" % task_index,
                                                      cluster=cluster)):
            x = tf.placeholder(tf.float32, [None, 10])
            y = tf.placeholder(tf.int64, [None])
            loss = build_model(x, y)
            global_step = tf.train.get_or_create_global_step()
            opt = tf.train.SyncReplicasOptimizer(tf.train.GradientDescentOptimizer(0.5),
                                                 replicas_to_aggregate=replicas_to_aggregate or num_workers,
                                                 total_num_replicas=total_num_replicas or num_workers)
            train_op = opt.minimize(loss, global_step=global_step)
        final = tf.train.FinalOpsHook({v.op.name: v for v in tf.trainable_variables()})
        hooks = [opt.make_session_run_hook(is_chief), tf.train.StopAtStepHook(last_step=STEPS), final]
        losses = []
        with tf.train.MonitoredTrainingSession(master=server.target, is_chief=is_chief,
                                               checkpoint_dir=checkpoint_dir if is_chief else None,
                                               hooks=hooks, save_summaries_steps=5,
                                               log_step_count_steps=None) as sess:
            while not sess.should_stop():
                step = len(losses)
                # Worker i takes its half of the step's batch.
                rows = np.arange(step * BATCH, (step + 1) * BATCH) % len(xs)
                part = np.array_split(rows, num_workers)[task_index]
                _, value = sess.run([train_op, loss], feed_dict={x: xs[part], y: ys[part]})
                losses.append(float(value))
        devices = {v.op.name: v.op.device for v in tf.global_variables()}
        return {"losses": losses, "weights": final.final_ops_values, "devices": devices}


def one_process(steps=STEPS):
    """The same model trained in one process on the whole batch each step: what the replicas must reproduce."""
    xs, ys = data()
    with tf.Graph().as_default():
        tf.set_random_seed(1)
        x = tf.placeholder(tf.float32, [None, 10])
        y = tf.placeholder(tf.int64, [None])
        loss = build_model(x, y)
        train_op = tf.train.GradientDescentOptimizer(0.5).minimize(loss)
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            for step in range(steps):
                rows = np.arange(step * BATCH, (step + 1) * BATCH) % len(xs)
                sess.run(train_op, feed_dict={x: xs[rows], y: ys[rows]})
            return {v.op.name: sess.run(v) for v in tf.trainable_variables()}
