/* RNN and UNIDIRECTIONAL_SEQUENCE_RNN: h = act(bias + W_x x + W_h h) per step, with the hidden
 * state (variable input 4) carried across steps and invokes; each step's h is also the step's
 * output. Batch-major sequences run each batch row through time on its own, as TFLite does.
 * Float, or hybrid: int8 weights with float activations, x and h quantized per row on the fly
 * (symmetric, or asymmetric with the asymmetric_quantize_inputs option) and an all-zero x or h
 * skipping its product, as TFLite's RnnBatchStep does. */
#include <string.h>

#include "kernels/coverage_ops.h"
#include "kernels/hybrid_seq.h"
#include "kernels/kernel_util.h"
#include "kernels/kernels.h"
#include "kernels/quant_util.h"
#include "kernels/rnn.h"
#include "kernels/seq_util.h"

enum { IN = 0, W_INPUT = 1, W_RECUR = 2, BIAS = 3, HIDDEN = 4 };

typedef struct rnn_data {
  int batch, time, input_size, units;
  bool time_major;
  TfLiteFusedActivation activation;
  bool hybrid, asymmetric;
  float wx_scale, wh_scale;
  int32_t* row_sums; /* hybrid: W_x rows then W_h rows */
  int row_sums_cap;
  int scratch; /* hybrid: quantized x and h, scaling factors, zero points */
} rnn_data;

static void* rnn_init(TfLiteContext* ctx, const char* buf, size_t len) {
  (void)ctx;
  (void)buf;
  (void)len;
  return el_kernel_alloc(sizeof(rnn_data));
}

static TfLiteStatus rnn_prepare_common(TfLiteContext* ctx, TfLiteNode* node, bool sequence) {
  EL_ENSURE_OK(ctx, el_check_io_count(ctx, node, 5, 1));
  EL_ENSURE_OK(ctx, el_check_user_data(ctx, node));
  rnn_data* d = (rnn_data*)node->user_data;
  EL_ENSURE_MSG(ctx, node->builtin_data != NULL, "RNN has no options.");
  if (sequence) {
    const TfLiteSequenceRNNParams* p = node->builtin_data;
    d->time_major = p->time_major;
    d->activation = p->activation;
    d->asymmetric = p->asymmetric_quantize_inputs;
  } else {
    const TfLiteRNNParams* p = node->builtin_data;
    d->time_major = true;
    d->activation = p->activation;
    d->asymmetric = p->asymmetric_quantize_inputs;
  }
  EL_ENSURE_MSG(ctx, el_seq_activation_ok(d->activation), "RNN: unsupported activation.");
  const TfLiteTensor *in, *wx, *wh, *bias, *hidden;
  EL_ENSURE_OK(ctx, el_get_input(ctx, node, IN, &in));
  EL_ENSURE_OK(ctx, el_get_input(ctx, node, W_INPUT, &wx));
  EL_ENSURE_OK(ctx, el_get_input(ctx, node, W_RECUR, &wh));
  EL_ENSURE_OK(ctx, el_get_input(ctx, node, BIAS, &bias));
  EL_ENSURE_OK(ctx, el_get_input(ctx, node, HIDDEN, &hidden));
  TfLiteTensor* out;
  EL_ENSURE_OK(ctx, el_get_output(ctx, node, 0, &out));
  if (in->type != kTfLiteFloat32) return el_unsupported_type(ctx, sequence ? "UNIDIRECTIONAL_SEQUENCE_RNN" : "RNN", in->type);
  d->hybrid = wx->type == kTfLiteInt8;
  EL_ENSURE_MSG(ctx, (wx->type == kTfLiteFloat32 || wx->type == kTfLiteInt8) && wh->type == wx->type &&
                         bias->type == kTfLiteFloat32 && hidden->type == kTfLiteFloat32 && out->type == kTfLiteFloat32,
                "RNN needs float (or, hybrid, int8) weights and float bias, state and output.");
  EL_ENSURE_EQ(ctx, el_ndims(in), sequence ? 3 : 2);
  EL_ENSURE_EQ(ctx, el_ndims(wx), 2);
  EL_ENSURE_EQ(ctx, el_ndims(wh), 2);
  EL_ENSURE_EQ(ctx, el_ndims(bias), 1);
  EL_ENSURE_EQ(ctx, el_ndims(hidden), 2);
  if (sequence) {
    d->time = el_dim(in, d->time_major ? 0 : 1);
    d->batch = el_dim(in, d->time_major ? 1 : 0);
    d->input_size = el_dim(in, 2);
  } else {
    d->time = 1;
    d->batch = el_dim(in, 0);
    d->input_size = el_dim(in, 1);
  }
  d->units = el_dim(wx, 0);
  EL_ENSURE_EQ(ctx, el_dim(wx, 1), d->input_size);
  EL_ENSURE_EQ(ctx, el_dim(wh, 0), d->units);
  EL_ENSURE_EQ(ctx, el_dim(wh, 1), d->units);
  EL_ENSURE_EQ(ctx, el_dim(bias, 0), d->units);
  EL_ENSURE_EQ(ctx, el_dim(hidden, 0), d->batch);
  EL_ENSURE_EQ(ctx, el_dim(hidden, 1), d->units);
  if (d->hybrid) {
    /* Row sums are taken once, here: the quantized weights must be constants. */
    EL_ENSURE_MSG(ctx, el_is_constant_or_persistent(wx) && el_is_constant_or_persistent(wh),
                  "Hybrid RNN weights must be constant tensors.");
    d->wx_scale = el_q_scale(wx);
    d->wh_scale = el_q_scale(wh);
    EL_ENSURE_OK(ctx, el_q_channel_buffer(ctx, 2 * d->units, sizeof(int32_t), &d->row_sums_cap, (void**)&d->row_sums));
    el_hybrid_row_sums(wx->data.int8, d->units, d->input_size, d->row_sums);
    el_hybrid_row_sums(wh->data.int8, d->units, d->units, d->row_sums + d->units);
    const int rows = d->time_major ? d->batch : 1;
    EL_ENSURE_OK(ctx, ctx->RequestScratchBufferInArena(
                          ctx, el_rnn_hybrid_scratch_bytes(rows, d->input_size, 0, d->units), &d->scratch));
  }
  if (sequence) {
    int dims[3] = {el_dim(in, 0), el_dim(in, 1), d->units};
    return el_resize(ctx, out, 3, dims);
  }
  int dims[2] = {d->batch, d->units};
  return el_resize(ctx, out, 2, dims);
}

