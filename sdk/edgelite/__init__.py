"""edgelite: a TensorFlow-1-style SDK to build, train, checkpoint and convert small networks.

`import edgelite as tf` exposes the tf.compat.v1 vocabulary. Each section below re-exports one module;
add new families as new sections.
"""
__version__ = "0.1.0"

# ---- dtypes ------------------------------------------------------------------------------------
from edgelite.framework.dtypes import (  # noqa: F401
    DType, as_dtype, bfloat16, bool, complex64, complex128, double, float16, float32, float64, half, int8, int16,
    int32, int64, qint8, qint16, qint32, quint8, quint16, resource, string, uint8, uint16, uint32, uint64, variant,
)

# ---- graph framework ---------------------------------------------------------------------------
from edgelite.framework.tensor_shape import Dimension, TensorShape, dimension_value  # noqa: F401
from edgelite.framework.ops import (  # noqa: F401
    DeviceSpec, Graph, GraphKeys, NoGradient, NotDifferentiable, Operation, RegisterGradient, RegisterShape, Tensor,
    add_to_collection, add_to_collections, colocate_with, container, control_dependencies, convert_to_tensor,
    convert_to_tensor_or_indexed_slices, device, executing_eagerly, get_collection, get_collection_ref,
    get_default_graph, get_default_session, name_scope, no_gradient, op_scope, register_tensor_conversion_function,
    reset_default_graph,
)
from edgelite.framework.constant_op import constant  # noqa: F401
from edgelite.framework.importer import import_graph_def  # noqa: F401
from edgelite.framework.indexed_slices import IndexedSlices, IndexedSlicesValue  # noqa: F401
from edgelite.framework.random_seed import get_seed, set_random_seed  # noqa: F401
from edgelite import errors  # noqa: F401
from edgelite.framework import dtypes  # noqa: F401

# ---- sessions ----------------------------------------------------------------------------------
from edgelite.client.session import InteractiveSession, Session  # noqa: F401

# ---- array ops ---------------------------------------------------------------------------------
from edgelite.ops.array_ops import (  # noqa: F401
    boolean_mask, broadcast_dynamic_shape, broadcast_static_shape, broadcast_to, concat, expand_dims, fill, gather,
    gather_nd, identity, identity_n, invert_permutation, matrix_transpose, newaxis, one_hot, ones, ones_like, pad,
    placeholder, placeholder_with_default, rank, reshape, reverse, reverse_v2, scatter_nd, sequence_mask, shape,
    shape_n, size, slice, split, squeeze, stack, stop_gradient, strided_slice, tile, transpose, unstack, where,
    where_v2, zeros, zeros_like,
)

# ---- math ops ----------------------------------------------------------------------------------
from edgelite.ops.math_ops import (  # noqa: F401
    abs, accumulate_n, acos, add, add_n, argmax, argmin, asin, atan, atan2, cast, ceil, clip_by_value, cos, cosh,
    count_nonzero, cumprod, cumsum, div, div_no_nan, divide, equal, erf, exp, expm1, floor, floor_div, floordiv,
    floormod, greater, greater_equal, is_finite, is_inf, is_nan, lin_space, linspace, less, less_equal, log,
    log1p, log_sigmoid, logical_and, logical_not, logical_or, logical_xor, matmul, maximum, minimum, mod, multiply,
    negative, norm, not_equal, pow, range, realdiv, reciprocal, reduce_all, reduce_any, reduce_logsumexp,
    reduce_max, reduce_mean, reduce_min, reduce_prod, reduce_std, reduce_sum, reduce_variance, rint, round, rsqrt,
    saturate_cast, scalar_mul, segment_sum, sigmoid, sign, sin, sinh, sqrt, square, squared_difference, subtract,
    tan, tanh, tensordot, to_double, to_float, to_int32, to_int64, truediv, truncatediv, unsorted_segment_sum,
)

