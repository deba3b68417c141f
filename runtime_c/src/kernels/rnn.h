/* The float RNN step shared by rnn.c (RNN, UNIDIRECTIONAL_SEQUENCE_RNN) and rnn_bidi.c
 * (BIDIRECTIONAL_SEQUENCE_RNN). */
#ifndef EDGELITE_KERNELS_RNN_H_
#define EDGELITE_KERNELS_RNN_H_

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "edgelite/builtin_op_data.h"

#ifdef __cplusplus
extern "C" {
#endif

/* One step for `nb` batch rows: row r of out (rows out_stride floats apart) becomes
 * act(bias + W_x x_r + W_aux aux_r + W_h h_r), then h_r takes it. W_x is [units, n_input], W_aux
 * [units, n_aux] (no auxiliary term when n_aux is 0), W_h [units, units]; x, aux and h rows are
 * packed. */
void el_rnn_step_f32(int nb, int n_input, int n_aux, int units, TfLiteFusedActivation act, const float* x,
                     const float* aux, const float* wx, const float* w_aux, const float* wh, const float* bias, float* h,
                     float* out, int out_stride);

/* A hybrid cell: int8 weights with per-tensor scales, and their row sums for asymmetric inputs
 * (W_aux and its sums only when n_aux > 0). */
typedef struct el_rnn_hybrid_cell {
  int n_input, n_aux, units;
  TfLiteFusedActivation activation;
  bool asymmetric;
  const int8_t *wx, *w_aux, *wh;
  float wx_scale, w_aux_scale, wh_scale;
  const int32_t *sums_x, *sums_aux, *sums_h;
  const float* bias;
} el_rnn_hybrid_cell;

/* Bytes of scratch el_rnn_step_hybrid needs for nb rows. */
size_t el_rnn_hybrid_scratch_bytes(int nb, int n_input, int n_aux, int units);

/* As el_rnn_step_f32 with the cell's int8 weights: x, aux and h are quantized per row on the fly
 * (symmetric, or asymmetric), and a product whose operand rows are all zero is skipped, as
 * TFLite's RnnBatchStep does. */
void el_rnn_step_hybrid(const el_rnn_hybrid_cell* c, int nb, const float* x, const float* aux, float* h, float* out,
                        int out_stride, char* scratch);

#ifdef __cplusplus
}
#endif
#endif /* EDGELITE_KERNELS_RNN_H_ */
