"""tf.estimator.Estimator against a numpy re-derivation of TF1's documented semantics: a linear model trained by
plain gradient descent on batches in input order, evaluation as the mean of per-batch losses, checkpoints
carrying the global step between calls."""
from __future__ import annotations

import numpy as np
import pytest

import edgelite as tf

RNG = np.random.RandomState(0)
X = RNG.uniform(-1, 1, (10, 3)).astype(np.float32)
Y = (X @ np.array([[1.5], [-2.0], [0.5]]) + 0.25).astype(np.float32)
LR = 0.1


def model_fn(features, labels, mode, params):
    w = tf.get_variable("w", [3, 1], initializer=tf.zeros_initializer())
    b = tf.get_variable("b", [1], initializer=tf.zeros_initializer())
    pred = tf.matmul(features["x"], w) + b
    if mode == tf.estimator.ModeKeys.PREDICT:
        return tf.estimator.EstimatorSpec(mode, predictions={"pred": pred, "twice": 2.0 * pred})
    loss = tf.reduce_mean(tf.square(pred - labels))
    train_op = tf.train.GradientDescentOptimizer(params["lr"]).minimize(loss, global_step=tf.train.get_global_step())
    return tf.estimator.EstimatorSpec(mode, loss=loss, train_op=train_op,
                                      eval_metric_ops={"mae": tf.metrics.mean_absolute_error(labels, pred)})


def _batches(batch_size: int, steps: int) -> list:
    """Row indices of each batch when the rows repeat in order and batches run across epoch ends."""
    order = np.arange(batch_size * steps) % len(X)
    return [order[i * batch_size:(i + 1) * batch_size] for i in range(steps)]


def _numpy_train(steps: int, batch_size: int = 4) -> tuple:
    w, b = np.zeros((3, 1)), np.zeros(1)
    for rows in _batches(batch_size, steps):
        err = X[rows] @ w + b - Y[rows]
        w = w - LR * 2.0 / err.size * X[rows].T @ err
        b = b - LR * 2.0 / err.size * err.sum(0)
    return w, b


def _estimator(tmp_path):
    return tf.estimator.Estimator(model_fn, model_dir=str(tmp_path / "model"), params={"lr": LR},
                                  config=tf.estimator.RunConfig(save_checkpoints_steps=5, log_step_count_steps=None))


def _train_input(batch_size: int = 4):
    return tf.estimator.inputs.numpy_input_fn({"x": X}, Y, batch_size=batch_size, num_epochs=None, shuffle=False)


