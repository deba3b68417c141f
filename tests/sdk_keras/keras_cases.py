"""Keras cases shared by the TensorFlow fixture generator and the edgelite tests.

Each case takes the `tf` module (tensorflow.compat.v1 with v2 behaviour disabled, or edgelite), builds a small
Keras program in a fresh graph with weights drawn from a seeded numpy RNG, and returns a dict of results
(numpy arrays, numbers, strings) that both implementations must agree on.
"""
from __future__ import annotations

import numpy as np


def _fresh(tf):
    tf.keras.backend.clear_session()
    tf.reset_default_graph()
    return tf.keras


def _seed_weights(model, seed: int) -> None:
    """Kernels and embeddings from a seeded normal; 1-D weights (biases, BN statistics) stay as initialised."""
    rng = np.random.RandomState(seed)
    values = []
    for w in model.get_weights():
        if w.ndim >= 2:
            fan = int(np.prod(w.shape[:-1]))
            values.append(rng.normal(0.0, 1.0 / np.sqrt(fan), w.shape).astype(w.dtype))
        else:
            values.append(w)
    model.set_weights(values)


def _digits(n: int, classes: int = 4, dim: int = 12, seed: int = 0):
    rng = np.random.RandomState(seed)
    centers = rng.normal(0, 1.5, (classes, dim))
    labels = rng.randint(0, classes, n)
    x = (centers[labels] + rng.normal(0, 1.0, (n, dim))).astype(np.float32)
    return x, labels


def _history(h) -> dict:
    return {k: np.asarray(v, np.float64) for k, v in sorted(h.history.items())}


def _mlp(K, optimizer, loss, out_units, out_activation, metrics=("accuracy",)):
    model = K.Sequential([
        K.layers.Dense(16, activation="relu", input_shape=(12,)),
        K.layers.Dense(out_units, activation=out_activation),
    ])
    model.compile(optimizer=optimizer, loss=loss, metrics=list(metrics))
    _seed_weights(model, 1)
    return model


def _train_case(tf, optimizer_fn, loss, target_fn, out_units, out_activation, epochs=3, shuffle=False,
                metrics=("accuracy",)):
    K = _fresh(tf)
    x, labels = _digits(96)
    y = target_fn(K, labels)
    model = _mlp(K, optimizer_fn(K), loss, out_units, out_activation, metrics)
    if shuffle:
        np.random.seed(3)
    hist = model.fit(x, y, batch_size=20, epochs=epochs, verbose=0, shuffle=shuffle)
    ev = model.evaluate(x[:50], y[:50], verbose=0, batch_size=16)
    out = dict(_history(hist), evaluate=np.asarray(ev, np.float64), predict=model.predict(x[:7]),
               metrics_names=list(model.metrics_names))
    for i, w in enumerate(model.get_weights()):
        out[f"weight_{i}"] = w
    return out


def _one_hot(K, labels):
    return K.utils.to_categorical(labels, 4)


def case_sgd_categorical(tf):
    """SGD (lr 0.01 default) + categorical cross-entropy on a softmax output."""
    return _train_case(tf, lambda K: K.optimizers.SGD(), "categorical_crossentropy", _one_hot, 4, "softmax")


def case_sgd_momentum_shuffled(tf):
    """SGD with Nesterov momentum, fit shuffling with numpy's global RNG."""
    return _train_case(tf, lambda K: K.optimizers.SGD(0.05, momentum=0.9, nesterov=True),
                       "categorical_crossentropy", _one_hot, 4, "softmax", shuffle=True)


def case_adam_sparse(tf):
    """Adam (Keras defaults, epsilon 1e-7) + sparse categorical cross-entropy on integer labels."""
    return _train_case(tf, lambda K: "adam", "sparse_categorical_crossentropy", lambda K, lab: lab, 4, "softmax")


def case_rmsprop_binary(tf):
    """RMSprop (zero-initialised mean square) + binary cross-entropy on a sigmoid output."""
    return _train_case(tf, lambda K: K.optimizers.RMSprop(learning_rate=0.01), "binary_crossentropy",
                       lambda K, lab: (lab % 2).astype(np.float32), 1, "sigmoid")


def case_mse_linear(tf):
    """MSE regression with mae/mse metrics, SGD with time decay."""
    return _train_case(tf, lambda K: K.optimizers.SGD(0.05, decay=0.1), "mse",
                       lambda K, lab: np.stack([lab, lab * 0.5], 1).astype(np.float32), 2, None,
                       metrics=("mae", "mse"))


