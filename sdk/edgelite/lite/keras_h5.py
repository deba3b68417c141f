"""A Keras .h5 model file (architecture JSON + weights, as tf.keras `model.save("m.h5")` writes it) rebuilt as an
edgelite inference graph with the weights as constants, for TFLiteConverter.from_keras_model_file.

The file is read with h5py (the `keras` extra). Layers: InputLayer, Dense, Conv1D/Conv2D, DepthwiseConv2D,
SeparableConv2D, Max/AveragePooling1D/2D, GlobalAverage/GlobalMaxPooling1D/2D, BatchNormalization, Activation,
ReLU, LeakyReLU, Softmax, Dropout (and its spatial forms), Flatten, Reshape, Add, Subtract, Multiply, Average,
Maximum, Minimum, Concatenate, ZeroPadding1D/2D, LSTM (tanh/sigmoid, forward, stateless). Anything else is
reported in one ValueError.
"""
from __future__ import annotations

import json
from typing import Any, Callable, Dict, List, Optional, Tuple

import numpy as np

from edgelite.framework.graph import Graph

_LAYERS: Dict[str, Callable] = {}


def _layer(*names: str) -> Callable:
    def register(fn: Callable) -> Callable:
        for name in names:
            _LAYERS[name] = fn
        return fn
    return register


# ---- activations -----------------------------------------------------------------------------------------
def _activation(tf: Any, x: Any, name: Any) -> Any:
    if isinstance(name, dict):
        name = name.get("config", {}).get("name", name.get("class_name"))
    fns = {"linear": lambda v: v, None: lambda v: v, "relu": tf.nn.relu, "relu6": tf.nn.relu6,
           "sigmoid": tf.sigmoid, "tanh": tf.tanh, "softmax": tf.nn.softmax, "elu": tf.nn.elu, "selu": tf.nn.selu,
           "softplus": tf.nn.softplus, "swish": tf.nn.swish, "silu": tf.nn.swish}
    if name not in fns:
        raise ValueError(f"activation '{name}' is not supported")
    return fns[name](x)


# ---- layers: (tf, config, weights, inputs) -> output ----------------------------------------------------
def _bias_activation(tf: Any, cfg: dict, y: Any, weights: list, bias_index: int) -> Any:
    """The layer's bias (weights[bias_index], when use_bias) and activation applied to y."""
    if cfg.get("use_bias", True):
        y = tf.nn.bias_add(y, tf.constant(weights[bias_index]))
    return _activation(tf, y, cfg.get("activation"))


@_layer("Dense")
def _dense(tf: Any, cfg: dict, w: list, xs: list) -> Any:
    x = xs[0]
    if x.shape.ndims != 2:
        raise ValueError("Dense is supported on rank-2 inputs only")
    return _bias_activation(tf, cfg, tf.matmul(x, tf.constant(w[0])), w, 1)


def _padding(cfg: dict) -> str:
    padding = cfg.get("padding", "valid").upper()
    if padding not in ("VALID", "SAME"):
        raise ValueError(f"padding '{cfg.get('padding')}' is not supported")
    return padding


def _channels_last(cfg: dict) -> None:
    if cfg.get("data_format", "channels_last") != "channels_last":
        raise ValueError("only data_format='channels_last' is supported")


def _pair(value: Any) -> List[int]:
    return list(value) if isinstance(value, (list, tuple)) else [value, value]


@_layer("Conv2D", "Convolution2D")
def _conv2d(tf: Any, cfg: dict, w: list, xs: list) -> Any:
    _channels_last(cfg)
    if cfg.get("groups", 1) != 1:
        raise ValueError("grouped convolutions are not supported")
    s, d = _pair(cfg.get("strides", 1)), _pair(cfg.get("dilation_rate", 1))
    y = tf.nn.conv2d(xs[0], tf.constant(w[0]), [1, s[0], s[1], 1], _padding(cfg), dilations=[1, d[0], d[1], 1])
    return _bias_activation(tf, cfg, y, w, 1)


