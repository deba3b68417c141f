"""tf.nn cases shared by the TensorFlow fixture generator (fixtures/generate_nn_fixtures.py) and the edgelite
tests. An op case is (name, fn(tf, *inputs) -> tensor or list of tensors, input specs); a spec is
(shape, low, high) for a float input, which is differentiated, or an int/float numpy array used as is.
"""
from __future__ import annotations

import numpy as np

_LABELS = np.array([[1], [4], [6]], np.int64)
_LABELS2 = np.array([[1, 2], [4, 4], [0, 6]], np.int64)
_SAMPLED = (np.array([2, 4, 7, 0], np.int64), np.array([[0.6], [0.3], [0.25]], np.float32),
            np.array([0.5, 0.3, 0.2, 0.9], np.float32))
_SAMPLED2 = (_SAMPLED[0], np.array([[0.6, 0.4], [0.3, 0.3], [0.8, 0.25]], np.float32), _SAMPLED[2])


def _sv(tf, sv, like):
    """Fixed sampled_values as constants, the expected counts in the dtype of the tensor `like`."""
    dt = like.dtype.as_numpy_dtype
    return (tf.constant(sv[0]), tf.constant(sv[1].astype(dt)), tf.constant(sv[2].astype(dt)))


def _f(*shape, lo=-1.0, hi=1.0):
    return (tuple(shape), lo, hi)


OP_CASES = [
    ("nce_loss", lambda tf, w, b, x: tf.nn.nce_loss(w, b, _LABELS, x, 4, 8, sampled_values=_sv(tf, _SAMPLED, x)),
     [_f(8, 5), _f(8), _f(3, 5)]),
    ("nce_loss_hits", lambda tf, w, b, x: tf.nn.nce_loss(w, b, _LABELS2, x, 4, 8, num_true=2,
                                                         sampled_values=_sv(tf, _SAMPLED2, x),
                                                         remove_accidental_hits=True),
     [_f(8, 5), _f(8), _f(3, 5)]),
    ("nce_loss_div", lambda tf, w1, w2, b, x: tf.nn.nce_loss([w1, w2], b, _LABELS, x, 4, 8,
                                                             sampled_values=_sv(tf, _SAMPLED, x),
                                                             partition_strategy="div"),
     [_f(4, 5), _f(4, 5), _f(8), _f(3, 5)]),
    ("sampled_softmax_loss", lambda tf, w, b, x: tf.nn.sampled_softmax_loss(w, b, _LABELS, x, 4, 8,
                                                                            sampled_values=_sv(tf, _SAMPLED, x)),
     [_f(8, 5), _f(8), _f(3, 5)]),
    ("sampled_softmax_loss_num_true", lambda tf, w, b, x: tf.nn.sampled_softmax_loss(
        w, b, _LABELS2, x, 4, 8, num_true=2, sampled_values=_sv(tf, _SAMPLED2, x), remove_accidental_hits=False),
     [_f(8, 5), _f(8), _f(3, 5)]),
    ("sampled_softmax_loss_hits", lambda tf, w1, w2, b, x: tf.nn.sampled_softmax_loss(
        [w1, w2], b, _LABELS2, x, 4, 8, num_true=2, sampled_values=_sv(tf, _SAMPLED2, x)),
     [_f(4, 5), _f(4, 5), _f(8), _f(3, 5)]),
    ("all_candidate_sampler", lambda tf: list(tf.nn.all_candidate_sampler(_LABELS2, 2, 7, True)), []),
    ("compute_accidental_hits", lambda tf: list(tf.nn.compute_accidental_hits(
        np.array([[1, 3], [2, 2], [0, 5]], np.int64), np.array([2, 3, 2, 0, 7], np.int64), 2)), []),
    ("learned_unigram_counts", lambda tf: [tf.nn.learned_unigram_candidate_sampler(_LABELS2, 2, 3, False, 8)[1]],
     []),
    ("fixed_unigram_counts", lambda tf: [tf.nn.fixed_unigram_candidate_sampler(
        np.array([[0, 3], [5, 2]], np.int64), 2, 4, False, 6, unigrams=[1, 2, 3, 4], num_reserved_ids=2,
        distortion=0.5)[1]], []),
    ("fixed_unigram_shard", lambda tf: [tf.nn.fixed_unigram_candidate_sampler(
        np.array([[0, 2], [1, 1]], np.int64), 2, 3, False, 3, unigrams=[1, 2, 3, 4, 5, 6], num_shards=2,
        shard=1)[1]], []),
    ("uniform_counts", lambda tf: [tf.nn.uniform_candidate_sampler(_LABELS2, 2, 3, False, 8)[1]], []),
    ("log_uniform_counts", lambda tf: [tf.nn.log_uniform_candidate_sampler(
        np.arange(10, dtype=np.int64).reshape(5, 2), 2, 4, False, 10)[1]], []),
]

