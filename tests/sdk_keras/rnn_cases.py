"""Keras recurrent-layer options, shared by the TensorFlow fixture generator and the edgelite tests: dropout and
recurrent_dropout (identity outside training), stateful layers (states carried across batches in predict, fit and
evaluate, reset_states), unroll, and the errors of misuse."""
from __future__ import annotations

import numpy as np

from .data_cases import _error
from .keras_cases import _fresh, _history, _seed_weights


def case_dropout_inference(tf):
    """SimpleRNN, GRU and LSTM (both implementations) with dropout and recurrent_dropout predict as without."""
    rng = np.random.RandomState(51)
    x = rng.normal(0, 1, (6, 5, 3)).astype(np.float32)
    out = {}
    for label, make in (("simple", lambda K: K.layers.SimpleRNN(4, dropout=0.3, recurrent_dropout=0.4)),
                        ("gru", lambda K: K.layers.GRU(4, dropout=0.2, recurrent_dropout=0.5,
                                                       return_sequences=True)),
                        ("lstm", lambda K: K.layers.LSTM(3, dropout=0.5, recurrent_dropout=0.1)),
                        ("lstm_impl2", lambda K: K.layers.LSTM(3, dropout=0.5, recurrent_dropout=0.5,
                                                               implementation=2, unroll=True))):
        K = _fresh(tf)
        layer = make(K)
        model = K.Sequential([K.layers.InputLayer(input_shape=(5, 3)), layer])
        _seed_weights(model, 52)
        out[label] = model.predict(x)
        config = layer.get_config()
        out[f"{label}_config"] = [config["dropout"], config["recurrent_dropout"]]
    return out


def _stateful_model(K, layer_name, units=3):
    model = K.Sequential([getattr(K.layers, layer_name)(units, stateful=True, batch_input_shape=(2, 4, 2)),
                          K.layers.Dense(1)])
    model.compile(K.optimizers.SGD(0.05), "mse")
    _seed_weights(model, 53)
    return model


def case_stateful(tf):
    """Stateful LSTM, GRU and SimpleRNN: consecutive predict calls continue the state, reset_states starts over,
    fit (shuffle=False) and evaluate carry the state from batch to batch."""
    rng = np.random.RandomState(54)
    x = rng.normal(0, 1, (6, 4, 2)).astype(np.float32)
    y = rng.normal(0, 1, (6, 1)).astype(np.float32)
    out = {}
    for layer_name in ("LSTM", "GRU", "SimpleRNN"):
        K = _fresh(tf)
        model = _stateful_model(K, layer_name)
        key = layer_name.lower()
        first = model.predict(x[:2], batch_size=2)
        second = model.predict(x[:2], batch_size=2)
        model.reset_states()
        again = model.predict(x[:2], batch_size=2)
        out[f"{key}_first"], out[f"{key}_second"], out[f"{key}_after_reset"] = first, second, again
        model.reset_states()
        hist = model.fit(x, y, batch_size=2, epochs=2, verbose=0, shuffle=False)
        out.update({f"{key}_fit_{k}": v for k, v in _history(hist).items()})
        out[f"{key}_evaluate"] = np.asarray(model.evaluate(x, y, batch_size=2, verbose=0), np.float64)
        out[f"{key}_state"] = K.backend.get_value(model.layers[0].states[0])
        model.layers[0].reset_states([np.ones((2, 3), np.float32)] * len(model.layers[0].states))
        out[f"{key}_from_ones"] = model.predict(x[:2], batch_size=2)
    K = _fresh(tf)
    out["no_batch_size"] = _error(lambda: K.Sequential([K.layers.LSTM(2, stateful=True, input_shape=(4, 2))]))
    plain = K.layers.GRU(2)
    out["reset_not_stateful"] = _error(plain.reset_states)
    return out


CASES = {name[len("case_"):]: fn for name, fn in sorted(globals().items()) if name.startswith("case_")}
