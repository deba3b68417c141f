/* BIDIRECTIONAL_SEQUENCE_RNN (float, and hybrid: int8 weights): a forward RNN over the sequence
 * and a backward one over it in reverse, each with its own weights and hidden state (variable
 * inputs 4 and 8), writing the output of time step t at position t. merge_outputs puts both in
 * one output, forward units then backward units per step; otherwise output 1 takes the backward
 * units.
 *
 * The optional operands follow TFLite: an auxiliary input with auxiliary weights for both cells
 * adds W_aux aux to each step (stacking with cross links); an auxiliary input without them is the
 * backward cell's input instead of the main one (time-major only, as in TFLite). */
#include <string.h>

#include "edgelite/builtin_op_data.h"
#include "kernels/coverage_ops.h"
#include "kernels/kernel_util.h"
#include "kernels/hybrid_seq.h"
#include "kernels/kernels.h"
#include "kernels/quant_util.h"
#include "kernels/rnn.h"
#include "kernels/seq_util.h"

enum {
  IN = 0, FW_W = 1, FW_W_RECUR = 2, FW_BIAS = 3, FW_HIDDEN = 4,
  BW_W = 5, BW_W_RECUR = 6, BW_BIAS = 7, BW_HIDDEN = 8,
  AUX_IN = 9, FW_W_AUX = 10, BW_W_AUX = 11, NUM_INPUTS = 12
};

typedef struct bidi_rnn_data {
  int batch, time, n_input, n_aux, fw_units, bw_units;
  bool time_major, merge, cross_links, bw_reads_aux;
  TfLiteFusedActivation activation;
  /* Hybrid (int8 weights): per-tensor scales of W, W_aux, W_h per cell, their row sums (fw
   * then bw, W, W_aux, W_h each), and the step scratch. */
  bool hybrid, asymmetric;
  float scales[2][3];
  int32_t* sums;
  int sums_cap;
  int scratch;
} bidi_rnn_data;

static void* bidi_rnn_init(TfLiteContext* ctx, const char* buf, size_t len) {
  (void)ctx;
  (void)buf;
  (void)len;
  return el_kernel_alloc(sizeof(bidi_rnn_data));
}

static TfLiteStatus check_float(TfLiteContext* ctx, const TfLiteTensor* t, int rank) {
  EL_ENSURE_MSG(ctx, t->type == kTfLiteFloat32, "BIDIRECTIONAL_SEQUENCE_RNN runs float biases, states and inputs.");
  EL_ENSURE_EQ(ctx, el_ndims(t), rank);
  return kTfLiteOk;
}

/* A weight matrix: float, or (hybrid) constant int8. */
static TfLiteStatus check_weights(TfLiteContext* ctx, const bidi_rnn_data* d, const TfLiteTensor* t) {
  if (d->hybrid) {
    EL_ENSURE_MSG(ctx, t->type == kTfLiteInt8 && el_is_constant_or_persistent(t),
                  "Hybrid BIDIRECTIONAL_SEQUENCE_RNN weights must be constant int8 tensors.");
  } else {
    EL_ENSURE_MSG(ctx, t->type == kTfLiteFloat32, "BIDIRECTIONAL_SEQUENCE_RNN weights must all be float or int8.");
  }
  EL_ENSURE_EQ(ctx, el_ndims(t), 2);
  return kTfLiteOk;
}

/* One cell's weights, bias and state: W [units, n_input], W_h [units, units], bias [units],
 * state [batch, units]; returns the units. */
static TfLiteStatus check_cell(TfLiteContext* ctx, const TfLiteNode* node, const bidi_rnn_data* d, int first,
                               int* units) {
  const TfLiteTensor *w, *wh, *bias, *state;
  EL_ENSURE_OK(ctx, el_get_input(ctx, node, first, &w));
  EL_ENSURE_OK(ctx, el_get_input(ctx, node, first + 1, &wh));
  EL_ENSURE_OK(ctx, el_get_input(ctx, node, first + 2, &bias));
  EL_ENSURE_OK(ctx, el_get_input(ctx, node, first + 3, &state));
  EL_ENSURE_OK(ctx, check_weights(ctx, d, w));
  EL_ENSURE_OK(ctx, check_weights(ctx, d, wh));
  EL_ENSURE_OK(ctx, check_float(ctx, bias, 1));
  EL_ENSURE_OK(ctx, check_float(ctx, state, 2));
  *units = el_dim(w, 0);
  EL_ENSURE_EQ(ctx, el_dim(w, 1), d->n_input);
  EL_ENSURE_EQ(ctx, el_dim(wh, 0), *units);
  EL_ENSURE_EQ(ctx, el_dim(wh, 1), *units);
  EL_ENSURE_EQ(ctx, el_dim(bias, 0), *units);
  EL_ENSURE_EQ(ctx, el_dim(state, 0), d->batch);
  EL_ENSURE_EQ(ctx, el_dim(state, 1), *units);
  return kTfLiteOk;
}