_W = np.array([[1.0, 2.0, 0.0], [0.5, 1.0, 3.0]])
_POIS = np.array([[0.0, 0.5, 1.0, 3.0], [2.0, 7.0, 1.5, 0.2]])

OP_CASES += [
    ("softsign", lambda tf, x: tf.nn.softsign(x), [_f(3, 4, lo=-3, hi=3)]),
    ("math_softsign", lambda tf, x: tf.math.softsign(x), [_f(5)]),
    ("silu", lambda tf, x: tf.nn.silu(x), [_f(3, 4, lo=-3, hi=3)]),
    ("swish_beta", lambda tf, x, b: tf.nn.swish(x, b), [_f(2, 5, lo=-3, hi=3), _f(lo=0.5, hi=2.0)]),
    ("log_poisson_loss", lambda tf, x: tf.nn.log_poisson_loss(_POIS.astype(x.dtype.as_numpy_dtype), x),
     [_f(2, 4)]),
    ("log_poisson_loss_full", lambda tf, x: tf.nn.log_poisson_loss(_POIS.astype(x.dtype.as_numpy_dtype), x,
                                                                   compute_full_loss=True), [_f(2, 4)]),
    ("sufficient_statistics", lambda tf, x: [t for t in tf.nn.sufficient_statistics(x, [0, 2]) if t is not None],
     [_f(3, 2, 4)]),
    ("sufficient_statistics_shift", lambda tf, x, s: list(tf.nn.sufficient_statistics(x, [1], shift=s,
                                                                                       keepdims=True)),
     [_f(3, 4), _f(3, 1)]),
    ("sufficient_statistics_dynamic", lambda tf, x: list(tf.nn.sufficient_statistics(
        tf.placeholder_with_default(x, [None, 4]), [0, 1]))[:3], [_f(3, 4)]),
    ("normalize_moments", lambda tf, c, m, v, s: list(tf.nn.normalize_moments(c, m, v, s)),
     [_f(lo=2.0, hi=5.0), _f(4), _f(4, lo=1.0, hi=3.0), _f(4)]),
    ("normalize_moments_no_shift", lambda tf, c, m, v: list(tf.nn.normalize_moments(c, m, v, None)),
     [_f(lo=2.0, hi=5.0), _f(4), _f(4, lo=1.0, hi=3.0)]),
    ("moments_from_statistics", lambda tf, x: list(tf.nn.normalize_moments(
        *tf.nn.sufficient_statistics(x, [0], shift=tf.constant(0.3, x.dtype)))), [_f(5, 3)]),
    ("weighted_moments", lambda tf, x, w: list(tf.nn.weighted_moments(x, [1], w)), [_f(2, 3), _f(2, 3, lo=0, hi=2)]),
    ("weighted_moments_keep", lambda tf, x: list(tf.nn.weighted_moments(x, [0, 1], _W.astype(np.float32),
                                                                        keep_dims=True)), [_f(2, 3)]),
    ("compute_average_loss", lambda tf, x, w: tf.nn.compute_average_loss(x, sample_weight=w),
     [_f(4, 3), _f(4, 3)]),
    ("compute_average_loss_global", lambda tf, x: tf.nn.compute_average_loss(x, global_batch_size=10), [_f(4)]),
    ("scale_regularization_loss", lambda tf, x: tf.nn.scale_regularization_loss(x), [_f(3, 2)]),
    ("avg_pool1d", lambda tf, x: tf.nn.avg_pool1d(x, 3, 2, "SAME"), [_f(2, 7, 3)]),
    ("max_pool1d", lambda tf, x: tf.nn.max_pool1d(x, [2], [1, 2, 1], "VALID"), [_f(2, 7, 3)]),
]

