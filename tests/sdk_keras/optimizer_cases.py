"""Keras optimizer cases (Adagrad, Adadelta, Adamax, Nadam, Ftrl) shared by the TensorFlow fixture generator and
the edgelite tests: a few training steps' weights on a dense model and on an embedding (sparse gradients)."""
from __future__ import annotations

import numpy as np

from .keras_cases import _digits, _fresh, _history, _seed_weights


def _dense_steps(tf, make_optimizer) -> dict:
    """Three epochs of 20-sample batches on an MLP; losses, weights and the optimizer state after training."""
    K = _fresh(tf)
    x, labels = _digits(60, seed=11)
    model = K.Sequential([K.layers.Dense(8, activation="tanh", input_shape=(12,)),
                          K.layers.Dense(4, activation="softmax")])
    model.compile(make_optimizer(K), "sparse_categorical_crossentropy", metrics=["accuracy"])
    _seed_weights(model, 4)
    hist = model.fit(x, labels, batch_size=20, epochs=3, verbose=0, shuffle=False)
    out = dict(_history(hist), config=sorted(model.optimizer.get_config()))
    for i, w in enumerate(model.get_weights()):
        out[f"weight_{i}"] = w
    out["optimizer_state"] = np.concatenate([np.ravel(w).astype(np.float64)
                                             for w in model.optimizer.get_weights()])
    return out


def _sparse_steps(tf, make_optimizer) -> dict:
    """Embedding rows updated from gathered (sparse) gradients: rows never looked up must follow Keras's rule."""
    K = _fresh(tf)
    rng = np.random.RandomState(12)
    ids = rng.randint(0, 6, (30, 4))   # ids 6..9 never occur
    y = (ids.sum(1) % 2).astype(np.float32)
    model = K.Sequential([K.layers.Embedding(10, 3, input_length=4), K.layers.Flatten(),
                          K.layers.Dense(1, activation="sigmoid")])
    model.compile(make_optimizer(K), "binary_crossentropy")
    _seed_weights(model, 5)
    hist = model.fit(ids, y, batch_size=10, epochs=2, verbose=0, shuffle=False)
    return dict(_history(hist), embedding=model.get_weights()[0], kernel=model.get_weights()[1])


def _case(make_optimizer):
    def run(tf):
        out = {f"dense_{k}": v for k, v in _dense_steps(tf, make_optimizer).items()}
        out.update({f"sparse_{k}": v for k, v in _sparse_steps(tf, make_optimizer).items()})
        return out
    return run


CASES = {
    "adagrad_defaults": _case(lambda K: K.optimizers.Adagrad(learning_rate=0.1)),
    "adagrad_by_name": _case(lambda K: "adagrad"),
    "adagrad_zero_accumulator": _case(lambda K: K.optimizers.Adagrad(0.05, initial_accumulator_value=0.0,
                                                                     decay=0.1)),
    "adadelta": _case(lambda K: K.optimizers.Adadelta(learning_rate=1.0, rho=0.9)),
    "adadelta_by_name": _case(lambda K: "adadelta"),
    "adamax": _case(lambda K: K.optimizers.Adamax(0.02)),
    "adamax_by_name": _case(lambda K: "adamax"),
    "nadam": _case(lambda K: K.optimizers.Nadam(0.01)),
    "nadam_by_name": _case(lambda K: "nadam"),
    "nadam_schedule": _case(lambda K: K.optimizers.Nadam(0.01, beta_1=0.8, schedule_decay=0.05)),
    "ftrl": _case(lambda K: K.optimizers.Ftrl(0.3, l1_regularization_strength=0.01, l2_regularization_strength=0.02,
                                              beta=0.1)),
    "ftrl_shrinkage": _case(lambda K: K.optimizers.Ftrl(0.3, learning_rate_power=-0.7,
                                                        l2_shrinkage_regularization_strength=0.05)),
    "ftrl_by_name": _case(lambda K: "ftrl"),
    "rmsprop_sparse": _case(lambda K: K.optimizers.RMSprop(0.01)),
    "rmsprop_centered": _case(lambda K: K.optimizers.RMSprop(0.01, centered=True)),
    "rmsprop_momentum": _case(lambda K: K.optimizers.RMSprop(0.01, momentum=0.5)),
    "adam_sparse": _case(lambda K: K.optimizers.Adam(0.02)),
}


def case_optimizer_errors(tf):
    """Messages of bad hyperparameters."""
    K = _fresh(tf)
    out = {}
    for label, make in (("adagrad_accum", lambda: K.optimizers.Adagrad(initial_accumulator_value=-1.0)),
                        ("ftrl_power", lambda: K.optimizers.Ftrl(learning_rate_power=0.5)),
                        ("ftrl_l1", lambda: K.optimizers.Ftrl(l1_regularization_strength=-0.1)),
                        ("ftrl_accum", lambda: K.optimizers.Ftrl(initial_accumulator_value=-0.1)),
                        ("unknown_name", lambda: K.optimizers.get("adamw_unknown"))):
        try:
            make()
            out[label] = "accepted"
        except Exception as exc:  # noqa: BLE001 - the type and text are what is recorded
            out[label] = f"{type(exc).__name__}: {exc}"
    out["classes"] = [type(K.optimizers.get(n)).__name__ for n in ("adagrad", "Adadelta", "adamax", "Nadam", "ftrl")]
    return out


CASES["optimizer_errors"] = case_optimizer_errors
