"""Stateful Keras metric classes, shared by the TensorFlow fixture generator and the edgelite tests: standalone
update_state/result/reset_states in a Session, __call__, variable names and configs, and the classes in
compile(metrics=[...]) through fit/evaluate (running values per epoch)."""
from __future__ import annotations

import numpy as np

from .data_cases import _error
from .keras_cases import _digits, _fresh, _history, _seed_weights


def _batches(seed: int):
    rng = np.random.RandomState(seed)
    for _ in range(3):
        labels = rng.randint(0, 3, 8)
        scores = rng.rand(8, 3).astype(np.float32)
        yield labels, scores / scores.sum(1, keepdims=True), rng.rand(8).astype(np.float32)


def case_standalone(tf):
    """Every class over three batches (some weighted), results after each batch, reset, __call__."""
    K = _fresh(tf)
    m = K.metrics
    binary = {"precision": m.Precision(), "recall": m.Recall(), "precision_thresholds": m.Precision([0.3, 0.5, 0.8]),
              "precision_top2_class1": m.Precision(top_k=2, class_id=1), "recall_class2": m.Recall(class_id=2),
              "auc": m.AUC(), "auc_pr": m.AUC(curve="PR"), "auc_majoring": m.AUC(num_thresholds=9,
                                                                                    summation_method="majoring"),
              "auc_thresholds": m.AUC(thresholds=[0.25, 0.5, 0.75]), "auc_logits": m.AUC(from_logits=True),
              "auc_pr_gain": m.AUC(curve="pr_gain", num_thresholds=50),
              "tp": m.TruePositives(), "fp": m.FalsePositives(thresholds=[0.2, 0.6]), "tn": m.TrueNegatives(),
              "fn": m.FalseNegatives(), "binary_accuracy": m.BinaryAccuracy(threshold=0.3),
              "accuracy_onehot_rounded": m.Accuracy(), "mse": m.MeanSquaredError(), "mae": m.MeanAbsoluteError(),
              "rmse": m.RootMeanSquaredError()}
    categorical = {"categorical_accuracy": m.CategoricalAccuracy(), "top2": m.TopKCategoricalAccuracy(k=2),
                   "top1": m.TopKCategoricalAccuracy(1)}
    sparse = {"sparse_accuracy": m.SparseCategoricalAccuracy(), "sparse_top2": m.SparseTopKCategoricalAccuracy(k=2)}
    mean, total = m.Mean(), m.Sum()
    steps, results = [], {}
    for labels, scores, weights in _batches(31):
        onehot = np.eye(3, dtype=np.float32)[labels]
        for key, metric in binary.items():
            pred = np.round(scores) if key == "accuracy_onehot_rounded" else scores
            steps.append((key, metric.update_state(onehot, pred, sample_weight=weights if key in (
                "precision", "auc", "binary_accuracy", "rmse", "fn") else None)))
        for key, metric in categorical.items():
            steps.append((key, metric.update_state(onehot, scores)))
        for key, metric in sparse.items():
            steps.append((key, metric.update_state(labels, scores, sample_weight=weights)))
        steps.append(("mean", mean.update_state(scores, sample_weight=weights)))
        steps.append(("sum", total.update_state(scores[:, 0])))
    every = dict(binary, **categorical, **sparse, mean=mean, sum=total)
    out = {}
    with tf.Session() as sess:
        sess.run(tf.variables_initializer([v for metric in every.values() for v in metric.variables]))
        per_batch = len(steps) // 3
        for b in range(3):
            sess.run([op for _, op in steps[b * per_batch:(b + 1) * per_batch]])
            for key, metric in every.items():
                results.setdefault(key, []).append(sess.run(metric.result()))
        mean.reset_states()
        out["mean_after_reset"] = sess.run(mean.result())
        out["mean_call"] = sess.run(mean([1.0, 2.0, 6.0]))
        out["mean_after_call"] = sess.run(mean.result())
        auc_call = m.AUC(num_thresholds=5)
        call_value = auc_call([0, 1, 1, 0], [0.1, 0.8, 0.4, 0.3])
        sess.run(tf.variables_initializer(auc_call.variables))
        out["auc_call"] = sess.run(call_value)
        for label, labels in (("same_rank", [1.0, 0.0]), ("column_labels", [[1.0], [0.0]])):
            bad = m.Precision()
            bad_op = bad.update_state(labels, tf.constant([0.5, 1.5]) * tf.constant(1.0))
            sess.run(tf.variables_initializer(bad.variables))
            try:
                sess.run(bad_op)
                out[f"out_of_range_{label}"] = "accepted"
            except tf.errors.InvalidArgumentError as exc:
                out[f"out_of_range_{label}"] = "predictions must be <= 1" in str(exc)
    out.update({f"result_{k}": np.asarray(v, np.float64) for k, v in results.items()})
    out["names"] = [metric.name for metric in every.values()]
    out["variables"] = [v.name for metric in (binary["precision"], binary["auc"], mean) for v in metric.variables]
    out["variable_shapes"] = [v.shape.as_list() for v in binary["auc_thresholds"].variables]
    out["configs"] = [sorted(every[k].get_config()) for k in ("precision", "auc", "binary_accuracy", "top2", "mean")]
    out["bad_curve"] = _error(lambda: m.AUC(curve="XY"))
    out["bad_summation"] = _error(lambda: m.AUC(summation_method="trapezoid"))
    out["bad_num_thresholds"] = _error(lambda: m.AUC(num_thresholds=1))
    return out


