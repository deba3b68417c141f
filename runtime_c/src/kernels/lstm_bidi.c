/* BIDIRECTIONAL_SEQUENCE_LSTM (float): a forward LSTM over the sequence and a backward one over
 * it in reverse, each a full LSTM of lstm.c (CIFG, peephole, projection, clipping; no layer
 * normalisation) with its own weights and output/cell states (variable inputs 35-38), writing the
 * output of time step t at position t. merge_outputs puts both in one output, forward units then
 * backward units per step; otherwise output 1 takes the backward units.
 *
 * The optional operands follow TFLite: an auxiliary input (39) with auxiliary weights for both
 * cells (40-43, 44-47) adds W_aux aux to every gate (stacking with cross links); an auxiliary input
 * without them is the backward cell's input instead of the main one.
 *
 * Each batch row keeps its own state rows. TFLite offsets the states of a batch-major pass by the
 * output's row width, which for merged outputs is both cells' units: past batch row 0 it reads and
 * writes outside the state tensors, so the two runtimes agree there for a batch of one only. */
#include <string.h>

#include "edgelite/builtin_op_data.h"
#include "kernels/coverage_ops.h"
#include "kernels/kernel_util.h"
#include "kernels/kernels.h"
#include "kernels/lstm.h"
#include "kernels/seq_util.h"

enum {
  IN = 0,
  FW_FIRST = 1,  /* fw operands 1-17 in LSTM order (lstm.h positions 1-17) */
  BW_FIRST = 18, /* bw operands 18-34 likewise */
  FW_H = 35, FW_C = 36, BW_H = 37, BW_C = 38,
  AUX_IN = 39, FW_AUX_FIRST = 40, BW_AUX_FIRST = 44,
  NUM_INPUTS = 48
};

typedef struct bidi_lstm_data {
  el_lstm_geometry fw, bw;
  bool merge, cross_links, bw_reads_aux;
  int scratch;
} bidi_lstm_data;

static void* bidi_lstm_init(TfLiteContext* ctx, const char* buf, size_t len) {
  (void)ctx;
  (void)buf;
  (void)len;
  return el_kernel_alloc(sizeof(bidi_lstm_data));
}

/* Points a direction's geometry at its operands (also at invoke: tensor pointers may move). */
static void gather(TfLiteContext* ctx, const TfLiteNode* node, const bidi_lstm_data* d, bool backward,
                   el_lstm_geometry* g) {
  memset(g->t, 0, sizeof g->t);
  const TfLiteTensor* aux = el_optional_input(ctx, node, AUX_IN);
  g->t[EL_LSTM_INPUT] = backward && d->bw_reads_aux ? aux : el_optional_input(ctx, node, IN);
  const int first = backward ? BW_FIRST : FW_FIRST;
  for (int i = EL_LSTM_W_INPUT_I; i <= EL_LSTM_BIAS_PROJ; ++i) g->t[i] = el_optional_input(ctx, node, first + i - 1);
  g->t[EL_LSTM_OUTPUT_STATE] = el_optional_input(ctx, node, backward ? BW_H : FW_H);
  g->t[EL_LSTM_CELL_STATE] = el_optional_input(ctx, node, backward ? BW_C : FW_C);
  const int aux_first = backward ? BW_AUX_FIRST : FW_AUX_FIRST;
  for (int k = 0; k < 4; ++k) g->aux_w[k] = d->cross_links ? el_optional_input(ctx, node, aux_first + k) : NULL;
}

static TfLiteStatus check_float(TfLiteContext* ctx, const TfLiteTensor* t) {
  if (t != NULL && t->type != kTfLiteFloat32) {
    ctx->ReportError(ctx, "BIDIRECTIONAL_SEQUENCE_LSTM runs float tensors only; an operand is %s.",
                     TfLiteTypeGetName(t->type));
    return kTfLiteError;
  }
  return kTfLiteOk;
}

