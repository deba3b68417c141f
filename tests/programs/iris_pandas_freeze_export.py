"""The premade_estimator / iris_data pattern with pandas: the measurements as DataFrame columns and the species
as a Series go straight into Dataset.from_tensor_slices; a LinearClassifier trains and evaluates; its SavedModel
export is loaded back, frozen from `sess.graph_def` with graph_util.convert_variables_to_constants, imported
into a fresh graph and served, as freeze scripts do."""
# tolerance: {"accuracy": 0.02, "average_loss": 0.0001, "export_accuracy": 0.02, "frozen_accuracy": 0.02, "max_prob_diff": 1e-5}
import glob
import json

import numpy as np
import pandas as pd
from sklearn.datasets import load_iris

import edgelite as tf

tf.logging.set_verbosity(tf.logging.ERROR)
COLUMNS = ["SepalLength", "SepalWidth", "PetalLength", "PetalWidth"]

iris = load_iris()
order = np.random.RandomState(1).permutation(len(iris.target))
frame = pd.DataFrame(iris.data[order], columns=COLUMNS)
frame["Species"] = iris.target[order]
train, test = frame.iloc[:120].copy(), frame.iloc[120:].copy()
train_y, test_y = train.pop("Species"), test.pop("Species")


def train_input_fn():
    dataset = tf.data.Dataset.from_tensor_slices((dict(train), train_y))
    return dataset.repeat().batch(30).make_one_shot_iterator().get_next()


def eval_input_fn():
    return tf.data.Dataset.from_tensor_slices((dict(test), test_y)).batch(30)


columns = [tf.feature_column.numeric_column(name) for name in COLUMNS]
classifier = tf.estimator.LinearClassifier(columns, n_classes=3, model_dir="model",
                                           optimizer=tf.train.GradientDescentOptimizer(0.005))
classifier.train(train_input_fn, steps=150)
metrics = classifier.evaluate(eval_input_fn)

receiver = tf.estimator.export.build_raw_serving_input_receiver_fn(
    {name: tf.placeholder(tf.float64, [None], name=name) for name in COLUMNS})
export_dir = classifier.export_savedmodel("export", receiver)
feed_values = {name: test[name].values for name in COLUMNS}

with tf.Graph().as_default() as graph, tf.Session() as sess:
    meta = tf.saved_model.loader.load(sess, [tf.saved_model.tag_constants.SERVING], export_dir)
    signature = meta.signature_def["predict"]
    feeds = {signature.inputs[name].name: feed_values[name] for name in COLUMNS}
    probs_name = signature.outputs["probabilities"].name
    exported = sess.run(probs_name, feeds)
    frozen_def = tf.graph_util.convert_variables_to_constants(sess, sess.graph_def, [probs_name.split(":")[0]])

with tf.Graph().as_default() as frozen_graph:
    tf.import_graph_def(frozen_def, name="frozen")
    with tf.Session() as sess:
        frozen = sess.run("frozen/" + probs_name, {"frozen/" + k: v for k, v in feeds.items()})

variable_ops = [n.name for n in frozen_def.node if n.op in ("VariableV2", "VarHandleOp")]
print("RESULT " + json.dumps({
    "accuracy": float(metrics["accuracy"]), "average_loss": float(metrics["average_loss"]),
    "export_accuracy": float(np.mean(exported.argmax(1) == test_y.values)),
    "frozen_accuracy": float(np.mean(frozen.argmax(1) == test_y.values)),
    "max_prob_diff": float(np.abs(frozen - exported).max()), "variable_ops_left": len(variable_ops),
    "exports": len(glob.glob("export/*"))}))
