"""tf.estimator.Estimator: trains, evaluates and predicts with a model_fn, keeping its state in checkpoints
under model_dir so each call builds a fresh graph and resumes from the latest checkpoint."""
from __future__ import annotations

import collections
import inspect
import os
import tempfile
from typing import Any, Callable, Iterator, Optional

import numpy as np

from edgelite import tf_logging
from edgelite.framework import ops, random_seed
from edgelite.train import basic_session_run_hooks as hooks_lib
from edgelite.train import checkpoint_management, checkpoint_utils, training_util, warm_starting
from edgelite.train.monitored_session import (ChiefSessionCreator, MonitoredSession, MonitoredTrainingSession,
                                              Scaffold)
from edgelite.train.saver import Saver

from .model_fn import LOSS_METRIC_KEY, EstimatorSpec, ModeKeys
from .run_config import RunConfig

logger = tf_logging.get_logger()


def _fn_args(fn: Callable) -> tuple:
    return tuple(inspect.signature(fn).parameters)


class _StopAfterNEvalsHook(hooks_lib.SessionRunHook):
    """Stops an evaluation after `num_evals` batches (None: when the input is exhausted)."""

    def __init__(self, num_evals: Optional[int]) -> None:
        self._num_evals = num_evals
        self._done = 0

    def after_run(self, run_context: Any, run_values: Any) -> None:
        self._done += 1
        if self._num_evals is not None and self._done >= self._num_evals:
            run_context.request_stop()


class WarmStartSettings(collections.namedtuple("WarmStartSettings", [
        "ckpt_to_initialize_from", "vars_to_warm_start", "var_name_to_vocab_info", "var_name_to_prev_var_name"])):
    """Where (checkpoint or model directory) and which variables (a regex over trainable variables, a list of
    names) the first training of an Estimator initialises from."""

    def __new__(cls, ckpt_to_initialize_from: str, vars_to_warm_start: Any = ".*",
                var_name_to_vocab_info: Optional[dict] = None,
                var_name_to_prev_var_name: Optional[dict] = None) -> "WarmStartSettings":
        if not ckpt_to_initialize_from:
            raise ValueError("Need to specify where to warm-start from (ckpt_to_initialize_from).")
        return super().__new__(cls, ckpt_to_initialize_from, vars_to_warm_start, var_name_to_vocab_info or {},
                               var_name_to_prev_var_name or {})


def _warm_start_settings(warm_start_from: Any) -> Optional[WarmStartSettings]:
    if warm_start_from is None or isinstance(warm_start_from, WarmStartSettings):
        return warm_start_from
    if isinstance(warm_start_from, (str, bytes, os.PathLike)):
        path = os.fsdecode(warm_start_from)
        return WarmStartSettings(ckpt_to_initialize_from=path)
    raise ValueError(f"warm_start_from must be a string or a WarmStartSettings, instead got {type(warm_start_from)}")


