"""Keras data utilities and step-fed training, shared by the TensorFlow fixture generator and the edgelite tests:
to_categorical, normalize, pad_sequences, the text Tokenizer, fit/evaluate/predict on Python generators,
keras.utils.Sequence objects and tf.data Datasets (and the *_generator methods), with the messages of misuse."""
from __future__ import annotations

import re

import numpy as np

from .keras_cases import _digits, _fresh, _history, _seed_weights

TEXTS = ["The cat sat on the mat.", "The dog ate my homework!", "A cat, a dog; and a bird?",
         "Dogs and cats: friends or foes", "the THE the end", ""]


def _error(fn) -> str:
    """'Type: message' of what fn raises; object reprs in a message ('(<...>)') shown as '(<object>)'."""
    try:
        fn()
        return "accepted"
    except Exception as exc:  # noqa: BLE001 - the type and text are what is recorded
        return re.sub(r"\(<.*?>\)", "(<object>)", f"{type(exc).__name__}: {exc}", flags=re.S)


def case_categorical_normalize(tf):
    """to_categorical on 1-D, column and 2-D labels with and without num_classes; normalize by L1/L2 norms."""
    K = _fresh(tf)
    x = np.array([[3.0, 4.0, 0.0], [0.0, 0.0, 0.0], [1.0, -2.0, 2.0]])
    return {"flat": K.utils.to_categorical([0, 2, 1, 2]), "column": K.utils.to_categorical([[1], [0], [3]], 5),
            "grid": K.utils.to_categorical(np.array([[0, 1], [2, 1]]), 3),
            "int_dtype": K.utils.to_categorical([1, 0], dtype="int32"),
            "l2": K.utils.normalize(x), "l1_axis0": K.utils.normalize(x, axis=0, order=1)}


def case_pad_sequences(tf):
    """Every padding/truncating/value/dtype combination, 2-D samples, and the errors of bad arguments."""
    pad = _fresh(tf).preprocessing.sequence.pad_sequences
    seqs = [[1, 2, 3, 4, 5], [6, 7], [], [8, 9, 10]]
    out = {}
    for padding in ("pre", "post"):
        for truncating in ("pre", "post"):
            out[f"{padding}_{truncating}"] = pad(seqs, maxlen=3, padding=padding, truncating=truncating)
    out.update(
        default=pad(seqs), value=pad(seqs, maxlen=6, value=-1), float=pad([[0.5, 1.5], [2.5]], dtype="float32"),
        float_value=pad([[0.5, 1.5], [2.5]], maxlen=3, dtype="float32", value=0.25),
        samples_2d=pad([np.ones((2, 3)), np.full((4, 3), 2.0)], maxlen=3, dtype="float32", padding="post"),
        strings=pad([["a", "b"], ["c"]], dtype=object, value="<pad>").astype(str).tolist(),
        utils_alias=_fresh(tf).utils.pad_sequences(seqs, maxlen=2),
        bad_padding=_error(lambda: pad(seqs, padding="middle")),
        bad_truncating=_error(lambda: pad(seqs, maxlen=2, truncating="middle")),
        bad_padding_empty=_error(lambda: pad([[]], padding="middle")),
        not_iterable=_error(lambda: pad(5)),
        item_not_iterable=_error(lambda: pad([[1, 2], 3])),
        string_value=_error(lambda: pad([[1]], value="x")),
        sample_shape=_error(lambda: pad([np.ones((2, 3)), np.ones((2, 4))])))
    return out