@_layer("Conv1D", "Convolution1D")
def _conv1d(tf: Any, cfg: dict, w: list, xs: list) -> Any:
    _channels_last(cfg)
    stride = cfg.get("strides", [1])
    dilation = cfg.get("dilation_rate", [1])
    stride = stride[0] if isinstance(stride, (list, tuple)) else stride
    dilation = dilation[0] if isinstance(dilation, (list, tuple)) else dilation
    if cfg.get("padding") == "causal":
        raise ValueError("causal padding is not supported")
    # As conv1d: a 2-D convolution over [N, 1, W, C]; the bias and an elementwise activation are applied before
    # the squeeze so the converter fuses them into the CONV_2D (as TensorFlow's converter does).
    kernel = tf.constant(w[0][None])
    y = tf.nn.conv2d(tf.expand_dims(xs[0], 1), kernel, [1, 1, stride, 1], _padding(cfg),
                     dilations=[1, 1, dilation, 1])
    if cfg.get("use_bias", True):
        y = tf.nn.bias_add(y, tf.constant(w[1]))
    activation = cfg.get("activation")
    if activation != "softmax":
        return tf.squeeze(_activation(tf, y, activation), [1])
    return _activation(tf, tf.squeeze(y, [1]), activation)


@_layer("DepthwiseConv2D")
def _depthwise(tf: Any, cfg: dict, w: list, xs: list) -> Any:
    _channels_last(cfg)
    s, d = _pair(cfg.get("strides", 1)), _pair(cfg.get("dilation_rate", 1))
    y = tf.nn.depthwise_conv2d(xs[0], tf.constant(w[0]), [1, s[0], s[1], 1], _padding(cfg), dilations=d)
    return _bias_activation(tf, cfg, y, w, 1)


@_layer("SeparableConv2D", "SeparableConvolution2D")
def _separable(tf: Any, cfg: dict, w: list, xs: list) -> Any:
    _channels_last(cfg)
    s, d = _pair(cfg.get("strides", 1)), _pair(cfg.get("dilation_rate", 1))
    y = tf.nn.separable_conv2d(xs[0], tf.constant(w[0]), tf.constant(w[1]), [1, s[0], s[1], 1], _padding(cfg),
                               dilations=d)
    return _bias_activation(tf, cfg, y, w, 2)


def _pool2d(tf: Any, cfg: dict, x: Any, kind: str) -> Any:
    _channels_last(cfg)
    size = _pair(cfg.get("pool_size", 2))
    strides = _pair(cfg.get("strides") or size)
    fn = tf.nn.max_pool if kind == "max" else tf.nn.avg_pool
    return fn(x, [1, size[0], size[1], 1], [1, strides[0], strides[1], 1], _padding(cfg))


def _pool1d(tf: Any, cfg: dict, x: Any, kind: str) -> Any:
    size = cfg.get("pool_size", 2)
    size = size[0] if isinstance(size, (list, tuple)) else size
    strides = cfg.get("strides") or size
    strides = strides[0] if isinstance(strides, (list, tuple)) else strides
    fn = tf.nn.max_pool if kind == "max" else tf.nn.avg_pool
    y = fn(tf.expand_dims(x, 1), [1, 1, size, 1], [1, 1, strides, 1], _padding(cfg))
    return tf.squeeze(y, [1])


def _pool_layer(pool: Callable, kind: str) -> Callable:
    return lambda tf, cfg, w, xs: pool(tf, cfg, xs[0], kind)


for _names, _pool, _kind in ((("MaxPooling2D", "MaxPool2D"), _pool2d, "max"),
                             (("AveragePooling2D", "AvgPool2D"), _pool2d, "avg"),
                             (("MaxPooling1D", "MaxPool1D"), _pool1d, "max"),
                             (("AveragePooling1D", "AvgPool1D"), _pool1d, "avg")):
    _layer(*_names)(_pool_layer(_pool, _kind))


