"""tf.estimator.export's ClassificationOutput, RegressionOutput and PredictOutput: what a model_fn serves, turned
into a SignatureDef over the serving input receiver's tensors when the model is exported."""
from __future__ import annotations

from typing import Any, Dict

from edgelite.framework import dtypes, ops
from edgelite.saved_model import signature_def_utils


def _single_string_input(receiver_tensors: Dict[str, Any], kind: str) -> ops.Tensor:
    """The one string tensor classify/regress signatures read serialized tf.Examples from (TF's ValueError)."""
    if len(receiver_tensors) != 1:
        raise ValueError(f"{kind} input must be a single string Tensor; got {receiver_tensors}")
    (examples,) = receiver_tensors.values()
    if examples.dtype != dtypes.string:
        raise ValueError(f"{kind} input must be a single string Tensor; got {receiver_tensors}")
    return examples


class ExportOutput:
    """A model output to serve; as_signature_def(receiver_tensors) builds its signature."""

    def as_signature_def(self, receiver_tensors: Dict[str, Any]) -> Any:
        raise TypeError("use ClassificationOutput, RegressionOutput or PredictOutput")


class ClassificationOutput(ExportOutput):
    """Scores (float [batch, n]) and/or classes (string [batch, n]) for the 'tensorflow/serving/classify' API."""

    def __init__(self, scores: Any = None, classes: Any = None) -> None:
        if scores is not None and not (isinstance(scores, ops.Tensor) and scores.dtype.is_floating):
            raise ValueError(f"Classification scores must be a float32 Tensor; got {scores}")
        if classes is not None and not (isinstance(classes, ops.Tensor) and classes.dtype == dtypes.string):
            raise ValueError(f"Classification classes must be a string Tensor; got {classes}")
        if scores is None and classes is None:
            raise ValueError("At least one of scores and classes must be set.")
        self.scores, self.classes = scores, classes

    def as_signature_def(self, receiver_tensors: Dict[str, Any]) -> Any:
        examples = _single_string_input(receiver_tensors, "Classification")
        return signature_def_utils.classification_signature_def(examples, self.classes, self.scores)


class RegressionOutput(ExportOutput):
    """A float [batch, 1] value for the 'tensorflow/serving/regress' API."""

    def __init__(self, value: Any) -> None:
        if not (isinstance(value, ops.Tensor) and value.dtype.is_floating):
            raise ValueError(f"Regression output value must be a float32 Tensor; got {value}")
        self.value = value

    def as_signature_def(self, receiver_tensors: Dict[str, Any]) -> Any:
        examples = _single_string_input(receiver_tensors, "Regression")
        return signature_def_utils.regression_signature_def(examples, self.value)


class PredictOutput(ExportOutput):
    """Any named output tensors for the 'tensorflow/serving/predict' API (a single tensor is named 'output')."""

    def __init__(self, outputs: Any) -> None:
        if not isinstance(outputs, dict):
            outputs = {"output": outputs}
        for key, value in outputs.items():
            if not isinstance(key, str):
                raise ValueError(f"Prediction output key must be a string; got {key}.")
            if not isinstance(value, ops.Tensor):
                raise ValueError(f"Prediction output value must be a Tensor; got {value}.")
        self.outputs = dict(outputs)

    def as_signature_def(self, receiver_tensors: Dict[str, Any]) -> Any:
        return signature_def_utils.predict_signature_def(receiver_tensors, self.outputs)
