"""A character-level encoder-decoder (two dynamic_rnn's, the encoder's final state seeding the decoder) that learns
to spell words backwards, in the style of the TF1 Seq2Seq chatbot/translation tutorials: batch and time left open
in the placeholders, a tf.layers.dense projection over the [batch, time, hidden] decoder outputs and a sparse
softmax cross entropy against [batch, time] integer targets."""
# tolerance: {"token_accuracy": 0.03, "final_loss": 0.02, "train_loss": 0.02}
import json

import numpy as np

import edgelite as tf

rng = np.random.RandomState(7)
char_arr = list("SEPabcdefgh")          # S: decoder start, E: end of output, P: padding
num_dic = {c: i for i, c in enumerate(char_arr)}
dic_len = len(char_arr)


def random_words(n):
    return ["".join(rng.choice(list("abcdefgh"), rng.randint(3, 6))) for _ in range(n)]


def make_batch(words):
    """One-hot encoder inputs, 'S'-prefixed one-hot decoder inputs and 'E'-suffixed integer targets, padded with P."""
    width = max(len(w) for w in words)
    enc, dec, tgt = [], [], []
    for w in words:
        out = w[::-1]
        enc.append(np.eye(dic_len)[[num_dic[c] for c in w.ljust(width, "P")]])
        dec.append(np.eye(dic_len)[[num_dic[c] for c in ("S" + out).ljust(width + 1, "P")]])
        tgt.append([num_dic[c] for c in (out + "E").ljust(width + 1, "P")])
    return np.array(enc, np.float32), np.array(dec, np.float32), np.array(tgt, np.int64)


train_words, test_words = random_words(64), random_words(32)
learning_rate = 0.01
n_hidden = 48
total_epoch = 120
n_class = n_input = dic_len

enc_input = tf.placeholder(tf.float32, [None, None, n_input])
dec_input = tf.placeholder(tf.float32, [None, None, n_input])
targets = tf.placeholder(tf.int64, [None, None])

enc_kernel = rng.uniform(-0.2, 0.2, (n_input + n_hidden, n_hidden)).astype(np.float32)
dec_kernel = rng.uniform(-0.2, 0.2, (n_input + n_hidden, n_hidden)).astype(np.float32)
out_kernel = rng.uniform(-0.2, 0.2, (n_hidden, n_class)).astype(np.float32)

with tf.variable_scope("encode", initializer=tf.constant_initializer(enc_kernel)):
    enc_cell = tf.nn.rnn_cell.BasicRNNCell(n_hidden)
    _, enc_states = tf.nn.dynamic_rnn(enc_cell, enc_input, dtype=tf.float32)

with tf.variable_scope("decode", initializer=tf.constant_initializer(dec_kernel)):
    dec_cell = tf.nn.rnn_cell.BasicRNNCell(n_hidden)
    outputs, _ = tf.nn.dynamic_rnn(dec_cell, dec_input, initial_state=enc_states, dtype=tf.float32)

model = tf.layers.dense(outputs, n_class, activation=None, kernel_initializer=tf.constant_initializer(out_kernel))
cost = tf.reduce_mean(tf.nn.sparse_softmax_cross_entropy_with_logits(logits=model, labels=targets))
optimizer = tf.train.AdamOptimizer(learning_rate).minimize(cost)
prediction = tf.argmax(model, 2)
token_match = tf.reduce_mean(tf.cast(tf.equal(prediction, targets), tf.float32))

sess = tf.Session()
sess.run(tf.global_variables_initializer())
train_enc, train_dec, train_tgt = make_batch(train_words)
for epoch in range(total_epoch):
    _, loss = sess.run([optimizer, cost], feed_dict={enc_input: train_enc, dec_input: train_dec, targets: train_tgt})
    if (epoch + 1) % 20 == 0:
        print("Epoch:", "%04d" % (epoch + 1), "cost =", "{:.6f}".format(loss))
print("Optimization finished")

test_enc, test_dec, test_tgt = make_batch(test_words)
test_loss, token_accuracy = sess.run([cost, token_match],
                                     feed_dict={enc_input: test_enc, dec_input: test_dec, targets: test_tgt})
for word in test_words[:3]:
    e, d, t = make_batch([word])
    decoded = "".join(char_arr[i] for i in sess.run(prediction, feed_dict={enc_input: e, dec_input: d})[0])
    print(word, "->", decoded.split("E")[0])
print("RESULT " + json.dumps({"token_accuracy": float(token_accuracy), "final_loss": float(test_loss),
                              "train_loss": float(loss)}))