def case_tokenizer(tf):
    """Tokenizer vocabulary order, counts, num_words/oov handling, matrices in every mode, JSON round trip."""
    text = _fresh(tf).preprocessing.text
    tok = text.Tokenizer()
    tok.fit_on_texts(TEXTS)
    limited = text.Tokenizer(num_words=5, oov_token="<OOV>")
    limited.fit_on_texts(TEXTS)
    chars = text.Tokenizer(char_level=True, lower=False)
    chars.fit_on_texts(["abca", "Bad"])
    restored = text.tokenizer_from_json(limited.to_json())
    probe = ["the cat and the unicorn", "dog dog bird", "nothing known"]
    out = {
        "word_index": sorted([list(kv) for kv in tok.word_index.items()], key=lambda kv: kv[1]),
        "word_counts": [list(kv) for kv in tok.word_counts.items()],
        "word_docs": sorted([list(kv) for kv in tok.word_docs.items()]),
        "index_docs": sorted([list(kv) for kv in tok.index_docs.items()]),
        "document_count": tok.document_count,
        "sequences": tok.texts_to_sequences(probe),
        "limited_index": sorted([list(kv) for kv in limited.word_index.items()], key=lambda kv: kv[1]),
        "limited_sequences": limited.texts_to_sequences(probe),
        "limited_texts": limited.sequences_to_texts([[1, 2, 3, 4, 5, 6, 40]]),
        "texts": tok.sequences_to_texts([[1, 2, 3], [5, 99]]),
        "restored_sequences": restored.texts_to_sequences(probe),
        "restored_index_word": sorted([list(kv) for kv in restored.index_word.items()]),
        "chars_index": sorted([list(kv) for kv in chars.word_index.items()], key=lambda kv: kv[1]),
        "chars_sequences": chars.texts_to_sequences(["abcd", "dab"]),
        "word_sequence": text.text_to_word_sequence("Hello, World! It's a-test\tnow"),
        "word_sequence_split": text.text_to_word_sequence("a,b;c", filters=";", split=","),
        "md5": text.hashing_trick("the cat sat the", 10, hash_function="md5"),
        "unfitted_matrix": _error(lambda: text.Tokenizer().texts_to_matrix(["a b"])),
        "unfitted_tfidf": _error(lambda: text.Tokenizer(num_words=4).texts_to_matrix(["a b"], mode="tfidf")),
        "bad_mode": _error(lambda: tok.texts_to_matrix(["the cat"], mode="onehot")),
        "bad_kwarg": _error(lambda: text.Tokenizer(words=3)),
    }
    for mode in ("binary", "count", "freq", "tfidf"):
        out[f"matrix_{mode}"] = tok.texts_to_matrix(probe + TEXTS[:2], mode=mode)
        out[f"limited_matrix_{mode}"] = limited.texts_to_matrix(probe, mode=mode)
    seq_tok = text.Tokenizer(num_words=6)
    seq_tok.fit_on_sequences([[1, 2, 2], [3], [1, 5]])
    out["fit_on_sequences_tfidf"] = seq_tok.sequences_to_matrix([[1, 2, 2, 7], [5]], mode="tfidf")
    return out


def _model(K, seed=7):
    model = K.Sequential([K.layers.Dense(10, activation="relu", input_shape=(12,)),
                          K.layers.Dense(4, activation="softmax")])
    model.compile(K.optimizers.SGD(0.1), "sparse_categorical_crossentropy", metrics=["accuracy"])
    _seed_weights(model, seed)
    return model


def _generator(x, y, batch, weights=None):
    """Endless (x, y[, w]) batches in order, the last batch of each pass smaller."""
    while True:
        for start in range(0, len(x), batch):
            part = slice(start, start + batch)
            yield (x[part], y[part]) if weights is None else (x[part], y[part], weights[part])