@_layer("GlobalAveragePooling1D", "GlobalAveragePooling2D", "GlobalAvgPool1D", "GlobalAvgPool2D")
def _global_avg(tf: Any, cfg: dict, w: list, xs: list) -> Any:
    axes = list(range(1, xs[0].shape.ndims - 1))
    return tf.reduce_mean(xs[0], axes, keepdims=bool(cfg.get("keepdims", False)))


@_layer("GlobalMaxPooling1D", "GlobalMaxPooling2D", "GlobalMaxPool1D", "GlobalMaxPool2D")
def _global_max(tf: Any, cfg: dict, w: list, xs: list) -> Any:
    axes = list(range(1, xs[0].shape.ndims - 1))
    return tf.reduce_max(xs[0], axes, keepdims=bool(cfg.get("keepdims", False)))


@_layer("BatchNormalization")
def _batch_norm(tf: Any, cfg: dict, w: list, xs: list) -> Any:
    axis = cfg.get("axis", -1)
    axis = axis[0] if isinstance(axis, (list, tuple)) else axis
    if axis not in (-1, xs[0].shape.ndims - 1):
        raise ValueError("BatchNormalization is supported over the last axis only")
    weights = list(w)
    gamma = weights.pop(0) if cfg.get("scale", True) else None
    beta = weights.pop(0) if cfg.get("center", True) else None
    mean, variance = weights
    scale = (1.0 / np.sqrt(variance + cfg.get("epsilon", 1e-3))).astype(np.float32)
    if gamma is not None:
        scale = scale * gamma
    offset = -mean * scale + (beta if beta is not None else 0.0)
    return tf.add(tf.multiply(xs[0], tf.constant(scale.astype(np.float32))), tf.constant(offset.astype(np.float32)))


@_layer("Activation")
def _activation_layer(tf: Any, cfg: dict, w: list, xs: list) -> Any:
    return _activation(tf, xs[0], cfg.get("activation"))


@_layer("ReLU")
def _relu_layer(tf: Any, cfg: dict, w: list, xs: list) -> Any:
    max_value, slope, threshold = cfg.get("max_value"), cfg.get("negative_slope", 0.0), cfg.get("threshold", 0.0)
    if slope or threshold:
        raise ValueError("ReLU with negative_slope or threshold is not supported")
    if max_value is None:
        return tf.nn.relu(xs[0])
    if float(max_value) == 6.0:
        return tf.nn.relu6(xs[0])
    return tf.minimum(tf.nn.relu(xs[0]), float(max_value))


@_layer("LeakyReLU")
def _leaky_relu(tf: Any, cfg: dict, w: list, xs: list) -> Any:
    return tf.nn.leaky_relu(xs[0], alpha=cfg.get("alpha", cfg.get("negative_slope", 0.3)))


@_layer("Softmax")
def _softmax_layer(tf: Any, cfg: dict, w: list, xs: list) -> Any:
    return tf.nn.softmax(xs[0], axis=cfg.get("axis", -1))


@_layer("Dropout", "SpatialDropout1D", "SpatialDropout2D", "GaussianDropout", "GaussianNoise", "AlphaDropout")
def _inference_identity(tf: Any, cfg: dict, w: list, xs: list) -> Any:
    return xs[0]


@_layer("Flatten")
def _flatten(tf: Any, cfg: dict, w: list, xs: list) -> Any:
    dims = xs[0].shape.as_list()[1:]
    if None in dims:
        raise ValueError("Flatten needs a static shape")
    return tf.reshape(xs[0], [-1, int(np.prod(dims))])


@_layer("Reshape")
def _reshape(tf: Any, cfg: dict, w: list, xs: list) -> Any:
    return tf.reshape(xs[0], [-1] + list(cfg["target_shape"]))


def _merge(fn_name: str) -> Callable:
    def merge(tf: Any, cfg: dict, w: list, xs: list) -> Any:
        fn = {"add": tf.add, "subtract": tf.subtract, "multiply": tf.multiply, "maximum": tf.maximum,
              "minimum": tf.minimum}.get(fn_name)
        if fn_name == "average":
            out = xs[0]
            for x in xs[1:]:
                out = tf.add(out, x)
            return tf.multiply(out, 1.0 / len(xs))
        out = xs[0]
        for x in xs[1:]:
            out = fn(out, x)
        return out
    return merge