static TfLiteStatus check_aux_weights(TfLiteContext* ctx, const el_lstm_geometry* g) {
  if (g->n_aux_input == 0) return kTfLiteOk;
  for (int k = 0; k < 4; ++k) {
    const TfLiteTensor* w = g->aux_w[k];
    if (k == 0 && g->use_cifg) {
      EL_ENSURE_MSG(ctx, w == NULL, "BIDIRECTIONAL_SEQUENCE_LSTM: aux input-gate weights on a CIFG cell.");
      continue;
    }
    EL_ENSURE_MSG(ctx, w != NULL, "BIDIRECTIONAL_SEQUENCE_LSTM: auxiliary weights missing.");
    EL_ENSURE_OK(ctx, check_float(ctx, w));
    EL_ENSURE_EQ(ctx, el_ndims(w), 2);
    EL_ENSURE_EQ(ctx, el_dim(w, 0), g->n_cell);
    EL_ENSURE_EQ(ctx, el_dim(w, 1), g->n_aux_input);
  }
  return kTfLiteOk;
}

static TfLiteStatus prepare_direction(TfLiteContext* ctx, const TfLiteNode* node, bidi_lstm_data* d,
                                      const TfLiteBidirectionalSequenceLSTMParams* p, const TfLiteTensor* aux,
                                      bool backward) {
  el_lstm_geometry* g = backward ? &d->bw : &d->fw;
  gather(ctx, node, d, backward, g);
  const TfLiteTensor* in = g->t[EL_LSTM_INPUT];
  g->activation = p->activation;
  g->cell_clip = p->cell_clip;
  g->proj_clip = p->proj_clip;
  g->time_major = p->time_major;
  g->n_time = el_dim(in, g->time_major ? 0 : 1);
  g->n_batch = el_dim(in, g->time_major ? 1 : 0);
  g->n_input = el_dim(in, 2);
  g->n_aux_input = d->cross_links ? el_dim(aux, 2) : 0;
  EL_ENSURE_OK(ctx, el_lstm_check_geometry(ctx, g));
  for (int i = 1; i < EL_LSTM_NUM_OPERANDS; ++i) EL_ENSURE_OK(ctx, check_float(ctx, g->t[i]));
  return check_aux_weights(ctx, g);
}

static TfLiteStatus resize_output(TfLiteContext* ctx, const TfLiteNode* node, int index, const TfLiteTensor* in,
                                  int units) {
  TfLiteTensor* out;
  EL_ENSURE_OK(ctx, el_get_output(ctx, node, index, &out));
  EL_ENSURE_TYPES_EQ(ctx, out->type, kTfLiteFloat32);
  int dims[3] = {el_dim(in, 0), el_dim(in, 1), units};
  return el_resize(ctx, out, 3, dims);
}

static TfLiteStatus bidi_lstm_prepare(TfLiteContext* ctx, TfLiteNode* node) {
  EL_ENSURE_OK(ctx, el_check_user_data(ctx, node));
  EL_ENSURE_MSG(ctx, node->builtin_data != NULL, "BIDIRECTIONAL_SEQUENCE_LSTM has no options.");
  const TfLiteBidirectionalSequenceLSTMParams* p = node->builtin_data;
  bidi_lstm_data* d = node->user_data;
  d->merge = p->merge_outputs;
  EL_ENSURE_OK(ctx, el_check_io_count(ctx, node, NUM_INPUTS, d->merge ? 1 : 2));
  EL_ENSURE_MSG(ctx, el_seq_activation_ok(p->activation), "BIDIRECTIONAL_SEQUENCE_LSTM: unsupported activation.");
  EL_ENSURE(ctx, p->cell_clip >= 0.0f && p->proj_clip >= 0.0f);
  const TfLiteTensor* in;
  EL_ENSURE_OK(ctx, el_get_input(ctx, node, IN, &in));
  if (in->type != kTfLiteFloat32) return el_unsupported_type(ctx, "BIDIRECTIONAL_SEQUENCE_LSTM", in->type);
  EL_ENSURE_EQ(ctx, el_ndims(in), 3);
  /* Cross links when the forget-gate auxiliary weights are there (TFLite's test). */
  const TfLiteTensor* aux = el_optional_input(ctx, node, AUX_IN);
  d->cross_links = el_optional_input(ctx, node, FW_AUX_FIRST + 1) != NULL;
  d->bw_reads_aux = aux != NULL && !d->cross_links;
  EL_ENSURE_MSG(ctx, aux != NULL || !d->cross_links,
                "BIDIRECTIONAL_SEQUENCE_LSTM: auxiliary weights without an auxiliary input.");
  if (aux != NULL) {
    EL_ENSURE_OK(ctx, check_float(ctx, aux));
    EL_ENSURE_EQ(ctx, el_ndims(aux), 3);
    EL_ENSURE_EQ(ctx, el_dim(aux, 0), el_dim(in, 0));
    EL_ENSURE_EQ(ctx, el_dim(aux, 1), el_dim(in, 1));
  }
  if (!d->cross_links) {
    for (int i = FW_AUX_FIRST; i < NUM_INPUTS; ++i) {
      EL_ENSURE_MSG(ctx, el_optional_input(ctx, node, i) == NULL,
                    "BIDIRECTIONAL_SEQUENCE_LSTM: auxiliary weights must be all present or all absent.");
    }
  }
  EL_ENSURE_OK(ctx, prepare_direction(ctx, node, d, p, aux, false));
  EL_ENSURE_OK(ctx, prepare_direction(ctx, node, d, p, aux, true));
  const int fw_units = d->fw.n_output, bw_units = d->bw.n_output;
  EL_ENSURE_OK(ctx, resize_output(ctx, node, 0, in, d->merge ? fw_units + bw_units : fw_units));
  if (!d->merge) EL_ENSURE_OK(ctx, resize_output(ctx, node, 1, in, bw_units));
  const int step_batch = d->fw.time_major ? d->fw.n_batch : 1;
  size_t floats = el_lstm_scratch_floats(&d->fw, step_batch);
  const size_t bw_floats = el_lstm_scratch_floats(&d->bw, step_batch);
  if (bw_floats > floats) floats = bw_floats;
  return ctx->RequestScratchBufferInArena(ctx, floats * sizeof(float), &d->scratch);
}