size_t el_rnn_hybrid_scratch_bytes(int nb, int n_input, int n_aux, int units) {
  int widest = n_input > units ? n_input : units;
  if (n_aux > widest) widest = n_aux;
  return (size_t)nb * ((size_t)units * sizeof(float) + sizeof(float) + sizeof(int32_t) + (size_t)widest) + 8;
}

/* acc += W v for nb rows of `cols` values, v quantized into q (with per-row sf, zp) first. */
static void hybrid_product(const el_rnn_hybrid_cell* c, int nb, const int8_t* w, float w_scale, const int32_t* sums,
                           const float* v, int cols, int8_t* q, float* sf, int32_t* zp, float* acc) {
  if (el_hybrid_is_zero(v, nb * cols)) return;
  el_hybrid_quantize_rows(v, nb, cols, c->asymmetric, q, sf, zp);
  for (int r = 0; r < nb; ++r) sf[r] *= w_scale;
  el_hybrid_matvec_acc(w, c->units, cols, q, sf, zp, sums, nb, acc);
}

void el_rnn_step_hybrid(const el_rnn_hybrid_cell* c, int nb, const float* x, const float* aux, float* h, float* out,
                        int out_stride, char* scratch) {
  const int nu = c->units;
  float* acc = (float*)scratch;
  float* sf = acc + (size_t)nb * nu;
  int32_t* zp = (int32_t*)(sf + nb);
  int8_t* q = (int8_t*)(zp + nb);
  for (int r = 0; r < nb; ++r) memcpy(acc + (size_t)r * nu, c->bias, (size_t)nu * sizeof(float));
  hybrid_product(c, nb, c->wx, c->wx_scale, c->sums_x, x, c->n_input, q, sf, zp, acc);
  if (c->n_aux > 0) hybrid_product(c, nb, c->w_aux, c->w_aux_scale, c->sums_aux, aux, c->n_aux, q, sf, zp, acc);
  hybrid_product(c, nb, c->wh, c->wh_scale, c->sums_h, h, nu, q, sf, zp, acc);
  for (int k = 0; k < nb * nu; ++k) acc[k] = el_seq_activate(acc[k], c->activation);
  for (int r = 0; r < nb; ++r) {
    memcpy(out + (size_t)r * out_stride, acc + (size_t)r * nu, (size_t)nu * sizeof(float));
    memcpy(h + (size_t)r * nu, acc + (size_t)r * nu, (size_t)nu * sizeof(float));
  }
}

