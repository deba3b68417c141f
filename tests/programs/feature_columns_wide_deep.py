"""A wide-and-deep classifier on structured records in the style of the TF1 census tutorial: tf.train.Example
records are parsed with the spec the feature columns ask for, a linear model over bucketized, hashed,
vocabulary and crossed columns is added to a small DNN over numeric, indicator and embedding columns, the model
is trained, checkpointed, and restored into a fresh graph for evaluation."""
# tolerance: {"test_accuracy": 0.03, "final_loss": 0.01, "restored_accuracy": 0.03}
import json

import numpy as np

import edgelite as tf

rng = np.random.RandomState(11)
EDUCATION = ["school", "college", "bachelors", "masters", "doctorate"]
CITIES = ["north", "south", "east", "west", "harbor", "hills", "lake", "plains", "river", "valley", "coast"]


def make_records(n):
    age = rng.uniform(18, 70, n)
    hours = rng.uniform(10, 60, n)
    edu = rng.randint(0, len(EDUCATION) + 1, n)  # the last index is a value outside the vocabulary
    city = rng.randint(0, len(CITIES), n)
    job = rng.randint(0, 4, n)
    score = (0.04 * (age - 40) + 0.05 * (hours - 35) + 0.6 * np.minimum(edu, 4) - 1.2 + 0.8 * (job == 2)
             - 0.5 * (city % 3 == 0) + rng.normal(0, 0.5, n))
    labels = (score > 0).astype(np.float32)
    records = []
    for i in range(n):
        edu_name = EDUCATION[edu[i]] if edu[i] < len(EDUCATION) else "unknown"
        example = tf.train.Example(features=tf.train.Features(feature={
            "age": tf.train.Feature(float_list=tf.train.FloatList(value=[age[i]])),
            "hours": tf.train.Feature(float_list=tf.train.FloatList(value=[hours[i]])),
            "education": tf.train.Feature(bytes_list=tf.train.BytesList(value=[edu_name.encode()])),
            "city": tf.train.Feature(bytes_list=tf.train.BytesList(value=[CITIES[city[i]].encode()])),
            "job": tf.train.Feature(int64_list=tf.train.Int64List(value=[int(job[i])])),
        }))
        records.append(example.SerializeToString())
    return np.array(records, dtype=object), labels.reshape(-1, 1)


train_records, train_labels = make_records(800)
test_records, test_labels = make_records(300)
init_rng = np.random.RandomState(5)
city_table = init_rng.normal(0, 0.3, (13, 4)).astype(np.float32)
job_table = init_rng.normal(0, 0.3, (4, 3)).astype(np.float32)
hidden_kernel = init_rng.normal(0, 0.2, (15, 16)).astype(np.float32)
out_kernel = init_rng.normal(0, 0.2, (16, 1)).astype(np.float32)


def build_model():
    fc = tf.feature_column
    age = fc.numeric_column("age")
    hours = fc.numeric_column("hours", normalizer_fn=lambda x: (x - 35.0) / 15.0)
    age_buckets = fc.bucketized_column(age, [25.0, 35.0, 45.0, 55.0])
    education = fc.categorical_column_with_vocabulary_list("education", EDUCATION, num_oov_buckets=1)
    city = fc.categorical_column_with_hash_bucket("city", 13)
    job = fc.categorical_column_with_identity("job", 4)
    wide_columns = [age_buckets, education, city, fc.crossed_column([age_buckets, "education"], 50)]
    deep_columns = [fc.numeric_column("age", normalizer_fn=lambda x: (x - 44.0) / 15.0), hours,
                    fc.indicator_column(education),
                    fc.embedding_column(city, 4, initializer=tf.constant_initializer(city_table)),
                    fc.embedding_column(job, 3, combiner="sum", initializer=tf.constant_initializer(job_table))]
    serialized = tf.placeholder(tf.string, [None], name="serialized")
    labels = tf.placeholder(tf.float32, [None, 1], name="labels")
    spec = fc.make_parse_example_spec(wide_columns + deep_columns)
    features = tf.parse_example(serialized, spec)
    wide = fc.linear_model(features, wide_columns)
    net = fc.input_layer(features, deep_columns)
    with tf.variable_scope("dnn"):
        w1 = tf.get_variable("hidden/kernel", initializer=hidden_kernel)
        b1 = tf.get_variable("hidden/bias", [16], initializer=tf.zeros_initializer())
        w2 = tf.get_variable("logits/kernel", initializer=out_kernel)
        b2 = tf.get_variable("logits/bias", [1], initializer=tf.zeros_initializer())
    net = tf.nn.relu(tf.matmul(net, w1) + b1)
    deep = tf.matmul(net, w2) + b2
    logits = wide + deep
    loss = tf.reduce_mean(tf.nn.sigmoid_cross_entropy_with_logits(labels=labels, logits=logits))
    accuracy = tf.reduce_mean(tf.cast(tf.equal(tf.cast(logits > 0, tf.float32), labels), tf.float32))
    return serialized, labels, loss, accuracy


with tf.Graph().as_default():
    serialized, labels, loss, accuracy = build_model()
    train_op = tf.train.AdagradOptimizer(0.3).minimize(loss)
    saver = tf.train.Saver()
    with tf.Session() as sess:
        sess.run([tf.global_variables_initializer(), tf.tables_initializer()])
        for step in range(300):
            idx = rng.randint(0, len(train_records), 64)
            _, l = sess.run([train_op, loss], {serialized: train_records[idx], labels: train_labels[idx]})
            if step % 100 == 0:
                print("step %d, loss %g" % (step, l))
        test_accuracy = sess.run(accuracy, {serialized: test_records, labels: test_labels})
        final_loss = sess.run(loss, {serialized: train_records, labels: train_labels})
        saver.save(sess, "./wide_deep.ckpt")

with tf.Graph().as_default():
    serialized, labels, loss, accuracy = build_model()
    saver = tf.train.Saver()
    with tf.Session() as sess:
        sess.run(tf.tables_initializer())
        saver.restore(sess, "./wide_deep.ckpt")
        restored_accuracy = sess.run(accuracy, {serialized: test_records, labels: test_labels})

checkpoint_names = sorted(name for name, _ in tf.train.list_variables("./wide_deep.ckpt")
                          if "Adagrad" not in name)
print("test accuracy %g, restored %g" % (test_accuracy, restored_accuracy))
print("RESULT " + json.dumps({"test_accuracy": float(test_accuracy), "final_loss": float(final_loss),
                              "restored_accuracy": float(restored_accuracy), "checkpoint_names": checkpoint_names}))
