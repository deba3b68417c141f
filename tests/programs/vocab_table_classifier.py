"""A TF1 text classifier whose words and labels go through lookup tables: a vocabulary file read by
TextFileInitializer into a StaticVocabularyTable (unknown words hashed into OOV buckets), string labels mapped by
a StaticHashTable, both filled by tf.tables_initializer() and used inside a tf.data pipeline."""
# tolerance: {"test_accuracy": 0.02, "test_loss": 0.002, "id_checksum": 0, "vocab_size": 0}
import json

import numpy as np

import edgelite as tf

rng = np.random.RandomState(7)
topics = {"sport": ["goal", "match", "team", "score", "league", "coach", "player", "referee"],
          "money": ["market", "stock", "price", "bank", "trade", "profit", "shares", "loan"],
          "weather": ["rain", "storm", "cloud", "sunny", "wind", "forecast", "snow", "frost"]}
names = sorted(topics)
common = ["the", "a", "today", "news", "report", "new", "big", "after"]
# Words the vocabulary file leaves out, so the OOV buckets carry signal too.
rare = ["derby", "dividend", "hail", "umpire", "bond", "drizzle"]

with open("vocab.txt", "w") as f:
    for word in common + [w for name in names for w in topics[name]]:
        f.write(word + "\n")


def make_docs(n):
    docs, labels = [], []
    for _ in range(n):
        label = names[rng.randint(3)]
        words = list(rng.choice(topics[label], rng.randint(1, 3))) + list(rng.choice(common, rng.randint(2, 6)))
        if rng.rand() < 0.4:
            words.append(rng.choice(topics[names[rng.randint(3)]]))
        if rng.rand() < 0.3:
            words.append(rare[names.index(label) + 3 * rng.randint(2)])
        rng.shuffle(words)
        docs.append(" ".join(words))
        labels.append(label)
    return docs, labels


train_docs, train_labels = make_docs(640)
test_docs, test_labels = make_docs(200)

num_oov = 4
embed_dim = 8
words = tf.lookup.StaticVocabularyTable(
    tf.lookup.TextFileInitializer("vocab.txt", tf.string, tf.lookup.TextFileIndex.WHOLE_LINE,
                                  tf.int64, tf.lookup.TextFileIndex.LINE_NUMBER), num_oov_buckets=num_oov)
label_ids = tf.lookup.StaticHashTable(tf.lookup.KeyValueTensorInitializer(names, [0, 1, 2], value_dtype=tf.int64), -1)


def encode(doc, label):
    ids = words.lookup(tf.string_split([doc]).values)
    return ids, label_ids.lookup(label)


def batches(docs, labels, batch, repeat):
    ds = tf.data.Dataset.from_tensor_slices((docs, labels))
    if repeat:
        ds = ds.repeat()
    return ds.map(encode).padded_batch(batch, ([None], []), padding_values=(tf.constant(-1, tf.int64),
                                                                             tf.constant(0, tf.int64)))


train_it = batches(train_docs, train_labels, 32, True).make_initializable_iterator()
test_it = batches(test_docs, test_labels, 200, False).make_initializable_iterator()
use_test = tf.placeholder_with_default(False, [])
ids, y = tf.cond(use_test, test_it.get_next, train_it.get_next)

vocab_size = words.size()
embeddings = tf.Variable(rng.normal(0, 0.1, (len(common) + 24 + num_oov, embed_dim)).astype(np.float32))
mask = tf.cast(tf.greater_equal(ids, 0), tf.float32)
vectors = tf.nn.embedding_lookup(embeddings, tf.maximum(ids, 0)) * mask[:, :, None]
pooled = tf.reduce_sum(vectors, 1) / tf.maximum(tf.reduce_sum(mask, 1, keepdims=True), 1.0)
w = tf.Variable(rng.normal(0, 0.1, (embed_dim, 3)).astype(np.float32))
b = tf.Variable(tf.zeros([3]))
logits = tf.matmul(pooled, w) + b
loss = tf.reduce_mean(tf.nn.sparse_softmax_cross_entropy_with_logits(labels=y, logits=logits))
train_op = tf.train.AdamOptimizer(0.01).minimize(loss)
accuracy = tf.reduce_mean(tf.cast(tf.equal(tf.argmax(logits, 1), y), tf.float32))

with tf.Session() as sess:
    sess.run([tf.global_variables_initializer(), tf.tables_initializer()])
    sess.run(train_it.initializer)
    for step in range(60):
        _, l = sess.run([train_op, loss])
        if step % 20 == 0:
            print("step %d, loss %g" % (step, l))
    sess.run(test_it.initializer)
    test_ids, test_accuracy, test_loss = sess.run([ids, accuracy, loss], {use_test: True})
    checksum = int(test_ids[test_ids >= 0].sum())
    size = int(sess.run(vocab_size))

print("test accuracy %g" % test_accuracy)
print("RESULT " + json.dumps({"test_accuracy": float(test_accuracy), "test_loss": float(test_loss),
                              "id_checksum": checksum, "vocab_size": size}))