OP_CASES += [
    ("conv3d_valid", lambda tf, x, w: tf.nn.conv3d(x, w, [1, 1, 2, 1, 1], "VALID"),
     [_f(2, 4, 5, 4, 2), _f(2, 3, 2, 2, 3)]),
    ("conv3d_strided_same", lambda tf, x, w: tf.nn.conv3d(x, w, [1, 2, 2, 3, 1], "SAME"),
     [_f(1, 5, 4, 7, 3), _f(3, 2, 3, 3, 2)]),
    ("conv3d_transpose", lambda tf, x, w: tf.nn.conv3d_transpose(x, w, [2, 5, 6, 4, 2], [1, 2, 2, 1, 1], "SAME"),
     [_f(2, 3, 3, 4, 3), _f(2, 3, 2, 2, 3)]),
    ("conv3d_transpose_valid", lambda tf, x, w: tf.nn.conv3d_transpose(x, w, [1, 5, 5, 4, 2], [1, 2, 2, 1, 1],
                                                                        "VALID"),
     [_f(1, 2, 2, 3, 3), _f(2, 2, 2, 2, 3)]),
    ("conv3d_backprop_filter", lambda tf, x, dy: tf.nn.conv3d_backprop_filter(x, [2, 2, 2, 2, 3], dy,
                                                                              [1, 1, 1, 1, 1], "VALID"),
     [_f(1, 3, 4, 3, 2), _f(1, 2, 3, 2, 3)]),
    ("conv3d_backprop_filter_v2", lambda tf, x, dy: tf.nn.conv3d_backprop_filter_v2(x, [3, 2, 2, 2, 3], dy,
                                                                                    [1, 2, 1, 1, 1], "SAME"),
     [_f(1, 4, 4, 3, 2), _f(1, 2, 4, 3, 3)]),
    ("max_pool_v2_1d", lambda tf, x: tf.nn.max_pool_v2(x, 2, 2, "SAME"), [_f(2, 7, 3)]),
    ("max_pool_v2_2d", lambda tf, x: tf.nn.max_pool_v2(x, [2, 3], [2, 1], "VALID"), [_f(2, 5, 6, 3)]),
    ("avg_pool_v2_2d", lambda tf, x: tf.nn.avg_pool_v2(x, 3, 2, "SAME"), [_f(1, 5, 5, 2)]),
    ("convolution_1d", lambda tf, x, w: tf.nn.convolution(x, w, "SAME", strides=[2]), [_f(2, 9, 3), _f(3, 3, 4)]),
    ("convolution_2d_dilated", lambda tf, x, w: tf.nn.convolution(x, w, "VALID", dilation_rate=[2, 1]),
     [_f(1, 7, 6, 2), _f(2, 3, 2, 3)]),
    ("convolution_3d", lambda tf, x, w: tf.nn.convolution(x, w, "SAME", dilations=2), [_f(1, 5, 5, 4, 2),
                                                                                         _f(2, 2, 2, 2, 2)]),
    ("conv1d_transpose", lambda tf, x, w: tf.nn.conv1d_transpose(x, w, [2, 9, 2], 2, "SAME"),
     [_f(2, 5, 3), _f(3, 2, 3)]),
    ("conv_transpose_1d_valid", lambda tf, x, w: tf.nn.conv_transpose(x, w, [1, 8, 2], [3], "VALID"),
     [_f(1, 2, 3), _f(3, 2, 3)]),
    ("conv_transpose_2d", lambda tf, x, w: tf.nn.conv_transpose(x, w, [1, 6, 5, 2], 2, "SAME"),
     [_f(1, 3, 3, 4), _f(3, 3, 2, 4)]),
    ("conv_transpose_3d", lambda tf, x, w: tf.nn.conv_transpose(x, w, [1, 4, 4, 3, 2], [2, 2, 1], "SAME"),
     [_f(1, 2, 2, 3, 3), _f(2, 2, 2, 2, 3)]),
    ("atrous_conv2d_transpose_same", lambda tf, x, w: tf.nn.atrous_conv2d_transpose(x, w, [2, 6, 7, 2], 2, "SAME"),
     [_f(2, 6, 7, 3), _f(3, 2, 2, 3)]),
    ("atrous_conv2d_transpose_valid", lambda tf, x, w: tf.nn.atrous_conv2d_transpose(x, w, [1, 8, 7, 2], 3,
                                                                                      "VALID"),
     [_f(1, 2, 4, 3), _f(3, 2, 2, 3)]),
    ("atrous_conv2d_transpose_rate1", lambda tf, x, w: tf.nn.atrous_conv2d_transpose(x, w, [1, 4, 4, 2], 1,
                                                                                      "SAME"),
     [_f(1, 4, 4, 3), _f(2, 2, 2, 3)]),
    ("depthwise_backprop_input", lambda tf, w, dy: tf.nn.depthwise_conv2d_native_backprop_input(
        [1, 5, 5, 2], w, dy, [1, 2, 2, 1], "SAME"), [_f(3, 3, 2, 2), _f(1, 3, 3, 4)]),
    ("depthwise_backprop_filter", lambda tf, x, dy: tf.nn.depthwise_conv2d_backprop_filter(
        x, [2, 2, 2, 3], dy, [1, 1, 1, 1], "VALID"), [_f(1, 4, 4, 2), _f(1, 3, 3, 6)]),
]

