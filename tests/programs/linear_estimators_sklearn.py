"""TF1 linear premade estimators on scikit-learn tables, in the style of the linear-model tutorial: a
LinearClassifier (FTRL, the default) over normalized numeric columns and a bucketized one on the breast-cancer
data, and a LinearRegressor with a weight column on the diabetes data; both train on rows in order, evaluate and
predict, and the classifier is exported for serving tf.Example records."""
# tolerance: {"clf_accuracy": 0.01, "clf_auc": 0.01, "clf_loss": 0.01, "clf_precision": 0.01, "clf_recall": 0.01, "reg_average_loss": 0.01, "reg_prediction_mean": 0.01, "first_probability": 0.001}
import json
import os

import numpy as np
from sklearn.datasets import load_breast_cancer, load_diabetes

import edgelite as tf

tf.logging.set_verbosity(tf.logging.ERROR)

cancer = load_breast_cancer()
names = ["mean_radius", "mean_texture", "mean_smoothness", "worst_area"]
columns_idx = [list(cancer.feature_names).index(n.replace("_", " ")) for n in names]
x = cancer.data[:, columns_idx].astype(np.float32)
mean, std = x.mean(0), x.std(0)
y = cancer.target.astype(np.int64)
features = {n: x[:, i] for i, n in enumerate(names)}
train = {n: v[:450] for n, v in features.items()}
test = {n: v[450:] for n, v in features.items()}


def normalizer(i):
    return lambda t: (t - float(mean[i])) / float(std[i])


columns = [tf.feature_column.numeric_column(n, normalizer_fn=normalizer(i)) for i, n in enumerate(names)]
columns.append(tf.feature_column.bucketized_column(tf.feature_column.numeric_column("worst_area"),
                                                   [500.0, 800.0, 1200.0]))
classifier = tf.estimator.LinearClassifier(feature_columns=columns, model_dir="cancer_model")
classifier.train(tf.estimator.inputs.numpy_input_fn(train, y[:450], batch_size=50, num_epochs=4, shuffle=False))
clf = classifier.evaluate(tf.estimator.inputs.numpy_input_fn(test, y[450:], batch_size=60, shuffle=False))
print("classifier:", {k: float(v) for k, v in clf.items()})
first = next(classifier.predict(tf.estimator.inputs.numpy_input_fn(test, batch_size=10, shuffle=False)))
spec = tf.feature_column.make_parse_example_spec(columns)
export_dir = classifier.export_saved_model("cancer_export",
                                           tf.estimator.export.build_parsing_serving_input_receiver_fn(spec))

diabetes = load_diabetes()
dx = diabetes.data.astype(np.float32)
dy = (diabetes.target.astype(np.float32) - 150.0) / 80.0
weights = np.where(dy > 0, 2.0, 1.0).astype(np.float32)
reg_features = {"x": dx, "w": weights}
regressor = tf.estimator.LinearRegressor(
    feature_columns=[tf.feature_column.numeric_column("x", shape=(10,))], weight_column="w",
    optimizer=tf.train.GradientDescentOptimizer(0.005), model_dir="diabetes_model")
regressor.train(tf.estimator.inputs.numpy_input_fn(reg_features, dy, batch_size=40, num_epochs=5, shuffle=False))
reg = regressor.evaluate(tf.estimator.inputs.numpy_input_fn(reg_features, dy, batch_size=100, shuffle=False))
print("regressor:", {k: float(v) for k, v in reg.items()})

print("RESULT " + json.dumps({
    "clf_accuracy": float(clf["accuracy"]), "clf_auc": float(clf["auc"]), "clf_loss": float(clf["loss"]),
    "clf_precision": float(clf["precision"]), "clf_recall": float(clf["recall"]), "clf_keys": sorted(clf),
    "clf_step": int(clf["global_step"]), "first_probability": float(first["probabilities"][1]),
    "first_keys": sorted(first), "export_files": sorted(os.listdir(export_dir.decode())),
    "clf_variables": [v for v in classifier.get_variable_names() if "Ftrl" not in v],
    "reg_average_loss": float(reg["average_loss"]), "reg_prediction_mean": float(reg["prediction/mean"]),
    "reg_keys": sorted(reg), "reg_step": int(reg["global_step"])}))
