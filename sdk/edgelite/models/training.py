"""Train a recipe with per-epoch checkpoints that resume after an interruption, and TensorBoard logs.

Layout of a work directory:
    checkpoints/   Saver checkpoints (model.ckpt-<global step>.*, the `checkpoint` state file) and recipe.json
    logs/          TensorBoard event files (loss, test metric, learning rate per epoch)
    history.json   one record per finished epoch (what the training-curve plot reads)

An epoch counter lives in the graph and is saved with the weights and optimizer slots; a run finds the
newest checkpoint, restores it and continues with the next epoch. Shuffling is seeded by (seed, epoch), so a
resumed run sees the same batches an uninterrupted one would have.
"""
from __future__ import annotations

import json
import math
import os
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Dict, List, Optional

import numpy as np

import edgelite as tf
from edgelite.models.recipe import Dataset, Recipe
from edgelite.summary import FileWriter, SessionLog, Summary

RECIPE_FILE = "recipe.json"
CHECKPOINT_NAME = "model.ckpt"


@dataclass
class TrainResult:
    """What a training run did: the checkpoint it ended on, the per-epoch history and where it started."""

    checkpoint: str
    history: List[Dict[str, float]]
    start_epoch: int
    start_step: int
    resumed_from: Optional[str]
    dataset: Dataset
    logdir: str
    epochs: int = 0


class WorkdirMismatch(ValueError):
    """The work directory holds checkpoints of another recipe (or other parameters) than the one asked for."""


def write_recipe_file(directory: Path, recipe: Recipe) -> None:
    """Record which recipe (and parameters) a checkpoint directory belongs to, for `convert` and resuming.

    Raises WorkdirMismatch if the directory already belongs to a different recipe or parameters: resuming
    those checkpoints into another network would fail, and overwriting them would lose them.
    """
    record = {"recipe": recipe.name, "params": json.loads(json.dumps(recipe.params))}
    existing = read_recipe_file(directory)
    if existing is not None and existing != record:
        raise WorkdirMismatch(f"{directory} holds checkpoints of recipe {existing['recipe']} with parameters "
                              f"{existing['params']}, not {record['recipe']} with {record['params']}; choose "
                              f"another output directory or delete that one")
    directory.mkdir(parents=True, exist_ok=True)
    _write_json(directory / RECIPE_FILE, record)


def read_recipe_file(directory: Path) -> Optional[Dict[str, Any]]:
    """The recipe record of a checkpoint directory, or None if it has none."""
    path = Path(directory) / RECIPE_FILE
    if not path.is_file():
        return None
    return json.loads(path.read_text())


def _write_json(path: Path, value: Any) -> None:
    """Write through a temporary file and a rename, so an interruption never leaves half a file."""
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text(json.dumps(value, indent=1))
    os.replace(tmp, path)


def _load_history(path: Path) -> List[Dict[str, float]]:
    if not path.is_file():
        return []
    try:
        return list(json.loads(path.read_text()))
    except (ValueError, TypeError):
        return []


class _PlainProgress:
    """Fallback progress line on a terminal's stderr when tqdm is not installed."""

    def __init__(self, total: int, desc: str) -> None:
        self.total, self.desc, self.n, self._last = total, desc, 0, 0.0
        self.postfix = ""

    def update(self, n: int = 1) -> None:
        self.n += n
        now = time.monotonic()
        if now - self._last > 0.5 or self.n == self.total:
            self._last = now
            sys.stderr.write(f"\r{self.desc}: {self.n}/{self.total} {self.postfix}")
            sys.stderr.flush()

    def set_postfix_str(self, text: str) -> None:
        self.postfix = text

    def close(self) -> None:
        sys.stderr.write("\r" + " " * (len(self.desc) + len(self.postfix) + 24) + "\r")
        sys.stderr.flush()


def _progress_bar(total: int, desc: str, enabled: bool) -> Any:
    if not enabled:
        return None
    try:
        from tqdm import tqdm
    except ImportError:
        return _PlainProgress(total, desc) if sys.stderr.isatty() else None
    # disable=None: a bar on a terminal, nothing when stderr goes to a file or a pipe.
    return tqdm(total=total, desc=desc, unit="step", leave=False, file=sys.stderr, dynamic_ncols=True, disable=None)


def evaluate(recipe: Recipe, sess: Any, g: Any, x: np.ndarray, y: np.ndarray, batch: int = 256) -> float:
    """The recipe's metric on (x, y), with the network in inference mode (batch-norm moving averages)."""
    outputs = [sess.run(g.outputs, {g.x: x[i:i + batch]}) for i in range(0, len(x), batch)]
    return recipe.metric(np.concatenate(outputs), y)


def _summary(values: Dict[str, float]) -> Summary:
    return Summary(value=[Summary.Value(tag=tag, simple_value=float(v)) for tag, v in values.items()])


