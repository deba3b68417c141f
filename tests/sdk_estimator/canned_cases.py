"""Canned-estimator cases shared by the TensorFlow fixture generator (fixtures/generate_canned_fixtures.py, run by hand
with tensorflow-estimator 2.15 over TF 2.21) and the edgelite test.

Each case builds an estimator with `build(tf, est, model_dir, warm_start_from)`: `tf` is tensorflow.compat.v1 or
edgelite (feature columns, optimizers), `est` the estimator namespace. Every case starts from the same fixed weights
(written to a checkpoint by `write_initial_checkpoint` and warm-started from), trains on rows in order
(shuffle=False), then evaluates and predicts, so the numbers are comparable.
"""
from __future__ import annotations

import numpy as np

ROWS = 48
BATCH = 16
STEPS = 9


def data() -> dict:
    """Features x (float [48, 4]) and c (one of three words), labels for 2 and 3 classes, regression targets."""
    rng = np.random.RandomState(7)
    x = rng.uniform(-1.0, 1.0, (ROWS, 4)).astype(np.float32)
    c = np.array(["red", "green", "blue"])[rng.randint(0, 3, ROWS)]
    w = rng.uniform(-1.0, 1.0, (4, 3))
    y3 = np.argmax(x @ w + (c == "red")[:, None] * [0.5, 0.0, 0.0], axis=1).astype(np.int64)
    y2 = (x[:, 0] + 0.5 * x[:, 1] - 0.3 * (c == "blue") > 0).astype(np.int64)
    yr = (x @ np.array([1.0, -2.0, 0.5, 0.0]) + 0.3).astype(np.float32)
    yr2 = np.stack([yr, x[:, 2] - x[:, 3]], 1).astype(np.float32)
    weight = rng.uniform(0.5, 2.0, ROWS).astype(np.float32)
    return {"x": x, "c": c, "y2": y2, "y3": y3, "names3": np.array(["cat", "dog", "eel"])[y3], "yr": yr,
            "yr2": yr2, "weight": weight}


def _x(tf):
    return tf.feature_column.numeric_column("x", shape=(4,))


def _c(tf):
    return tf.feature_column.categorical_column_with_vocabulary_list("c", ["red", "green", "blue"])


def _dnn_vars(widths: list, inputs: int, outputs: int) -> dict:
    shapes, prev = {}, inputs
    for i, width in enumerate(widths):
        shapes[f"dnn/hiddenlayer_{i}/kernel"] = [prev, width]
        shapes[f"dnn/hiddenlayer_{i}/bias"] = [width]
        prev = width
    shapes["dnn/logits/kernel"] = [prev, outputs]
    shapes["dnn/logits/bias"] = [outputs]
    return shapes


def _linear_vars(outputs: int, categorical: bool) -> dict:
    shapes = {"linear/linear_model/x/weights": [4, outputs], "linear/linear_model/bias_weights": [outputs]}
    if categorical:
        shapes["linear/linear_model/c/weights"] = [3, outputs]
    return shapes