# ---- sparse tensors ------------------------------------------------------------------------------
from edgelite.framework.sparse_tensor import (  # noqa: F401
    SparseTensor, SparseTensorValue, convert_to_tensor_or_sparse_tensor,
)
from edgelite.ops.sparse_placeholder import sparse_placeholder  # noqa: F401
from edgelite.ops.sparse_to_dense import sparse_tensor_to_dense, sparse_to_dense  # noqa: F401
from edgelite.ops.sparse_structure_ops import (  # noqa: F401
    sparse_concat, sparse_fill_empty_rows, sparse_reorder, sparse_reset_shape, sparse_reshape, sparse_retain,
    sparse_slice, sparse_split, sparse_transpose,
)
from edgelite.ops.sparse_math_ops import (  # noqa: F401
    sparse_add, sparse_matmul, sparse_maximum, sparse_minimum, sparse_reduce_max, sparse_reduce_max_sparse,
    sparse_reduce_sum, sparse_reduce_sum_sparse, sparse_softmax, sparse_tensor_dense_matmul,
)
from edgelite.ops.sparse_indicator_ops import sparse_mask, sparse_merge, sparse_to_indicator  # noqa: F401
from edgelite.ops.edit_distance_ops import edit_distance  # noqa: F401
from edgelite.ops.sparse_serialize_ops import (  # noqa: F401
    deserialize_many_sparse, serialize_many_sparse, serialize_sparse,
)

# ---- string tensors ------------------------------------------------------------------------------
from edgelite.ops.string_ops import (  # noqa: F401
    regex_replace, string_join, string_strip, substr,
)
from edgelite.ops.string_convert_ops import (  # noqa: F401
    as_string, string_to_hash_bucket, string_to_hash_bucket_fast, string_to_hash_bucket_strong, string_to_number,
)
from edgelite.ops.string_split_ops import reduce_join, string_split  # noqa: F401
from edgelite import strings  # noqa: F401,E402
from edgelite import sparse  # noqa: F401,E402

# ---- ragged tensors: tf.RaggedTensor and the tf.ragged namespace ----------------------------------
from edgelite.ragged.ragged_tensor import RaggedTensor  # noqa: F401,E402
from edgelite.ragged.ragged_tensor_spec import RaggedTensorSpec  # noqa: F401,E402
from edgelite import ragged  # noqa: F401,E402

# ---- control flow ------------------------------------------------------------------------------
from edgelite.ops.control_flow_ops import group, no_op, tuple, with_dependencies  # noqa: F401

# ---- nn, layers, losses, metrics ---------------------------------------------------------------
from edgelite import layers, losses, metrics, nn  # noqa: F401,E402
from edgelite.ops.control_flow_ops import case, cond, while_loop  # noqa: F401
from edgelite.ops.functional_ops import foldl, foldr, map_fn, scan  # noqa: F401
from edgelite.ops.tensor_array_ops import TensorArray  # noqa: F401
from edgelite.ops.data_flow_ops import dynamic_partition, dynamic_stitch, parallel_dynamic_stitch  # noqa: F401,E501
from edgelite.ops import control_flow_grad as _control_flow_grad  # noqa: F401

# ---- recurrent networks: tf.reverse_sequence (tf.nn.rnn_cell and the RNN drivers live in edgelite.nn) ----
from edgelite.ops.reverse_sequence_op import reverse_sequence  # noqa: F401,E402

# ---- gradients ---------------------------------------------------------------------------------
from edgelite.ops import math_grad as _math_grad  # noqa: F401
from edgelite.ops import array_grad as _array_grad  # noqa: F401
from edgelite.ops.gradients_impl import AggregationMethod, UnconnectedGradients, gradients, hessians  # noqa: F401

# ---- random ops --------------------------------------------------------------------------------
from edgelite.ops.random_ops import (  # noqa: F401
    multinomial, random_normal, random_shuffle, random_uniform, truncated_normal,
)

# ---- linear algebra ----------------------------------------------------------------------------
from edgelite.ops.linalg_ops import matrix_diag, matrix_diag_part, qr  # noqa: F401