static TfLiteStatus check_aux(TfLiteContext* ctx, const TfLiteNode* node, const TfLiteTensor* in, bidi_rnn_data* d) {
  const TfLiteTensor* aux = el_optional_input(ctx, node, AUX_IN);
  const TfLiteTensor* fw_w_aux = el_optional_input(ctx, node, FW_W_AUX);
  const TfLiteTensor* bw_w_aux = el_optional_input(ctx, node, BW_W_AUX);
  EL_ENSURE_MSG(ctx, (fw_w_aux == NULL) == (bw_w_aux == NULL),
                "BIDIRECTIONAL_SEQUENCE_RNN: auxiliary weights must be given for both cells or neither.");
  d->cross_links = fw_w_aux != NULL;
  d->bw_reads_aux = aux != NULL && !d->cross_links;
  d->n_aux = 0;
  if (aux == NULL) {
    EL_ENSURE_MSG(ctx, !d->cross_links, "BIDIRECTIONAL_SEQUENCE_RNN: auxiliary weights without an auxiliary input.");
    return kTfLiteOk;
  }
  EL_ENSURE_OK(ctx, check_float(ctx, aux, 3));
  EL_ENSURE_EQ(ctx, el_dim(aux, 0), el_dim(in, 0));
  EL_ENSURE_EQ(ctx, el_dim(aux, 1), el_dim(in, 1));
  if (d->bw_reads_aux) {
    /* The backward cell reads it with the main input's weights. */
    EL_ENSURE_EQ(ctx, el_dim(aux, 2), d->n_input);
    return kTfLiteOk;
  }
  d->n_aux = el_dim(aux, 2);
  EL_ENSURE_OK(ctx, check_weights(ctx, d, fw_w_aux));
  EL_ENSURE_OK(ctx, check_weights(ctx, d, bw_w_aux));
  EL_ENSURE_EQ(ctx, el_dim(fw_w_aux, 0), d->fw_units);
  EL_ENSURE_EQ(ctx, el_dim(fw_w_aux, 1), d->n_aux);
  EL_ENSURE_EQ(ctx, el_dim(bw_w_aux, 0), d->bw_units);
  EL_ENSURE_EQ(ctx, el_dim(bw_w_aux, 1), d->n_aux);
  return kTfLiteOk;
}

/* Weight operand k (W, W_aux, W_h) of cell c (fw, bw); NULL for an absent W_aux. */
static const TfLiteTensor* cell_weights(TfLiteContext* ctx, const TfLiteNode* node, int c, int k) {
  static const int kOperand[2][3] = {{FW_W, FW_W_AUX, FW_W_RECUR}, {BW_W, BW_W_AUX, BW_W_RECUR}};
  return el_optional_input(ctx, node, kOperand[c][k]);
}

static int cell_units(const bidi_rnn_data* d, int c) { return c == 0 ? d->fw_units : d->bw_units; }

/* Row sums of every constant weight matrix (taken once, here) and the step scratch. */
static TfLiteStatus prepare_hybrid(TfLiteContext* ctx, const TfLiteNode* node, bidi_rnn_data* d) {
  const int cols[3] = {d->n_input, d->n_aux, 0};
  EL_ENSURE_OK(ctx, el_q_channel_buffer(ctx, 3 * (d->fw_units + d->bw_units), sizeof(int32_t), &d->sums_cap,
                                        (void**)&d->sums));
  int32_t* sums = d->sums;
  size_t bytes = 0;
  for (int c = 0; c < 2; ++c) {
    const int units = cell_units(d, c);
    for (int k = 0; k < 3; ++k) {
      const TfLiteTensor* w = cell_weights(ctx, node, c, k);
      d->scales[c][k] = w != NULL ? el_q_scale(w) : 0.0f;
      if (w != NULL && (k != 1 || d->n_aux > 0)) el_hybrid_row_sums(w->data.int8, units, k == 2 ? units : cols[k], sums);
      sums += units;
    }
    const size_t b = el_rnn_hybrid_scratch_bytes(d->time_major ? d->batch : 1, d->n_input, d->n_aux, units);
    if (b > bytes) bytes = b;
  }
  return ctx->RequestScratchBufferInArena(ctx, bytes, &d->scratch);
}