def test_train_matches_gradient_descent_and_resumes(tmp_path):
    est = _estimator(tmp_path)
    est.train(_train_input(), steps=7)
    w, b = _numpy_train(7)
    np.testing.assert_allclose(est.get_variable_value("w"), w, rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(est.get_variable_value("b"), b, rtol=1e-5, atol=1e-6)
    assert est.get_variable_value("global_step") == 7
    # A second call builds a new graph, restores step 7 and runs 3 more steps on a fresh input pipeline.
    est.train(_train_input(), steps=3)
    assert est.get_variable_value("global_step") == 10
    # max_steps already reached: nothing runs.
    before = est.get_variable_value("w")
    est.train(_train_input(), max_steps=10)
    np.testing.assert_array_equal(est.get_variable_value("w"), before)
    est.train(_train_input(), max_steps=12)
    assert est.get_variable_value("global_step") == 12


def test_train_stops_when_input_is_exhausted(tmp_path):
    est = _estimator(tmp_path)
    est.train(tf.estimator.inputs.numpy_input_fn({"x": X}, Y, batch_size=4, num_epochs=2, shuffle=False))
    assert est.get_variable_value("global_step") == 5  # 20 rows in batches of 4


def test_evaluate_mean_of_batch_losses(tmp_path):
    est = _estimator(tmp_path)
    est.train(_train_input(), steps=6)
    w, b = _numpy_train(6)
    res = est.evaluate(tf.estimator.inputs.numpy_input_fn({"x": X}, Y, batch_size=4, num_epochs=1, shuffle=False))
    pred = X @ w + b
    batch_losses = [np.mean((pred[i:i + 4] - Y[i:i + 4]) ** 2) for i in (0, 4, 8)]  # batches of 4, 4, 2
    assert sorted(res) == ["global_step", "loss", "mae"]
    assert res["global_step"] == 6
    np.testing.assert_allclose(res["loss"], np.mean(batch_losses), rtol=1e-5)
    np.testing.assert_allclose(res["mae"], np.mean(np.abs(pred - Y)), rtol=1e-5)
    first = est.evaluate(tf.estimator.inputs.numpy_input_fn({"x": X}, Y, batch_size=4, num_epochs=1,
                                                            shuffle=False), steps=1)
    np.testing.assert_allclose(first["loss"], batch_losses[0], rtol=1e-5)


def test_predict_single_examples_and_batches(tmp_path):
    est = _estimator(tmp_path)
    est.train(_train_input(), steps=4)
    w, b = _numpy_train(4)
    pred = X @ w + b
    in_fn = tf.estimator.inputs.numpy_input_fn({"x": X}, batch_size=4, num_epochs=1, shuffle=False)
    rows = list(est.predict(in_fn))
    assert len(rows) == 10 and sorted(rows[0]) == ["pred", "twice"]
    np.testing.assert_allclose(np.stack([r["pred"] for r in rows]), pred, rtol=1e-5, atol=1e-6)
    only = list(est.predict(in_fn, predict_keys="twice"))
    np.testing.assert_allclose(np.stack([r["twice"] for r in only]), 2 * pred, rtol=1e-5, atol=1e-6)
    batches = list(est.predict(in_fn, yield_single_examples=False))
    assert [len(bt["pred"]) for bt in batches] == [4, 4, 2]
    with pytest.raises(ValueError, match="Expected to run at least one output"):
        list(est.predict(in_fn, predict_keys=["nope"]))


def test_numpy_input_fn_batches_and_errors():
    with tf.Graph().as_default():
        feats, labels = tf.estimator.inputs.numpy_input_fn(X, Y, batch_size=4, num_epochs=1, shuffle=False)()
        sizes = []
        with tf.Session() as sess:
            try:
                while True:
                    f, l = sess.run([feats, labels])
                    np.testing.assert_array_equal(f, X[sum(sizes):sum(sizes) + len(f)])
                    sizes.append(len(l))
            except tf.errors.OutOfRangeError:
                pass
    assert sizes == [4, 4, 2]
    with pytest.raises(ValueError, match="shuffle must be provided and explicitly set as boolean"):
        tf.estimator.inputs.numpy_input_fn(X, Y)
    with pytest.raises(ValueError, match="Length of tensors in x and y is mismatched"):
        tf.estimator.inputs.numpy_input_fn({"x": X}, Y[:5], shuffle=False)


def test_spec_and_argument_errors(tmp_path):
    with tf.Graph().as_default():
        loss = tf.constant(1.0)
        with pytest.raises(ValueError, match="Missing train_op"):
            tf.estimator.EstimatorSpec(tf.estimator.ModeKeys.TRAIN, loss=loss)
        with pytest.raises(ValueError, match="Missing loss"):
            tf.estimator.EstimatorSpec(tf.estimator.ModeKeys.EVAL)
        with pytest.raises(ValueError, match="Missing predictions"):
            tf.estimator.EstimatorSpec(tf.estimator.ModeKeys.PREDICT)
        with pytest.raises(ValueError, match="Loss must be scalar"):
            tf.estimator.EstimatorSpec(tf.estimator.ModeKeys.EVAL, loss=tf.constant([1.0, 2.0]))
    est = _estimator(tmp_path)
    with pytest.raises(ValueError, match="Can not provide both steps and max_steps"):
        est.train(_train_input(), steps=1, max_steps=2)
    with pytest.raises(ValueError, match="Must specify steps > 0"):
        est.train(_train_input(), steps=0)
    assert tf.estimator.ModeKeys.PREDICT == "infer"
    with pytest.raises(ValueError, match="Can not specify both save_checkpoints_steps and save_checkpoints_secs"):
        tf.estimator.RunConfig(save_checkpoints_steps=1, save_checkpoints_secs=1)
    assert tf.estimator.RunConfig().save_checkpoints_secs == 600


def test_pandas_input_fn_feeds_columns_in_index_order(tmp_path):
    pd = pytest.importorskip("pandas", reason="pandas_input_fn needs the optional pandas")
    frame = pd.DataFrame(X, columns=["a", "b", "c"])

    def columns_model_fn(features, labels, mode, params):
        stacked = tf.stack([features["a"], features["b"], features["c"]], axis=1)
        # a Series target arrives as a [batch] vector
        return model_fn({"x": stacked}, tf.reshape(labels, [-1, 1]), mode, params)

    est = tf.estimator.Estimator(columns_model_fn, model_dir=str(tmp_path / "pd"), params={"lr": LR},
                                 config=tf.estimator.RunConfig(log_step_count_steps=None))
    target = pd.Series(Y[:, 0])
    est.train(tf.estimator.inputs.pandas_input_fn(frame, target, batch_size=4, num_epochs=None, shuffle=False),
              steps=5)
    w, b = _numpy_train(5)
    np.testing.assert_allclose(est.get_variable_value("w"), w, rtol=1e-5, atol=1e-6)
    with pytest.raises(ValueError, match="shuffle must be provided"):
        tf.estimator.inputs.pandas_input_fn(frame, target)
    with pytest.raises(ValueError, match="Cannot use name a for target column"):
        tf.estimator.inputs.pandas_input_fn(frame, target, shuffle=False, target_column="a")
    with pytest.raises(ValueError, match="Index for x and y are mismatched"):
        tf.estimator.inputs.pandas_input_fn(frame, pd.Series(Y[:, 0], index=range(5, 15)), shuffle=False)


def test_hooks_exported_under_estimator_are_tf_train_classes(tmp_path):
    names = ["CheckpointSaverHook", "LoggingTensorHook", "NanTensorHook", "SessionRunHook", "SessionRunArgs",
             "StopAtStepHook", "StepCounterHook", "SummarySaverHook", "FinalOpsHook", "FeedFnHook"]
    assert all(getattr(tf.estimator, n) is getattr(tf.train, n) for n in names)

    class CountSteps(tf.estimator.SessionRunHook):
        def __init__(self):
            self.calls = 0

        def after_run(self, run_context, run_values):
            self.calls += 1

    counter = CountSteps()
    _estimator(tmp_path).train(_train_input(), steps=3, hooks=[counter])
    assert counter.calls == 3
