"""The TF1 premade-estimator tutorial on iris: a DNNClassifier over one numeric feature column per measurement,
fed by numpy_input_fn, trained and evaluated with train_and_evaluate (an evaluation on every checkpoint, the
latest two SavedModel exports kept), then the exported model is loaded and served, and the estimator predicts."""
# tolerance: {"accuracy": 0.07, "average_loss": 0.12, "served_accuracy": 0.07, "predict_accuracy": 0.07}
import json
import os

import numpy as np
from sklearn.datasets import load_iris

import edgelite as tf

tf.logging.set_verbosity(tf.logging.ERROR)
FEATURES = ["sepal_length", "sepal_width", "petal_length", "petal_width"]

iris = load_iris()
order = np.random.RandomState(0).permutation(len(iris.target))
x_all = iris.data[order].astype(np.float32)
y_all = iris.target[order].astype(np.int64)
train_x = {name: x_all[:120, i] for i, name in enumerate(FEATURES)}
test_x = {name: x_all[120:, i] for i, name in enumerate(FEATURES)}
train_y, test_y = y_all[:120], y_all[120:]

feature_columns = [tf.feature_column.numeric_column(name) for name in FEATURES]
classifier = tf.estimator.DNNClassifier(
    hidden_units=[10, 10], feature_columns=feature_columns, n_classes=3, model_dir="iris_model",
    config=tf.estimator.RunConfig(tf_random_seed=42, save_checkpoints_steps=200))

serving_fn = tf.estimator.export.build_raw_serving_input_receiver_fn(
    {name: tf.placeholder(tf.float32, [None], name=name) for name in FEATURES})
train_spec = tf.estimator.TrainSpec(
    input_fn=tf.estimator.inputs.numpy_input_fn(train_x, train_y, batch_size=32, num_epochs=None, shuffle=True),
    max_steps=600)
eval_spec = tf.estimator.EvalSpec(
    input_fn=tf.estimator.inputs.numpy_input_fn(test_x, test_y, batch_size=30, num_epochs=1, shuffle=False),
    steps=None, exporters=[tf.estimator.LatestExporter("iris", serving_fn, exports_to_keep=2)], throttle_secs=0)
metrics, exports = tf.estimator.train_and_evaluate(classifier, train_spec, eval_spec)
print("final evaluation:", {k: float(v) for k, v in metrics.items()})

export_dir = exports[-1].decode()
kept = sorted(os.listdir(os.path.join("iris_model", "export", "iris")))
with tf.Session(graph=tf.Graph()) as sess:
    meta_graph = tf.saved_model.loader.load(sess, [tf.saved_model.tag_constants.SERVING], export_dir)
    signature = meta_graph.signature_def["predict"]
    feed = {signature.inputs[name].name: test_x[name] for name in FEATURES}
    served = sess.run(signature.outputs["class_ids"].name, feed)
served_accuracy = float(np.mean(served.ravel() == test_y))

predictions = list(classifier.predict(tf.estimator.inputs.numpy_input_fn(test_x, shuffle=False)))
predicted = np.array([p["class_ids"][0] for p in predictions])
print("first prediction:", predictions[0]["classes"], predictions[0]["probabilities"])

print("RESULT " + json.dumps({
    "accuracy": float(metrics["accuracy"]), "average_loss": float(metrics["average_loss"]),
    "global_step": int(metrics["global_step"]), "metric_keys": sorted(metrics),
    "exports_kept": len(kept), "signatures": sorted(meta_graph.signature_def),
    "served_accuracy": served_accuracy, "predict_accuracy": float(np.mean(predicted == test_y)),
    "prediction_keys": sorted(predictions[0]), "variables": classifier.get_variable_names()}))