/* One direction over the sequence, output rows `stride` floats apart from `out`. */
static void run_pass(const el_lstm_geometry* g, const float* aux, bool backward, float* out, int stride,
                     float* scratch) {
  const float* x = g->t[EL_LSTM_INPUT]->data.f;
  float* h = g->t[EL_LSTM_OUTPUT_STATE]->data.f;
  float* c = g->t[EL_LSTM_CELL_STATE]->data.f;
  const int nb = g->n_batch, nt = g->n_time, ni = g->n_input, na = g->n_aux_input;
  for (int k = 0; k < nt; ++k) {
    const int s = backward ? nt - 1 - k : k;
    if (g->time_major) {
      el_lstm_step_f32(g, nb, x + (size_t)s * nb * ni, na ? aux + (size_t)s * nb * na : NULL, h, c,
                       out + (size_t)s * nb * stride, stride, scratch);
      continue;
    }
    for (int b = 0; b < nb; ++b) {
      const size_t row = (size_t)b * nt + s;
      el_lstm_step_f32(g, 1, x + row * ni, na ? aux + row * na : NULL, h + (size_t)b * g->n_output,
                       c + (size_t)b * g->n_cell, out + row * stride, stride, scratch);
    }
  }
}

static TfLiteStatus bidi_lstm_invoke(TfLiteContext* ctx, TfLiteNode* node) {
  bidi_lstm_data* d = node->user_data;
  gather(ctx, node, d, false, &d->fw);
  gather(ctx, node, d, true, &d->bw);
  float* scratch = ctx->GetScratchBuffer(ctx, d->scratch);
  const TfLiteTensor* aux_t = el_optional_input(ctx, node, AUX_IN);
  const float* aux = d->cross_links ? aux_t->data.f : NULL;
  float* fw_out = ctx->tensors[node->outputs->data[0]].data.f;
  const int fw_units = d->fw.n_output, bw_units = d->bw.n_output;
  run_pass(&d->fw, aux, false, fw_out, d->merge ? fw_units + bw_units : fw_units, scratch);
  if (d->merge) {
    run_pass(&d->bw, aux, true, fw_out + fw_units, fw_units + bw_units, scratch);
  } else {
    run_pass(&d->bw, aux, true, ctx->tensors[node->outputs->data[1]].data.f, bw_units, scratch);
  }
  return kTfLiteOk;
}

const TfLiteRegistration el_ref_bidirectional_sequence_lstm = EL_REGISTRATION(
    bidi_lstm_init, el_kernel_free, bidi_lstm_prepare, bidi_lstm_invoke, EL_OP_BIDIRECTIONAL_SEQUENCE_LSTM);
