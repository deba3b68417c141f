"""tf.estimator.TrainSpec, EvalSpec and train_and_evaluate (local, non-distributed): train up to max_steps and
evaluate (then run the exporters) on the checkpoints training saves, at most every throttle_secs, and after the
last one."""
from __future__ import annotations

import collections
import os
from typing import Any, Callable, Optional

from edgelite import tf_logging
from edgelite.framework import ops
from edgelite.train.basic_session_run_hooks import CheckpointSaverListener, SecondOrStepTimer
from edgelite.train.session_run_hook import SessionRunHook

from .estimator import Estimator
from .exporter import Exporter

logger = tf_logging.get_logger()


def _check_input_fn(input_fn: Any) -> None:
    if not callable(input_fn):
        raise TypeError(f"`input_fn` must be callable, given: {input_fn}")


def _checked_hooks(hooks: Any) -> tuple:
    hooks = tuple(hooks or [])
    for hook in hooks:
        if not isinstance(hook, SessionRunHook):
            raise TypeError(f"All hooks must be `SessionRunHook` instances, given: {hook}")
    return hooks


def _checked_listeners(listeners: Any) -> tuple:
    listeners = tuple(listeners or [])
    for listener in listeners:
        if not isinstance(listener, CheckpointSaverListener):
            raise TypeError(f"All saving_listeners must be `CheckpointSaverListener` instances, given: {listener}")
    return listeners


def _checked_exporters(exporters: Any) -> tuple:
    if exporters is None:
        return ()
    if isinstance(exporters, Exporter):
        exporters = [exporters]
    names: list = []
    try:
        for exporter in exporters:
            if not isinstance(exporter, Exporter):
                raise TypeError
            if not exporter.name:
                raise ValueError("An Exporter cannot have a name that is `None` or empty. All exporter names: "
                                 f"{[e.name for e in exporters]}")
            if not isinstance(exporter.name, str):
                raise ValueError(f"An Exporter must have a string name. Given: {type(exporter.name)}")
            if exporter.name in names:
                raise ValueError("`exporters` must have unique names. Such a name cannot be `None`. All exporter "
                                 f"names: {[e.name for e in exporters]}")
            names.append(exporter.name)
    except TypeError:
        raise TypeError(f"`exporters` must be an Exporter, an iterable of Exporter, or `None`, found {exporters}.") \
            from None
    return tuple(exporters)


class TrainSpec(collections.namedtuple("TrainSpec", ["input_fn", "max_steps", "hooks", "saving_listeners"])):
    """The training input and how long to train (global step max_steps; None: until the input ends)."""

    def __new__(cls, input_fn: Callable, max_steps: Optional[int] = None, hooks: Any = None,
                saving_listeners: Any = None) -> "TrainSpec":
        _check_input_fn(input_fn)
        if max_steps is not None and max_steps <= 0:
            raise ValueError(f"Must specify max_steps > 0, given: {max_steps}")
        return super().__new__(cls, input_fn, max_steps, _checked_hooks(hooks), _checked_listeners(saving_listeners))


class EvalSpec(collections.namedtuple("EvalSpec", ["input_fn", "steps", "name", "hooks", "exporters",
                                                   "start_delay_secs", "throttle_secs"])):
    """The evaluation input (at most `steps` batches), its name, exporters and the time between evaluations."""

    def __new__(cls, input_fn: Callable, steps: Optional[int] = 100, name: Optional[str] = None, hooks: Any = None,
                exporters: Any = None, start_delay_secs: float = 120, throttle_secs: float = 600) -> "EvalSpec":
        _check_input_fn(input_fn)
        if steps is not None and steps <= 0:
            raise ValueError(f"Must specify steps > 0, given: {steps}")
        if name is not None and not isinstance(name, str):
            raise TypeError(f"`name` must be string, given: {name}")
        hooks = _checked_hooks(hooks)
        exporters = _checked_exporters(exporters)
        if start_delay_secs < 0:
            raise ValueError(f"Must specify start_delay_secs >= 0, given: {start_delay_secs}")
        if throttle_secs < 0:
            raise ValueError(f"Must specify throttle_secs >= 0, given: {throttle_secs}")
        return super().__new__(cls, input_fn, steps, name, hooks, exporters, start_delay_secs, throttle_secs)