static TfLiteStatus bidi_rnn_prepare(TfLiteContext* ctx, TfLiteNode* node) {
  EL_ENSURE_OK(ctx, el_check_user_data(ctx, node));
  EL_ENSURE_MSG(ctx, node->builtin_data != NULL, "BIDIRECTIONAL_SEQUENCE_RNN has no options.");
  const TfLiteBidirectionalSequenceRNNParams* p = node->builtin_data;
  bidi_rnn_data* d = node->user_data;
  d->time_major = p->time_major;
  d->merge = p->merge_outputs;
  d->activation = p->activation;
  EL_ENSURE_OK(ctx, el_check_io_count(ctx, node, NUM_INPUTS, d->merge ? 1 : 2));
  EL_ENSURE_MSG(ctx, el_seq_activation_ok(d->activation), "BIDIRECTIONAL_SEQUENCE_RNN: unsupported activation.");
  const TfLiteTensor* in;
  EL_ENSURE_OK(ctx, el_get_input(ctx, node, IN, &in));
  if (in->type != kTfLiteFloat32) return el_unsupported_type(ctx, "BIDIRECTIONAL_SEQUENCE_RNN", in->type);
  EL_ENSURE_EQ(ctx, el_ndims(in), 3);
  d->time = el_dim(in, d->time_major ? 0 : 1);
  d->batch = el_dim(in, d->time_major ? 1 : 0);
  d->n_input = el_dim(in, 2);
  const TfLiteTensor* fw_w;
  EL_ENSURE_OK(ctx, el_get_input(ctx, node, FW_W, &fw_w));
  d->hybrid = fw_w->type == kTfLiteInt8;
  d->asymmetric = p->asymmetric_quantize_inputs;
  EL_ENSURE_OK(ctx, check_cell(ctx, node, d, FW_W, &d->fw_units));
  EL_ENSURE_OK(ctx, check_cell(ctx, node, d, BW_W, &d->bw_units));
  EL_ENSURE_OK(ctx, check_aux(ctx, node, in, d));
  if (d->hybrid) EL_ENSURE_OK(ctx, prepare_hybrid(ctx, node, d));
  TfLiteTensor* fw_out;
  EL_ENSURE_OK(ctx, el_get_output(ctx, node, 0, &fw_out));
  EL_ENSURE_TYPES_EQ(ctx, fw_out->type, kTfLiteFloat32);
  int dims[3] = {el_dim(in, 0), el_dim(in, 1), d->merge ? d->fw_units + d->bw_units : d->fw_units};
  EL_ENSURE_OK(ctx, el_resize(ctx, fw_out, 3, dims));
  if (d->merge) return kTfLiteOk;
  TfLiteTensor* bw_out;
  EL_ENSURE_OK(ctx, el_get_output(ctx, node, 1, &bw_out));
  EL_ENSURE_TYPES_EQ(ctx, bw_out->type, kTfLiteFloat32);
  int bw_dims[3] = {el_dim(in, 0), el_dim(in, 1), d->bw_units};
  return el_resize(ctx, bw_out, 3, bw_dims);
}

/* One direction over the whole sequence. Steps of a time-major sequence take all batch rows at
 * once; a batch-major one runs each row through time on its own. */
typedef struct pass {
  const float *x, *aux, *w, *w_aux, *wh, *bias;
  float *h, *out;
  int units, out_stride;
  bool backward;
} pass;

static void run_pass(const bidi_rnn_data* d, const pass* p) {
  const int nb = d->batch, nt = d->time, ni = d->n_input, na = d->n_aux;
  for (int k = 0; k < nt; ++k) {
    const int s = p->backward ? nt - 1 - k : k;
    if (d->time_major) {
      el_rnn_step_f32(nb, ni, na, p->units, d->activation, p->x + (size_t)s * nb * ni,
                      na ? p->aux + (size_t)s * nb * na : NULL, p->w, p->w_aux, p->wh, p->bias, p->h,
                      p->out + (size_t)s * nb * p->out_stride, p->out_stride);
      continue;
    }
    for (int b = 0; b < nb; ++b) {
      const size_t row = (size_t)b * nt + s;
      el_rnn_step_f32(1, ni, na, p->units, d->activation, p->x + row * ni, na ? p->aux + row * na : NULL, p->w,
                      p->w_aux, p->wh, p->bias, p->h + (size_t)b * p->units, p->out + row * p->out_stride,
                      p->out_stride);
    }
  }
}

static const float* fdata(TfLiteContext* ctx, const TfLiteNode* node, int i) {
  const TfLiteTensor* t = el_optional_input(ctx, node, i);
  return t ? t->data.f : NULL;
}

/* A hybrid pass (as run_pass). TFLite's hybrid time-major kernel runs each cell over the whole
 * sequence once per time step, the states carrying on; so does this one. */
