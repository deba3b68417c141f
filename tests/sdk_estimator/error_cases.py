"""Common mistakes with canned estimators, shared by the fixture generator (TensorFlow) and the edgelite test:
each case returns nothing or raises; `outcome` records "<ErrorType>: <message>"."""
from __future__ import annotations

import numpy as np

X = np.random.RandomState(3).uniform(-1, 1, (6, 4)).astype(np.float32)


def _x(tf):
    return [tf.feature_column.numeric_column("x", shape=(4,))]


def _train(est, estimator, features, labels) -> None:
    estimator.train(est.numpy_input_fn(features, labels, batch_size=3, num_epochs=1, shuffle=False), steps=1)


def n_classes_one(tf, est, d):
    est.DNNClassifier(hidden_units=[3], feature_columns=_x(tf), n_classes=1, model_dir=d)


def unknown_optimizer_name(tf, est, d):
    _train(est, est.DNNClassifier(hidden_units=[3], feature_columns=_x(tf), optimizer="Foo", model_dir=d),
           {"x": X}, np.zeros(6, np.int64))


def features_not_a_dict(tf, est, d):
    _train(est, est.LinearRegressor(feature_columns=_x(tf), model_dir=d), X, np.zeros(6, np.float32))


def float_labels_multiclass(tf, est, d):
    _train(est, est.DNNClassifier(hidden_units=[3], feature_columns=_x(tf), n_classes=3, model_dir=d),
           {"x": X}, np.zeros(6, np.float32))


def label_width_mismatch(tf, est, d):
    _train(est, est.LinearClassifier(feature_columns=_x(tf), model_dir=d), {"x": X}, np.zeros((6, 2), np.int64))


def int_labels_with_vocabulary(tf, est, d):
    _train(est, est.LinearClassifier(feature_columns=_x(tf), label_vocabulary=["a", "b"], model_dir=d),
           {"x": X}, np.zeros(6, np.int64))


def regressor_label_dimension_zero(tf, est, d):
    est.DNNRegressor(hidden_units=[3], feature_columns=_x(tf), label_dimension=0, model_dir=d)


def label_out_of_range(tf, est, d):
    _train(est, est.DNNClassifier(hidden_units=[3], feature_columns=_x(tf), n_classes=3, model_dir=d),
           {"x": X}, np.full(6, 5, np.int64))


def unknown_feature_key(tf, est, d):
    _train(est, est.LinearClassifier(feature_columns=_x(tf), model_dir=d), {"z": X}, np.zeros(6, np.int64))


CASES = [n_classes_one, unknown_optimizer_name, features_not_a_dict, float_labels_multiclass, label_width_mismatch,
         int_labels_with_vocabulary, regressor_label_dimension_zero, label_out_of_range, unknown_feature_key]


def outcome(case, tf, est, workdir: str) -> str:
    """'ok', or the raised error's type name and the first line of its message."""
    try:
        case(tf, est, workdir)
    except Exception as e:  # noqa: BLE001 - the outcome records whatever the library raises
        return f"{type(e).__name__}: {str(e).splitlines()[0] if str(e) else ''}"
    return "ok"
