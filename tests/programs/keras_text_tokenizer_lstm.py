"""A Keras sentiment classifier on generated reviews, in the style of the TF 1.x text-classification tutorials:
Tokenizer (num_words, oov_token) and pad_sequences turn texts into id matrices, an Embedding + LSTM model trains
with Nadam and reports Precision/Recall/AUC metric objects; texts_to_matrix feeds a bag-of-words baseline trained
with Adagrad (graph mode, model.fit on numpy arrays)."""
# tolerance: {"test_loss": 0.02, "test_accuracy": 0.03, "test_precision": 0.04, "test_recall": 0.04, "test_auc": 0.02, "first_loss": 0.001, "bow_accuracy": 0.03, "bow_loss": 0.02}
import json

import numpy as np

import edgelite as tf

keras = tf.keras

rng = np.random.RandomState(7)
positive = ["great", "good", "lovely", "excellent", "fun", "enjoyed", "wonderful", "best"]
negative = ["bad", "boring", "awful", "worst", "dull", "hated", "poor", "waste"]
neutral = ["the", "movie", "film", "plot", "acting", "was", "a", "it", "story", "and", "very", "really", "of"]


def review(label: int) -> str:
    """A short review: neutral filler with a few words of its sentiment and sometimes one of the other."""
    words = list(rng.choice(neutral, rng.randint(4, 12)))
    words += list(rng.choice(positive if label else negative, rng.randint(1, 4)))
    if rng.rand() < 0.3:
        words.append(rng.choice(negative if label else positive))
    rng.shuffle(words)
    text = " ".join(words)
    return text.capitalize() + rng.choice([".", "!", "?!"])


labels = rng.randint(0, 2, 600)
texts = [review(int(y)) for y in labels]
train_texts, test_texts = texts[:480], texts[480:]
y_train, y_test = labels[:480].astype(np.float32), labels[480:].astype(np.float32)

tokenizer = keras.preprocessing.text.Tokenizer(num_words=24, oov_token="<unk>")
tokenizer.fit_on_texts(train_texts)
print("vocabulary:", len(tokenizer.word_index), "most frequent:", list(tokenizer.word_index)[:6])
maxlen = 16
x_train = keras.preprocessing.sequence.pad_sequences(tokenizer.texts_to_sequences(train_texts), maxlen=maxlen,
                                                     padding="post", truncating="post")
x_test = keras.preprocessing.sequence.pad_sequences(tokenizer.texts_to_sequences(test_texts), maxlen=maxlen,
                                                    padding="post", truncating="post")

model = keras.Sequential([
    keras.layers.Embedding(24, 8, input_length=maxlen),
    keras.layers.LSTM(12),
    keras.layers.Dense(1, activation="sigmoid"),
])
model.compile(optimizer=keras.optimizers.Nadam(learning_rate=0.01), loss="binary_crossentropy",
              metrics=["accuracy", keras.metrics.Precision(), keras.metrics.Recall(), keras.metrics.AUC()])

# A reproducible start: weights from a seeded numpy generator (LSTM forget-gate bias 1 as Keras initialises it).
init = np.random.RandomState(3)
model.set_weights([init.uniform(-0.3, 0.3, w.shape) if w.ndim == 2 else w for w in model.get_weights()])

np.random.seed(1)  # fit shuffles each epoch with numpy's global generator
history = model.fit(x_train, y_train, batch_size=32, epochs=6, verbose=2, validation_split=0.1)
test_loss, test_accuracy, test_precision, test_recall, test_auc = model.evaluate(x_test, y_test, verbose=0)
print("test loss %.4f accuracy %.4f precision %.4f recall %.4f auc %.4f" % (
    test_loss, test_accuracy, test_precision, test_recall, test_auc))

# Bag-of-words baseline: tf-idf rows of the same tokenizer, a logistic regression trained with Adagrad.
bow_train = tokenizer.texts_to_matrix(train_texts, mode="tfidf").astype(np.float32)
bow_test = tokenizer.texts_to_matrix(test_texts, mode="tfidf").astype(np.float32)
baseline = keras.Sequential([keras.layers.Dense(1, activation="sigmoid", input_shape=(24,))])
baseline.set_weights([np.zeros((24, 1), np.float32), np.zeros(1, np.float32)])
baseline.compile(optimizer=keras.optimizers.Adagrad(learning_rate=0.5), loss="binary_crossentropy",
                 metrics=["accuracy"])
baseline.fit(bow_train, y_train, batch_size=32, epochs=5, verbose=0, shuffle=False)
bow_loss, bow_accuracy = baseline.evaluate(bow_test, y_test, verbose=0)

print("RESULT " + json.dumps({
    "test_loss": float(test_loss), "test_accuracy": float(test_accuracy), "test_precision": float(test_precision),
    "test_recall": float(test_recall), "test_auc": float(test_auc), "first_loss": float(history.history["loss"][0]),
    "metrics": model.metrics_names, "bow_loss": float(bow_loss), "bow_accuracy": float(bow_accuracy),
    "sequence_shape": list(x_train.shape), "first_sequence": x_train[0].tolist(),
    "vocabulary": len(tokenizer.word_index),
}))