def case_probability_crossentropy(tf):
    """Categorical cross-entropy on a non-softmax output (clipped probabilities) and on a Loss object."""
    K = _fresh(tf)
    y_true = np.array([[0, 1, 0], [1, 0, 0], [0, 0, 1]], np.float32)
    probs = np.array([[0.2, 0.7, 0.1], [0.9, 0.05, 0.05], [0.3, 0.3, 0.0]], np.float32)
    t = tf.constant(y_true)
    p = tf.constant(probs)
    with tf.Session() as sess:
        return {
            "cce": sess.run(K.losses.categorical_crossentropy(t, p)),
            "bce": sess.run(K.losses.binary_crossentropy(t, p)),
            "scce": sess.run(K.losses.sparse_categorical_crossentropy(tf.constant([1, 0, 2]), p)),
            "mse": sess.run(K.losses.mean_squared_error(t, p)),
            "cce_object": sess.run(K.losses.CategoricalCrossentropy()(t, p)),
            "cce_logits": sess.run(K.losses.CategoricalCrossentropy(from_logits=True)(t, p)),
            "huber": sess.run(K.losses.Huber(delta=0.3)(t, p)),
            "log_cosh": sess.run(K.losses.log_cosh(t, p * 3.0)),
            "categorical_hinge": sess.run(K.losses.categorical_hinge(t, p)),
            "cosine": sess.run(K.losses.cosine_similarity(t, p + 0.1)),
            "cosine_object": sess.run(K.losses.CosineSimilarity()(t, p)),
            "mish": sess.run(K.activations.mish(p * 4.0 - 2.0)),
            "acc": sess.run(K.metrics.categorical_accuracy(t, p)),
            "sparse_acc": sess.run(K.metrics.sparse_categorical_accuracy(tf.constant([[1.0], [0.0], [1.0]]), p)),
            "binary_acc": sess.run(K.metrics.binary_accuracy(t, p)),
        }


def case_cnn_functional(tf):
    """Functional CNN: Conv2D, MaxPooling2D, AveragePooling2D, Flatten, Dense; Adam, 2 epochs."""
    K = _fresh(tf)
    rng = np.random.RandomState(5)
    x = rng.uniform(0, 1, (40, 8, 8, 1)).astype(np.float32)
    labels = (x[:, :4].mean((1, 2, 3)) > x[:, 4:].mean((1, 2, 3))).astype(np.int64)
    inp = K.layers.Input(shape=(8, 8, 1))
    h = K.layers.Conv2D(4, 3, activation="relu", padding="same")(inp)
    h = K.layers.MaxPooling2D()(h)
    h = K.layers.Conv2D(6, (3, 3), activation="relu")(h)
    h = K.layers.AveragePooling2D(pool_size=2, padding="same")(h)
    h = K.layers.Flatten()(h)
    out = K.layers.Dense(2, activation="softmax")(h)
    model = K.Model(inputs=inp, outputs=out)
    model.compile(K.optimizers.Adam(0.01), "sparse_categorical_crossentropy", metrics=["accuracy"])
    _seed_weights(model, 2)
    hist = model.fit(x, labels, batch_size=8, epochs=2, verbose=0, shuffle=False)
    return dict(_history(hist), predict=model.predict(x[:5]),
                evaluate=np.asarray(model.evaluate(x, labels, verbose=0), np.float64),
                names=[w.name for w in model.weights], layer_names=[la.name for la in model.layers])


def case_batchnorm_fit(tf):
    """BatchNormalization trained by fit (moving statistics updated), then predict with the moving statistics."""
    K = _fresh(tf)
    x, labels = _digits(64, seed=4)
    model = K.Sequential([K.layers.Dense(8, input_shape=(12,)), K.layers.BatchNormalization(),
                          K.layers.Activation("relu"), K.layers.Dense(4, activation="softmax")])
    model.compile("sgd", "sparse_categorical_crossentropy", metrics=["acc"])
    _seed_weights(model, 6)
    hist = model.fit(x, labels, batch_size=16, epochs=2, verbose=0, shuffle=False)
    return dict(_history(hist), predict=model.predict(x[:6]), weights=np.concatenate(
        [w.ravel() for w in model.get_weights()]), names=[w.name for w in model.weights])


