"""Skip-gram word2vec trained with tf.nn.nce_loss, in the style of the TF1 word2vec_basic tutorial, on a
synthetic corpus of four topics whose words co-occur only within their topic."""
# tolerance: {"topic_accuracy": 0.05, "eval_loss": 0.15}
import collections
import json

import numpy as np

import edgelite as tf

# ---- corpus: 48 words, 4 topics; word ids are sorted by frequency as word2vec's build_dataset does
rng = np.random.RandomState(0)
vocabulary_size = 48
num_topics = 4
zipf = 1.0 / np.arange(1, vocabulary_size // num_topics + 1)
topic_words = [np.arange(t, vocabulary_size, num_topics) for t in range(num_topics)]
sentences = []
for _ in range(600):
    topic = rng.randint(num_topics)
    sentences.append(rng.choice(topic_words[topic], size=8, p=zipf / zipf.sum()))
counts = collections.Counter(np.concatenate(sentences).tolist())
print("most common words (id, count):", counts.most_common(5))


def skipgram_pairs(sents, skip_window):
    """(center, context) pairs within skip_window words of each other in the same sentence."""
    pairs = []
    for s in sents:
        for i, center in enumerate(s):
            for j in range(max(0, i - skip_window), min(len(s), i + skip_window + 1)):
                if j != i:
                    pairs.append((center, s[j]))
    return np.array(pairs, dtype=np.int64)


pairs = skipgram_pairs(sentences[:500], skip_window=2)
eval_pairs = skipgram_pairs(sentences[500:], skip_window=2)

batch_size = 128
embedding_size = 16
num_sampled = 8

graph = tf.Graph()
with graph.as_default():
    tf.set_random_seed(1)
    train_inputs = tf.placeholder(tf.int32, shape=[None])
    train_labels = tf.placeholder(tf.int32, shape=[None, 1])

    with tf.name_scope("embeddings"):
        embeddings = tf.Variable(rng.uniform(-1.0, 1.0, (vocabulary_size, embedding_size)).astype(np.float32))
        embed = tf.nn.embedding_lookup(embeddings, train_inputs)
    with tf.name_scope("weights"):
        nce_weights = tf.Variable(
            rng.normal(0, 1.0 / np.sqrt(embedding_size), (vocabulary_size, embedding_size)).astype(np.float32))
    with tf.name_scope("biases"):
        nce_biases = tf.Variable(tf.zeros([vocabulary_size]))

    with tf.name_scope("loss"):
        loss = tf.reduce_mean(
            tf.nn.nce_loss(weights=nce_weights, biases=nce_biases, labels=train_labels, inputs=embed,
                           num_sampled=num_sampled, num_classes=vocabulary_size))
    optimizer = tf.train.GradientDescentOptimizer(1.0).minimize(loss)

    # exact softmax cross-entropy of held-out pairs: a deterministic measure of the trained model
    full_logits = tf.matmul(embed, nce_weights, transpose_b=True) + nce_biases
    eval_loss = tf.reduce_mean(tf.nn.sparse_softmax_cross_entropy_with_logits(
        labels=tf.reshape(train_labels, [-1]), logits=full_logits))

    norm = tf.sqrt(tf.reduce_sum(tf.square(embeddings), 1, keepdims=True))
    normalized_embeddings = embeddings / norm
    similarity = tf.matmul(normalized_embeddings, normalized_embeddings, transpose_b=True)
    init = tf.global_variables_initializer()

num_steps = 1500
with tf.Session(graph=graph) as session:
    init.run()
    average_loss = 0.0
    for step in range(num_steps):
        idx = rng.randint(0, len(pairs), batch_size)
        feed_dict = {train_inputs: pairs[idx, 0], train_labels: pairs[idx, 1:]}
        _, loss_val = session.run([optimizer, loss], feed_dict=feed_dict)
        average_loss += loss_val
        if step % 500 == 499:
            print("Average loss at step", step + 1, ":", average_loss / 500)
            average_loss = 0.0
    sim = similarity.eval()
    held_out = session.run(eval_loss, {train_inputs: eval_pairs[:, 0], train_labels: eval_pairs[:, 1:]})

np.fill_diagonal(sim, -np.inf)
nearest = sim.argmax(1)
topic_accuracy = float(np.mean(nearest % num_topics == np.arange(vocabulary_size) % num_topics))
for word in range(4):
    print("Nearest to %d: %s" % (word, (-sim[word]).argsort()[:4].tolist()))
print("topic accuracy of nearest neighbours %g, held-out softmax loss %g" % (topic_accuracy, held_out))
print("RESULT " + json.dumps({"topic_accuracy": topic_accuracy, "eval_loss": float(held_out)}))