OP_CASES += [
    ("max_pool_with_argmax", lambda tf, x: list(tf.nn.max_pool_with_argmax(x, [1, 2, 2, 1], [1, 2, 2, 1], "SAME")),
     [_f(2, 5, 4, 3)]),
    ("max_pool_with_argmax_batch", lambda tf, x: list(tf.nn.max_pool_with_argmax(
        x, [1, 3, 2, 1], [1, 1, 2, 1], "VALID", include_batch_in_index=True)), [_f(2, 5, 4, 3)]),
    ("dilation2d_same", lambda tf, x, w: tf.nn.dilation2d(x, w, [1, 1, 1, 1], [1, 1, 1, 1], "SAME"),
     [_f(2, 5, 4, 3), _f(2, 3, 3)]),
    ("dilation2d_strided_rates", lambda tf, x, w: tf.nn.dilation2d(x, w, [1, 2, 1, 1], [1, 2, 2, 1], "VALID"),
     [_f(1, 7, 6, 2), _f(2, 2, 2)]),
    ("erosion2d", lambda tf, x, w: tf.nn.erosion2d(x, w, [1, 1, 2, 1], [1, 1, 1, 1], "SAME"),
     [_f(2, 4, 5, 2), _f(3, 2, 2)]),
]

# fractional pooling whose ratios divide the sizes: the pooling sequences are then fixed
OP_CASES += [
    ("fractional_max_pool", lambda tf, x: list(tf.nn.fractional_max_pool(x, [1, 2, 2, 1])), [_f(2, 6, 8, 3)]),
    ("fractional_max_pool_overlapping", lambda tf, x: list(tf.nn.fractional_max_pool(x, [1.0, 3.0, 2.0, 1.0],
                                                                                     overlapping=True)),
     [_f(1, 9, 4, 2)]),
    ("fractional_avg_pool", lambda tf, x: list(tf.nn.fractional_avg_pool(x, [1, 2, 3, 1], pseudo_random=True)),
     [_f(2, 4, 9, 2)]),
    ("fractional_avg_pool_overlapping", lambda tf, x: list(tf.nn.fractional_avg_pool(x, [1, 3, 2, 1],
                                                                                     overlapping=True)),
     [_f(1, 9, 4, 2)]),
]