def case_merge_embedding(tf):
    """Two-input functional model: Embedding + Flatten, Dense, Concatenate and Add; RMSprop with momentum."""
    K = _fresh(tf)
    rng = np.random.RandomState(7)
    ids = rng.randint(0, 10, (30, 3))
    feats = rng.normal(0, 1, (30, 5)).astype(np.float32)
    target = rng.normal(0, 1, (30, 1)).astype(np.float32)
    a = K.layers.Input(shape=(3,), dtype="int32", name="ids")
    b = K.layers.Input(shape=(5,), name="feats")
    e = K.layers.Flatten()(K.layers.Embedding(10, 2)(a))
    c = K.layers.concatenate([e, b])
    d1 = K.layers.Dense(4, activation="tanh")(c)
    d2 = K.layers.Dense(4, activation="sigmoid")(c)
    s = K.layers.Add()([d1, d2])
    out = K.layers.Dense(1)(s)
    model = K.Model([a, b], out)
    model.compile(K.optimizers.RMSprop(0.01, momentum=0.5), "mean_absolute_error")
    _seed_weights(model, 8)
    hist = model.fit([ids, feats], target, batch_size=10, epochs=2, verbose=0, shuffle=False)
    return dict(_history(hist), predict=model.predict([ids[:4], feats[:4]]),
                evaluate=np.float64(model.evaluate([ids, feats], target, verbose=0)),
                names=[w.name for w in model.weights], layer_names=[la.name for la in model.layers])


def case_layers_in_graph(tf):
    """tf.keras.layers on placeholders inside TF1 graph code trained by a tf.train optimizer in a Session."""
    K = _fresh(tf)
    x = tf.placeholder(tf.float32, [None, 12])
    y = tf.placeholder(tf.int64, [None])
    dense1 = K.layers.Dense(10, activation="relu", kernel_initializer=K.initializers.Constant(0.05))
    h = dense1(x)
    logits = K.layers.Dense(4, kernel_regularizer=K.regularizers.l2(0.01),
                            kernel_initializer=K.initializers.Constant(-0.02), bias_initializer="ones")(h)
    reg = tf.add_n(K.layers.Dense(1).losses + [tf.constant(0.0)])
    loss = tf.reduce_mean(tf.nn.sparse_softmax_cross_entropy_with_logits(labels=y, logits=logits))
    train = tf.train.GradientDescentOptimizer(0.1).minimize(loss)
    data, labels = _digits(40, seed=9)
    losses = []
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        for _ in range(5):
            losses.append(sess.run([train, loss], {x: data, y: labels})[1])
        kernel = sess.run(dense1.kernel)
        reg_value = sess.run(reg)
    return {"losses": np.asarray(losses, np.float64), "kernel": kernel, "reg": np.float64(reg_value),
            "names": [v.name for v in tf.global_variables()], "output": logits.name}


def case_names_and_shapes(tf):
    """Layer and variable names, output shapes and parameter counts of assorted layers."""
    K = _fresh(tf)
    x = tf.placeholder(tf.float32, [None, 8, 8, 3], name="images")
    outs = [K.layers.Conv2D(4, 3, strides=2)(x), K.layers.BatchNormalization()(x), K.layers.MaxPooling2D(3)(x),
            K.layers.GlobalAveragePooling2D()(x), K.layers.GlobalMaxPooling2D()(x), K.layers.Flatten()(x),
            K.layers.Reshape((-1, 3))(x), K.layers.Reshape((4, 48))(x), K.layers.Dense(5)(x),
            K.layers.Activation("tanh")(x), K.layers.Concatenate(axis=1)([x, x]), K.layers.Conv2D(2, 1)(x)]
    seq = K.Sequential([K.layers.Dense(3, input_dim=4), K.layers.Dropout(0.2), K.layers.Dense(2)], name="stack")
    return {"shapes": [o.shape.as_list() for o in outs], "names": [v.name for v in tf.global_variables()],
            "seq_layers": [la.name for la in seq.layers], "seq_input": seq.input.name,
            "seq_output_shape": list(seq.output_shape), "seq_params": seq.count_params()}


def case_summary(tf):
    """summary() text of a Sequential model and of a functional chain."""
    K = _fresh(tf)
    lines = []
    seq = K.Sequential([K.layers.Conv2D(8, 3, input_shape=(10, 10, 1)), K.layers.BatchNormalization(),
                        K.layers.Flatten(), K.layers.Dense(10, activation="softmax")])
    seq.summary(print_fn=lines.append)
    inp = K.layers.Input((6,), name="features")
    out = K.layers.Dense(2, name="head")(K.layers.Dense(4)(inp))
    K.Model(inp, out, name="chain").summary(print_fn=lines.append)
    return {"summary": "\n".join(lines)}