class _Evaluator:
    """Evaluates the newest checkpoint (once per checkpoint) and runs the exporters on it."""

    def __init__(self, estimator: Estimator, eval_spec: EvalSpec, max_training_steps: Optional[int]) -> None:
        self._estimator = estimator
        self._eval_spec = eval_spec
        self._max_training_steps = max_training_steps
        self._previous_checkpoint: Optional[str] = None

    def evaluate_and_export(self) -> tuple:
        """(metrics, export results); metrics None when there is no new checkpoint."""
        checkpoint = self._estimator.latest_checkpoint()
        if not checkpoint:
            logger.warning("Estimator is not trained yet. Will start an evaluation when a checkpoint is ready.")
            return None, []
        if checkpoint == self._previous_checkpoint:
            logger.warning("No new checkpoint ready for evaluation. Skip the current evaluation pass as evaluation "
                           "results are expected to be same for the same checkpoint.")
            return None, []
        spec = self._eval_spec
        metrics = self._estimator.evaluate(input_fn=spec.input_fn, steps=spec.steps, name=spec.name,
                                           checkpoint_path=checkpoint, hooks=spec.hooks)
        final = bool(self._max_training_steps) and \
            metrics[ops.GraphKeys.GLOBAL_STEP] >= self._max_training_steps
        export_base = os.path.join(self._estimator.model_dir, "export")
        exports = [exporter.export(estimator=self._estimator, export_path=os.path.join(export_base, exporter.name),
                                   checkpoint_path=checkpoint, eval_result=metrics, is_the_final_export=final)
                   for exporter in spec.exporters]
        self._previous_checkpoint = checkpoint
        return metrics, exports


class _EvaluateOnNewCheckpoint(CheckpointSaverListener):
    """Evaluates after a checkpoint save (not the one before the first step) at most every throttle_secs, and
    after the last save when that was not evaluated."""

    def __init__(self, evaluator: _Evaluator, throttle_secs: float) -> None:
        self._evaluator = evaluator
        self._throttle_secs = throttle_secs
        self.eval_result: Optional[dict] = None
        self.export_results: Optional[list] = None

    def begin(self) -> None:
        self._timer = SecondOrStepTimer(every_secs=self._throttle_secs)
        self._is_first_run = True

    def after_save(self, session: Any, global_step_value: int) -> None:
        if self._is_first_run:
            self._is_first_run = False
            return
        if self._timer.should_trigger_for_step(global_step_value):
            self._evaluate(global_step_value)
        else:
            logger.info("Skip the current checkpoint eval due to throttle secs (%s secs).", self._throttle_secs)

    def end(self, session: Any, global_step_value: int) -> None:
        if global_step_value != self._timer.last_triggered_step():
            self._evaluate(global_step_value)

    def _evaluate(self, global_step_value: int) -> None:
        self._timer.update_last_triggered_step(global_step_value)
        self.eval_result, self.export_results = self._evaluator.evaluate_and_export()
        if self.eval_result is None:
            raise RuntimeError("There was no new checkpoint after the training. Eval status: no new checkpoint")


def train_and_evaluate(estimator: Estimator, train_spec: TrainSpec, eval_spec: EvalSpec) -> tuple:
    """Trains per train_spec, evaluating (and exporting) on new checkpoints; returns (last eval metrics, export
    results of that evaluation)."""
    if not isinstance(eval_spec, EvalSpec):
        raise TypeError(f"`eval_spec` must have type `tf.estimator.EvalSpec`. Got: {type(eval_spec)}")
    if not isinstance(estimator, Estimator):
        raise TypeError(f"`estimator` must have type `tf.estimator.Estimator`. Got: {type(estimator)}")
    if not isinstance(train_spec, TrainSpec):
        raise TypeError(f"`train_spec` must have type `tf.estimator.TrainSpec`. Got: {type(train_spec)}")
    config = estimator.config
    logger.info("Running training and evaluation locally (non-distributed).")
    logger.info("Start train and evaluate loop. The evaluate will happen after every checkpoint. Checkpoint "
                "frequency is determined based on RunConfig arguments: save_checkpoints_steps %s or "
                "save_checkpoints_secs %s.", config.save_checkpoints_steps, config.save_checkpoints_secs)
    listener = _EvaluateOnNewCheckpoint(_Evaluator(estimator, eval_spec, train_spec.max_steps),
                                        eval_spec.throttle_secs)
    estimator.train(input_fn=train_spec.input_fn, max_steps=train_spec.max_steps, hooks=train_spec.hooks,
                    saving_listeners=train_spec.saving_listeners + (listener,))
    return listener.eval_result, listener.export_results
