"""tf.estimator (the TF1 API): Estimator over a model_fn, EstimatorSpec, ModeKeys, RunConfig and inputs, plus the
session-run hooks TF1 also exports under tf.estimator (the same classes as tf.train's)."""
from __future__ import annotations

from edgelite.train.basic_session_run_hooks import (CheckpointSaverHook, CheckpointSaverListener,  # noqa: F401
                                                    FeedFnHook, FinalOpsHook, GlobalStepWaiterHook, LoggingTensorHook,
                                                    NanLossDuringTrainingError, NanTensorHook, ProfilerHook,
                                                    SecondOrStepTimer, StepCounterHook, StopAtStepHook,
                                                    SummarySaverHook)
from edgelite.train.session_run_hook import (SessionRunArgs, SessionRunContext, SessionRunHook,  # noqa: F401
                                             SessionRunValues)

from . import export, inputs  # noqa: F401
from .canned import (BaselineClassifier, BaselineRegressor, DNNClassifier, DNNLinearCombinedClassifier,  # noqa: F401
                     DNNLinearCombinedRegressor, DNNRegressor, LinearClassifier, LinearRegressor)
from .estimator import Estimator, WarmStartSettings  # noqa: F401
from .exporter import Exporter, FinalExporter, LatestExporter  # noqa: F401
from .extenders import add_metrics  # noqa: F401
from .model_fn import EstimatorSpec, ModeKeys  # noqa: F401
from .parsing_specs import classifier_parse_example_spec, regressor_parse_example_spec  # noqa: F401
from .run_config import RunConfig  # noqa: F401
from .training import EvalSpec, TrainSpec, train_and_evaluate  # noqa: F401

__all__ = ["DNNClassifier", "DNNRegressor", "LinearClassifier", "LinearRegressor", "DNNLinearCombinedClassifier",
           "DNNLinearCombinedRegressor", "BaselineClassifier", "BaselineRegressor", "WarmStartSettings", "Estimator",
           "EvalSpec", "TrainSpec", "train_and_evaluate", "Exporter", "FinalExporter", "LatestExporter", "export",
           "classifier_parse_example_spec", "regressor_parse_example_spec", "add_metrics",
           "EstimatorSpec", "ModeKeys", "RunConfig", "inputs", "CheckpointSaverHook",
           "CheckpointSaverListener", "FeedFnHook", "FinalOpsHook", "GlobalStepWaiterHook", "LoggingTensorHook",
           "NanLossDuringTrainingError", "NanTensorHook", "ProfilerHook", "SecondOrStepTimer", "SessionRunArgs",
           "SessionRunContext", "SessionRunHook", "SessionRunValues", "StepCounterHook", "StopAtStepHook",
           "SummarySaverHook"]
