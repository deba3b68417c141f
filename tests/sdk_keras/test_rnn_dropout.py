"""Recurrent dropout in the training phase follows Keras's rule: one mask per sequence (the same at every step),
kept entries scaled by 1 / (1 - rate), nothing dropped outside training. Checked on a linear SimpleRNN whose
output exposes the masks: kernel 1, recurrent kernel 0 (input dropout) or 1 (recurrent dropout)."""
from __future__ import annotations

import numpy as np

import edgelite as tf


def _outputs(dropout: float, recurrent_dropout: float, recurrent: float, phase: bool) -> np.ndarray:
    K = tf.keras
    K.backend.clear_session()
    tf.reset_default_graph()
    layer = K.layers.SimpleRNN(1, activation=None, use_bias=False, return_sequences=True, dropout=dropout,
                               recurrent_dropout=recurrent_dropout)
    x = K.layers.Input(shape=(4, 1))
    y = layer(x)
    layer.set_weights([np.ones((1, 1), np.float32), np.full((1, 1), recurrent, np.float32)])
    fn = K.backend.function([x, K.backend.learning_phase()], [y])
    return fn([np.ones((2000, 4, 1), np.float32), phase])[0][..., 0]


def test_input_dropout_mask_is_fixed_over_time_and_scaled() -> None:
    out = _outputs(0.5, 0.0, 0.0, True)
    assert set(np.unique(out)) <= {0.0, 2.0}
    assert np.all(out == out[:, :1])
    assert 0.45 < np.mean(out[:, 0] == 2.0) < 0.55


def test_recurrent_dropout_mask_is_fixed_over_time() -> None:
    out = _outputs(0.0, 0.5, 1.0, True)
    dropped, kept = np.array([1.0, 1.0, 1.0, 1.0]), np.array([1.0, 3.0, 7.0, 15.0])
    rows_dropped = np.all(out == dropped, axis=1)
    rows_kept = np.all(out == kept, axis=1)
    assert np.all(rows_dropped | rows_kept)
    assert 0.45 < np.mean(rows_kept) < 0.55


def test_no_dropout_outside_training() -> None:
    np.testing.assert_array_equal(_outputs(0.5, 0.5, 1.0, False), np.tile([1.0, 2.0, 3.0, 4.0], (2000, 1)))