for _name in ("Add", "Subtract", "Multiply", "Average", "Maximum", "Minimum"):
    _LAYERS[_name] = _merge(_name.lower())


# Keras keeps the LSTM gates as (input, forget, cell, output); TF's LSTMCell as (input, cell, forget, output).
_KERAS_TO_TF_GATES = (0, 2, 1, 3)


@_layer("LSTM")
def _lstm(tf: Any, cfg: dict, w: list, xs: list) -> Tuple[Any, list]:
    """A Keras LSTM as dynamic_rnn over an LSTMCell (forget_bias 0), which the converter writes as one
    UNIDIRECTIONAL_SEQUENCE_LSTM; returns the output and the (variable, value) pairs to load."""
    for key, allowed in (("activation", "tanh"), ("recurrent_activation", "sigmoid")):
        if cfg.get(key, allowed) != allowed:
            raise ValueError(f"{key} '{cfg.get(key)}' is not supported (only {allowed})")
    for flag in ("return_state", "go_backwards", "stateful", "time_major"):
        if cfg.get(flag):
            raise ValueError(f"{flag}=True is not supported")
    units = int(cfg["units"])
    kernel, recurrent = w[0], w[1]
    bias = w[2] if cfg.get("use_bias", True) else np.zeros(4 * units, np.float32)

    def reorder(m: np.ndarray) -> np.ndarray:
        blocks = np.split(m, 4, axis=-1)
        return np.concatenate([blocks[i] for i in _KERAS_TO_TF_GATES], axis=-1)

    cell = tf.nn.rnn_cell.LSTMCell(units, forget_bias=0.0)
    outputs, state = tf.nn.dynamic_rnn(cell, xs[0], dtype=tf.float32)
    variables = cell.variables
    values = {"kernel": reorder(np.concatenate([kernel, recurrent], axis=0)), "bias": reorder(bias)}
    pairs = [(v, values[v.op.name.rsplit("/", 1)[-1]]) for v in variables]
    return (outputs if cfg.get("return_sequences") else state.h), pairs


@_layer("Concatenate")
def _concatenate(tf: Any, cfg: dict, w: list, xs: list) -> Any:
    return tf.concat(xs, axis=cfg.get("axis", -1))


@_layer("ZeroPadding2D")
def _zero_pad2d(tf: Any, cfg: dict, w: list, xs: list) -> Any:
    _channels_last(cfg)
    pad = cfg.get("padding", 1)
    if isinstance(pad, int):
        rows = cols = [pad, pad]
    else:
        rows, cols = [_pair(p) for p in pad]
    return tf.pad(xs[0], [[0, 0], rows, cols, [0, 0]])


@_layer("ZeroPadding1D")
def _zero_pad1d(tf: Any, cfg: dict, w: list, xs: list) -> Any:
    return tf.pad(xs[0], [[0, 0], _pair(cfg.get("padding", 1)), [0, 0]])


# ---- the file ------------------------------------------------------------------------------------------------
def _text(value: Any) -> str:
    return value.decode("utf-8") if isinstance(value, bytes) else str(value)


def _layer_weights(h5: Any, name: str) -> List[np.ndarray]:
    """The weights of one layer in the order the layer lists them (attribute 'weight_names')."""
    root = h5["model_weights"] if "model_weights" in h5 else h5
    if name not in root:
        return []
    group = root[name]
    return [np.asarray(group[_text(w)], dtype=np.float32) for w in group.attrs.get("weight_names", [])]


def _input_shape(cfg: dict) -> list:
    shape = cfg.get("batch_input_shape") or cfg.get("batch_shape")
    if shape is None:
        raise ValueError(f"input layer '{cfg.get('name')}' has no batch_input_shape")
    return list(shape)