def case_errors(tf):
    """Error types and messages of common mistakes."""
    K = _fresh(tf)
    found = {}

    def record(key, fn):
        try:
            fn()
            found[key] = "no error"
        except Exception as exc:  # noqa: BLE001 - the type and text are what is recorded
            found[key] = f"{type(exc).__name__}: {exc}"

    model = K.Sequential([K.layers.Dense(3, activation="softmax", input_shape=(4,))])
    record("fit_uncompiled", lambda: model.fit(np.zeros((5, 4)), np.zeros((5, 3)), verbose=0))
    model.compile("sgd", "categorical_crossentropy")
    record("input_shape", lambda: model.fit(np.zeros((5, 3)), np.zeros((5, 3)), verbose=0))
    record("sample_count", lambda: model.fit(np.zeros((5, 4)), np.zeros((6, 3)), verbose=0))
    record("target_shape", lambda: model.fit(np.zeros((5, 4)), np.zeros((5, 2)), verbose=0))
    record("unbuilt_weights", lambda: K.Sequential([K.layers.Dense(3)]).get_weights())
    record("unbuilt_summary", lambda: K.Sequential([K.layers.Dense(3)]).summary())
    record("dense_unknown_dim", lambda: K.layers.Dense(3)(tf.placeholder(tf.float32, [None, None])))
    record("add_shapes", lambda: K.layers.Add()([tf.placeholder(tf.float32, [None, 4]),
                                                 tf.placeholder(tf.float32, [None, 3])]))
    record("set_weights_count", lambda: model.set_weights([np.zeros((4, 3))]))
    record("unknown_activation", lambda: K.layers.Dense(3, activation="relux"))
    record("unknown_loss", lambda: model.compile("sgd", "cross_entropy"))
    record("unknown_optimizer", lambda: model.compile("sgdx", "mse"))
    record("add_not_layer", lambda: K.Sequential().add(3))
    return found


def _h5_layout(path) -> list:
    """Every group/dataset path of an HDF5 file with its attribute names and weight_names (the Keras layout)."""
    import h5py
    rows = []
    with h5py.File(path, "r") as f:
        rows.append(["/", sorted(f.attrs)])

        def visit(name, obj):
            names = [n.decode() if isinstance(n, bytes) else str(n) for n in obj.attrs.get("weight_names", [])]
            rows.append([name, sorted(obj.attrs), names, list(getattr(obj, "shape", []) or [])])
        f.visititems(visit)
    return rows


def case_h5_save_load(tf):
    """model.save / keras.models.load_model and save_weights / load_weights round trips, and the file layout."""
    import os
    import tempfile
    K = _fresh(tf)
    x, labels = _digits(32, seed=11)
    model = K.Sequential([K.layers.Dense(6, activation="relu", input_shape=(12,)), K.layers.BatchNormalization(),
                          K.layers.Dropout(0.0), K.layers.Dense(4, activation="softmax")])
    model.compile(K.optimizers.SGD(0.1), "sparse_categorical_crossentropy", metrics=["accuracy"])
    _seed_weights(model, 12)
    model.fit(x, labels, batch_size=8, epochs=1, verbose=0, shuffle=False)
    before = model.predict(x[:5])
    with tempfile.TemporaryDirectory() as tmp:
        full, weights = os.path.join(tmp, "model.h5"), os.path.join(tmp, "weights.h5")
        model.save(full)
        model.save_weights(weights)
        layout = {"model": _h5_layout(full), "weights": _h5_layout(weights)}
        K = _fresh(tf)
        loaded = K.models.load_model(full)
        after_load = loaded.predict(x[:5])
        loaded_eval = loaded.evaluate(x, labels, verbose=0)
        fresh = K.Sequential([K.layers.Dense(6, activation="relu", input_shape=(12,)),
                              K.layers.BatchNormalization(), K.layers.Dropout(0.0),
                              K.layers.Dense(4, activation="softmax")])
        fresh.load_weights(weights)
        after_weights = fresh.predict(x[:5])
    return {"before": before, "after_load": after_load, "after_weights": after_weights,
            "loaded_eval": np.asarray(loaded_eval, np.float64), "loaded_metrics": list(loaded.metrics_names),
            "loaded_layers": [la.name for la in loaded.layers], "layout": layout}




def saved_sequential(tf):
    """A compiled Sequential CNN (Conv2D, BatchNormalization, pooling, Dense) with seeded weights and its input."""
    K = _fresh(tf)
    model = K.Sequential([K.layers.Conv2D(3, 3, activation="relu", input_shape=(6, 6, 2)),
                          K.layers.BatchNormalization(), K.layers.MaxPooling2D(), K.layers.Flatten(),
                          K.layers.Dropout(0.5), K.layers.Dense(3, activation="softmax")])
    model.compile(K.optimizers.Adam(0.002), "categorical_crossentropy", metrics=["accuracy"])
    _seed_weights(model, 21)
    x = np.random.RandomState(22).uniform(0, 1, (4, 6, 6, 2)).astype(np.float32)
    return model, x