# ---- core ops: segments, sets, sorting (tf1ops) -----------------------------------------------------
from edgelite.ops.segment_ops import (  # noqa: F401
    segment_max, segment_mean, segment_min, segment_prod, sparse_segment_mean, sparse_segment_sqrt_n,
    sparse_segment_sum, unsorted_segment_max, unsorted_segment_mean, unsorted_segment_min, unsorted_segment_prod,
    unsorted_segment_sqrt_n,
)
from edgelite.ops.unique_ops import setdiff1d, unique, unique_with_counts  # noqa: F401
from edgelite.ops.sort_ops import approx_top_k, argsort, sort  # noqa: F401
from edgelite.ops.einsum_ops import einsum  # noqa: F401
from edgelite.ops.manip_ops import (  # noqa: F401
    meshgrid, repeat, roll, searchsorted, unravel_index,
)
from edgelite.ops.space_ops import (  # noqa: F401
    batch_to_space, batch_to_space_nd, depth_to_space, required_space_to_batch_paddings, space_to_batch,
    space_to_batch_nd, space_to_depth,
)
from edgelite.ops.tensor_scatter_ops import (  # noqa: F401
    tensor_scatter_add, tensor_scatter_nd_add, tensor_scatter_nd_max, tensor_scatter_nd_min, tensor_scatter_nd_sub,
    tensor_scatter_nd_update, tensor_scatter_sub, tensor_scatter_update,
)
from edgelite.ops.histogram_ops import (  # noqa: F401
    bincount, confusion_matrix, histogram_fixed_width, histogram_fixed_width_bins,
)
from edgelite.ops.math_extra_ops import (  # noqa: F401
    acosh, asinh, atanh, cross, is_non_decreasing, is_strictly_increasing, truncatemod,
)
from edgelite.ops.special_math_ops import (  # noqa: F401
    betainc, digamma, erfc, igamma, igammac, lbeta, lgamma, polygamma, zeta,
)
from edgelite.ops.logging_ops import (  # noqa: F401
    Assert, Print, add_check_numerics_ops, ensure_shape, guarantee_const, verify_tensor_all_finite,
)
from edgelite.ops.logging_ops import print_v2 as print  # noqa: F401,A001
from edgelite.ops.script_ops import numpy_function, py_func, py_function  # noqa: F401
from edgelite.ops.template import make_template  # noqa: F401
from edgelite.ops.custom_gradient import custom_gradient  # noqa: F401
from edgelite.ops.random_extra_ops import random_gamma, random_poisson  # noqa: F401
from edgelite.ops.complex_ops import angle, complex, conj, imag, real  # noqa: F401,A004
from edgelite.ops.linalg_extra_ops import (  # noqa: F401
    cholesky, cholesky_solve, diag, diag_part, eye, matrix_band_part, matrix_determinant, matrix_inverse,
    matrix_set_diag, matrix_solve, matrix_solve_ls, matrix_triangular_solve, self_adjoint_eig, self_adjoint_eigvals,
    svd, trace,
)

# ---- variables ---------------------------------------------------------------------------------
from edgelite.ops.state_ops import (  # noqa: F401
    assign, assign_add, assign_sub, count_up_to, is_variable_initialized, scatter_add, scatter_div, scatter_max,
    scatter_min, scatter_mul, scatter_nd_add, scatter_nd_sub, scatter_nd_update, scatter_sub, scatter_update,
)
from edgelite.ops.variables import (  # noqa: F401
    PartitionedVariable, Variable, VariableAggregation, VariableSynchronization, all_variables,
    assert_variables_initialized, global_variables, global_variables_initializer, initialize_all_variables,
    initialize_local_variables, initialize_variables, local_variables, local_variables_initializer,
    model_variables, moving_average_variables, report_uninitialized_variables, trainable_variables,
    variable_creator_scope, variables_initializer,
)
from edgelite.ops.variable_scope import (  # noqa: F401
    AUTO_REUSE, VariableScope, fixed_size_partitioner, get_local_variable, get_variable, get_variable_scope,
    min_max_variable_partitioner, variable_axis_size_partitioner, variable_op_scope, variable_scope,
)
from edgelite.ops.init_ops import (  # noqa: F401
    constant_initializer, glorot_normal_initializer, glorot_uniform_initializer, ones_initializer,
    orthogonal_initializer, random_normal_initializer, random_uniform_initializer, truncated_normal_initializer,
    uniform_unit_scaling_initializer, variance_scaling_initializer, zeros_initializer,
)

