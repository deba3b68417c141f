/* Shared by the LSTM kernels (lstm.c: float, and the shape checks; lstm_int8.c: TFLite's
 * integer 8x8->16 LSTM; lstm_bidi.c: the bidirectional float LSTM): operand positions, the
 * checked geometry of one node and the float step. */
#ifndef EDGELITE_KERNELS_LSTM_H_
#define EDGELITE_KERNELS_LSTM_H_

#include <stdbool.h>
#include <stddef.h>

#include "edgelite/builtin_op_data.h"
#include "edgelite/common.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Operand positions of LSTM and UNIDIRECTIONAL_SEQUENCE_LSTM (schema order). */
enum {
  EL_LSTM_INPUT = 0,
  EL_LSTM_W_INPUT_I = 1,  /* input-to-input weights, absent with CIFG */
  EL_LSTM_W_INPUT_F = 2,
  EL_LSTM_W_INPUT_C = 3,
  EL_LSTM_W_INPUT_O = 4,
  EL_LSTM_W_RECUR_I = 5,  /* absent with CIFG */
  EL_LSTM_W_RECUR_F = 6,
  EL_LSTM_W_RECUR_C = 7,
  EL_LSTM_W_RECUR_O = 8,
  EL_LSTM_W_PEEP_I = 9,   /* peephole weights, optional */
  EL_LSTM_W_PEEP_F = 10,
  EL_LSTM_W_PEEP_O = 11,
  EL_LSTM_BIAS_I = 12,    /* absent with CIFG */
  EL_LSTM_BIAS_F = 13,
  EL_LSTM_BIAS_C = 14,
  EL_LSTM_BIAS_O = 15,
  EL_LSTM_W_PROJ = 16,    /* optional */
  EL_LSTM_BIAS_PROJ = 17, /* optional */
  EL_LSTM_OUTPUT_STATE = 18,
  EL_LSTM_CELL_STATE = 19,
  EL_LSTM_NORM_I = 20,    /* layer-norm coefficients, optional */
  EL_LSTM_NORM_F = 21,
  EL_LSTM_NORM_C = 22,
  EL_LSTM_NORM_O = 23,
  EL_LSTM_NUM_OPERANDS = 24
};

/* The operands of a node (NULL when absent) and its geometry. */
typedef struct el_lstm_geometry {
  const TfLiteTensor* t[EL_LSTM_NUM_OPERANDS];
  int n_batch, n_time, n_input, n_cell, n_output;
  bool time_major;
  bool use_cifg, use_peephole, use_layer_norm, use_projection;
  TfLiteFusedActivation activation;
  float cell_clip, proj_clip;
  /* Auxiliary input weights (bidirectional LSTM with cross links): aux-input-to-{input, forget,
   * cell, output}, [n_cell, n_aux_input]; all NULL, and n_aux_input 0, when absent. */
  const TfLiteTensor* aux_w[4];
  int n_aux_input;
} el_lstm_geometry;

/* TFLite's CheckInputTensorDimensions on g->t (n_input and n_batch set): which optional groups
 * are present, their shapes; sets n_cell, n_output and the use_* flags. */
TfLiteStatus el_lstm_check_geometry(TfLiteContext* ctx, el_lstm_geometry* g);

/* Floats of scratch one float step of `nb` rows needs. */
size_t el_lstm_scratch_floats(const el_lstm_geometry* g, int nb);

/* One float time step for `nb` rows: x [nb, n_input] (and aux [nb, n_aux_input] when the
 * geometry has auxiliary weights) -> out rows out_stride floats apart; h and c are updated. */
void el_lstm_step_f32(const el_lstm_geometry* g, int nb, const float* x, const float* aux, float* h, float* c,
                      float* out, int out_stride, float* scratch);

/* Hybrid state of one node (lstm_hybrid.c): float activations, int8 weights. */
typedef struct el_lstm_hybrid el_lstm_hybrid;

TfLiteStatus el_lstm_hybrid_prepare(TfLiteContext* ctx, TfLiteNode* node, const el_lstm_geometry* g, bool asymmetric,
                                    el_lstm_hybrid** state);
TfLiteStatus el_lstm_hybrid_invoke(TfLiteContext* ctx, TfLiteNode* node, const el_lstm_geometry* g,
                                   const el_lstm_hybrid* state);

/* Integer state of one node (lstm_int8.c); opaque to lstm.c. */
typedef struct el_lstm_int8 el_lstm_int8;

TfLiteStatus el_lstm_int8_prepare(TfLiteContext* ctx, TfLiteNode* node, const el_lstm_geometry* g,
                                  el_lstm_int8** state);
TfLiteStatus el_lstm_int8_invoke(TfLiteContext* ctx, TfLiteNode* node, const el_lstm_geometry* g,
                                 const el_lstm_int8* state);

/* Per-node state of the LSTM registrations (first in the optimized kernel's state, so the
 * reference prepare and invoke run on the same user_data). */
typedef struct el_lstm_data {
  el_lstm_geometry g; /* geometry from prepare; tensor pointers refreshed at invoke */
  int scratch;        /* float path: 4 x step batch x n_cell floats */
  el_lstm_int8* q;
  el_lstm_hybrid* hybrid; /* set when the weights are int8 under float activations */
  bool asymmetric;
} el_lstm_data;

#ifdef __cplusplus
}
#endif
#endif /* EDGELITE_KERNELS_LSTM_H_ */