# tf.nn functions that existed before: their TF1 arguments checked against TensorFlow
OP_CASES += [
    ("moments_keep_dims", lambda tf, x: list(tf.nn.moments(x, [0, 2], keep_dims=True)), [_f(3, 2, 4)]),
    ("moments_shift", lambda tf, x: list(tf.nn.moments(x, [1], shift=0.5)), [_f(3, 5)]),
    ("l2_normalize_dim", lambda tf, x: tf.nn.l2_normalize(x, dim=0, epsilon=1e-3), [_f(4, 3)]),
    ("l2_normalize_axes", lambda tf, x: tf.nn.l2_normalize(x, axis=[1, 2]), [_f(2, 3, 4)]),
    ("softmax_dim", lambda tf, x: tf.nn.softmax(x, dim=0), [_f(4, 3)]),
    ("log_softmax_axis", lambda tf, x: tf.nn.log_softmax(x, axis=1), [_f(2, 4, 3)]),
    ("softmax_ce_v2_dim", lambda tf, x, y: tf.nn.softmax_cross_entropy_with_logits_v2(labels=tf.nn.softmax(y, 0),
                                                                                       logits=x, dim=0),
     [_f(4, 3), _f(4, 3)]),
    ("weighted_ce_pos_weight", lambda tf, x, z: tf.nn.weighted_cross_entropy_with_logits(
        labels=z, logits=x, pos_weight=2.5), [_f(3, 4), _f(3, 4, lo=0.0, hi=1.0)]),
    ("sigmoid_ce", lambda tf, x, z: tf.nn.sigmoid_cross_entropy_with_logits(labels=z, logits=x),
     [_f(3, 4, lo=-4, hi=4), _f(3, 4, lo=0.0, hi=1.0)]),
    ("crelu_axis", lambda tf, x: tf.nn.crelu(x, axis=0), [_f(2, 3)]),
    ("leaky_relu_alpha", lambda tf, x: tf.nn.leaky_relu(x, alpha=0.1), [_f(3, 4)]),
    ("relu6_elu_selu_softplus", lambda tf, x: [tf.nn.relu6(x * 8), tf.nn.elu(x), tf.nn.selu(x), tf.nn.softplus(x)],
     [_f(3, 4)]),
    ("bias_add_nchw", lambda tf, x, b: tf.nn.bias_add(x, b, data_format="NCHW"), [_f(2, 3, 2, 2), _f(3)]),
    ("xw_plus_b_relu_layer", lambda tf, x, w, b: [tf.nn.xw_plus_b(x, w, b), tf.nn.relu_layer(x, w, b)],
     [_f(3, 4), _f(4, 2), _f(2)]),
    ("zero_fraction", lambda tf, x: tf.nn.zero_fraction(tf.nn.relu(x)), [_f(5, 4)]),
    ("top_k_in_top_k", lambda tf, x: [tf.nn.top_k(x, 2).values, tf.cast(tf.nn.top_k(x, 2, sorted=True).indices,
                                                                        x.dtype),
                                      tf.cast(tf.nn.in_top_k(tf.cast(x, tf.float32), [0, 2, 1], 2), x.dtype)],
     [_f(3, 5)]),
    ("separable_conv2d_rate", lambda tf, x, d, p: tf.nn.separable_conv2d(x, d, p, [1, 1, 1, 1], "SAME", rate=[2, 2]),
     [_f(1, 6, 6, 2), _f(3, 3, 2, 2), _f(1, 1, 4, 3)]),
    ("conv2d_transpose_strided", lambda tf, x, w: tf.nn.conv2d_transpose(x, w, [2, 7, 8, 2], [1, 2, 2, 1], "SAME"),
     [_f(2, 4, 4, 3), _f(3, 3, 2, 3)]),
    ("atrous_conv2d", lambda tf, x, w: tf.nn.atrous_conv2d(x, w, 2, "SAME"), [_f(1, 6, 7, 2), _f(2, 3, 2, 3)]),
    ("conv1d_stride", lambda tf, x, w: tf.nn.conv1d(x, w, 2, "VALID"), [_f(2, 9, 3), _f(3, 3, 2)]),
    ("depthwise_conv2d_rate", lambda tf, x, w: tf.nn.depthwise_conv2d(x, w, [1, 1, 1, 1], "SAME", rate=[2, 1]),
     [_f(1, 6, 5, 2), _f(2, 2, 2, 2)]),
    ("sparse_softmax_ce", lambda tf, x: tf.nn.sparse_softmax_cross_entropy_with_logits(labels=[1, 0, 3], logits=x),
     [_f(3, 4)]),
    ("batch_norm_with_global_normalization", lambda tf, x, m, v, b, g: [
        tf.nn.batch_norm_with_global_normalization(x, m, v, b, g, 1e-3, True),
        tf.nn.batch_norm_with_global_normalization(input=x, mean=m, variance=v, beta=b, gamma=g,
                                                   variance_epsilon=1e-3, scale_after_normalization=False)],
     [_f(2, 3, 4), _f(4), _f(4, lo=0.5, hi=2.0), _f(4), _f(4)]),
    ("embedding_lookup_max_norm", lambda tf, p: tf.nn.embedding_lookup(p, [[0, 2], [3, 0]], max_norm=0.8),
     [_f(4, 3)]),
]

