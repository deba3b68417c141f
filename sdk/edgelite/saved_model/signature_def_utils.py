"""tf.compat.v1.saved_model.signature_def_utils: build SignatureDefs and check that TF Serving can serve them."""
from __future__ import annotations

from typing import Any, Dict, Optional

from edgelite.framework import dtypes
from edgelite.framework import ops
from edgelite.framework.graph_def import tensor_proto
from edgelite.framework.meta_graph_protos import SignatureDef, TensorInfo
from edgelite.saved_model import signature_constants as sc
from edgelite.saved_model.utils import build_tensor_info

_STRING, _FLOAT = dtypes.string.as_datatype_enum, dtypes.float32.as_datatype_enum


def build_signature_def(inputs: Optional[Dict[str, TensorInfo]] = None,
                        outputs: Optional[Dict[str, TensorInfo]] = None, method_name: Optional[str] = None,
                        defaults: Optional[Dict[str, Any]] = None) -> SignatureDef:
    """A SignatureDef from maps of TensorInfo protos, a method name and default values (constant tensors)."""
    signature_def = SignatureDef()
    for key, info in (inputs or {}).items():
        signature_def.inputs[key] = TensorInfo.FromString(info.SerializeToString())
    for key, info in (outputs or {}).items():
        signature_def.outputs[key] = TensorInfo.FromString(info.SerializeToString())
    if method_name is not None:
        signature_def.method_name = method_name
    for key, default in (defaults or {}).items():
        if not isinstance(default, ops.Tensor) or default.op.type != "Const":
            raise ValueError(f"Unable to convert object {default} of type {type(default)} to TensorProto.")
        signature_def.defaults[key] = tensor_proto(default.op.get_attr("value"))
    return signature_def


def predict_signature_def(inputs: Dict[str, Any], outputs: Dict[str, Any]) -> SignatureDef:
    """A 'tensorflow/serving/predict' signature over any named input and output tensors."""
    if not inputs:
        raise ValueError("Prediction `inputs` cannot be None or empty.")
    if not outputs:
        raise ValueError("Prediction `outputs` cannot be None or empty.")
    return build_signature_def({k: build_tensor_info(t) for k, t in inputs.items()},
                               {k: build_tensor_info(t) for k, t in outputs.items()}, sc.PREDICT_METHOD_NAME)


def regression_signature_def(examples: Any, predictions: Any) -> SignatureDef:
    """A 'tensorflow/serving/regress' signature: serialized string examples in, float predictions out."""
    if examples is None:
        raise ValueError("Regression `examples` cannot be None.")
    if not isinstance(examples, ops.Tensor):
        raise ValueError(f"Expected regression `examples` to be of type Tensor. Found `examples` of type "
                         f"{type(examples)}.")
    if predictions is None:
        raise ValueError("Regression `predictions` cannot be None.")
    inp = build_tensor_info(examples)
    if inp.dtype != _STRING:
        raise ValueError(f"Regression input tensors must be of type string. Found tensors with type {inp.dtype}.")
    out = build_tensor_info(predictions)
    if out.dtype != _FLOAT:
        raise ValueError(f"Regression output tensors must be of type float. Found tensors with type {out.dtype}.")
    return build_signature_def({sc.REGRESS_INPUTS: inp}, {sc.REGRESS_OUTPUTS: out}, sc.REGRESS_METHOD_NAME)


def classification_signature_def(examples: Any, classes: Any, scores: Any) -> SignatureDef:
    """A 'tensorflow/serving/classify' signature: string examples in, string classes and/or float scores out."""
    if examples is None:
        raise ValueError("Classification `examples` cannot be None.")
    if not isinstance(examples, ops.Tensor):
        raise ValueError(f"Classification `examples` must be a string Tensor. Found `examples` of type "
                         f"{type(examples)}.")
    if classes is None and scores is None:
        raise ValueError("Classification `classes` and `scores` cannot both be None.")
    inp = build_tensor_info(examples)
    if inp.dtype != _STRING:
        raise ValueError(f"Classification input tensors must be of type string. Found tensors of type {inp.dtype}")
    outputs = {}
    if classes is not None:
        info = build_tensor_info(classes)
        if info.dtype != _STRING:
            raise ValueError(f"Classification classes must be of type string Tensor. Found tensors of type "
                             f"{info.dtype}.`")
        outputs[sc.CLASSIFY_OUTPUT_CLASSES] = info
    if scores is not None:
        info = build_tensor_info(scores)
        if info.dtype != _FLOAT:
            raise ValueError("Classification scores must be a float Tensor.")
        outputs[sc.CLASSIFY_OUTPUT_SCORES] = info
    return build_signature_def({sc.CLASSIFY_INPUTS: inp}, outputs, sc.CLASSIFY_METHOD_NAME)


def _valid_predict(sig: SignatureDef) -> bool:
    return sig.method_name == sc.PREDICT_METHOD_NAME and bool(sig.inputs.keys()) and bool(sig.outputs.keys())


def _valid_regression(sig: SignatureDef) -> bool:
    return (sig.method_name == sc.REGRESS_METHOD_NAME and set(sig.inputs.keys()) == {sc.REGRESS_INPUTS}
            and sig.inputs[sc.REGRESS_INPUTS].dtype == _STRING and set(sig.outputs.keys()) == {sc.REGRESS_OUTPUTS}
            and sig.outputs[sc.REGRESS_OUTPUTS].dtype == _FLOAT)


def _valid_classification(sig: SignatureDef) -> bool:
    if sig.method_name != sc.CLASSIFY_METHOD_NAME or set(sig.inputs.keys()) != {sc.CLASSIFY_INPUTS}:
        return False
    if sig.inputs[sc.CLASSIFY_INPUTS].dtype != _STRING:
        return False
    keys = set(sig.outputs.keys())
    if not keys or keys - {sc.CLASSIFY_OUTPUT_CLASSES, sc.CLASSIFY_OUTPUT_SCORES}:
        return False
    if sc.CLASSIFY_OUTPUT_CLASSES in keys and sig.outputs[sc.CLASSIFY_OUTPUT_CLASSES].dtype != _STRING:
        return False
    return not (sc.CLASSIFY_OUTPUT_SCORES in keys and sig.outputs[sc.CLASSIFY_OUTPUT_SCORES].dtype != _FLOAT)


def is_valid_signature(signature_def: Optional[SignatureDef]) -> bool:
    """True when TensorFlow Serving can serve signature_def (a valid classify, regress or predict signature)."""
    if signature_def is None:
        return False
    return _valid_classification(signature_def) or _valid_regression(signature_def) or _valid_predict(signature_def)


def op_signature_def(op: Any, key: str) -> SignatureDef:
    """A signature naming only an op (how the init and train ops are stored): the TensorInfo name is the op's."""
    return build_signature_def(outputs={key: TensorInfo(name=op.name, dtype=0, tensor_shape=_unknown_shape())})


def _unknown_shape() -> Any:
    from edgelite.summary.protos import TensorShapeProto
    return TensorShapeProto(unknown_rank=True)