def saved_functional(tf):
    """A two-input functional model (Embedding, Reshape, Concatenate, Add, GlobalAveragePooling2D) and its input."""
    K = _fresh(tf)
    ids = K.layers.Input((4,), dtype="int32", name="ids")
    image = K.layers.Input((4, 4, 1), name="image")
    e = K.layers.Reshape((4, 2, 1))(K.layers.Embedding(6, 2)(ids))
    p = K.layers.GlobalAveragePooling2D()(K.layers.Concatenate(axis=2)([e, K.layers.AveragePooling2D((1, 2))(image)]))
    out = K.layers.Add()([K.layers.Dense(2)(p), K.layers.Dense(2, activation="tanh")(p)])
    model = K.Model([ids, image], out, name="two_inputs")
    _seed_weights(model, 23)
    rng = np.random.RandomState(24)
    return model, [rng.randint(0, 6, (3, 4)).astype(np.int32), rng.uniform(0, 1, (3, 4, 4, 1)).astype(np.float32)]


def saved_text(tf):
    """An Embedding / Bidirectional LSTM / TimeDistributed Dense / Bidirectional GRU model and its input."""
    K = _fresh(tf)
    model = K.Sequential([K.layers.Embedding(12, 3, input_length=6),
                          K.layers.Bidirectional(K.layers.LSTM(4, return_sequences=True)),
                          K.layers.TimeDistributed(K.layers.Dense(3, activation="relu")),
                          K.layers.Bidirectional(K.layers.GRU(2), merge_mode="sum"),
                          K.layers.Dense(1, activation="sigmoid")])
    _seed_weights(model, 25)
    return model, np.arange(12).reshape(2, 6) % 11


SAVED_MODELS = {"sequential": saved_sequential, "functional": saved_functional, "text": saved_text}


def case_callbacks(tf):
    """EarlyStopping on the training loss, ModelCheckpoint keeping only improvements, LearningRateScheduler."""
    import os
    import tempfile
    K = _fresh(tf)
    x, labels = _digits(64, seed=13)
    model = _mlp(K, K.optimizers.SGD(0.2), "sparse_categorical_crossentropy", 4, "softmax")
    seen = []
    with tempfile.TemporaryDirectory() as tmp:
        callbacks = [
            K.callbacks.EarlyStopping(monitor="loss", min_delta=0.02, patience=1),
            K.callbacks.ModelCheckpoint(os.path.join(tmp, "w.{epoch:02d}.h5"), monitor="val_acc",
                                        save_best_only=True, save_weights_only=True),
            K.callbacks.LearningRateScheduler(lambda epoch: 0.2 / (1 + epoch)),
            K.callbacks.LambdaCallback(on_epoch_end=lambda epoch, logs: seen.append(epoch)),
        ]
        hist = model.fit(x, labels, batch_size=16, epochs=30, verbose=0, shuffle=False, validation_split=0.25,
                         callbacks=callbacks)
        files = sorted(os.listdir(tmp))
    return dict(_history(hist), epochs=hist.epoch, files=files, seen=seen,
                stopped=callbacks[0].stopped_epoch)


def case_recurrent_fit(tf):
    """Embedding -> LSTM (sequences) -> GRU, and a SimpleRNN read backwards, trained with Adam for 2 epochs."""
    K = _fresh(tf)
    rng = np.random.RandomState(31)
    ids = rng.randint(1, 9, (24, 6))
    target = (ids[:, :3].sum(1) > ids[:, 3:].sum(1)).astype(np.float32)
    inp = K.layers.Input((6,), dtype="int32")
    emb = K.layers.Embedding(9, 3)(inp)
    seq = K.layers.LSTM(5, return_sequences=True)(emb)
    last = K.layers.GRU(4)(seq)
    back = K.layers.SimpleRNN(3, go_backwards=True)(emb)
    out = K.layers.Dense(1, activation="sigmoid")(K.layers.concatenate([last, back]))
    model = K.Model(inp, out)
    model.compile(K.optimizers.Adam(0.01), "binary_crossentropy", metrics=["accuracy"])
    _seed_weights(model, 32)
    hist = model.fit(ids, target, batch_size=8, epochs=2, verbose=0, shuffle=False)
    return dict(_history(hist), predict=model.predict(ids[:4]), names=[w.name for w in model.weights],
                shapes=[list(t.shape.as_list()) for t in (emb, seq, last, back)])


