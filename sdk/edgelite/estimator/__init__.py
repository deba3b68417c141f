"""tf.estimator (the TF1 API): Estimator over a model_fn, EstimatorSpec, ModeKeys, RunConfig and inputs."""
from __future__ import annotations

from . import inputs  # noqa: F401
from .estimator import Estimator  # noqa: F401
from .model_fn import EstimatorSpec, ModeKeys  # noqa: F401
from .run_config import RunConfig  # noqa: F401

__all__ = ["Estimator", "EstimatorSpec", "ModeKeys", "RunConfig", "inputs"]