static void run_hybrid_pass(const bidi_rnn_data* d, const el_rnn_hybrid_cell* c, const float* x, const float* aux,
                            float* h, float* out, int out_stride, bool backward, char* scratch) {
  const int nb = d->batch, nt = d->time, ni = d->n_input, na = d->n_aux;
  const int repeats = d->time_major ? nt : 1;
  for (int r = 0; r < repeats; ++r) {
    for (int k = 0; k < nt; ++k) {
      const int s = backward ? nt - 1 - k : k;
      if (d->time_major) {
        el_rnn_step_hybrid(c, nb, x + (size_t)s * nb * ni, na ? aux + (size_t)s * nb * na : NULL, h,
                           out + (size_t)s * nb * out_stride, out_stride, scratch);
        continue;
      }
      for (int b = 0; b < nb; ++b) {
        const size_t row = (size_t)b * nt + s;
        el_rnn_step_hybrid(c, 1, x + row * ni, na ? aux + row * na : NULL, h + (size_t)b * c->units,
                           out + row * out_stride, out_stride, scratch);
      }
    }
  }
}

static TfLiteStatus hybrid_invoke(TfLiteContext* ctx, TfLiteNode* node, const bidi_rnn_data* d) {
  char* scratch = ctx->GetScratchBuffer(ctx, d->scratch);
  float* fw_out = ctx->tensors[node->outputs->data[0]].data.f;
  const int merged = d->fw_units + d->bw_units;
  const float* x = fdata(ctx, node, IN);
  const float* aux = fdata(ctx, node, AUX_IN);
  const int32_t* sums = d->sums;
  for (int c = 0; c < 2; ++c) {
    const int units = cell_units(d, c);
    const TfLiteTensor* w_aux = cell_weights(ctx, node, c, 1);
    const el_rnn_hybrid_cell cell = {d->n_input, d->n_aux, units, d->activation, d->asymmetric,
                                     cell_weights(ctx, node, c, 0)->data.int8, w_aux ? w_aux->data.int8 : NULL,
                                     cell_weights(ctx, node, c, 2)->data.int8, d->scales[c][0], d->scales[c][1],
                                     d->scales[c][2], sums, sums + units, sums + 2 * units,
                                     fdata(ctx, node, c == 0 ? FW_BIAS : BW_BIAS)};
    sums += 3 * units;
    float* h = ctx->tensors[node->inputs->data[c == 0 ? FW_HIDDEN : BW_HIDDEN]].data.f;
    if (c == 0) {
      run_hybrid_pass(d, &cell, x, d->cross_links ? aux : NULL, h, fw_out, d->merge ? merged : units, false, scratch);
    } else {
      float* out = d->merge ? fw_out + d->fw_units : ctx->tensors[node->outputs->data[1]].data.f;
      run_hybrid_pass(d, &cell, d->bw_reads_aux && d->time_major ? aux : x, d->cross_links ? aux : NULL, h, out,
                      d->merge ? merged : units, true, scratch);
    }
  }
  return kTfLiteOk;
}

static TfLiteStatus bidi_rnn_invoke(TfLiteContext* ctx, TfLiteNode* node) {
  const bidi_rnn_data* d = node->user_data;
  if (d->hybrid) return hybrid_invoke(ctx, node, d);
  float* fw_out = ctx->tensors[node->outputs->data[0]].data.f;
  const int merged = d->fw_units + d->bw_units;
  const float* x = fdata(ctx, node, IN);
  const float* aux = fdata(ctx, node, AUX_IN);
  const pass fw = {x, d->cross_links ? aux : NULL, fdata(ctx, node, FW_W), fdata(ctx, node, FW_W_AUX),
                   fdata(ctx, node, FW_W_RECUR), fdata(ctx, node, FW_BIAS),
                   ctx->tensors[node->inputs->data[FW_HIDDEN]].data.f, fw_out, d->fw_units,
                   d->merge ? merged : d->fw_units, false};
  run_pass(d, &fw);
  /* TFLite hands the backward cell the auxiliary input only in time-major order; a batch-major
   * backward cell reads the main input all the same. */
  const pass bw = {d->bw_reads_aux && d->time_major ? aux : x, d->cross_links ? aux : NULL, fdata(ctx, node, BW_W),
                   fdata(ctx, node, BW_W_AUX), fdata(ctx, node, BW_W_RECUR), fdata(ctx, node, BW_BIAS),
                   ctx->tensors[node->inputs->data[BW_HIDDEN]].data.f,
                   d->merge ? fw_out + d->fw_units : ctx->tensors[node->outputs->data[1]].data.f, d->bw_units,
                   d->merge ? merged : d->bw_units, true};
  run_pass(d, &bw);
  return kTfLiteOk;
}

const TfLiteRegistration el_ref_bidirectional_sequence_rnn = EL_REGISTRATION(
    bidi_rnn_init, el_kernel_free, bidi_rnn_prepare, bidi_rnn_invoke, EL_OP_BIDIRECTIONAL_SEQUENCE_RNN);