# name: (build, initial variable shapes, label key, feature keys, extra features)
CASES = {
    "dnn_classifier_3": (
        lambda tf, est, d, w: est.DNNClassifier(hidden_units=[8, 5], feature_columns=[_x(tf)], n_classes=3,
                                                model_dir=d, warm_start_from=w),
        _dnn_vars([8, 5], 4, 3), "y3", ["x"]),
    "dnn_classifier_binary_weighted": (
        lambda tf, est, d, w: est.DNNClassifier(
            hidden_units=[6], feature_columns=[_x(tf), tf.feature_column.indicator_column(_c(tf))],
            weight_column="weight", model_dir=d, warm_start_from=w),
        _dnn_vars([6], 7, 1), "y2", ["x", "c", "weight"]),
    "dnn_classifier_vocab_sgd": (
        lambda tf, est, d, w: est.DNNClassifier(
            hidden_units=[5], feature_columns=[_x(tf)], n_classes=3, label_vocabulary=["cat", "dog", "eel"],
            optimizer=tf.train.GradientDescentOptimizer(0.1), activation_fn=tf.nn.tanh, model_dir=d,
            warm_start_from=w),
        _dnn_vars([5], 4, 3), "names3", ["x"]),
    "dnn_classifier_embedding_batchnorm": (
        lambda tf, est, d, w: est.DNNClassifier(
            hidden_units=[4], feature_columns=[_x(tf), tf.feature_column.embedding_column(_c(tf), 2)], n_classes=3,
            batch_norm=True, model_dir=d, warm_start_from=w),
        dict(_dnn_vars([4], 6, 3), **{
            "dnn/input_from_feature_columns/input_layer/c_embedding/embedding_weights": [3, 2],
            "dnn/hiddenlayer_0/batchnorm_0/gamma": [4], "dnn/hiddenlayer_0/batchnorm_0/beta": [4]}),
        "y3", ["x", "c"]),
    "dnn_linear_combined_classifier": (
        lambda tf, est, d, w: est.DNNLinearCombinedClassifier(
            linear_feature_columns=[_x(tf), _c(tf)], dnn_feature_columns=[_x(tf)], dnn_hidden_units=[5],
            model_dir=d, warm_start_from=w),
        dict(_dnn_vars([5], 4, 1), **_linear_vars(1, True)), "y2", ["x", "c"]),
    "dnn_linear_combined_regressor_2d": (
        lambda tf, est, d, w: est.DNNLinearCombinedRegressor(
            linear_feature_columns=[_x(tf)], dnn_feature_columns=[_x(tf), tf.feature_column.indicator_column(_c(tf))],
            dnn_hidden_units=[4, 3], label_dimension=2, dnn_optimizer=tf.train.AdamOptimizer(0.01),
            linear_optimizer="SGD", model_dir=d, warm_start_from=w),
        dict(_dnn_vars([4, 3], 7, 2), **_linear_vars(2, False)), "yr2", ["x", "c"]),
    "baseline_classifier_3": (
        lambda tf, est, d, w: est.BaselineClassifier(n_classes=3, weight_column="weight", model_dir=d),
        {}, "y3", ["x", "weight"]),
    "baseline_regressor": (
        lambda tf, est, d, w: est.BaselineRegressor(
            model_dir=d, optimizer=lambda: tf.train.GradientDescentOptimizer(0.01)),
        {}, "yr", ["x", "c"]),
    "dnn_regressor": (
        lambda tf, est, d, w: est.DNNRegressor(hidden_units=[6, 4], feature_columns=[_x(tf)], model_dir=d,
                                               warm_start_from=w),
        _dnn_vars([6, 4], 4, 1), "yr", ["x"]),
    "linear_classifier_binary": (
        lambda tf, est, d, w: est.LinearClassifier(feature_columns=[_x(tf), _c(tf)], model_dir=d,
                                                   warm_start_from=w),
        _linear_vars(1, True), "y2", ["x", "c"]),
    "linear_classifier_3_default_opt": (
        lambda tf, est, d, w: est.LinearClassifier(feature_columns=[_x(tf), _c(tf)], n_classes=3, optimizer=None,
                                                   model_dir=d, warm_start_from=w),
        _linear_vars(3, True), "y3", ["x", "c"]),
    "linear_regressor_2d": (
        lambda tf, est, d, w: est.LinearRegressor(feature_columns=[_x(tf)], label_dimension=2, model_dir=d,
                                                  warm_start_from=w),
        _linear_vars(2, False), "yr2", ["x"]),
    "linear_regressor_weighted_adam": (
        lambda tf, est, d, w: est.LinearRegressor(feature_columns=[_x(tf), _c(tf)], weight_column="weight",
                                                  optimizer="Adam", model_dir=d, warm_start_from=w),
        _linear_vars(1, True), "yr", ["x", "c", "weight"]),
}


def initial_values(case: str) -> dict:
    """The fixed starting weights of a case (seeded by the case's position)."""
    shapes = CASES[case][1]
    rng = np.random.RandomState(sorted(CASES).index(case) + 100)
    return {name: rng.uniform(-0.5, 0.5, shape).astype(np.float32) for name, shape in sorted(shapes.items())}