OP_CASES += [
    ("pool_max_2d_dilated", lambda tf, x: tf.nn.pool(x, [2, 2], "MAX", "VALID", dilation_rate=[2, 1]),
     [_f(2, 7, 6, 3)]),
    ("pool_avg_2d_strided_same", lambda tf, x: tf.nn.pool(x, [3, 2], "AVG", "SAME", strides=[2, 2]),
     [_f(1, 7, 6, 2)]),
    ("pool_max_1d_dilated", lambda tf, x: tf.nn.pool(x, [3], "MAX", "VALID", dilations=[2]), [_f(2, 11, 2)]),
    ("pool_avg_1d", lambda tf, x: tf.nn.pool(x, [2], "AVG", "SAME", strides=[2]), [_f(2, 7, 3)]),
    ("with_space_to_batch_conv_same", lambda tf, x, w: tf.nn.with_space_to_batch(
        x, [2, 3], "SAME", lambda inp, n, pad: tf.nn.conv2d(inp, w, [1, 1, 1, 1], pad), filter_shape=[3, 2]),
     [_f(1, 7, 8, 2), _f(3, 2, 2, 3)]),
    ("with_space_to_batch_unknown_size", lambda tf, x, w: tf.nn.with_space_to_batch(
        tf.placeholder_with_default(x, [None, None, None, 2]), [2, 2], "VALID",
        lambda inp, n, pad: tf.nn.conv2d(inp, w, [1, 1, 1, 1], pad)), [_f(1, 7, 6, 2), _f(2, 2, 2, 3)]),
]

_NOISE = np.array([[0.1, 0.7, 0.3, 0.95], [0.5, 0.2, 0.6, 0.05], [0.45, 0.8, 0.25, 0.55]])

OP_CASES += [
    ("general_dropout", lambda tf, x: tf.nn.experimental.general_dropout(
        x, 0.4, lambda shape, dtype: tf.constant(_NOISE, dtype)), [_f(3, 4)]),
    ("general_dropout_noise_shape", lambda tf, x: tf.nn.experimental.general_dropout(
        x, tf.constant(0.5, x.dtype), lambda shape, dtype: tf.constant(_NOISE[:, :1], dtype), noise_shape=[3, 1]),
     [_f(3, 4)]),
]

