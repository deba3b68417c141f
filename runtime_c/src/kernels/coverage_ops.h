/* Registrations of whole-model ops: control flow over subgraphs, state, sequence models and
 * the rest of the builtins real converters emit beyond the core set in kernels.h. */
#ifndef EDGELITE_KERNELS_COVERAGE_OPS_H_
#define EDGELITE_KERNELS_COVERAGE_OPS_H_

#include "edgelite/common.h"

#ifdef __cplusplus
extern "C" {
#endif

/* control_flow.c */
extern const TfLiteRegistration el_ref_while;
extern const TfLiteRegistration el_ref_if;
extern const TfLiteRegistration el_ref_call_once;

/* resource_variables.c */
extern const TfLiteRegistration el_ref_var_handle;
extern const TfLiteRegistration el_ref_read_variable;
extern const TfLiteRegistration el_ref_assign_variable;

/* lstm.c (+ lstm_int8.c) */
extern const TfLiteRegistration el_ref_unidirectional_sequence_lstm;
extern const TfLiteRegistration el_ref_lstm;
extern const TfLiteRegistration el_ref_bidirectional_sequence_lstm; /* lstm_bidi.c */

/* svdf.c, rnn.c */
extern const TfLiteRegistration el_ref_svdf;
extern const TfLiteRegistration el_ref_unidirectional_sequence_rnn;
extern const TfLiteRegistration el_ref_rnn;
extern const TfLiteRegistration el_ref_bidirectional_sequence_rnn; /* rnn_bidi.c */

/* select.c, gather_nd.c, batch_matmul.c */
extern const TfLiteRegistration el_ref_select;
extern const TfLiteRegistration el_ref_select_v2;
extern const TfLiteRegistration el_ref_where;
extern const TfLiteRegistration el_ref_gather_nd;
extern const TfLiteRegistration el_ref_scatter_nd;
extern const TfLiteRegistration el_ref_batch_matmul;

/* topk.c, cumsum.c, mirror_pad.c, lrn.c, embedding_lookup.c */
extern const TfLiteRegistration el_ref_topk_v2;
extern const TfLiteRegistration el_ref_cumsum;
extern const TfLiteRegistration el_ref_mirror_pad;
extern const TfLiteRegistration el_ref_local_response_normalization;
extern const TfLiteRegistration el_ref_embedding_lookup;

/* space_depth.c */
extern const TfLiteRegistration el_ref_space_to_depth;
extern const TfLiteRegistration el_ref_depth_to_space;
extern const TfLiteRegistration el_ref_space_to_batch_nd;
extern const TfLiteRegistration el_ref_batch_to_space_nd;

/* fill_range.c */
extern const TfLiteRegistration el_ref_zeros_like;
extern const TfLiteRegistration el_ref_fill;
extern const TfLiteRegistration el_ref_range;
extern const TfLiteRegistration el_ref_broadcast_to;
extern const TfLiteRegistration el_ref_broadcast_args;
extern const TfLiteRegistration el_ref_rank;
extern const TfLiteRegistration el_ref_one_hot;

/* tile_reverse.c */
extern const TfLiteRegistration el_ref_tile;
extern const TfLiteRegistration el_ref_reverse_v2;
extern const TfLiteRegistration el_ref_reverse_sequence;

/* math_misc.c */
extern const TfLiteRegistration el_ref_add_n;
extern const TfLiteRegistration el_ref_atan2;
extern const TfLiteRegistration el_ref_bitwise_xor;
extern const TfLiteRegistration el_ref_right_shift;
extern const TfLiteRegistration el_ref_bucketize;
extern const TfLiteRegistration el_ref_bitcast;

/* segment.c */
extern const TfLiteRegistration el_ref_segment_sum;
extern const TfLiteRegistration el_ref_unsorted_segment_sum;
extern const TfLiteRegistration el_ref_unsorted_segment_prod;
extern const TfLiteRegistration el_ref_unsorted_segment_max;
extern const TfLiteRegistration el_ref_unsorted_segment_min;

/* matrix_diag.c, dynamic_update_slice.c, reduce_bool.c */
extern const TfLiteRegistration el_ref_matrix_diag;
extern const TfLiteRegistration el_ref_matrix_set_diag;
extern const TfLiteRegistration el_ref_dynamic_update_slice;
extern const TfLiteRegistration el_ref_reduce_any;
extern const TfLiteRegistration el_ref_reduce_all;

/* nms.c */
extern const TfLiteRegistration el_ref_non_max_suppression_v4;
extern const TfLiteRegistration el_ref_non_max_suppression_v5;

/* hashtable.c */
extern const TfLiteRegistration el_ref_hashtable;
extern const TfLiteRegistration el_ref_hashtable_import;
extern const TfLiteRegistration el_ref_hashtable_find;
extern const TfLiteRegistration el_ref_hashtable_size;

/* unique.c, sparse_to_dense.c */
extern const TfLiteRegistration el_ref_unique;
extern const TfLiteRegistration el_ref_sparse_to_dense;

/* detection_postprocess.c (the custom op TFLite_Detection_PostProcess) */
extern const TfLiteRegistration el_ref_detection_postprocess;

#ifdef __cplusplus
}
#endif
#endif /* EDGELITE_KERNELS_COVERAGE_OPS_H_ */