def case_recurrent_states(tf):
    """LSTM with return_state on a sequence of unknown length, fed in a Session, with its input gradient."""
    K = _fresh(tf)
    x = tf.placeholder(tf.float32, [None, None, 2])
    layer = K.layers.LSTM(3, return_sequences=True, return_state=True,
                          kernel_initializer=K.initializers.Constant(0.3),
                          recurrent_initializer=K.initializers.Constant(-0.2), bias_initializer="ones")
    seq, h, c = layer(x)
    grad = tf.gradients(tf.reduce_sum(seq) + tf.reduce_sum(c), x)[0]
    data = np.random.RandomState(33).normal(0, 1, (2, 4, 2)).astype(np.float32)
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        values = sess.run([seq, h, c, grad], {x: data})
    return {"seq": values[0], "h": values[1], "c": values[2], "grad": values[3],
            "names": [v.name for v in layer.weights]}


def case_more_layers(tf):
    """Conv1D (causal), pooling 1-D, Lambda, ReLU/LeakyReLU/ELU/Softmax, ZeroPadding2D, Cropping2D, UpSampling2D,
    Permute, RepeatVector: outputs and input gradients for fixed weights."""
    K = _fresh(tf)
    rng = np.random.RandomState(41)
    seq = tf.placeholder(tf.float32, [None, 6, 2])
    img = tf.placeholder(tf.float32, [None, 4, 4, 2])
    const = K.initializers.Constant(0.1)
    outs = {
        "conv1d": K.layers.Conv1D(3, 2, padding="causal", kernel_initializer=const)(seq),
        "conv1d_valid": K.layers.Conv1D(2, 3, strides=2, kernel_initializer=const, bias_initializer="ones")(seq),
        "maxpool1d": K.layers.MaxPooling1D()(seq),
        "avgpool1d": K.layers.AveragePooling1D(3, strides=1, padding="same")(seq),
        "gap1d": K.layers.GlobalAveragePooling1D()(seq),
        "gmp1d": K.layers.GlobalMaxPooling1D()(seq),
        "lambda": K.layers.Lambda(lambda t, k: t * k + 1.0, arguments={"k": 2.0})(seq),
        "relu": K.layers.ReLU(max_value=0.5, negative_slope=0.1)(seq),
        "leaky": K.layers.LeakyReLU()(seq),
        "elu": K.layers.ELU(alpha=0.5)(seq),
        "softmax": K.layers.Softmax(axis=1)(seq),
        "pad": K.layers.ZeroPadding2D(((1, 0), (2, 1)))(img),
        "crop": K.layers.Cropping2D(((1, 0), (0, 2)))(img),
        "up": K.layers.UpSampling2D((2, 3))(img),
        "up_bilinear": K.layers.UpSampling2D(interpolation="bilinear")(img),
        "permute": K.layers.Permute((2, 1))(seq),
        "repeat": K.layers.RepeatVector(3)(seq[:, 0]),
    }
    total = tf.add_n([tf.reduce_sum(v * (i + 1.0)) for i, v in enumerate(outs.values())])
    grads = tf.gradients(total, [seq, img])
    feed = {seq: rng.normal(0, 1, (2, 6, 2)).astype(np.float32), img: rng.normal(0, 1, (2, 4, 4, 2)).astype(np.float32)}
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        values = sess.run([outs, grads], feed)
    result = dict(values[0])
    result.update(grad_seq=values[1][0], grad_img=values[1][1])
    return result