def case_compiled_binary(tf):
    """A sigmoid classifier compiled with Precision, Recall, AUC and BinaryAccuracy objects next to 'accuracy'."""
    K = _fresh(tf)
    x, labels = _digits(60, seed=32)
    y = (labels % 2).astype(np.float32)
    model = K.Sequential([K.layers.Dense(8, activation="relu", input_shape=(12,)),
                          K.layers.Dense(1, activation="sigmoid")])
    model.compile(K.optimizers.Adam(0.01), "binary_crossentropy",
                  metrics=["accuracy", K.metrics.Precision(), K.metrics.Recall(name="rec"), K.metrics.AUC(),
                           K.metrics.BinaryAccuracy(threshold=0.4)])
    _seed_weights(model, 33)
    hist = model.fit(x[:45], y[:45], batch_size=10, epochs=3, verbose=0, shuffle=False,
                     validation_data=(x[45:], y[45:]))
    out = dict(_history(hist), metrics_names=list(model.metrics_names))
    out["evaluate"] = np.asarray(model.evaluate(x, y, batch_size=16, verbose=0), np.float64)
    out["train_on_batch"] = np.asarray(model.train_on_batch(x[:10], y[:10]), np.float64)
    return out


def case_compiled_categorical(tf):
    """Softmax classifier with CategoricalAccuracy / TopKCategoricalAccuracy objects; a regression model with
    MeanSquaredError, MeanAbsoluteError and RootMeanSquaredError objects."""
    K = _fresh(tf)
    x, labels = _digits(48, seed=34)
    model = K.Sequential([K.layers.Dense(4, activation="softmax", input_shape=(12,))])
    model.compile(K.optimizers.SGD(0.2), "categorical_crossentropy",
                  metrics=[K.metrics.CategoricalAccuracy(), K.metrics.TopKCategoricalAccuracy(k=2)])
    _seed_weights(model, 35)
    hist = model.fit(x, K.utils.to_categorical(labels, 4), batch_size=12, epochs=2, verbose=0, shuffle=False)
    out = {f"cls_{k}": v for k, v in _history(hist).items()}
    out["cls_names"] = list(model.metrics_names)
    K = _fresh(tf)
    reg = K.Sequential([K.layers.Dense(2, input_shape=(12,))])
    reg.compile(K.optimizers.SGD(0.01), "mse", metrics=[K.metrics.MeanSquaredError(),
                                                       K.metrics.MeanAbsoluteError(),
                                                       K.metrics.RootMeanSquaredError()])
    _seed_weights(reg, 36)
    target = np.stack([labels, labels * 0.5], 1).astype(np.float32)
    hist = reg.fit(x, target, batch_size=16, epochs=2, verbose=0, shuffle=False)
    out.update({f"reg_{k}": v for k, v in _history(hist).items()})
    out["reg_names"] = list(reg.metrics_names)
    out["reg_evaluate"] = np.asarray(reg.evaluate(x, target, batch_size=20, verbose=0), np.float64)
    return out


def case_loss_like_classes(tf):
    """The metric classes wrapping loss functions, over three batches (some weighted), their names and the
    metric functions cosine_similarity / logcosh by name."""
    K = _fresh(tf)
    m = K.metrics
    rng = np.random.RandomState(37)
    made = {"mape": m.MeanAbsolutePercentageError(), "msle": m.MeanSquaredLogarithmicError(), "hinge": m.Hinge(),
            "squared_hinge": m.SquaredHinge(), "categorical_hinge": m.CategoricalHinge(), "kld": m.KLDivergence(),
            "poisson": m.Poisson(), "logcosh": m.LogCoshError(), "cosine": m.CosineSimilarity(),
            "cosine_axis0": m.CosineSimilarity(axis=0), "bce": m.BinaryCrossentropy(),
            "bce_logits_smooth": m.BinaryCrossentropy(from_logits=True, label_smoothing=0.2),
            "cce": m.CategoricalCrossentropy(label_smoothing=0.1), "cce_logits": m.CategoricalCrossentropy(
                from_logits=True), "scce": m.SparseCategoricalCrossentropy(),
            "scce_logits": m.SparseCategoricalCrossentropy(from_logits=True)}
    ops = []
    for b in range(3):
        labels = rng.randint(0, 3, 6)
        onehot = np.eye(3, dtype=np.float32)[labels]
        scores = rng.uniform(0.05, 1.0, (6, 3)).astype(np.float32)
        probs = scores / scores.sum(1, keepdims=True)
        weights = rng.rand(6).astype(np.float32) if b else None
        for key, metric in made.items():
            y_true = labels if key.startswith("scce") else onehot
            y_pred = scores * 4.0 - 2.0 if "logits" in key else probs
            ops.append(metric.update_state(y_true, y_pred, sample_weight=None if key == "cosine_axis0" else weights))
    out = {}
    with tf.Session() as sess:
        sess.run(tf.variables_initializer([v for metric in made.values() for v in metric.variables]))
        sess.run(ops)
        for key, metric in made.items():
            out[key] = sess.run(metric.result())
        t, p = tf.constant([[1.0, 0.0], [0.5, 0.5]]), tf.constant([[0.8, 0.2], [0.1, 0.9]])
        out["fn_cosine"] = sess.run(K.metrics.get("cosine_similarity")(t, p))
        out["fn_logcosh"] = sess.run(K.metrics.get("logcosh")(t, p))
    out["names"] = [metric.name for metric in made.values()]
    return out


CASES = {name[len("case_"):]: fn for name, fn in sorted(globals().items()) if name.startswith("case_")}
