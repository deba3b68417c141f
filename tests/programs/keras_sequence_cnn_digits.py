"""A Keras CNN on the 8x8 scikit-learn digits fed batch by batch, in the style of the TF 1.x "train on data too big
for memory" recipes: a keras.utils.Sequence that reshuffles itself after every pass, a Python generator for the
validation data (validation_steps), Adamax, metric objects, then evaluate_generator / predict_generator and an
evaluation on a tf.data Dataset."""
# tolerance: {"test_loss": 0.02, "test_accuracy": 0.02, "test_top3": 0.02, "dataset_loss": 0.02, "first_loss": 0.001, "final_val_accuracy": 0.03, "predicted_ok": 0.03}
import json

import numpy as np
from sklearn.datasets import load_digits
from sklearn.model_selection import train_test_split

import edgelite as tf

keras = tf.keras

digits = load_digits()
images = (digits.images / 16.0).astype(np.float32)[..., None]
x_train, x_test, y_train, y_test = train_test_split(images, digits.target, test_size=0.3, random_state=1)
x_val, y_val = x_test[:200], y_test[:200]
x_test, y_test = x_test[200:], y_test[200:]


class DigitBatches(keras.utils.Sequence):
    """Batches of (image, one-hot label); the sample order is reshuffled with its own generator after each pass
    (Keras calls on_epoch_end from its loader thread, so the call after the very last pass may not come)."""

    def __init__(self, x, y, batch_size, seed):
        self.x, self.y, self.batch_size = x, keras.utils.to_categorical(y, 10), batch_size
        self.rng = np.random.RandomState(seed)
        self.order = np.arange(len(x))
        self.passes = 0

    def __len__(self):
        return int(np.ceil(len(self.x) / self.batch_size))

    def __getitem__(self, index):
        ids = self.order[index * self.batch_size:(index + 1) * self.batch_size]
        return self.x[ids], self.y[ids]

    def on_epoch_end(self):
        self.passes += 1
        self.rng.shuffle(self.order)


def validation_batches(x, y, batch_size):
    """An endless generator over the validation set, in order."""
    while True:
        for start in range(0, len(x), batch_size):
            yield x[start:start + batch_size], keras.utils.to_categorical(y[start:start + batch_size], 10)


model = keras.Sequential([
    keras.layers.Conv2D(8, 3, activation="relu", padding="same", input_shape=(8, 8, 1)),
    keras.layers.MaxPooling2D(),
    keras.layers.Conv2D(16, 3, activation="relu"),
    keras.layers.Flatten(),
    keras.layers.Dense(10, activation="softmax"),
])
model.compile(optimizer=keras.optimizers.Adamax(learning_rate=0.01), loss="categorical_crossentropy",
              metrics=[keras.metrics.CategoricalAccuracy(name="accuracy"), keras.metrics.TopKCategoricalAccuracy(k=3)])

# A reproducible start: glorot-like weights from a seeded numpy generator, zero biases.
rng = np.random.RandomState(5)
model.set_weights([rng.uniform(-1, 1, w.shape) * np.sqrt(6.0 / (np.prod(w.shape[:-1]) + w.shape[-1]))
                   if w.ndim > 1 else np.zeros_like(w) for w in model.get_weights()])

train = DigitBatches(x_train, y_train, 48, seed=11)
history = model.fit(train, epochs=5, verbose=2, shuffle=False,
                    validation_data=validation_batches(x_val, y_val, 64), validation_steps=4)
test_loss, test_accuracy, test_top3 = model.evaluate_generator(DigitBatches(x_test, y_test, 50, seed=0))
probabilities = model.predict_generator((x for x, _ in validation_batches(x_test, y_test, 64)),
                                        steps=int(np.ceil(len(x_test) / 64)))
dataset = tf.data.Dataset.from_tensor_slices((x_test, keras.utils.to_categorical(y_test, 10))).batch(40)
dataset_loss = model.evaluate(dataset, verbose=0)[0]
print("test loss %.4f accuracy %.4f top-3 %.4f" % (test_loss, test_accuracy, test_top3))
print("RESULT " + json.dumps({
    "test_loss": float(test_loss), "test_accuracy": float(test_accuracy), "test_top3": float(test_top3),
    "dataset_loss": float(dataset_loss), "first_loss": float(history.history["loss"][0]),
    "final_val_accuracy": float(history.history["val_accuracy"][-1]),
    "predicted_ok": float(np.mean(probabilities.argmax(1) == y_test)), "predictions": len(probabilities),
    "reshuffled": train.passes >= 4, "metrics": model.metrics_names,
}))