# float32 only: TensorFlow's LRN and 3-D pooling kernels take half/bfloat16/float32
F32_CASES = [
    ("max_pool3d", lambda tf, x: tf.nn.max_pool3d(x, [1, 2, 2, 2, 1], [1, 2, 1, 2, 1], "SAME"), [_f(2, 5, 4, 5, 3)]),
    ("max_pool3d_valid", lambda tf, x: tf.nn.max_pool3d(x, 2, 1, "VALID"), [_f(1, 3, 4, 3, 2)]),
    ("avg_pool3d", lambda tf, x: tf.nn.avg_pool3d(x, [1, 3, 2, 2, 1], [1, 2, 2, 1, 1], "SAME"), [_f(2, 5, 4, 3, 2)]),
    ("avg_pool3d_valid", lambda tf, x: tf.nn.avg_pool3d(x, [2, 2, 3], [1, 1, 2], "VALID"), [_f(1, 4, 3, 6, 2)]),
    ("avg_pool_v2_3d", lambda tf, x: tf.nn.avg_pool_v2(x, 2, 2, "SAME"), [_f(1, 3, 5, 4, 2)]),
    ("pool_max_3d_dilated", lambda tf, x: tf.nn.pool(x, [2, 2, 2], "MAX", "VALID", dilation_rate=[1, 2, 2]),
     [_f(1, 4, 5, 6, 2)]),
    ("approx_max_k", lambda tf, x: list(tf.nn.approx_max_k(x, 3)), [_f(4, 9)]),
    ("approx_max_k_3d", lambda tf, x: list(tf.nn.approx_max_k(x, 2, recall_target=0.9)), [_f(2, 3, 5)]),
    ("lrn", lambda tf, x: tf.nn.lrn(x), [_f(2, 3, 2, 7)]),
    ("local_response_normalization", lambda tf, x: tf.nn.local_response_normalization(
        x, depth_radius=2, bias=0.5, alpha=0.3, beta=0.75), [_f(1, 2, 3, 6, lo=-2, hi=2)]),
]

