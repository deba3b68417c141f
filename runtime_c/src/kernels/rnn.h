/* The float RNN step shared by rnn.c (RNN, UNIDIRECTIONAL_SEQUENCE_RNN) and rnn_bidi.c
 * (BIDIRECTIONAL_SEQUENCE_RNN). */
#ifndef EDGELITE_KERNELS_RNN_H_
#define EDGELITE_KERNELS_RNN_H_

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

#ifdef __cplusplus
}
#endif
#endif /* EDGELITE_KERNELS_RNN_H_ */
