"""A Keras Sequential perceptron on the 8x8 scikit-learn digits: compile, fit with a validation split, evaluate,
predict, in the style of the TF 1.x "Keras overview" guide (graph mode, model.fit on numpy arrays)."""
# tolerance: {"test_loss": 0.02, "test_accuracy": 0.02, "final_val_accuracy": 0.03, "first_loss": 0.001, "predicted_ok": 0.03}
import json

import numpy as np
from sklearn.datasets import load_digits
from sklearn.model_selection import train_test_split

import edgelite as tf

keras = tf.keras

digits = load_digits()
images = (digits.data / 16.0).astype(np.float32)
x_train, x_test, y_train, y_test = train_test_split(images, digits.target, test_size=0.25, random_state=0)
y_train_hot = keras.utils.to_categorical(y_train, 10)
y_test_hot = keras.utils.to_categorical(y_test, 10)

model = keras.Sequential([
    keras.layers.Dense(64, activation="relu", input_shape=(64,)),
    keras.layers.Dense(32, activation="relu"),
    keras.layers.Dense(10, activation="softmax"),
])
model.compile(optimizer=keras.optimizers.Adam(learning_rate=0.005), loss="categorical_crossentropy",
              metrics=["accuracy"])
model.summary()

# A reproducible start: glorot-like weights from a seeded numpy generator, zero biases.
rng = np.random.RandomState(42)
model.set_weights([rng.uniform(-np.sqrt(6.0 / sum(w.shape)), np.sqrt(6.0 / sum(w.shape)), w.shape)
                   if w.ndim == 2 else np.zeros_like(w) for w in model.get_weights()])

np.random.seed(0)  # fit shuffles each epoch with numpy's global generator
history = model.fit(x_train, y_train_hot, batch_size=32, epochs=8, validation_split=0.1, verbose=2)
test_loss, test_accuracy = model.evaluate(x_test, y_test_hot, verbose=0)
predicted = model.predict(x_test[:100]).argmax(axis=1)
print("test loss %.4f, test accuracy %.4f" % (test_loss, test_accuracy))
print("RESULT " + json.dumps({
    "test_loss": float(test_loss), "test_accuracy": float(test_accuracy),
    "final_val_accuracy": float(history.history["val_acc"][-1]), "first_loss": float(history.history["loss"][0]),
    "predicted_ok": float(np.mean(predicted == y_test[:100])), "epochs": len(history.epoch),
    "weights": len(model.weights), "metrics": model.metrics_names,
}))
