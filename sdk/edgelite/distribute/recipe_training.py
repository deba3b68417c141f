"""Train a model recipe data-parallel on N Ray replicas with SyncReplicasOptimizer.

Each global step takes the same batch one process would (the recipe's batch size, shuffled by (seed, epoch)),
split into N equal shards, one per replica; the averaged shard gradients are the whole batch's gradient, so
N replicas follow the single-process run up to float rounding (batch-norm statistics are per shard). A step's
batch depends only on the global step, so a replica restarted from a checkpoint replays exactly the lost steps.
"""
from __future__ import annotations

import dataclasses
import functools
import hashlib
import math
from pathlib import Path
from typing import Any, Dict, Optional

import numpy as np

from edgelite.train.session_run_hook import SessionRunArgs, SessionRunHook

from .job import JobResult, run

CHECKPOINT_DIR = "checkpoints"


@dataclasses.dataclass(frozen=True)
class RecipeRun:
    """What every replica needs to rebuild the same training program."""

    recipe: str
    params: Dict[str, Any]
    workdir: str
    num_workers: int
    epochs: int
    seed: int = 0
    learning_rate: Optional[float] = None
    batch_size: Optional[int] = None
    save_checkpoint_steps: int = 20
    max_steps: Optional[int] = None


def make_recipe(spec: RecipeRun) -> Any:
    """The recipe with the run's learning-rate and (global) batch-size overrides applied."""
    from edgelite import models
    recipe = models.get(spec.recipe, **spec.params)
    if spec.learning_rate is not None:
        recipe.config = dataclasses.replace(recipe.config, learning_rate=float(spec.learning_rate))
    if spec.batch_size is not None:
        recipe.config = dataclasses.replace(recipe.config, batch_size=int(spec.batch_size))
    return recipe


def shard_indices(num_examples: int, batch_size: int, seed: int, step: int, task: int, num_workers: int
                  ) -> np.ndarray:
    """Task `task`'s share of global step `step`'s batch: the batch the single-process trainer takes, split."""
    steps_per_epoch = math.ceil(num_examples / batch_size)
    epoch, i = divmod(step, steps_per_epoch)
    order = np.random.default_rng((seed, epoch)).permutation(num_examples)
    return np.array_split(order[i * batch_size:(i + 1) * batch_size], num_workers)[task]


def replica_main(task_index: int, spec: RecipeRun) -> Dict[str, Any]:
    """One replica's training loop; the chief also checkpoints, writes summaries and evaluates the result."""
    import edgelite as tf
    from edgelite.models.training import evaluate, write_recipe_file

    recipe = make_recipe(spec)
    data = recipe.data(spec.seed)
    batch = recipe.config.batch_size
    steps_per_epoch = math.ceil(len(data.x_train) / batch)
    last_step = spec.epochs * steps_per_epoch if spec.max_steps is None else spec.max_steps
    is_chief = task_index == 0
    ckpt_dir = Path(spec.workdir) / CHECKPOINT_DIR
    if is_chief:
        write_recipe_file(ckpt_dir, recipe)

    wrapped = []

    def sync(opt: Any) -> Any:
        wrapped.append(tf.train.SyncReplicasOptimizer(opt, replicas_to_aggregate=spec.num_workers,
                                                      total_num_replicas=spec.num_workers))
        return wrapped[-1]

    g = recipe.build_training(spec.seed, wrap_optimizer=sync)
    with g.graph.as_default():
        tf.summary.scalar("loss", g.loss)
        hooks = [wrapped[0].make_session_run_hook(is_chief), tf.train.StopAtStepHook(last_step=last_step),
                 _ShardFeedHook(g, data, spec, task_index, batch, steps_per_epoch)]
        scaffold = tf.train.Scaffold(saver=g.saver)
        with tf.train.MonitoredTrainingSession(
                is_chief=is_chief, checkpoint_dir=str(ckpt_dir) if is_chief else None, scaffold=scaffold,
                hooks=hooks, save_checkpoint_steps=spec.save_checkpoint_steps, save_summaries_steps=10,
                log_step_count_steps=None, show_progress=False) as sess:
            while not sess.should_stop():
                sess.run(g.train_op)

            def digest(step_context: Any) -> str:
                return _session_digest(g, step_context.session)

            weights = sess.run_step_fn(digest)
    result: Dict[str, Any] = {"task": task_index, "weights_sha256": weights}
    if is_chief:
        with tf.Session(graph=g.graph) as plain:
            checkpoint = tf.train.latest_checkpoint(str(ckpt_dir))
            g.saver.restore(plain, checkpoint)
            result.update(checkpoint=checkpoint, global_step=int(plain.run(g.global_step)),
                          metric=recipe.metric_name(),
                          test=evaluate(recipe, plain, g, data.x_test, data.y_test),
                          restored_sha256=_session_digest(g, plain))
    return result


class _ShardFeedHook(SessionRunHook):
    """Feeds each run the replica's shard of the current global step's batch (and sets the epoch counter).

    A hook and not a fixed feed: when MonitoredSession recovers from a failed step and runs it again, the
    global step may have rolled back to a checkpoint, and the retried run must take that step's batch.
    """

    def __init__(self, g: Any, data: Any, spec: RecipeRun, task: int, batch: int, steps_per_epoch: int) -> None:
        self._g, self._data, self._spec, self._task = g, data, spec, task
        self._batch, self._steps_per_epoch = batch, steps_per_epoch

    def before_run(self, run_context: Any) -> Any:
        g, data, spec = self._g, self._data, self._spec
        step = int(run_context.session.run(g.global_step))
        g.epoch.load(step // self._steps_per_epoch, run_context.session)
        idx = shard_indices(len(data.x_train), self._batch, spec.seed, step, self._task, spec.num_workers)
        return SessionRunArgs(fetches=None, feed_dict={g.x: data.x_train[idx], g.labels: data.y_train[idx],
                                                       g.is_training: True})


def _session_digest(g: Any, session: Any) -> str:
    """SHA-256 of every global variable's value: equal digests mean equal replicas."""
    import edgelite as tf
    with g.graph.as_default():
        names = sorted((v.op.name, v) for v in tf.global_variables())
    h = hashlib.sha256()
    for name, value in zip([n for n, _ in names], session.run([v for _, v in names])):
        h.update(name.encode())
        h.update(np.ascontiguousarray(value).tobytes())
    return h.hexdigest()


def train_recipe(spec: RecipeRun, address: Optional[str] = None, on_poll: Any = None,
                 poll_secs: float = 0.05) -> JobResult:
    """Train `spec` on `spec.num_workers` Ray replicas; returns each replica's result (the chief's first)."""
    return run(functools.partial(replica_main, spec=spec), spec.num_workers, address=address, on_poll=on_poll,
               poll_secs=poll_secs)


__all__ = ["RecipeRun", "make_recipe", "replica_main", "shard_indices", "train_recipe"]
