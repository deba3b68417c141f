"""tf.layers.InputSpec against TensorFlow 2.21 fixtures: repr/get_config, constructor errors, and the check a
Layer with input_spec runs on its inputs (rank, max/min rank, fixed axis sizes, shape, dtype)."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

import edgelite as tf

from . import layer_cases

FACTS = json.loads((Path(__file__).resolve().parent / "fixtures" / "tf_layers.json").read_text())


def _message_core(message: str) -> str:
    """TF's text without the uniquified layer name and TF1's Dimension() repr, which differ by design."""
    return message.split(" Full shape received")[0].split(" is incompatible")[-1]


@pytest.mark.parametrize("name,shape,dtype,spec", layer_cases.SPEC_CASES, ids=[c[0] for c in layer_cases.SPEC_CASES])
def test_layer_input_spec_check_matches_tensorflow(name: str, shape: list, dtype: str, spec: dict) -> None:
    expected = FACTS["spec_cases"][name]
    with tf.Graph().as_default():
        x = tf.placeholder(dtype, shape, name="x")
        layer = layer_cases.spec_layer(tf, **spec)
        if expected["type"] is None:
            assert layer(x).shape.as_list() == expected["output_shape"]
            return
        with pytest.raises(ValueError) as info:
            layer(x)
    assert _message_core(str(info.value)) == _message_core(expected["message"])


@pytest.mark.parametrize("index", range(len(layer_cases.SPEC_REPRS)))
def test_input_spec_repr_config_and_errors_match_tensorflow(index: int) -> None:
    spec, expected = layer_cases.SPEC_REPRS[index], FACTS["spec_reprs"][index]
    if expected["type"] is not None:
        with pytest.raises(ValueError, match="^" + expected["message"] + "$"):
            tf.layers.InputSpec(**spec)
        return
    s = tf.layers.InputSpec(**spec)
    assert repr(s) == expected["repr"]
    config = {k: ([list(i) for i in v.items()] if isinstance(v, dict) else list(v) if isinstance(v, tuple) else v)
              for k, v in s.get_config().items()}
    assert config == expected["config"]
    assert repr(tf.layers.InputSpec.from_config(s.get_config())) == expected["repr"]