# (name, fn(tf) building and running ops that must fail); `run` says whether the failure is at run time
ERROR_CASES = [
    ("sampler_not_matrix", True, lambda tf: tf.nn.uniform_candidate_sampler(tf.constant([1, 2], tf.int64), 1, 5,
                                                                             True, 6)),
    ("sampler_num_true", True, lambda tf: tf.nn.uniform_candidate_sampler(tf.constant([[1, 2]], tf.int64), 1, 5,
                                                                           True, 6)),
    ("sampler_range_too_small", True, lambda tf: tf.nn.uniform_candidate_sampler(
        tf.constant([[1, 2]], tf.int64), 2, 7, True, 6)),
    ("sampler_true_out_of_range", True, lambda tf: tf.nn.log_uniform_candidate_sampler(
        tf.constant([[1, 9]], tf.int64), 2, 3, True, 6)),
    ("fixed_unigram_range", True, lambda tf: tf.nn.fixed_unigram_candidate_sampler(
        tf.constant([[1, 2]], tf.int64), 2, 3, True, 6, unigrams=[1, 2, 3])),
    ("lrn_rank", False, lambda tf: tf.nn.lrn(tf.zeros([2, 3, 4]))),
    ("lrn_float64", False, lambda tf: tf.nn.lrn(tf.zeros([1, 2, 2, 3], tf.float64))),
    ("log_poisson_shape", False, lambda tf: tf.nn.log_poisson_loss(tf.zeros([2, 3]), tf.zeros([3, 2]))),
    ("average_loss_scalar", False, lambda tf: tf.nn.compute_average_loss(tf.constant(1.0))),
    ("average_loss_float_batch", False, lambda tf: tf.nn.compute_average_loss(tf.ones([3]),
                                                                               global_batch_size=2.0)),
    ("average_loss_zero_batch", False, lambda tf: tf.nn.compute_average_loss(tf.ones([3]), global_batch_size=0)),
    ("conv3d_channels", False, lambda tf: tf.nn.conv3d(tf.zeros([1, 3, 3, 3, 2]), tf.zeros([2, 2, 2, 3, 4]),
                                                        [1, 1, 1, 1, 1], "VALID")),
    ("conv3d_rank", False, lambda tf: tf.nn.conv3d(tf.zeros([1, 3, 3, 2]), tf.zeros([2, 2, 2, 2, 4]),
                                                    [1, 1, 1, 1, 1], "VALID")),
    ("max_pool3d_rank", False, lambda tf: tf.nn.max_pool3d(tf.zeros([1, 3, 3, 2]), 2, 1, "VALID")),
    ("pool_v2_rank", False, lambda tf: tf.nn.max_pool_v2(tf.zeros([3, 2]), 2, 1, "VALID")),
    ("convolution_rank", False, lambda tf: tf.nn.convolution(tf.zeros([3, 2]), tf.zeros([2, 2]), "VALID")),
    ("conv_transpose_length", False, lambda tf: tf.nn.conv_transpose(tf.zeros([1, 2]), tf.zeros([2, 2]), [1, 2],
                                                                       1)),
    ("atrous_transpose_rate", False, lambda tf: tf.nn.atrous_conv2d_transpose(
        tf.zeros([1, 4, 4, 3]), tf.zeros([2, 2, 2, 3]), [1, 4, 4, 2], 0, "SAME")),
    ("pool_v2_sequence", False, lambda tf: tf.nn.avg_pool_v2(tf.zeros([1, 4, 4, 2]), [2, 2, 2], 1, "VALID")),
    ("argmax_pool_nchw", False, lambda tf: tf.nn.max_pool_with_argmax(tf.zeros([1, 2, 4, 4]), [1, 1, 2, 2],
                                                                        [1, 1, 2, 2], "SAME", data_format="NCHW")),
    ("dilation2d_filter_rank", False, lambda tf: tf.nn.dilation2d(tf.zeros([1, 4, 4, 2]), tf.zeros([2, 2]),
                                                                   [1, 1, 1, 1], [1, 1, 1, 1], "SAME")),
    ("fractional_pool_ratio", False, lambda tf: tf.nn.fractional_max_pool(tf.zeros([1, 4, 4, 2]), [2, 2, 2, 1])),
    ("fractional_pool_too_small", True, lambda tf: tf.nn.fractional_avg_pool(tf.zeros([1, 2, 4, 2]),
                                                                              [1, 3, 2, 1])),
    ("pool_same_dilated", False, lambda tf: tf.nn.pool(tf.zeros([1, 5, 5, 1]), [2, 2], "MAX", "SAME",
                                                        dilation_rate=[2, 2])),
    ("pool_window_rank", False, lambda tf: tf.nn.pool(tf.zeros([1, 5, 5, 1]), [2, 2, 2, 2], "MAX", "VALID")),
    ("pool_strides_over_window", False, lambda tf: tf.nn.pool(tf.zeros([1, 5, 5, 1]), [2, 2], "AVG", "VALID",
                                                               strides=[3, 1])),
    ("general_dropout_rate_dtype", False, lambda tf: tf.nn.experimental.general_dropout(
        tf.ones([2], tf.float64), tf.constant(0.5), lambda shape, dtype: tf.zeros(shape, dtype))),
    ("stateless_dropout_rate", False, lambda tf: tf.nn.experimental.stateless_dropout(tf.ones([2]), 1.0, [1, 2])),
    ("sampler_int32_classes", False, lambda tf: tf.nn.uniform_candidate_sampler(
        tf.constant([[1, 2]], tf.int32), 2, 5, True, 6)),
]