# ---- data: Example parsing, decoders and files (TF1 top-level aliases of tf.io) ---------------------
from edgelite.io.parsing_config import (  # noqa: F401,E402
    FixedLenFeature, FixedLenSequenceFeature, SparseFeature, VarLenFeature,
)
from edgelite.io.parsing_ops import (  # noqa: F401,E402
    parse_example, parse_single_example, parse_single_sequence_example,
)
from edgelite.io.decode_ops import (  # noqa: F401,E402
    decode_base64, decode_compressed, decode_json_example, decode_raw, encode_base64, parse_tensor, serialize_tensor,
)
from edgelite.io.csv_ops import decode_csv  # noqa: F401,E402
from edgelite.io.file_ops import matching_files, read_file, write_file  # noqa: F401,E402
from edgelite.ops.queue_ops import (  # noqa: F401,E402
    FIFOQueue, PaddingFIFOQueue, PriorityQueue, QueueBase, RandomShuffleQueue,
)
from edgelite.io.readers import (  # noqa: F401,E402
    FixedLengthRecordReader, IdentityReader, ReaderBase, TextLineReader, TFRecordReader, WholeFileReader,
)
from edgelite import queue  # noqa: F401,E402
from edgelite import data  # noqa: F401,E402

# ---- namespaces and compatibility switches -------------------------------------------------------
from edgelite import bitwise, initializers, linalg, manip, math, random  # noqa: F401,E402
from edgelite import nest  # noqa: F401,E402

# --- tf.feature_column ---
from edgelite import feature_column  # noqa: F401,E402
from edgelite.ops.table_initializers import initialize_all_tables, tables_initializer  # noqa: F401,E402
# --- tf.lookup (hash and vocabulary tables) ---
from edgelite import lookup  # noqa: F401,E402
# --- tf.signal / tf.spectral FFTs and their TF1 top-level aliases ---
from edgelite import signal, spectral  # noqa: F401,E402
from edgelite.ops.fft_ops import fft, fft2d, fft3d, ifft, ifft2d, ifft3d  # noqa: F401,E402
from edgelite import io  # noqa: F401,E402
from edgelite import io as python_io  # noqa: F401,E402
from edgelite.io import gfile  # noqa: F401,E402
from edgelite import image  # noqa: F401,E402
# ---- images: the tf.image functions TF1 also exports at the top level -------------------------------
from edgelite.image.distort_ops import random_crop  # noqa: F401,E402
from edgelite.image.patch_ops import extract_image_patches  # noqa: F401,E402
from edgelite.framework.compat_switches import (  # noqa: F401,E402
    disable_control_flow_v2, disable_eager_execution, disable_resource_variables, disable_v2_behavior,
)
from edgelite.framework.tensor_util import constant_value as get_static_value  # noqa: F401,E402
from edgelite.ops.random_ops import categorical  # noqa: F401,E402
from edgelite import compat  # noqa: F401,E402
from edgelite.quantization import (  # noqa: F401,E402
    fake_quant_with_min_max_args, fake_quant_with_min_max_args_gradient, fake_quant_with_min_max_vars,
    fake_quant_with_min_max_vars_gradient, fake_quant_with_min_max_vars_per_channel,
    fake_quant_with_min_max_vars_per_channel_gradient,
)
from edgelite import lite  # noqa: F401,E402

# ---- model files: graph_util (freezing, pruning), saved_model, check_numerics ----------------------
from edgelite import graph_util  # noqa: F401,E402
from edgelite import saved_model  # noqa: F401,E402
from edgelite.ops.numerics import check_numerics  # noqa: F401,E402
from edgelite.ops.shape_n import shape_n  # noqa: F401,E402

