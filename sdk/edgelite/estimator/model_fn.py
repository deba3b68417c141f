"""tf.estimator.ModeKeys and EstimatorSpec: what a model_fn returns for each mode, checked as TensorFlow does."""
from __future__ import annotations

import collections
from typing import Any

from edgelite.framework import ops
from edgelite.train.session_run_hook import SessionRunHook

LOSS_METRIC_KEY = "loss"
DEFAULT_SERVING_KEY = "serving_default"


class ModeKeys:
    """The three modes a model_fn is called in."""

    TRAIN = "train"
    EVAL = "eval"
    PREDICT = "infer"


def _check_tensor(value: Any, what: str) -> Any:
    if not isinstance(value, (ops.Tensor, ops.Operation)):
        raise TypeError(f"{what} must be Tensor, given: {value}")
    return value


def _check_loss(loss: Any) -> Any:
    if loss is None:
        return None
    loss = ops.convert_to_tensor(loss) if not isinstance(loss, ops.Tensor) else loss
    if loss.shape.ndims not in (None, 0) and loss.shape.num_elements() != 1:
        raise ValueError(f"Loss must be scalar, given: {loss}")
    return loss


def _check_predictions(predictions: Any) -> Any:
    if isinstance(predictions, dict):
        for key, value in predictions.items():
            _check_tensor(value, f"predictions[{key}]")
    elif predictions is not None:
        _check_tensor(predictions, "predictions")
    return predictions


def _check_metric_ops(eval_metric_ops: Any) -> dict:
    if eval_metric_ops is None:
        return {}
    if not isinstance(eval_metric_ops, dict):
        raise TypeError(f"eval_metric_ops must be a dict, given: {eval_metric_ops}")
    for key, value in eval_metric_ops.items():
        if not isinstance(value, tuple) or len(value) != 2:
            raise TypeError(f"Values of eval_metric_ops must be (metric_value, update_op) tuples, given: {value} "
                            f"for key: {key}")
    return dict(eval_metric_ops)


def _check_hooks(hooks: Any, what: str) -> tuple:
    hooks = tuple(hooks or [])
    for hook in hooks:
        if not isinstance(hook, SessionRunHook):
            raise TypeError(f"All hooks must be SessionRunHook instances, given: {hook}")
    return hooks


def _check_export_outputs(export_outputs: Any, predictions: Any, mode: str) -> Any:
    """A dict of ExportOutputs with a 'serving_default' entry (PREDICT without any: a PredictOutput of the
    predictions)."""
    from .export.export_output import ExportOutput, PredictOutput

    if export_outputs is None:
        if mode != ModeKeys.PREDICT:
            return None
        export_outputs = {DEFAULT_SERVING_KEY: PredictOutput(predictions)}
    if not isinstance(export_outputs, dict):
        raise TypeError(f"export_outputs must be dict, given: {export_outputs}")
    for value in export_outputs.values():
        if not isinstance(value, ExportOutput):
            raise TypeError(f"Values in export_outputs must be ExportOutput objects. Given: {export_outputs}")
    export_outputs = dict(export_outputs)
    if len(export_outputs) == 1:
        export_outputs.setdefault(DEFAULT_SERVING_KEY, next(iter(export_outputs.values())))
    elif len(export_outputs) > 1 and DEFAULT_SERVING_KEY not in export_outputs:
        raise ValueError("Multiple export_outputs were provided, but none of them is specified as the default.  Do "
                         "this by naming one of them with signature_constants.DEFAULT_SERVING_SIGNATURE_DEF_KEY.")
    return export_outputs


_FIELDS = ["mode", "predictions", "loss", "train_op", "eval_metric_ops", "export_outputs", "training_chief_hooks",
           "training_hooks", "scaffold", "evaluation_hooks", "prediction_hooks"]


class EstimatorSpec(collections.namedtuple("EstimatorSpec", _FIELDS)):
    """The ops and objects a model_fn returns; which are required depends on the mode."""

    def __new__(cls, mode: str, predictions: Any = None, loss: Any = None, train_op: Any = None,
                eval_metric_ops: Any = None, export_outputs: Any = None, training_chief_hooks: Any = None,
                training_hooks: Any = None, scaffold: Any = None, evaluation_hooks: Any = None,
                prediction_hooks: Any = None) -> "EstimatorSpec":
        if mode not in (ModeKeys.TRAIN, ModeKeys.EVAL, ModeKeys.PREDICT):
            raise ValueError(f"mode={mode} unrecognized.")
        if train_op is None and mode == ModeKeys.TRAIN:
            raise ValueError("Missing train_op.")
        if train_op is not None:
            _check_tensor(train_op, "train_op")
        loss = _check_loss(loss)
        if loss is None and mode in (ModeKeys.TRAIN, ModeKeys.EVAL):
            raise ValueError("Missing loss.")
        if predictions is None and mode == ModeKeys.PREDICT:
            raise ValueError("Missing predictions.")
        predictions = _check_predictions(predictions if predictions is not None else {})
        return super().__new__(
            cls, mode=mode, predictions=predictions, loss=loss, train_op=train_op,
            eval_metric_ops=_check_metric_ops(eval_metric_ops),
            export_outputs=_check_export_outputs(export_outputs, predictions, mode),
            training_chief_hooks=_check_hooks(training_chief_hooks, "training_chief_hooks"),
            training_hooks=_check_hooks(training_hooks, "training_hooks"), scaffold=scaffold,
            evaluation_hooks=_check_hooks(evaluation_hooks, "evaluation_hooks"),
            prediction_hooks=_check_hooks(prediction_hooks, "prediction_hooks"))
