"""A stateful Keras LSTM predicting the next value of a noisy sine wave, in the style of the TF 1.x / Keras
"stateful LSTM" time-series examples: a fixed batch_input_shape, fit one epoch at a time with shuffle=False and
reset_states() between epochs, then free-running prediction; plus a padded-sequence tagger (Embedding with
mask_zero, Bidirectional LSTM, TimeDistributed Dense) evaluated on the kept steps."""
# tolerance: {"first_loss": 0.001, "final_loss": 0.01, "test_mse": 0.01, "rollout_mse": 0.05, "tagger_loss": 0.02, "tagger_accuracy": 0.03}
import json

import numpy as np

import edgelite as tf

keras = tf.keras

rng = np.random.RandomState(0)
t = np.arange(0, 60, 0.25)
wave = (np.sin(t) + 0.05 * rng.normal(size=t.shape)).astype(np.float32)
window, batch = 8, 4
samples = len(wave) - window - 1
samples -= samples % batch
x = np.stack([wave[i:i + window] for i in range(samples)])[..., None]
y = wave[window:window + samples][:, None]
split = samples - 4 * batch
x_train, y_train, x_test, y_test = x[:split], y[:split], x[split:], y[split:]

model = keras.Sequential([
    keras.layers.LSTM(16, stateful=True, batch_input_shape=(batch, window, 1)),
    keras.layers.Dense(1),
])
model.compile(optimizer=keras.optimizers.Adam(0.01), loss="mse")
init = np.random.RandomState(1)
model.set_weights([init.uniform(-0.3, 0.3, w.shape) if w.ndim == 2 else w for w in model.get_weights()])

losses = []
for epoch in range(6):
    history = model.fit(x_train, y_train, batch_size=batch, epochs=1, shuffle=False, verbose=0)
    losses.append(history.history["loss"][0])
    model.reset_states()
test_mse = model.evaluate(x_test, y_test, batch_size=batch, verbose=0)
model.reset_states()

# free-running: feed the model's own predictions back for 8 steps (four parallel streams)
streams = x_test[:batch].copy()
rollout = []
for _ in range(8):
    step = model.predict(streams, batch_size=batch)
    rollout.append(step[:, 0])
    streams = np.concatenate([streams[:, 1:], step[:, None, :]], axis=1)
rollout = np.stack(rollout, 1)
truth = np.stack([wave[window + split + i:window + split + i + 8] for i in range(batch)])
rollout_mse = float(np.mean((rollout - truth) ** 2))
print("losses", np.round(losses, 4), "test mse %.4f rollout mse %.4f" % (test_mse, rollout_mse))

# A tagger over zero-padded id sequences: tag = whether the id is above 4; padding is masked everywhere.
ids = rng.randint(1, 9, (120, 10))
for i, length in enumerate(rng.randint(3, 11, 120)):
    ids[i, length:] = 0
tags = (ids > 4).astype(np.int64)[..., None]
tagger = keras.Sequential([
    keras.layers.Embedding(9, 6, mask_zero=True, input_length=10),
    keras.layers.Bidirectional(keras.layers.LSTM(8, return_sequences=True)),
    keras.layers.TimeDistributed(keras.layers.Dense(2, activation="softmax")),
])
tagger.compile(optimizer=keras.optimizers.RMSprop(0.02), loss="sparse_categorical_crossentropy",
               metrics=["accuracy"])
tagger.set_weights([init.uniform(-0.3, 0.3, w.shape) if w.ndim == 2 else w for w in tagger.get_weights()])
tagger.fit(ids[:96], tags[:96], batch_size=16, epochs=6, shuffle=False, verbose=0)
tagger_loss, tagger_accuracy = tagger.evaluate(ids[96:], tags[96:], verbose=0)
print("tagger loss %.4f accuracy %.4f" % (tagger_loss, tagger_accuracy))

print("RESULT " + json.dumps({
    "first_loss": float(losses[0]), "final_loss": float(losses[-1]), "test_mse": float(test_mse),
    "rollout_mse": rollout_mse, "samples": int(samples), "tagger_loss": float(tagger_loss),
    "tagger_accuracy": float(tagger_accuracy),
}))
