"""An LSTM keyword spotter: a sequence of feature frames in, one of `num_classes` keywords out."""
from __future__ import annotations

from typing import Any

import edgelite as tf
from edgelite.models import data
from edgelite.models.recipe import Recipe, TrainConfig


def lstm_kws(num_classes: int = 6, units: int = 32, frames: int = 20, features: int = 10) -> Recipe:
    """dynamic_rnn over a BasicLSTMCell, then a dense classifier on the final output h.

    Converts to one UNIDIRECTIONAL_SEQUENCE_LSTM (int8 with a 16-bit cell state under --mode int8), the
    last-step slice, FULLY_CONNECTED and SOFTMAX. Trains on SYNTHETIC keyword sequences (a smooth
    time x feature prototype per class, shifted in time, scaled and noisy): no speech data ships with a
    package.
    """

    def network(x: Any, is_training: Any) -> Any:
        with tf.variable_scope("lstm_kws"):
            _, state = tf.nn.dynamic_rnn(tf.nn.rnn_cell.BasicLSTMCell(units), x, dtype=tf.float32)
            return tf.layers.dense(state.h, num_classes, name="logits")

    return Recipe(
        name="lstm_kws",
        description=f"LSTM keyword spotter, {frames} frames x {features} features, {num_classes} classes",
        input_shape=(frames, features), task="classification", num_outputs=num_classes, network=network,
        config=TrainConfig(epochs=3, batch_size=32, optimizer="adam", learning_rate=1e-2),
        data=lambda seed: data.synthetic_keywords(frames, features, num_classes, seed=seed),
        params={"num_classes": num_classes, "units": units, "frames": frames, "features": features})
