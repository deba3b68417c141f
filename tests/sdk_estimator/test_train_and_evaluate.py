"""train_and_evaluate, the exporters and export_saved_model against tf.compat.v1.estimator's recorded run
(fixtures/canned_fixtures.json, "train_and_evaluate"): final metrics, which exporters exported, how many
evaluations exported, the SavedModels' signatures and the predictions they serve."""
from __future__ import annotations

import json
import types
from pathlib import Path

import numpy as np
import pytest

import edgelite as tf

from . import export_cases

FIXTURE = json.loads((Path(__file__).resolve().parent / "fixtures" / "canned_fixtures.json").read_text())
EST = types.SimpleNamespace(**{name: getattr(tf.estimator, name) for name in tf.estimator.__all__},
                            numpy_input_fn=tf.estimator.inputs.numpy_input_fn,
                            build_parsing_serving_input_receiver_fn=(
                                tf.estimator.export.build_parsing_serving_input_receiver_fn),
                            build_raw_serving_input_receiver_fn=tf.estimator.export.build_raw_serving_input_receiver_fn)


@pytest.fixture(scope="module")
def run(tmp_path_factory):
    return export_cases.run(tf, EST, str(tmp_path_factory.mktemp("tae")))


def _close(got, want) -> None:
    for key, value in want.items():
        if isinstance(value, list) and value and isinstance(value[0], str):
            assert got[key] == value, key
        else:
            np.testing.assert_allclose(got[key], value, rtol=2e-4, atol=2e-5, err_msg=key)


def test_train_and_evaluate_result(run):
    want = FIXTURE["train_and_evaluate"]
    assert sorted(run["metrics"]) == sorted(want["metrics"])
    _close(run["metrics"], want["metrics"])
    assert run["exports"] == want["exports"]
    assert run["latest_count"] == want["latest_count"]
    assert run["export_dir_type"] == want["export_dir_type"]


@pytest.mark.parametrize("kind", ["parsing", "raw"])
def test_exported_signatures(run, kind):
    assert run[f"{kind}_signatures"] == FIXTURE["train_and_evaluate"][f"{kind}_signatures"]


@pytest.mark.parametrize("kind", ["parsing", "raw"])
def test_exported_model_serves_predictions(run, kind):
    _close(run[f"{kind}_predict"], FIXTURE["train_and_evaluate"][f"{kind}_predict"])


def _input_fn():
    return {"x": tf.zeros([2, 4])}, tf.zeros([2], tf.int64)


def test_spec_errors():
    with pytest.raises(TypeError, match=r"`input_fn` must be callable, given: 3"):
        tf.estimator.TrainSpec(3)
    with pytest.raises(ValueError, match=r"Must specify max_steps > 0, given: 0"):
        tf.estimator.TrainSpec(_input_fn, max_steps=0)
    with pytest.raises(ValueError, match=r"Must specify steps > 0, given: -1"):
        tf.estimator.EvalSpec(_input_fn, steps=-1)
    with pytest.raises(ValueError, match=r"Must specify throttle_secs >= 0, given: -2"):
        tf.estimator.EvalSpec(_input_fn, throttle_secs=-2)
    with pytest.raises(TypeError, match=r"`exporters` must be an Exporter, an iterable of Exporter, or `None`"):
        tf.estimator.EvalSpec(_input_fn, exporters=[3])
    fn = tf.estimator.export.build_raw_serving_input_receiver_fn({"x": tf.placeholder(tf.float32, [None, 4])})
    with pytest.raises(ValueError, match=r"`exporters` must have unique names"):
        tf.estimator.EvalSpec(_input_fn, exporters=[tf.estimator.FinalExporter("a", fn),
                                                    tf.estimator.LatestExporter("a", fn)])
    with pytest.raises(ValueError, match=r"`exports_to_keep`, if provided, must be positive number"):
        tf.estimator.LatestExporter("a", fn, exports_to_keep=0)
    with pytest.raises(TypeError, match=r"`eval_spec` must have type `tf.estimator.EvalSpec`"):
        tf.estimator.train_and_evaluate(None, tf.estimator.TrainSpec(_input_fn), None)


def test_export_without_checkpoint_raises(tmp_path):
    est = tf.estimator.LinearRegressor([tf.feature_column.numeric_column("x", shape=(4,))], model_dir=str(tmp_path))
    fn = tf.estimator.export.build_raw_serving_input_receiver_fn({"x": tf.placeholder(tf.float32, [None, 4])})
    with pytest.raises(ValueError, match=f"Couldn't find trained model at {tmp_path}."):
        est.export_saved_model(str(tmp_path / "export"), fn)
