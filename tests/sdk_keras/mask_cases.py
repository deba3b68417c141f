"""Keras masking, shared by the TensorFlow fixture generator and the edgelite tests: Embedding(mask_zero=True)
and Masking feeding SimpleRNN/GRU/LSTM (masked steps keep state and output), GlobalAveragePooling1D over the kept
steps, masks carried through Dense into the loss, and the masks layers report."""
from __future__ import annotations

import numpy as np

from .keras_cases import _fresh, _history, _seed_weights


def _padded_ids(n: int, steps: int, seed: int) -> np.ndarray:
    """Id sequences of random length, zero-padded at the end or the start, some with inner zeros."""
    rng = np.random.RandomState(seed)
    ids = rng.randint(1, 9, (n, steps))
    for i in range(n):
        length = rng.randint(1, steps + 1)
        if i % 2:
            ids[i, length:] = 0
        else:
            ids[i, :steps - length] = 0
    ids[0, 2] = 0
    return ids


def case_recurrent_masks(tf):
    """SimpleRNN, GRU and LSTM (last output, sequences, go_backwards, return_state) after Embedding(mask_zero)."""
    out = {}
    ids = _padded_ids(7, 6, 41)
    for label, make in (("simple", lambda K: K.layers.SimpleRNN(5, return_sequences=True)),
                        ("gru", lambda K: K.layers.GRU(4)),
                        ("lstm", lambda K: K.layers.LSTM(4, return_sequences=True, go_backwards=True)),
                        ("lstm_last_backwards", lambda K: K.layers.LSTM(3, go_backwards=True)),
                        ("gru_zero_output", lambda K: K.layers.GRU(3, return_sequences=True,
                                                                   zero_output_for_mask=True))):
        K = _fresh(tf)
        inp = K.layers.Input(shape=(6,))
        emb = K.layers.Embedding(9, 3, mask_zero=True)(inp)
        rnn = make(K)
        model = K.Model(inp, rnn(emb))
        _seed_weights(model, 42)
        out[label] = model.predict(ids)
    K = _fresh(tf)
    inp = K.layers.Input(shape=(6,))
    seq, h, c = K.layers.LSTM(3, return_state=True)(K.layers.Embedding(9, 2, mask_zero=True)(inp))
    model = K.Model(inp, [seq, h, c])
    _seed_weights(model, 43)
    out["state_h"], out["state_c"] = model.predict(ids)[1:]
    return out


def case_masking_layer(tf):
    """Masking(mask_value) before a SimpleRNN returning sequences and a Dense on every step: the output mask
    weights the loss during fit."""
    K = _fresh(tf)
    rng = np.random.RandomState(44)
    x = rng.normal(0, 1, (24, 5, 3)).astype(np.float32)
    x[::3, 3:] = -1.0
    x[1::4, :1] = -1.0
    y = rng.normal(0, 1, (24, 5, 2)).astype(np.float32)
    model = K.Sequential([K.layers.Masking(mask_value=-1.0, input_shape=(5, 3)),
                          K.layers.SimpleRNN(4, return_sequences=True),
                          K.layers.Dense(2)])
    model.compile(K.optimizers.SGD(0.05), "mse", metrics=["mae", K.metrics.RootMeanSquaredError()])
    _seed_weights(model, 45)
    hist = model.fit(x, y, batch_size=8, epochs=3, verbose=0, shuffle=False)
    out = dict(_history(hist), predict=model.predict(x[:6]),
               evaluate=np.asarray(model.evaluate(x, y, verbose=0), np.float64))
    masks = [model.layers[0].compute_mask(tf.constant(x[:4])), model.layers[1].compute_mask(None, None)]
    with tf.Session() as sess:
        out["masking_mask"] = sess.run(masks[0]).astype(np.float64)
    out["rnn_mask_of_none"] = str(masks[1])
    return out