void el_rnn_step_f32(int nb, int n_input, int n_aux, int units, TfLiteFusedActivation act, const float* x,
                     const float* aux, const float* wx, const float* w_aux, const float* wh, const float* bias, float* h,
                     float* out, int out_stride) {
  for (int r = 0; r < nb; ++r) {
    float* row = out + (size_t)r * out_stride;
    for (int u = 0; u < units; ++u) {
      float acc = bias[u];
      acc += el_seq_dot(wx + (size_t)u * n_input, x + (size_t)r * n_input, n_input);
      if (n_aux > 0) acc += el_seq_dot(w_aux + (size_t)u * n_aux, aux + (size_t)r * n_aux, n_aux);
      acc += el_seq_dot(wh + (size_t)u * units, h + (size_t)r * units, units);
      row[u] = el_seq_activate(acc, act);
    }
  }
  for (int r = 0; r < nb; ++r) memcpy(h + (size_t)r * units, out + (size_t)r * out_stride, (size_t)units * sizeof(float));
}

/* One step for `nb` rows: out = act(bias + W_x x + W_h h), then h = out. */
static void step(const rnn_data* d, int nb, const float* x, const float* wx, const float* wh, const float* bias,
                 float* h, float* out) {
  el_rnn_step_f32(nb, d->input_size, 0, d->units, d->activation, x, NULL, wx, NULL, wh, bias, h, out, d->units);
}

static TfLiteStatus hybrid_invoke(TfLiteContext* ctx, TfLiteNode* node, const rnn_data* d) {
  const float* in = ctx->tensors[node->inputs->data[IN]].data.f;
  const el_rnn_hybrid_cell c = {d->input_size, 0, d->units, d->activation, d->asymmetric,
                                ctx->tensors[node->inputs->data[W_INPUT]].data.int8, NULL,
                                ctx->tensors[node->inputs->data[W_RECUR]].data.int8, d->wx_scale, 0.0f, d->wh_scale,
                                d->row_sums, NULL, d->row_sums + d->units, ctx->tensors[node->inputs->data[BIAS]].data.f};
  float* h = ctx->tensors[node->inputs->data[HIDDEN]].data.f;
  float* out = ctx->tensors[node->outputs->data[0]].data.f;
  char* scratch = ctx->GetScratchBuffer(ctx, d->scratch);
  const int ni = d->input_size, nu = d->units, nb = d->batch, nt = d->time;
  if (d->time_major) {
    for (int s = 0; s < nt; ++s) {
      el_rnn_step_hybrid(&c, nb, in + (size_t)s * nb * ni, NULL, h, out + (size_t)s * nb * nu, nu, scratch);
    }
    return kTfLiteOk;
  }
  for (int b = 0; b < nb; ++b) {
    for (int s = 0; s < nt; ++s) {
      const size_t row = (size_t)b * nt + s;
      el_rnn_step_hybrid(&c, 1, in + row * ni, NULL, h + (size_t)b * nu, out + row * nu, nu, scratch);
    }
  }
  return kTfLiteOk;
}

static TfLiteStatus rnn_invoke(TfLiteContext* ctx, TfLiteNode* node) {
  const rnn_data* d = (const rnn_data*)node->user_data;
  if (d->hybrid) return hybrid_invoke(ctx, node, d);
  const float* in = ctx->tensors[node->inputs->data[IN]].data.f;
  const float* wx = ctx->tensors[node->inputs->data[W_INPUT]].data.f;
  const float* wh = ctx->tensors[node->inputs->data[W_RECUR]].data.f;
  const float* bias = ctx->tensors[node->inputs->data[BIAS]].data.f;
  float* h = ctx->tensors[node->inputs->data[HIDDEN]].data.f;
  float* out = ctx->tensors[node->outputs->data[0]].data.f;
  const int ni = d->input_size, nu = d->units, nb = d->batch, nt = d->time;
  if (d->time_major) {
    for (int s = 0; s < nt; ++s) {
      step(d, nb, in + (size_t)s * nb * ni, wx, wh, bias, h, out + (size_t)s * nb * nu);
    }
    return kTfLiteOk;
  }
  for (int b = 0; b < nb; ++b) {
    for (int s = 0; s < nt; ++s) {
      const size_t row = (size_t)b * nt + s;
      step(d, 1, in + row * ni, wx, wh, bias, h + (size_t)b * nu, out + row * nu);
    }
  }
  return kTfLiteOk;
}

static TfLiteStatus sequence_prepare(TfLiteContext* ctx, TfLiteNode* node) {
  return rnn_prepare_common(ctx, node, true);
}

static TfLiteStatus single_step_prepare(TfLiteContext* ctx, TfLiteNode* node) {
  return rnn_prepare_common(ctx, node, false);
}

const TfLiteRegistration el_ref_unidirectional_sequence_rnn = EL_REGISTRATION(
    rnn_init, el_kernel_free, sequence_prepare, rnn_invoke, EL_OP_UNIDIRECTIONAL_SEQUENCE_RNN);
const TfLiteRegistration el_ref_rnn = EL_REGISTRATION(rnn_init, el_kernel_free, single_step_prepare, rnn_invoke, EL_OP_RNN);
