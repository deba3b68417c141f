"""An LSTM reading the 8x8 scikit-learn digits row by row, in the style of the classic TF1 recurrent-network
MNIST example (rnn_cell.BasicLSTMCell + static_rnn over the image rows, softmax on the last output)."""
# tolerance: {"test_accuracy": 0.01, "final_loss": 0.005}
import json

import numpy as np
from sklearn.datasets import load_digits
from sklearn.model_selection import train_test_split

import edgelite as tf

digits = load_digits()
images = (digits.data / 16.0).astype(np.float32).reshape(-1, 8, 8)
labels = np.eye(10, dtype=np.float32)[digits.target]
x_train, x_test, y_train, y_test = train_test_split(images, labels, test_size=0.25, random_state=0)

# Training parameters and network parameters
learning_rate = 0.01
training_steps = 300
batch_size = 64
display_step = 50
num_input = 8      # one image row per time step
timesteps = 8      # rows per image
num_hidden = 32
num_classes = 10

rng = np.random.RandomState(3)
X = tf.placeholder(tf.float32, [None, timesteps, num_input])
Y = tf.placeholder(tf.float32, [None, num_classes])
weights = {"out": tf.Variable(rng.normal(0, 0.1, (num_hidden, num_classes)).astype(np.float32))}
biases = {"out": tf.Variable(tf.zeros([num_classes]))}
lstm_kernel = rng.uniform(-0.15, 0.15, (num_input + num_hidden, 4 * num_hidden)).astype(np.float32)


def RNN(x, weights, biases):
    # a list of `timesteps` tensors of shape (batch_size, num_input)
    x = tf.unstack(x, timesteps, 1)
    with tf.variable_scope("rnn", initializer=tf.constant_initializer(lstm_kernel)):
        lstm_cell = tf.nn.rnn_cell.BasicLSTMCell(num_hidden, forget_bias=1.0)
        outputs, states = tf.nn.static_rnn(lstm_cell, x, dtype=tf.float32)
    return tf.matmul(outputs[-1], weights["out"]) + biases["out"]


logits = RNN(X, weights, biases)
prediction = tf.nn.softmax(logits)
loss_op = tf.reduce_mean(tf.nn.softmax_cross_entropy_with_logits_v2(logits=logits, labels=Y))
optimizer = tf.train.AdamOptimizer(learning_rate=learning_rate)
train_op = optimizer.minimize(loss_op)
correct_pred = tf.equal(tf.argmax(prediction, 1), tf.argmax(Y, 1))
accuracy = tf.reduce_mean(tf.cast(correct_pred, tf.float32))

with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    for step in range(1, training_steps + 1):
        idx = rng.randint(0, len(x_train), batch_size)
        sess.run(train_op, feed_dict={X: x_train[idx], Y: y_train[idx]})
        if step % display_step == 0 or step == 1:
            loss, acc = sess.run([loss_op, accuracy], feed_dict={X: x_train[idx], Y: y_train[idx]})
            print("Step " + str(step) + ", Minibatch Loss= " + "{:.4f}".format(loss) + ", Training Accuracy= " +
                  "{:.3f}".format(acc))
    print("Optimization Finished!")
    test_accuracy = sess.run(accuracy, feed_dict={X: x_test, Y: y_test})
    final_loss = sess.run(loss_op, feed_dict={X: x_train, Y: y_train})

print("Testing Accuracy:", test_accuracy)
print("RESULT " + json.dumps({"test_accuracy": float(test_accuracy), "final_loss": float(final_loss)}))