def case_backend_functions(tf):
    """keras.backend tensor functions on fixed values, evaluated with K.eval in the Keras session."""
    K = _fresh(tf)
    B = K.backend
    a = np.array([[1.0, -2.0, 3.0], [0.5, 4.0, -1.0]], np.float32)
    x = B.variable(a)
    y = B.constant(np.arange(6, dtype=np.float32).reshape(3, 2))
    ops = {
        "mean": B.mean(x, axis=1), "sum": B.sum(x, keepdims=True), "max": B.max(x, 0), "min": B.min(x),
        "std": B.std(x, 1), "var": B.var(x), "dot": B.dot(x, y), "sqrt": B.sqrt(x), "clip": B.clip(x, 0.0, 2.0),
        "square": B.square(x), "exp": B.exp(x), "abs": B.abs(x), "argmax": B.argmax(x),
        "concat": B.concatenate([x, x]), "batch_flatten": B.batch_flatten(B.expand_dims(x)),
        "permute": B.permute_dimensions(x, (1, 0)), "softmax": B.softmax(x), "relu": B.relu(x, alpha=0.1),
        "l2": B.l2_normalize(x, axis=1), "mean_bool": B.mean(B.greater(x, 0.0)),
        "switch": B.switch(B.greater(x, 0.0), x, B.zeros_like(x)), "one_hot": B.one_hot(B.argmax(x), 3),
        "cce": B.categorical_crossentropy(B.softmax(x), B.softmax(x * 2.0)),
        "bce": B.binary_crossentropy(B.sigmoid(x), B.sigmoid(x * 0.5)), "arange": B.arange(2, 9, 3),
        "cumsum": B.cumsum(x, axis=1), "tile": B.tile(x, (2, 1)), "stack": B.stack([x, x], axis=1),
    }
    out = {k: B.eval(v) for k, v in ops.items()}
    out["int_shape"] = np.asarray(B.int_shape(B.placeholder(shape=(None, 3, 4))), dtype=object).tolist()
    out["ndim"] = B.ndim(x)
    out["dtype"] = B.dtype(x)
    out["count"] = B.count_params(x)
    return out


def case_weights_validation_nested(tf):
    """class_weight and sample_weight in fit, validation_data, a Sequential nested in a functional model,
    train_on_batch / test_on_batch, and the learning phase fed by hand to a Dropout in graph code."""
    K = _fresh(tf)
    x, labels = _digits(48, seed=51)
    inner = K.Sequential([K.layers.Dense(8, activation="relu", input_shape=(12,)), K.layers.Dense(4)],
                         name="inner")
    inp = K.layers.Input((12,))
    out = K.layers.Activation("softmax")(inner(inp))
    model = K.Model(inp, out)
    model.compile(K.optimizers.SGD(0.1, momentum=0.5), "sparse_categorical_crossentropy", metrics=["accuracy"])
    _seed_weights(model, 52)
    h1 = model.fit(x[:32], labels[:32], batch_size=8, epochs=2, verbose=0, shuffle=False,
                   class_weight={0: 1.0, 1: 2.0, 2: 0.5, 3: 1.5}, validation_data=(x[32:], labels[32:]))
    weights = np.linspace(0.5, 1.5, 32).astype(np.float32)
    h2 = model.fit(x[:32], labels[:32], batch_size=16, epochs=1, verbose=0, shuffle=False, sample_weight=weights)
    on_batch = model.train_on_batch(x[:10], labels[:10])
    test_batch = model.test_on_batch(x[10:20], labels[10:20])
    drop_in = tf.placeholder(tf.float32, [None, 5])
    dropped = K.layers.Dropout(0.4)(drop_in)
    ones = np.ones((3, 5), np.float32)
    sess = K.backend.get_session()
    test_phase = sess.run(dropped, {drop_in: ones, K.backend.learning_phase(): False})
    train_phase = sess.run(dropped, {drop_in: np.ones((200, 5), np.float32), K.backend.learning_phase(): True})
    return dict({"h1_" + k: v for k, v in _history(h1).items()}, **{"h2_" + k: v for k, v in _history(h2).items()},
                on_batch=np.asarray(on_batch, np.float64), test_batch=np.asarray(test_batch, np.float64),
                predict=model.predict(x[:3]), layers=[la.name for la in model.layers],
                names=[w.name for w in model.weights], test_phase=test_phase,
                train_phase_values=sorted(set(np.round(train_phase.ravel(), 4).tolist())))


def case_wrappers_text(tf):
    """pad_sequences, then Embedding, Bidirectional LSTM (sequences, concat), TimeDistributed Dense and a
    Bidirectional GRU (sum) trained 2 epochs; names, predictions, losses."""
    K = _fresh(tf)
    rng = np.random.RandomState(61)
    raw = [list(rng.randint(1, 12, rng.randint(2, 9))) for _ in range(20)]
    padded = K.preprocessing.sequence.pad_sequences(raw, maxlen=6)
    post = K.utils.pad_sequences(raw[:4], padding="post", truncating="post", value=-1)
    target = (padded.sum(1) % 2).astype(np.float32)
    model = K.Sequential([K.layers.Embedding(12, 3, input_length=6),
                          K.layers.Bidirectional(K.layers.LSTM(4, return_sequences=True)),
                          K.layers.TimeDistributed(K.layers.Dense(3, activation="relu")),
                          K.layers.Bidirectional(K.layers.GRU(2), merge_mode="sum"),
                          K.layers.Dense(1, activation="sigmoid")])
    model.compile("rmsprop", "binary_crossentropy", metrics=["accuracy"])
    _seed_weights(model, 62)
    hist = model.fit(padded, target, batch_size=5, epochs=2, verbose=0, shuffle=False)
    return dict(_history(hist), padded=padded, post=post, predict=model.predict(padded[:4]),
                names=[w.name for w in model.weights], layers=[la.name for la in model.layers])