def case_pooling_mask(tf):
    """Embedding(mask_zero) + GlobalAveragePooling1D (mean over kept steps) + Dense, trained with Adam."""
    K = _fresh(tf)
    ids = _padded_ids(30, 8, 46)
    y = (ids.sum(1) % 2).astype(np.float32)
    model = K.Sequential([K.layers.Embedding(9, 4, mask_zero=True, input_length=8),
                          K.layers.GlobalAveragePooling1D(),
                          K.layers.Dense(1, activation="sigmoid")])
    model.compile(K.optimizers.Adam(0.05), "binary_crossentropy", metrics=["accuracy"])
    _seed_weights(model, 47)
    hist = model.fit(ids, y, batch_size=10, epochs=3, verbose=0, shuffle=False)
    return dict(_history(hist), predict=model.predict(ids[:5]), embeddings=model.get_weights()[0])


def case_unknown_length_mask(tf):
    """An Embedding without input_length (time axis unknown) feeding a masked LSTM and GRU."""
    out = {}
    ids = _padded_ids(5, 7, 48)
    for label, layer in (("lstm", "LSTM"), ("gru", "GRU")):
        K = _fresh(tf)
        model = K.Sequential([K.layers.Embedding(9, 3, mask_zero=True),
                              getattr(K.layers, layer)(4, return_sequences=label == "gru")])
        model.build((None, None))
        _seed_weights(model, 49)
        out[label] = model.predict(ids)
    return out


def case_wrapper_masks(tf):
    """Bidirectional LSTM/GRU after Embedding(mask_zero) (last outputs, sequences merged by concat/sum), and a
    tagger: masked LSTM sequences through TimeDistributed(Dense) into a masked loss and metric during fit."""
    out = {}
    ids = _padded_ids(8, 6, 55)
    for label, make in (("bi_lstm", lambda K: K.layers.Bidirectional(K.layers.LSTM(3))),
                        ("bi_gru_seq_sum", lambda K: K.layers.Bidirectional(K.layers.GRU(2, return_sequences=True),
                                                                            merge_mode="sum"))):
        K = _fresh(tf)
        inp = K.layers.Input(shape=(6,))
        model = K.Model(inp, make(K)(K.layers.Embedding(9, 3, mask_zero=True)(inp)))
        _seed_weights(model, 56)
        out[label] = model.predict(ids)
    K = _fresh(tf)
    rng = np.random.RandomState(57)
    tags = rng.randint(0, 3, ids.shape)
    model = K.Sequential([K.layers.Embedding(9, 4, mask_zero=True, input_length=6),
                          K.layers.LSTM(5, return_sequences=True),
                          K.layers.TimeDistributed(K.layers.Dense(3, activation="softmax"))])
    model.compile(K.optimizers.RMSprop(0.01), "sparse_categorical_crossentropy", metrics=["accuracy"])
    _seed_weights(model, 58)
    hist = model.fit(ids, tags[..., None], batch_size=4, epochs=3, verbose=0, shuffle=False)
    out.update({f"tagger_{k}": v for k, v in _history(hist).items()})
    out["tagger_predict"] = model.predict(ids[:3])
    K = _fresh(tf)
    model = K.Sequential([K.layers.Embedding(9, 4, mask_zero=True, input_length=6),
                          K.layers.GRU(3, return_sequences=True), K.layers.Dense(2)])
    model.compile(K.optimizers.SGD(0.1), K.losses.SparseCategoricalCrossentropy(from_logits=True))
    _seed_weights(model, 59)
    hist = model.fit(ids, tags[..., None] % 2, batch_size=4, epochs=2, verbose=0, shuffle=False,
                     sample_weight=np.linspace(0.5, 1.5, len(ids)))
    out.update({f"loss_object_{k}": v for k, v in _history(hist).items()})
    return out


CASES = {name[len("case_"):]: fn for name, fn in sorted(globals().items()) if name.startswith("case_")}
