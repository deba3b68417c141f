"""A bag-of-words text classifier in the style of the TF1 wide-and-deep tutorials: raw strings are split,
hashed into buckets, embedded with embedding_lookup_sparse and combined with hashed word-pair crosses."""
# tolerance: {"test_accuracy": 0.02, "final_loss": 0.002, "bucket_checksum": 0}
import json

import numpy as np

import edgelite as tf

rng = np.random.RandomState(3)
topics = [["goal", "match", "team", "score", "league", "coach", "player"],
          ["market", "stock", "price", "bank", "trade", "profit", "shares"],
          ["rain", "storm", "cloud", "sunny", "wind", "forecast", "snow"]]
common = ["the", "a", "today", "news", "report", "new", "big", "after"]


def make_docs(n):
    docs, labels = [], []
    for _ in range(n):
        label = rng.randint(3)
        words = list(rng.choice(topics[label], rng.randint(2, 5))) + list(rng.choice(common, rng.randint(1, 4)))
        if rng.rand() < 0.3:
            words.append(rng.choice(topics[rng.randint(3)]))
        rng.shuffle(words)
        docs.append(" ".join(words))
        labels.append(label)
    return np.array(docs, dtype=object), np.array(labels, dtype=np.int64)


train_docs, train_labels = make_docs(600)
test_docs, test_labels = make_docs(200)

num_buckets = 97
num_cross_buckets = 211
embed_dim = 8

docs = tf.placeholder(tf.string, [None], name="docs")
labels = tf.placeholder(tf.int64, [None], name="labels")

tokens = tf.string_split(docs)
bucket_ids = tf.SparseTensor(tokens.indices, tf.string_to_hash_bucket_fast(tokens.values, num_buckets),
                             tokens.dense_shape)
crosses = tf.sparse.cross_hashed([tokens, tokens], num_buckets=num_cross_buckets)
cross_counts = tf.SparseTensor(crosses.indices, tf.ones_like(crosses.values, dtype=tf.float32),
                               crosses.dense_shape)
cross_features = tf.sparse_merge(crosses, cross_counts, num_cross_buckets)

embeddings = tf.Variable(rng.normal(0, 0.1, (num_buckets, embed_dim)).astype(np.float32), name="embeddings")
deep = tf.nn.embedding_lookup_sparse(embeddings, bucket_ids, None, combiner="sqrtn")
w_deep = tf.Variable(rng.normal(0, 0.1, (embed_dim, 3)).astype(np.float32), name="w_deep")
w_wide = tf.Variable(np.zeros((num_cross_buckets, 3), np.float32), name="w_wide")
bias = tf.Variable(tf.zeros([3]), name="bias")
logits = tf.matmul(deep, w_deep) + tf.sparse_tensor_dense_matmul(cross_features, w_wide) + bias

loss = tf.reduce_mean(tf.nn.sparse_softmax_cross_entropy_with_logits(labels=labels, logits=logits))
train_op = tf.train.GradientDescentOptimizer(0.5).minimize(loss)
accuracy = tf.reduce_mean(tf.cast(tf.equal(tf.argmax(logits, 1), labels), tf.float32))

with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    checksum = int(sess.run(tf.reduce_sum(bucket_ids.values), {docs: train_docs}))
    for step in range(150):
        idx = rng.randint(0, len(train_docs), 32)
        _, l = sess.run([train_op, loss], {docs: train_docs[idx], labels: train_labels[idx]})
        if step % 50 == 0:
            print("step %d, loss %g" % (step, l))
    test_accuracy = sess.run(accuracy, {docs: test_docs, labels: test_labels})
    final_loss = sess.run(loss, {docs: train_docs, labels: train_labels})

print("test accuracy %g" % test_accuracy)
print("RESULT " + json.dumps({"test_accuracy": float(test_accuracy), "final_loss": float(final_loss),
                              "bucket_checksum": checksum}))