def case_fit_generator(tf):
    """fit on a generator (steps_per_epoch, uneven last batch, sample weights), generator validation data,
    fit_generator / evaluate_generator / predict_generator, evaluate/predict on generators."""
    K = _fresh(tf)
    x, y = _digits(50, seed=21)
    weights = np.linspace(0.5, 1.5, 50).astype(np.float32)
    model = _model(K)
    hist = model.fit(_generator(x, y, 16, weights), steps_per_epoch=4, epochs=3, verbose=0,
                     validation_data=_generator(x[:20], y[:20], 8), validation_steps=3)
    out = {f"fit_{k}": v for k, v in _history(hist).items()}
    hist2 = model.fit_generator(_generator(x, y, 20), steps_per_epoch=3, epochs=2, verbose=0,
                                validation_data=(x[:30], y[:30]))
    out.update({f"fit_generator_{k}": v for k, v in _history(hist2).items()})
    out["evaluate_generator"] = np.asarray(model.evaluate_generator(_generator(x, y, 16), steps=4), np.float64)
    out["evaluate_steps"] = np.asarray(model.evaluate(_generator(x, y, 12), steps=5, verbose=0), np.float64)
    out["predict_generator"] = model.predict_generator(_generator(x, y, 16), steps=2)
    out["predict_steps"] = model.predict((xb for xb, _ in _generator(x[:9], y[:9], 4)), steps=3)
    for i, w in enumerate(model.get_weights()):
        out[f"weight_{i}"] = w
    out["no_steps"] = _error(lambda: model.fit(_generator(x, y, 10), epochs=1, verbose=0))
    out["no_validation_steps"] = _error(lambda: model.fit(_generator(x, y, 10), steps_per_epoch=1, verbose=0,
                                                          validation_data=_generator(x, y, 10)))
    out["no_eval_steps"] = _error(lambda: model.evaluate_generator(_generator(x, y, 10)))
    out["y_with_generator"] = _error(lambda: model.fit(_generator(x, y, 10), y, steps_per_epoch=1, verbose=0))
    return out


def case_fit_sequence(tf):
    """fit on a keras.utils.Sequence (steps from len, on_epoch_end after each pass), workers=0 (no callback),
    a Sequence as validation data, evaluate/predict on Sequences."""
    K = _fresh(tf)
    x, y = _digits(45, seed=22)

    class Batches(K.utils.Sequence):
        def __init__(self, xs, ys, batch):
            self.xs, self.ys, self.batch, self.ends = xs, ys, batch, 0

        def __len__(self):
            return int(np.ceil(len(self.xs) / self.batch))

        def __getitem__(self, i):
            part = slice(i * self.batch, (i + 1) * self.batch)
            return self.xs[part], self.ys[part]

        def on_epoch_end(self):
            self.ends += 1

    model = _model(K, seed=8)
    train, val = Batches(x, y, 10), Batches(x[:20], y[:20], 7)
    hist = model.fit(train, epochs=3, verbose=0, shuffle=False, validation_data=val)
    quiet = Batches(x, y, 15)
    hist0 = model.fit(quiet, epochs=2, verbose=0, workers=0)
    out = {f"fit_{k}": v for k, v in _history(hist).items()}
    out.update({f"fit_workers0_{k}": v for k, v in _history(hist0).items()})
    out["train_epoch_ends"] = train.ends
    out["workers0_epoch_ends"] = quiet.ends
    out["evaluate"] = np.asarray(model.evaluate(Batches(x, y, 20), verbose=0), np.float64)
    out["predict"] = model.predict(Batches(x[:11], y[:11], 4))
    out["len_steps"] = np.asarray(model.evaluate_generator(Batches(x, y, 9), steps=2), np.float64)
    return out


