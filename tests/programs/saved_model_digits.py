"""Train a digits classifier, export it as a SavedModel twice (simple_save and SavedModelBuilder), load both
back with tf.saved_model.loader.load and convert the export to TensorFlow Lite, in the style of TF1's
"Serving a TensorFlow model" and "SavedModel" guides."""
# tolerance: {"test_accuracy": 0.03, "simple_save_accuracy": 0.03, "builder_accuracy": 0.03, "tflite_accuracy": 0.03, "final_loss": 0.05}
import json

import numpy as np
from sklearn.datasets import load_digits
from sklearn.model_selection import train_test_split

import edgelite as tf

digits = load_digits()
data = (digits.data / 16.0).astype(np.float32)
x_train, x_test, y_train, y_test = train_test_split(data, digits.target.astype(np.int64), test_size=0.25,
                                                    random_state=0)
rng = np.random.RandomState(4)

graph = tf.Graph()
with graph.as_default():
    x = tf.placeholder(tf.float32, [None, 64], name="pixels")
    y_ = tf.placeholder(tf.int64, [None], name="labels")
    W1 = tf.Variable(rng.normal(0, 0.1, (64, 32)).astype(np.float32), name="hidden/weights")
    b1 = tf.Variable(tf.zeros([32]), name="hidden/biases")
    hidden = tf.nn.relu(tf.matmul(x, W1) + b1)
    W2 = tf.Variable(rng.normal(0, 0.1, (32, 10)).astype(np.float32), name="softmax/weights")
    b2 = tf.Variable(tf.zeros([10]), name="softmax/biases")
    logits = tf.add(tf.matmul(hidden, W2), b2, name="logits")
    probabilities = tf.nn.softmax(logits, name="probabilities")
    loss = tf.reduce_mean(tf.nn.sparse_softmax_cross_entropy_with_logits(labels=y_, logits=logits))
    train_step = tf.train.GradientDescentOptimizer(0.5).minimize(loss)
    accuracy = tf.reduce_mean(tf.cast(tf.equal(tf.argmax(logits, 1), y_), tf.float32))

    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        for step in range(300):
            idx = rng.randint(0, len(x_train), 64)
            sess.run(train_step, feed_dict={x: x_train[idx], y_: y_train[idx]})
        test_accuracy, = sess.run([accuracy], feed_dict={x: x_test, y_: y_test})
        final_loss = sess.run(loss, feed_dict={x: x_train, y_: y_train})

        tf.saved_model.simple_save(sess, "export/simple", inputs={"pixels": x}, outputs={"probabilities": probabilities})

        builder = tf.saved_model.builder.SavedModelBuilder("export/builder")
        signature = tf.saved_model.signature_def_utils.build_signature_def(
            inputs={"pixels": tf.saved_model.utils.build_tensor_info(x)},
            outputs={"logits": tf.saved_model.utils.build_tensor_info(logits)},
            method_name=tf.saved_model.signature_constants.PREDICT_METHOD_NAME)
        builder.add_meta_graph_and_variables(
            sess, [tf.saved_model.tag_constants.SERVING],
            signature_def_map={tf.saved_model.signature_constants.DEFAULT_SERVING_SIGNATURE_DEF_KEY: signature})
        builder.save()


def reloaded_accuracy(export_dir, output_key):
    with tf.Graph().as_default(), tf.Session() as sess:
        meta_graph_def = tf.saved_model.loader.load(sess, [tf.saved_model.tag_constants.SERVING], export_dir)
        signature = meta_graph_def.signature_def[tf.saved_model.signature_constants.DEFAULT_SERVING_SIGNATURE_DEF_KEY]
        scores = sess.run(signature.outputs[output_key].name, feed_dict={signature.inputs["pixels"].name: x_test})
    return float(np.mean(np.argmax(scores, 1) == y_test))


simple_save_accuracy = reloaded_accuracy("export/simple", "probabilities")
builder_accuracy = reloaded_accuracy("export/builder", "logits")

converter = tf.lite.TFLiteConverter.from_saved_model("export/simple")
tflite_model = converter.convert()
with open("digits.tflite", "wb") as f:
    f.write(tflite_model)
interpreter = tf.lite.Interpreter(model_path="digits.tflite")
input_index = interpreter.get_input_details()[0]["index"]
interpreter.resize_tensor_input(input_index, [len(x_test), 64])
interpreter.allocate_tensors()
interpreter.set_tensor(input_index, x_test)
interpreter.invoke()
tflite_scores = interpreter.get_tensor(interpreter.get_output_details()[0]["index"])
tflite_accuracy = float(np.mean(np.argmax(tflite_scores, 1) == y_test))

print("test accuracy %g, reloaded %g / %g, tflite %g" % (test_accuracy, simple_save_accuracy, builder_accuracy,
                                                         tflite_accuracy))
print("RESULT " + json.dumps({"test_accuracy": float(test_accuracy), "simple_save_accuracy": simple_save_accuracy,
                              "builder_accuracy": builder_accuracy, "tflite_accuracy": tflite_accuracy,
                              "final_loss": float(final_loss)}))
