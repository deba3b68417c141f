"""tf.nn: convolution, pooling, activations, normalisation and cross-entropy ops with their gradients."""
from edgelite.ops.math_ops import sigmoid, tanh  # noqa: F401

from .activation_ops import elu, leaky_relu, log_softmax, relu, relu6, selu, softmax, softplus  # noqa: F401
from edgelite.ops.space_ops import depth_to_space, space_to_batch, space_to_depth  # noqa: F401

from .approx_topk_ops import approx_max_k, approx_min_k  # noqa: F401
from .argmax_pool_ops import max_pool_with_argmax  # noqa: F401
from .candidate_sampling_ops import (  # noqa: F401
    all_candidate_sampler, compute_accidental_hits, fixed_unigram_candidate_sampler,
    learned_unigram_candidate_sampler, log_uniform_candidate_sampler, uniform_candidate_sampler,
)
from .composite_ops import atrous_conv2d, conv1d, crelu, relu_layer, silu, swish  # noqa: F401
from .conv3d_ops import (  # noqa: F401
    conv3d, conv3d_backprop_filter, conv3d_backprop_filter_v2, conv3d_transpose,
)
from .conv_dispatch import (  # noqa: F401
    atrous_conv2d_transpose, avg_pool_v2, conv1d_transpose, conv_transpose, convolution,
    depthwise_conv2d_native_backprop_filter, depthwise_conv2d_native_backprop_input, max_pool_v2,
)
from .conv_dispatch import depthwise_conv2d_native_backprop_filter as depthwise_conv2d_backprop_filter  # noqa
from .conv_dispatch import depthwise_conv2d_native_backprop_input as depthwise_conv2d_backprop_input  # noqa
from .conv_ops import (  # noqa: F401
    conv2d, conv2d_backprop_filter, conv2d_backprop_input, conv2d_transpose, depthwise_conv2d,
    depthwise_conv2d_native, separable_conv2d,
)
from .loss_ops import compute_average_loss, log_poisson_loss, scale_regularization_loss  # noqa: F401
from .fractional_pool_ops import fractional_avg_pool, fractional_max_pool  # noqa: F401
from .lrn_ops import local_response_normalization, lrn  # noqa: F401
from .moments_ops import normalize_moments, sufficient_statistics, weighted_moments  # noqa: F401
from .morphology_ops import dilation2d, erosion2d  # noqa: F401
from .normalization_ops import (  # noqa: F401
    batch_norm_with_global_normalization, batch_normalization, bias_add, fused_batch_norm, l2_loss, l2_normalize,
    moments, xw_plus_b,
)
from .dilated_window_ops import pool, with_space_to_batch  # noqa: F401
from . import experimental  # noqa: F401
from .dropout import dropout  # noqa: F401
from .embedding_ops import embedding_lookup  # noqa: F401
from .pool3d_ops import avg_pool3d, max_pool3d  # noqa: F401
from .pooling_1d import avg_pool1d, max_pool1d  # noqa: F401
from .embedding_sparse_ops import embedding_lookup_sparse, safe_embedding_lookup_sparse  # noqa: F401
from .pooling_ops import avg_pool, max_pool  # noqa: F401
from .pooling_ops import avg_pool as avg_pool2d, max_pool as max_pool2d  # noqa: F401
from .sampled_loss_ops import nce_loss, sampled_softmax_loss  # noqa: F401
from .softsign_ops import softsign  # noqa: F401
from .summary_ops import zero_fraction  # noqa: F401
from .topk_ops import in_top_k, top_k  # noqa: F401
from .xent_ops import (  # noqa: F401
    sigmoid_cross_entropy_with_logits, softmax_cross_entropy_with_logits, softmax_cross_entropy_with_logits_v2,
    sparse_softmax_cross_entropy_with_logits, weighted_cross_entropy_with_logits,
)

# ---- recurrent networks (tf.nn.rnn_cell and the RNN drivers) ----
from . import rnn_cell  # noqa: F401,E402
from .rnn import (  # noqa: F401,E402
    bidirectional_dynamic_rnn, dynamic_rnn, raw_rnn, static_bidirectional_rnn, static_rnn, static_state_saving_rnn,
)
from .ctc_ops import (  # noqa: F401,E402
    collapse_repeated, ctc_beam_search_decoder, ctc_beam_search_decoder_v2, ctc_greedy_decoder, ctc_loss, ctc_loss_v2,
    ctc_unique_labels,
)