def case_fit_dataset(tf):
    """fit on a tf.data Dataset: a finite batched dataset (epochs restart it), a repeated one with steps_per_epoch,
    Dataset validation data, evaluate/predict on Datasets, and the errors of missing steps and stray y."""
    K = _fresh(tf)
    x, y = _digits(40, seed=23)
    model = _model(K, seed=9)
    finite = tf.data.Dataset.from_tensor_slices((x, y)).batch(12)
    hist = model.fit(finite, epochs=2, verbose=0, validation_data=tf.data.Dataset.from_tensor_slices(
        (x[:16], y[:16])).batch(5))
    repeated = tf.data.Dataset.from_tensor_slices((x, y)).batch(16).repeat()
    hist2 = model.fit(repeated, steps_per_epoch=3, epochs=2, verbose=0)
    out = {f"finite_{k}": v for k, v in _history(hist).items()}
    out.update({f"repeated_{k}": v for k, v in _history(hist2).items()})
    out["evaluate"] = np.asarray(model.evaluate(finite, verbose=0), np.float64)
    out["evaluate_steps"] = np.asarray(model.evaluate(repeated, steps=2, verbose=0), np.float64)
    out["predict"] = model.predict(tf.data.Dataset.from_tensor_slices(x[:10]).batch(4))
    out["infinite_no_steps"] = _error(lambda: model.fit(repeated, epochs=1, verbose=0))
    out["y_with_dataset"] = _error(lambda: model.fit(finite, y[:3], epochs=1, verbose=0))
    return out


def case_validation_freq(tf):
    """validation_freq as an interval (arrays) and as a list of epochs (generator); its errors."""
    K = _fresh(tf)
    x, y = _digits(40, seed=25)
    model = _model(K, seed=11)
    hist = model.fit(x[:30], y[:30], batch_size=10, epochs=4, verbose=0, shuffle=False,
                     validation_data=(x[30:], y[30:]), validation_freq=2)
    out = {"interval_keys": sorted(hist.history), "interval_val_loss": np.asarray(hist.history["val_loss"])}
    hist = model.fit(_generator(x, y, 10), steps_per_epoch=3, epochs=4, verbose=0,
                     validation_data=(x[30:], y[30:]), validation_freq=[1, 4])
    out["list_val_loss"] = np.asarray(hist.history["val_loss"])
    out["zero"] = _error(lambda: model.fit(x, y, epochs=1, verbose=0, validation_data=(x, y), validation_freq=0))
    return out


def case_arrays_with_steps(tf):
    """fit(x, y, steps_per_epoch=n) on arrays: every step trains on the whole arrays."""
    K = _fresh(tf)
    x, y = _digits(30, seed=24)
    model = _model(K, seed=10)
    hist = model.fit(x, y, steps_per_epoch=2, epochs=2, verbose=0)
    out = dict(_history(hist))
    for i, w in enumerate(model.get_weights()):
        out[f"weight_{i}"] = w
    return out


def case_custom_objects(tf):
    """A model with a custom activation rebuilt from JSON: refused without registration, accepted inside
    custom_object_scope (not visible in get_custom_objects there) or after get_custom_objects().update."""
    K = _fresh(tf)

    def scaled_tanh(x):
        return 2.0 * K.backend.tanh(x)

    model = K.Sequential([K.layers.Dense(3, activation=scaled_tanh, input_shape=(2,))])
    _seed_weights(model, 60)
    x = np.array([[0.5, -1.0], [2.0, 0.25]], np.float32)
    text, weights, want = model.to_json(), model.get_weights(), model.predict(x)
    out = {"unregistered": _error(lambda: K.models.model_from_json(text))}
    with K.utils.custom_object_scope({"scaled_tanh": scaled_tanh}):
        scoped = K.models.model_from_json(text)
        out["visible_globally_in_scope"] = "scaled_tanh" in K.utils.get_custom_objects()
    scoped.set_weights(weights)
    out["scoped_matches"] = float(np.max(np.abs(scoped.predict(x) - want)))
    out["after_scope"] = _error(lambda: K.models.model_from_json(text))
    K.utils.get_custom_objects()["scaled_tanh"] = scaled_tanh
    try:
        registered = K.models.model_from_json(text)
        registered.set_weights(weights)
        out["registered_matches"] = float(np.max(np.abs(registered.predict(x) - want)))
        out["activation_by_name"] = K.activations.get("scaled_tanh") is scaled_tanh
    finally:
        del K.utils.get_custom_objects()["scaled_tanh"]
    return out


CASES = {name[len("case_"):]: fn for name, fn in sorted(globals().items()) if name.startswith("case_")}