# ---- TF1 run-time furniture: protos, config, logging, app/flags, test, version, aliases -----------------
from edgelite import app, flags, test, version  # noqa: F401,E402
from edgelite import tf_logging as logging  # noqa: F401,E402
from edgelite.tf_logging import get_logger  # noqa: F401,E402
from edgelite.version import (  # noqa: F401,E402
    COMPILER_VERSION, CXX11_ABI_FLAG, CXX_VERSION, GIT_VERSION, GRAPH_DEF_VERSION, GRAPH_DEF_VERSION_MIN_CONSUMER,
    GRAPH_DEF_VERSION_MIN_PRODUCER, MONOLITHIC_BUILD, VERSION,
)
from edgelite.client.config_protos import ConfigProto, GPUOptions, GraphOptions, OptimizerOptions  # noqa: F401,E402
from edgelite.summary.protos import (  # noqa: F401,E402
    Event, HistogramProto, LogMessage, SessionLog, Summary, SummaryMetadata,
)
from edgelite.framework.graph_def import AttrValue, GraphDef, NameAttrList, NodeDef  # noqa: F401,E402
from edgelite.framework.meta_graph_protos import MetaGraphDef  # noqa: F401,E402
from edgelite.framework.dtypes import QUANTIZED_DTYPES  # noqa: F401,E402
from edgelite.framework.errors import OpError  # noqa: F401,E402
from edgelite.framework.tensor_shape import dimension_at_index  # noqa: F401,E402
from edgelite.framework.tensor_util import is_tensor  # noqa: F401,E402
from edgelite.ops.legacy_ops import arg_max, arg_min, executing_eagerly_outside_functions  # noqa: F401,E402
from edgelite.train.clip_ops import (  # noqa: F401,E402
    clip_by_average_norm, clip_by_global_norm, clip_by_norm, global_norm,
)
from edgelite.train._scopes import init_scope  # noqa: F401,E402
from edgelite.framework.meta_graph_protos import TensorInfo  # noqa: F401,E402
from edgelite.framework.tensor_protos import (  # noqa: F401,E402
    is_numeric_tensor, is_symbolic_tensor, make_ndarray, make_tensor_proto,
)
from edgelite.framework.compat_switches import (  # noqa: F401,E402
    control_flow_v2_enabled, disable_tensor_equality, disable_v2_tensorshape, enable_control_flow_v2,
    resource_variables_enabled,
)
from edgelite.ops.regularizers import no_regularizer  # noqa: F401,E402
from edgelite.ops.switch_case import switch_case  # noqa: F401,E402
from edgelite.ops.timing_ops import timestamp  # noqa: F401,E402
from edgelite import audio, debugging  # noqa: F401,E402
from edgelite.ops.check_ops import (  # noqa: F401,E402
    assert_equal, assert_greater, assert_greater_equal, assert_integer, assert_less, assert_less_equal, assert_near,
    assert_negative, assert_non_negative, assert_non_positive, assert_none_equal, assert_positive,
    assert_proper_iterable, assert_rank, assert_rank_at_least, assert_rank_in, assert_same_float_dtype,
    assert_scalar, assert_type,
)

# ---- training and summaries (packages of their own) -----------------------------------------------
from edgelite import summary, train  # noqa: F401,E402

# ---- tf.keras: Keras layers, Sequential/functional models, compile/fit in graph mode (keras) ---------------
from edgelite import keras  # noqa: F401,E402

# ---- tf.contrib: the TF 1.x contrib names that are core API underneath (rnn cells, layers.flatten, xavier) (tf1scripts) ----
from edgelite import contrib  # noqa: F401,E402
# ---- tf.estimator: Estimator over a model_fn, EstimatorSpec, ModeKeys, RunConfig, inputs (tf1survey) --------
from edgelite import estimator  # noqa: F401,E402
from edgelite.summary.run_metadata import RunMetadata, RunOptions  # noqa: F401,E402