class Estimator:
    """Wraps a model_fn(features, labels, mode[, params][, config]) returning an EstimatorSpec."""

    def __init__(self, model_fn: Callable, model_dir: Optional[str] = None, config: Optional[RunConfig] = None,
                 params: Optional[dict] = None, warm_start_from: Any = None) -> None:
        if config is not None and not isinstance(config, RunConfig):
            raise ValueError(f"config must be an instance of `RunConfig`, but provided {config}.")
        config = config or RunConfig()
        if model_dir is not None and config.model_dir is not None and model_dir != config.model_dir:
            raise ValueError("`model_dir` are set both in constructor and `RunConfig`, but with different values. "
                             f"In constructor: '{model_dir}', in `RunConfig`: '{config.model_dir}' ")
        model_dir = model_dir or config.model_dir
        if model_dir is None:
            model_dir = tempfile.mkdtemp()
            logger.warning("Using temporary folder as model directory: %s", model_dir)
        self._model_dir = model_dir
        self._config = config.replace(model_dir=model_dir)
        self._params = dict(params or {})
        self._model_fn = model_fn
        self._warm_start_settings = _warm_start_settings(warm_start_from)
        if "params" not in _fn_args(model_fn) and params:
            raise ValueError(f"model_fn ({model_fn}) does not include params argument, required by "
                             f"Estimator.params: {params}")

    model_dir = property(lambda self: self._model_dir)
    config = property(lambda self: self._config)
    params = property(lambda self: dict(self._params))
    @property
    def model_fn(self) -> Callable:
        """TF's public model_fn: (features, labels, mode, config) -> EstimatorSpec over this Estimator's own
        model_fn, whatever arguments that one takes (wrappers such as forward_features call it so)."""
        def public_model_fn(features: Any, labels: Any, mode: str, config: Any) -> EstimatorSpec:
            return self._call_model_fn(features, labels, mode, config)
        return public_model_fn
    warm_start_from = property(lambda self: self._warm_start_settings)

    # ---- checkpoints -----------------------------------------------------------------------------------------
    def latest_checkpoint(self) -> Optional[str]:
        """The newest checkpoint prefix in model_dir, or None."""
        return checkpoint_management.latest_checkpoint(self._model_dir)

    def get_variable_names(self) -> list:
        """Names of the variables saved in the latest checkpoint."""
        return [name for name, _ in checkpoint_utils.list_variables(self._checkpoint_or_raise())]

    def get_variable_value(self, name: str) -> np.ndarray:
        """A variable's value in the latest checkpoint."""
        return checkpoint_utils.load_variable(self._checkpoint_or_raise(), name)

    def _checkpoint_or_raise(self) -> str:
        path = self.latest_checkpoint()
        if path is None:
            raise ValueError(f"No checkpoint found in {self._model_dir}. Estimator must be trained before "
                             "accessing variables.")
        return path

    # ---- graph building --------------------------------------------------------------------------------------
    def _call_input_fn(self, input_fn: Callable, mode: str) -> tuple:
        args = _fn_args(input_fn)
        kwargs = {}
        if "params" in args:
            kwargs["params"] = self._params
        if "config" in args:
            kwargs["config"] = self._config
        if "mode" in args:
            kwargs["mode"] = mode
        result = input_fn(**kwargs)
        if hasattr(result, "make_one_shot_iterator"):
            result = result.make_one_shot_iterator().get_next()
        if isinstance(result, (tuple, list)):
            if len(result) != 2:
                raise ValueError(f"input_fn should return (features, labels) as a len 2 tuple, got {result}")
            return result[0], result[1]
        return result, None

    def _call_model_fn(self, features: Any, labels: Any, mode: str, config: Any = None) -> EstimatorSpec:
        args = _fn_args(self._model_fn)
        kwargs = {}
        if "labels" in args:
            kwargs["labels"] = labels
        elif labels is not None:
            raise ValueError("model_fn does not take labels, but input_fn returns labels.")
        if "mode" in args:
            kwargs["mode"] = mode
        if "params" in args:
            kwargs["params"] = self._params
        if "config" in args:
            kwargs["config"] = self._config if config is None else config
        spec = self._model_fn(features=features, **kwargs)
        if not isinstance(spec, EstimatorSpec):
            raise ValueError(f"model_fn should return an EstimatorSpec. Given: {spec}")
        return spec

    def _build(self, graph: Any, input_fn: Callable, mode: str) -> tuple:
        """Seed, global step, inputs and the model_fn's spec in `graph` (the default graph while called)."""
        if self._config.tf_random_seed is not None:
            random_seed.set_random_seed(self._config.tf_random_seed)
        global_step = training_util.create_global_step(graph)
        features, labels = self._call_input_fn(input_fn, mode)
        return global_step, self._call_model_fn(features, labels, mode)

    def _scaffold(self, spec: EstimatorSpec) -> Scaffold:
        scaffold = spec.scaffold or Scaffold()
        if scaffold.saver is None and not ops.get_collection(ops.GraphKeys.SAVERS):
            saver = Saver(sharded=True, max_to_keep=self._config.keep_checkpoint_max,
                          keep_checkpoint_every_n_hours=self._config.keep_checkpoint_every_n_hours, defer_build=True,
                          save_relative_paths=True)
            ops.add_to_collection(ops.GraphKeys.SAVERS, saver)
        return scaffold

    def _checkpoint_to_use(self, checkpoint_path: Optional[str], what: str) -> Optional[str]:
        checkpoint_path = checkpoint_path or self.latest_checkpoint()
        if checkpoint_path is None:
            logger.info("Could not find trained model in model_dir: %s, running initialization to %s.",
                        self._model_dir, what)
        return checkpoint_path

    def _restoring_creator(self, spec: EstimatorSpec, checkpoint_path: Optional[str]) -> ChiefSessionCreator:
        """A session creator restoring `checkpoint_path` (initialising the variables when it is None)."""
        return ChiefSessionCreator(scaffold=self._scaffold(spec), config=self._config.session_config,
                                   checkpoint_filename_with_path=checkpoint_path)

    # ---- train -----------------------------------------------------------------------------------------------
    def train(self, input_fn: Callable, hooks: Any = None, steps: Optional[int] = None,
              max_steps: Optional[int] = None, saving_listeners: Any = None) -> "Estimator":
        """Runs training steps until `steps` more (or global step `max_steps`) or the input is exhausted."""
        if steps is not None and max_steps is not None:
            raise ValueError("Can not provide both steps and max_steps.")
        if steps is not None and steps <= 0:
            raise ValueError(f"Must specify steps > 0, given: {steps}")
        if max_steps is not None and max_steps <= 0:
            raise ValueError(f"Must specify max_steps > 0, given: {max_steps}")
        if max_steps is not None:
            latest = self.latest_checkpoint()
            if latest is not None and checkpoint_utils.load_variable(latest, ops.GraphKeys.GLOBAL_STEP) >= max_steps:
                logger.info("Skipping training since max_steps has already saved.")
                return self
        graph = ops.Graph()
        with graph.as_default():
            global_step, spec = self._build(graph, input_fn, ModeKeys.TRAIN)
            if self._warm_start_settings is not None:
                # Initializers read the checkpoint; a checkpoint in model_dir still wins when the session restores.
                logger.info("Warm-starting with WarmStartSettings: %s", self._warm_start_settings)
                warm_starting.warm_start(*self._warm_start_settings)
            from edgelite import summary

            summary.scalar("loss", spec.loss)
            all_hooks = list(hooks or []) + list(spec.training_hooks)
            all_hooks.append(hooks_lib.NanTensorHook(spec.loss))
            if steps is not None or max_steps is not None:
                all_hooks.append(hooks_lib.StopAtStepHook(num_steps=steps, last_step=max_steps))
            if self._config.log_step_count_steps is not None:
                all_hooks.append(hooks_lib.LoggingTensorHook({"loss": spec.loss, "step": global_step},
                                                             every_n_iter=self._config.log_step_count_steps))
            chief_hooks = list(spec.training_chief_hooks)
            # One scaffold: the saver hook reads the saver the session finalizes into it.
            scaffold = self._scaffold(spec)
            if saving_listeners:
                chief_hooks.append(hooks_lib.CheckpointSaverHook(
                    self._model_dir, save_secs=self._config.save_checkpoints_secs,
                    save_steps=self._config.save_checkpoints_steps, listeners=saving_listeners,
                    scaffold=scaffold))
            save_secs = None if saving_listeners else self._config.save_checkpoints_secs
            save_steps = None if saving_listeners else self._config.save_checkpoints_steps
            loss = None
            with MonitoredTrainingSession(
                    checkpoint_dir=self._model_dir, scaffold=scaffold, hooks=all_hooks, chief_only_hooks=chief_hooks,
                    save_checkpoint_secs=save_secs, save_checkpoint_steps=save_steps, save_summaries_steps=self._config.save_summary_steps,
                    config=self._config.session_config, log_step_count_steps=self._config.log_step_count_steps,
                    show_progress=False) as sess:
                while not sess.should_stop():
                    _, loss = sess.run([spec.train_op, spec.loss])
            logger.info("Loss for final step: %s.", loss)
        return self

    # ---- evaluate --------------------------------------------------------------------------------------------
    def evaluate(self, input_fn: Callable, steps: Optional[int] = None, hooks: Any = None,
                 checkpoint_path: Optional[str] = None, name: Optional[str] = None) -> dict:
        """The eval_metric_ops (plus 'loss', the mean loss, and 'global_step') over the input or `steps` batches,
        with the variables of the latest (or given) checkpoint."""
        if steps is not None and steps <= 0:
            raise ValueError(f"Must specify steps > 0, given: {steps}")
        checkpoint_path = self._checkpoint_to_use(checkpoint_path, "evaluate")
        graph = ops.Graph()
        with graph.as_default():
            global_step, spec = self._build(graph, input_fn, ModeKeys.EVAL)
            if LOSS_METRIC_KEY in spec.eval_metric_ops:
                raise ValueError(f'Metric with name "{LOSS_METRIC_KEY}" is not allowed, because Estimator already '
                                 "defines a default metric with the same name.")
            from edgelite import metrics
            from edgelite.ops import control_flow_ops

            metric_ops = dict(spec.eval_metric_ops)
            metric_ops[LOSS_METRIC_KEY] = metrics.mean(spec.loss)
            update_op = control_flow_ops.group(*[update for _, update in metric_ops.values()])
            final = {key: value for key, (value, _) in metric_ops.items()}
            final[ops.GraphKeys.GLOBAL_STEP] = global_step
            final_hook = hooks_lib.FinalOpsHook(final)
            all_hooks = [_StopAfterNEvalsHook(steps), final_hook] + list(hooks or []) + list(spec.evaluation_hooks)
            with MonitoredSession(session_creator=self._restoring_creator(spec, checkpoint_path),
                                  hooks=all_hooks) as sess:
                while not sess.should_stop():
                    sess.run(update_op)
        results = final_hook.final_ops_values
        self._write_eval_summary(results, name)
        return results

    def _write_eval_summary(self, results: dict, name: Optional[str]) -> None:
        from edgelite import summary

        values = [summary.Summary.Value(tag=key, simple_value=float(value)) for key, value in results.items()
                  if key != ops.GraphKeys.GLOBAL_STEP and np.ndim(value) == 0]
        writer = summary.FileWriterCache.get(os.path.join(self._model_dir, "eval" if not name else f"eval_{name}"))
        writer.add_summary(summary.Summary(value=values), int(results[ops.GraphKeys.GLOBAL_STEP]))
        writer.flush()

    # ---- export ----------------------------------------------------------------------------------------------
    def export_saved_model(self, export_dir_base: str, serving_input_receiver_fn: Callable,
                           assets_extra: Optional[dict] = None, as_text: bool = False,
                           checkpoint_path: Optional[str] = None) -> bytes:
        """The model_fn's PREDICT graph over the serving receiver with the latest (or given) checkpoint's
        variables, as a SavedModel in <export_dir_base>/<timestamp>; returns that directory (bytes)."""
        from .saved_model_export import export_saved_model

        return export_saved_model(self, export_dir_base, serving_input_receiver_fn, assets_extra, as_text,
                                  checkpoint_path)

    def export_savedmodel(self, export_dir_base: str, serving_input_receiver_fn: Callable,
                          assets_extra: Optional[dict] = None, as_text: bool = False,
                          checkpoint_path: Optional[str] = None, strip_default_attrs: bool = False) -> bytes:
        """TF1's older name of export_saved_model (default attributes are always stripped)."""
        logger.warning("This function will only be available in TF 1.x; use export_saved_model instead.")
        return self.export_saved_model(export_dir_base, serving_input_receiver_fn, assets_extra, as_text,
                                       checkpoint_path)

    # ---- predict ---------------------------------------------------------------------------------------------
    def predict(self, input_fn: Callable, predict_keys: Any = None, hooks: Any = None,
                checkpoint_path: Optional[str] = None, yield_single_examples: bool = True) -> Iterator[Any]:
        """Yields the predictions of every input batch (one example at a time by default) until the input ends."""
        checkpoint_path = self._checkpoint_to_use(checkpoint_path, "predict")
        graph = ops.Graph()
        with graph.as_default():
            _, spec = self._build(graph, input_fn, ModeKeys.PREDICT)
            predictions = self._select_keys(spec.predictions, predict_keys)
            with MonitoredSession(session_creator=self._restoring_creator(spec, checkpoint_path),
                                  hooks=list(hooks or []) + list(spec.prediction_hooks)) as sess:
                while not sess.should_stop():
                    values = sess.run(predictions)
                    if not yield_single_examples:
                        yield values
                    elif not isinstance(values, dict):
                        yield from values
                    else:
                        for i in range(self._batch_length(values)):
                            yield {key: value[i] for key, value in values.items()}

    @staticmethod
    def _select_keys(predictions: Any, predict_keys: Any) -> Any:
        if predict_keys is None:
            return predictions
        if not isinstance(predictions, dict):
            raise ValueError("predict_keys argument is not valid in case of non-dict predictions.")
        keys = [predict_keys] if isinstance(predict_keys, str) else list(predict_keys)
        selected = {key: value for key, value in predictions.items() if key in keys}
        if not selected:
            raise ValueError(f"Expected to run at least one output from {list(predictions)}, provided {keys}.")
        return selected

    @staticmethod
    def _batch_length(values: dict) -> int:
        lengths = {key: len(value) for key, value in values.items()}
        if len(set(lengths.values())) > 1:
            raise ValueError(f"Batch length of predictions should be same. {lengths}")
        return next(iter(lengths.values()))