def _limit_blas_threads() -> Any:
    """One BLAS thread: the matrices are small, and extra threads only fight over shared cores."""
    try:
        from threadpoolctl import threadpool_limits
    except ImportError:
        return None
    return threadpool_limits(1)


def train(recipe: Recipe, workdir: Any, epochs: Optional[int] = None, seed: int = 0,
          log: Callable[[str], None] = print, progress: bool = True, max_to_keep: int = 3) -> TrainResult:
    """Train `recipe` in `workdir` up to `epochs` (default: its config), resuming from the newest checkpoint."""
    workdir = Path(workdir)
    ckpt_dir = workdir / "checkpoints"
    logdir = workdir / "logs"
    history_path = workdir / "history.json"
    write_recipe_file(ckpt_dir, recipe)
    total = int(epochs or recipe.config.epochs)
    data = recipe.data(seed)
    g = recipe.build_training(seed, max_to_keep=max_to_keep)
    batch = recipe.config.batch_size
    steps = math.ceil(len(data.x_train) / batch)
    metric = recipe.metric_name()
    limits = _limit_blas_threads()
    try:
        with tf.Session(graph=g.graph) as sess:
            state = tf.train.get_checkpoint_state(str(ckpt_dir))
            latest = tf.train.latest_checkpoint(str(ckpt_dir))
            if latest:
                g.saver.restore(sess, latest)
                g.saver.recover_last_checkpoints(list(state.all_model_checkpoint_paths))
            else:
                sess.run(g.init)
            start_epoch, start_step = (int(v) for v in sess.run([g.epoch, g.global_step]))
            history = _load_history(history_path)[:start_epoch]
            if latest:
                log(f"resuming from checkpoint {Path(latest).name}: epoch {start_epoch}, global step {start_step}")
            writer = FileWriter(str(logdir), graph=None if latest else g.graph)
            if latest:
                # Tells TensorBoard to drop events logged after this step by the interrupted run.
                writer.add_session_log(SessionLog(status=SessionLog.START), start_step)
            checkpoint = latest or ""
            try:
                for epoch in range(start_epoch, total):
                    checkpoint = _run_epoch(recipe, sess, g, data, epoch, total, steps, seed, progress, writer,
                                            history, history_path, ckpt_dir, log, metric)
            finally:
                writer.close()
            if not checkpoint:
                checkpoint = g.saver.save(sess, str(ckpt_dir / CHECKPOINT_NAME), global_step=g.global_step)
    finally:
        if limits is not None:
            limits.unregister()
    return TrainResult(checkpoint=checkpoint, history=history, start_epoch=start_epoch, start_step=start_step,
                       resumed_from=latest, dataset=data, logdir=str(logdir), epochs=total)


def _run_epoch(recipe: Recipe, sess: Any, g: Any, data: Dataset, epoch: int, total: int, steps: int, seed: int,
               progress: bool, writer: FileWriter, history: List[Dict[str, float]], history_path: Path,
               ckpt_dir: Path, log: Callable[[str], None], metric: str) -> str:
    """One pass over the shuffled training set, evaluation, summaries, history and a checkpoint."""
    start = time.monotonic()
    order = np.random.default_rng((seed, epoch)).permutation(len(data.x_train))
    batch = recipe.config.batch_size
    bar = _progress_bar(steps, f"epoch {epoch + 1}/{total}", progress)
    losses = []
    try:
        for i in range(steps):
            idx = order[i * batch:(i + 1) * batch]
            _, loss = sess.run([g.train_op, g.loss], {g.x: data.x_train[idx], g.labels: data.y_train[idx],
                                                      g.is_training: True})
            losses.append(float(loss))
            if bar is not None:
                bar.update(1)
                bar.set_postfix_str(f"loss {np.mean(losses[-20:]):.4f}")
    finally:
        if bar is not None:
            bar.close()
    lr = float(sess.run(g.learning_rate))
    sess.run(g.next_epoch)
    test = evaluate(recipe, sess, g, data.x_test, data.y_test)
    step = int(sess.run(g.global_step))
    seconds = time.monotonic() - start
    record = {"epoch": epoch + 1, "global_step": step, "loss": float(np.mean(losses)), f"test_{metric}": test,
              "learning_rate": lr, "seconds": seconds}
    writer.add_summary(_summary({"loss": record["loss"], f"test_{metric}": test, "learning_rate": lr}), step)
    writer.flush()
    history.append(record)
    # History first: after a crash between the two writes, resuming truncates it to the checkpoint's epoch.
    _write_json(history_path, history)
    checkpoint = g.saver.save(sess, str(ckpt_dir / CHECKPOINT_NAME), global_step=g.global_step)
    shown = f"{test:.2%}" if metric == "accuracy" else f"{test:.4g}"
    log(f"epoch {epoch + 1}/{total}  loss {record['loss']:.4f}  test {metric} {shown}  "
        f"({seconds:.1f} s, checkpoint {Path(checkpoint).name})")
    return checkpoint