def case_custom_layer_and_convs(tf):
    """A user-defined Keras layer (build/add_weight/call), Conv2DTranspose and SeparableConv2D in a functional
    model trained one epoch; names, losses, predictions."""
    K = _fresh(tf)

    class Scale(K.layers.Layer):
        def __init__(self, factor, **kwargs):
            super(Scale, self).__init__(**kwargs)
            self.factor = factor

        def build(self, input_shape):
            self.gain = self.add_weight(name="gain", shape=(int(input_shape[-1]),), initializer="ones",
                                        trainable=True)
            super(Scale, self).build(input_shape)

        def call(self, inputs):
            return inputs * self.gain * self.factor

    rng = np.random.RandomState(71)
    x = rng.uniform(0, 1, (12, 6, 6, 2)).astype(np.float32)
    y = rng.uniform(0, 1, (12, 12, 12, 1)).astype(np.float32)
    inp = K.layers.Input((6, 6, 2))
    h = K.layers.SeparableConv2D(4, 3, padding="same", depth_multiplier=2, activation="relu")(inp)
    h = Scale(0.5)(h)
    out = K.layers.Conv2DTranspose(1, 3, strides=2, padding="same")(h)
    model = K.Model(inp, out)
    model.compile(K.optimizers.SGD(0.05), "mse")
    _seed_weights(model, 72)
    hist = model.fit(x, y, batch_size=4, epochs=1, verbose=0, shuffle=False)
    return dict(_history(hist), predict=model.predict(x[:2]), names=[w.name for w in model.weights],
                shape=list(out.shape.as_list()))


def case_subclassed_model(tf):
    """A subclassed keras.Model (layers as attributes, call()) compiled and fitted on numpy data: names,
    output names, losses, predictions, summary, and the HDF5 refusal."""
    K = _fresh(tf)

    class TwoLayer(K.Model):
        def __init__(self):
            super(TwoLayer, self).__init__()
            self.hidden = K.layers.Dense(8, activation="relu")
            self.blocks = [K.layers.Dense(6, activation="tanh"), K.layers.Dense(4, activation="softmax")]

        def call(self, inputs):
            x = self.hidden(inputs)
            for block in self.blocks:
                x = block(x)
            return x

    x, labels = _digits(40, seed=81)
    model = TwoLayer()
    model.compile(K.optimizers.SGD(0.1), "sparse_categorical_crossentropy", metrics=["accuracy"])
    model.predict(x[:1])
    _seed_weights(model, 82)
    hist = model.fit(x, labels, batch_size=10, epochs=2, verbose=0, shuffle=False)
    lines = []
    model.summary(print_fn=lines.append)
    try:
        model.save("unused.h5")
        refusal = "saved"
    except Exception as exc:  # noqa: BLE001 - the type and text are what is recorded
        refusal = f"{type(exc).__name__}: {exc}"
    return dict(_history(hist), predict=model.predict(x[:3]), names=[w.name for w in model.weights],
                layers=[la.name for la in model.layers], output_names=list(model.output_names),
                summary="\n".join(lines), refusal=refusal)


def case_plateau_csv(tf):
    """ReduceLROnPlateau (patience 1, cooldown 1) on the validation loss and CSVLogger's file."""
    import csv
    import os
    import tempfile
    K = _fresh(tf)
    x, labels = _digits(48, seed=91)
    model = _mlp(K, K.optimizers.SGD(0.5), "sparse_categorical_crossentropy", 4, "softmax")
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "log.csv")
        hist = model.fit(x[:36], labels[:36], batch_size=12, epochs=8, verbose=0, shuffle=False,
                         validation_data=(x[36:], labels[36:]),
                         callbacks=[K.callbacks.ReduceLROnPlateau(factor=0.5, patience=1, cooldown=1, min_lr=0.1,
                                                                                min_delta=0.01),
                                    K.callbacks.CSVLogger(path)])
        with open(path) as f:
            rows = list(csv.reader(f))
    return dict(_history(hist), header=rows[0], table=np.asarray(rows[1:], np.float64))


CASES = {name[len("case_"):]: fn for name, fn in sorted(globals().items()) if name.startswith("case_")}