def _functional_layers(model_config: dict) -> Tuple[list, list, list]:
    """(layers with their inbound layer names, input layer names, output (layer, tensor index) pairs)."""
    cfg = model_config["config"]
    layers = []
    for layer in cfg["layers"]:
        nodes = layer.get("inbound_nodes") or []
        if len(nodes) > 1:
            raise ValueError(f"layer '{layer['name']}' is used more than once (shared layers are not supported)")
        inbound = []
        for entry in (nodes[0] if nodes else []):
            if isinstance(entry, dict):
                raise ValueError("Keras 3 model files are not supported; save with tf-keras (Keras 2)")
            inbound.append((entry[0], entry[2]))
        layers.append((layer, inbound))
    inputs = [entry[0] for entry in cfg["input_layers"]]
    outputs = [(entry[0], entry[2]) for entry in cfg["output_layers"]]
    return layers, inputs, outputs


def _sequential_layers(model_config: dict) -> Tuple[list, list, list]:
    cfg = model_config["config"]
    entries = cfg["layers"] if isinstance(cfg, dict) else cfg
    layers, previous = [], None
    if entries and entries[0]["class_name"] != "InputLayer":
        first = entries[0]["config"]
        layers.append(({"class_name": "InputLayer", "name": "input",
                        "config": {"name": "input", "batch_input_shape": _input_shape(first),
                                   "dtype": first.get("dtype", "float32")}}, []))
        previous = "input"
    for entry in entries:
        name = entry["config"]["name"]
        layers.append(({"class_name": entry["class_name"], "name": name, "config": entry["config"]},
                       [(previous, 0)] if previous else []))
        previous = name
    return layers, [layers[0][0]["name"]], [(previous, 0)]


def build_graph(path: str) -> Tuple[Graph, list, list, list]:
    """(graph, input placeholders, output tensors, (variable, value) pairs to load into a session) of the Keras
    model in the .h5 file at path; layers become constants except recurrent ones, whose cells own variables."""
    try:
        import h5py
    except ImportError:
        raise ImportError("Reading Keras .h5 files needs h5py: pip install 'edgelite[keras]'") from None
    import edgelite as tf

    try:
        h5 = h5py.File(path, "r")
    except OSError as e:
        raise IOError(f"Unable to open Keras model file '{path}': {e}") from None
    with h5:
        if "model_config" not in h5.attrs:
            raise ValueError(f"'{path}' holds no model_config: it is a weights-only file, not a whole Keras model.")
        model_config = json.loads(_text(h5.attrs["model_config"]))
        kind = model_config.get("class_name")
        if kind == "Sequential":
            layers, input_names, output_refs = _sequential_layers(model_config)
        elif kind in ("Functional", "Model"):
            layers, input_names, output_refs = _functional_layers(model_config)
        else:
            raise ValueError(f"'{path}': model class '{kind}' is not supported")
        unknown = sorted({layer["class_name"] for layer, _ in layers
                          if layer["class_name"] != "InputLayer" and layer["class_name"] not in _LAYERS})
        if unknown:
            raise ValueError(f"'{path}': Keras layer types not supported: {', '.join(unknown)}.")
        graph = Graph()
        outputs: Dict[str, Any] = {}
        assignments: list = []
        with graph.as_default():
            for layer, inbound in layers:
                name, cfg = layer["name"], layer["config"]
                with tf.name_scope(name):
                    if layer["class_name"] == "InputLayer":
                        outputs[name] = tf.placeholder(tf.as_dtype(cfg.get("dtype", "float32")), _input_shape(cfg),
                                                       name="input")
                        continue
                    xs = [outputs[src] for src, _ in inbound]
                    try:
                        out = _LAYERS[layer["class_name"]](tf, cfg, _layer_weights(h5, name), xs)
                    except (ValueError, IndexError, KeyError) as e:
                        raise ValueError(f"'{path}': layer '{name}' ({layer['class_name']}): {e}") from None
                    if isinstance(out, tuple):
                        out, pairs = out
                        assignments.extend(pairs)
                    outputs[name] = out
        return graph, [outputs[n] for n in input_names], [outputs[n] for n, _ in output_refs], assignments