def write_initial_checkpoint(tf, case: str, path: str) -> str:
    """A checkpoint holding the case's initial weights under the estimator's variable names (None: no weights)."""
    if not CASES[case][1]:
        return None
    with tf.Graph().as_default():
        variables = [tf.Variable(value, name=name) for name, value in initial_values(case).items()]
        saver = tf.train.Saver(variables)
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            return saver.save(sess, path)


def run_case(tf, est, case: str, workdir: str) -> dict:
    """Train STEPS batches, evaluate and predict; the results the fixture records."""
    build, _, label_key, keys = CASES[case]
    d = data()
    features = {k: d[k] for k in keys}
    ckpt = write_initial_checkpoint(tf, case, f"{workdir}/init/model.ckpt")
    estimator = build(tf, est, f"{workdir}/model", ckpt)
    estimator.train(est.numpy_input_fn(features, d[label_key], batch_size=BATCH, num_epochs=None, shuffle=False),
                    steps=STEPS)
    metrics = estimator.evaluate(est.numpy_input_fn(features, d[label_key], batch_size=BATCH, num_epochs=1,
                                                    shuffle=False))
    head = {k: v[:5] for k, v in features.items()}
    predictions = list(estimator.predict(est.numpy_input_fn(head, batch_size=5, num_epochs=1, shuffle=False)))
    names = estimator.get_variable_names()
    return {"metrics": {k: np.asarray(v).tolist() for k, v in metrics.items()},
            "variables": {n: estimator.get_variable_value(n).tolist() for n in names
                          if n in CASES[case][1] or n in ("global_step", "baseline/bias")},
            "variable_names": names,
            "predictions": [{k: _plain(v) for k, v in p.items()} for p in predictions]}


def _plain(value):
    value = np.asarray(value)
    if value.dtype == object:
        return [v.decode() for v in value.ravel()]
    return value.tolist()


def parse_specs(tf, est) -> dict:
    """classifier/regressor_parse_example_spec of a numeric, a vocabulary and a weight column, as plain values."""
    columns = [_x(tf), _c(tf)]
    specs = {"classifier": est.classifier_parse_example_spec(columns, "label", weight_column="weight"),
             "regressor": est.regressor_parse_example_spec(columns, "y", label_dimension=2, label_default=(0.0, 1.0))}
    return {kind: {key: [type(f).__name__, list(getattr(f, "shape", [])), f.dtype.name,
                         None if getattr(f, "default_value", None) is None else list(f.default_value)]
                   for key, f in spec.items()}
            for kind, spec in specs.items()}


def add_metrics_case(tf, est, workdir: str) -> dict:
    """add_metrics over the trained dnn_classifier_3: its metrics plus a mean probability and a second accuracy;
    a metric_fn with an unexpected argument is refused."""
    d = data()
    ckpt = write_initial_checkpoint(tf, "dnn_classifier_3", f"{workdir}/init/model.ckpt")
    estimator = CASES["dnn_classifier_3"][0](tf, est, f"{workdir}/model", ckpt)
    estimator.train(est.numpy_input_fn({"x": d["x"]}, d["y3"], batch_size=BATCH, num_epochs=None, shuffle=False),
                    steps=STEPS)

    def metric_fn(labels, predictions):
        return {"mean_p0": tf.metrics.mean(predictions["probabilities"][:, 0]),
                "accuracy_again": tf.metrics.accuracy(labels, predictions["class_ids"])}

    extended = est.add_metrics(estimator, metric_fn)
    metrics = extended.evaluate(est.numpy_input_fn({"x": d["x"]}, d["y3"], batch_size=BATCH, num_epochs=1,
                                                   shuffle=False))
    try:
        est.add_metrics(estimator, lambda labels, mode: {})
        refused = "ok"
    except ValueError as e:
        refused = str(e).split(" has ")[1]
    return {"metrics": {k: float(v) for k, v in metrics.items()}, "refused": refused,
            "same_dir": extended.model_dir == estimator.model_dir}
