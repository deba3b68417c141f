"""tf.estimator.add_metrics: an Estimator that evaluates extra metrics next to those of an existing one's model_fn."""
from __future__ import annotations

import inspect
from typing import Any, Callable

from .estimator import Estimator
from .model_fn import ModeKeys

_METRIC_FN_ARGS = ("features", "labels", "predictions", "config")


def add_metrics(estimator: Estimator, metric_fn: Callable) -> Estimator:
    """A new Estimator over the same model_dir and config whose EVAL spec also holds metric_fn's metrics
    (metric_fn takes any of features, labels, predictions, config and returns {name: (value, update_op)})."""
    args = tuple(inspect.signature(metric_fn).parameters)
    invalid = [a for a in args if a not in _METRIC_FN_ARGS]
    if invalid:
        raise ValueError(f"metric_fn ({metric_fn}) has following not expected args: {invalid}")

    def new_model_fn(features, labels, mode, config):
        spec = estimator._call_model_fn(features, labels, mode)
        if mode != ModeKeys.EVAL:
            return spec
        given = {"features": features, "labels": labels, "predictions": spec.predictions, "config": config}
        metrics = dict(spec.eval_metric_ops or {})
        metrics.update(metric_fn(**{a: given[a] for a in args}))
        return spec._replace(eval_metric_ops=metrics)

    return Estimator(model_fn=new_model_fn, model_dir=estimator.model_dir, config=estimator.config,
                     warm_start_from=estimator.warm_start_from)
