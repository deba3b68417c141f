/* SVDF (singular value decomposition filter), float and int8.
 *
 * The state (variable input 4) holds, per batch row and filter, the last memory_size feature
 * activations. Each invoke shifts it left by one, writes W_feature x into the newest column,
 * takes each filter's dot product with its time weights, sums groups of `rank` filters into
 * the units, adds the bias and applies the activation. The int8 form keeps the state in int16
 * (symmetric) and follows TFLite's EvalIntegerSVDF rounding: feature products requantized to
 * the state scale with int16 saturation, time products accumulated in int32 and requantized to
 * the output. Its fully 8-bit variant (int8 time weights and state, the state with a zero
 * point) is TFLite Micro's: the same steps with int8 saturation and the zero point added to new
 * state values and taken off before the time products. Hybrid SVDF (float input and state, int8
 * weights) quantizes each input row on the fly for the feature product and uses the time
 * weights dequantized once, as TFLite's EvalHybridSVDF. */
#include <string.h>

#include "kernels/cov_util.h"
#include "kernels/coverage_ops.h"
#include "kernels/hybrid_seq.h"
#include "kernels/kernel_util.h"
#include "kernels/kernels.h"
#include "kernels/quant_util.h"
#include "kernels/seq_util.h"
#include "kernels/svdf.h"


static void* svdf_init(TfLiteContext* ctx, const char* buf, size_t len) {
  (void)ctx;
  (void)buf;
  (void)len;
  return el_kernel_alloc(sizeof(el_svdf_data));
}

/* Constant-weight work of a hybrid node: row sums, dequantized time weights, scratch. */
static TfLiteStatus hybrid_prepare(TfLiteContext* ctx, el_svdf_data* d, const TfLiteSVDFParams* p, const TfLiteTensor* wf,
                                   const TfLiteTensor* wt) {
  /* Row sums and dequantized time weights are made once, here: the weights must be constants. */
  EL_ENSURE_MSG(ctx, el_is_constant_or_persistent(wf) && el_is_constant_or_persistent(wt),
                "Hybrid SVDF weights must be constant tensors.");
  d->asymmetric = p->asymmetric_quantize_inputs;
  d->feature_scale = el_q_scale(wf);
  EL_ENSURE_OK(ctx, el_q_channel_buffer(ctx, d->filters, sizeof(int32_t), &d->sums_cap, (void**)&d->row_sums));
  el_hybrid_row_sums(wf->data.int8, d->filters, d->input_size, d->row_sums);
  const int n = d->filters * d->memory;
  EL_ENSURE_OK(ctx, el_q_channel_buffer(ctx, n, sizeof(float), &d->time_cap, (void**)&d->time_weights));
  const float scale = el_q_scale(wt);
  for (int i = 0; i < n; ++i) d->time_weights[i] = wt->type == kTfLiteInt8 ? wt->data.int8[i] * scale : wt->data.f[i];
  const size_t bytes = (size_t)d->batch * ((size_t)d->input_size + sizeof(float) + sizeof(int32_t)) + 8;
  return ctx->RequestScratchBufferInArena(ctx, bytes, &d->hybrid_scratch);
}

static TfLiteStatus svdf_prepare(TfLiteContext* ctx, TfLiteNode* node) {
  EL_ENSURE_OK(ctx, el_check_io_count(ctx, node, 5, 1));
  EL_ENSURE_OK(ctx, el_check_user_data(ctx, node));
  el_svdf_data* d = (el_svdf_data*)node->user_data;
  const TfLiteSVDFParams* p = (const TfLiteSVDFParams*)node->builtin_data;
  EL_ENSURE_MSG(ctx, p != NULL, "SVDF has no options.");
  const TfLiteTensor *in, *wf, *wt, *state;
  EL_ENSURE_OK(ctx, el_get_input(ctx, node, EL_SVDF_IN, &in));
  EL_ENSURE_OK(ctx, el_get_input(ctx, node, EL_SVDF_W_FEATURE, &wf));
  EL_ENSURE_OK(ctx, el_get_input(ctx, node, EL_SVDF_W_TIME, &wt));
  EL_ENSURE_OK(ctx, el_get_input(ctx, node, EL_SVDF_STATE, &state));
  const TfLiteTensor* bias = el_optional_input(ctx, node, EL_SVDF_BIAS);
  TfLiteTensor* out;
  EL_ENSURE_OK(ctx, el_get_output(ctx, node, 0, &out));
  EL_ENSURE_EQ(ctx, el_ndims(in), 2);
  EL_ENSURE_EQ(ctx, el_ndims(wf), 2);
  EL_ENSURE_EQ(ctx, el_ndims(wt), 2);
  d->batch = el_dim(in, 0);
  d->input_size = el_dim(in, 1);
  d->filters = el_dim(wf, 0);
  d->rank = p->rank;
  EL_ENSURE(ctx, d->rank > 0 && d->filters % d->rank == 0);
  d->units = d->filters / d->rank;
  d->memory = el_dim(wt, 1);
  EL_ENSURE_EQ(ctx, el_dim(wf, 1), d->input_size);
  EL_ENSURE_EQ(ctx, el_dim(wt, 0), d->filters);
  if (bias != NULL) {
    EL_ENSURE_EQ(ctx, el_ndims(bias), 1);
    EL_ENSURE_EQ(ctx, el_dim(bias, 0), d->units);
  }
  EL_ENSURE_EQ(ctx, el_ndims(state), 2);
  EL_ENSURE_EQ(ctx, el_dim(state, 0), d->batch);
  EL_ENSURE_EQ(ctx, el_dim(state, 1), d->memory * d->filters);
  EL_ENSURE_TYPES_EQ(ctx, out->type, in->type);
  int dims[2] = {d->batch, d->units};
  EL_ENSURE_OK(ctx, el_resize(ctx, out, 2, dims));
  const size_t bf = (size_t)d->batch * d->filters;
  switch (in->type) {
    case kTfLiteFloat32:
      d->hybrid = wf->type == kTfLiteInt8;
      EL_ENSURE_MSG(ctx, (wf->type == kTfLiteFloat32 || d->hybrid) && state->type == kTfLiteFloat32 &&
                             (wt->type == kTfLiteFloat32 || (d->hybrid && wt->type == kTfLiteInt8)),
                    "Float SVDF needs float (or, hybrid, int8) weights and a float state.");
      EL_ENSURE_MSG(ctx, el_seq_activation_ok(p->activation), "SVDF: unsupported activation.");
      if (d->hybrid) EL_ENSURE_OK(ctx, hybrid_prepare(ctx, d, p, wf, wt));
      return ctx->RequestScratchBufferInArena(ctx, bf * sizeof(float), &d->scratch);
    case kTfLiteInt8: {
      EL_ENSURE_TYPES_EQ(ctx, wf->type, kTfLiteInt8);
      EL_ENSURE_MSG(ctx, wt->type == kTfLiteInt16 || wt->type == kTfLiteInt8,
                    "Integer SVDF needs int16 (or int8) time weights.");
      EL_ENSURE_TYPES_EQ(ctx, state->type, wt->type);
      if (bias != NULL) EL_ENSURE_TYPES_EQ(ctx, bias->type, kTfLiteInt32);
      EL_ENSURE_TYPES_EQ(ctx, out->type, kTfLiteInt8);
      /* TFLite forms both scales in float and widens them afterwards. */
      const float s1 = el_q_scale(in) * el_q_scale(wf) / el_q_scale(state);
      const float s2 = el_q_scale(state) * el_q_scale(wt) / el_q_scale(out);
      el_q_quantize_multiplier((double)s1, &d->feature_a, &d->feature_b);
      el_q_quantize_multiplier((double)s2, &d->time_a, &d->time_b);
      d->input_zp = el_q_zero_point(in);
      d->output_zp = el_q_zero_point(out);
      d->state_zp = el_q_zero_point(state);
      /* The integer path sums each unit's filters as it goes: no scratch. */
      d->scratch = -1;
      return kTfLiteOk;
    }
    default:
      return el_unsupported_type(ctx, "SVDF", in->type);
  }
}

static void eval_float(TfLiteContext* ctx, const el_svdf_data* d, const TfLiteSVDFParams* p, const TfLiteTensor* in,
                       const TfLiteTensor* wf, const TfLiteTensor* wt, const TfLiteTensor* bias, float* state,
                       float* out) {
  float* scratch = ctx->GetScratchBuffer(ctx, d->scratch);
  const size_t total = (size_t)d->batch * d->filters * d->memory;
  if (total == 0) return;
  memmove(state, state + 1, (total - 1) * sizeof(float));
  if (d->hybrid) {
    /* The feature products land in scratch first, then in the newest state column. */
    const size_t bf = (size_t)d->batch * d->filters;
    memset(scratch, 0, bf * sizeof(float));
    if (!el_hybrid_is_zero(in->data.f, d->batch * d->input_size)) {
      char* hs = ctx->GetScratchBuffer(ctx, d->hybrid_scratch);
      float* sf = (float*)hs;
      int32_t* zp = (int32_t*)(sf + d->batch);
      int8_t* q = (int8_t*)(zp + d->batch);
      el_hybrid_quantize_rows(in->data.f, d->batch, d->input_size, d->asymmetric, q, sf, zp);
      for (int b = 0; b < d->batch; ++b) sf[b] *= d->feature_scale;
      el_hybrid_matvec_acc(wf->data.int8, d->filters, d->input_size, q, sf, zp, d->row_sums, d->batch, scratch);
    }
    for (size_t i = 0; i < bf; ++i) state[i * d->memory + d->memory - 1] = scratch[i];
  } else {
    for (int b = 0; b < d->batch; ++b) {
      for (int f = 0; f < d->filters; ++f) {
        state[((size_t)b * d->filters + f) * d->memory + d->memory - 1] =
            el_seq_dot(wf->data.f + (size_t)f * d->input_size, in->data.f + (size_t)b * d->input_size, d->input_size);
      }
    }
  }
  const float* time_weights = d->hybrid ? d->time_weights : wt->data.f;
  for (int b = 0; b < d->batch; ++b) {
    for (int f = 0; f < d->filters; ++f) {
      scratch[(size_t)b * d->filters + f] = el_seq_dot(time_weights + (size_t)f * d->memory,
                                                       state + ((size_t)b * d->filters + f) * d->memory, d->memory);
    }
    for (int u = 0; u < d->units; ++u) {
      float acc = bias ? bias->data.f[u] : 0.0f;
      for (int r = 0; r < d->rank; ++r) acc += scratch[(size_t)b * d->filters + (size_t)u * d->rank + r];
      out[(size_t)b * d->units + u] = el_seq_activate(acc, p->activation);
    }
  }
}

/* State element i of an int16 or int8 state, and its store with TFLite Micro's narrowing. */
static int32_t state_get(const TfLiteTensor* t, size_t i) {
  return t->type == kTfLiteInt16 ? t->data.i16[i] : t->data.int8[i];
}

static void state_set(TfLiteTensor* t, size_t i, int32_t v) {
  if (t->type == kTfLiteInt16) {
    t->data.i16[i] = (int16_t)v;
  } else {
    t->data.int8[i] = (int8_t)v;
  }
}

static void eval_int8(const el_svdf_data* d, const TfLiteTensor* in, const TfLiteTensor* wf,
                      const TfLiteTensor* wt, const TfLiteTensor* bias, TfLiteTensor* state, int8_t* out) {
  const size_t total = (size_t)d->batch * d->filters * d->memory;
  if (total == 0) return;
  const size_t elem = el_type_size(state->type);
  memmove(state->data.raw, state->data.raw + elem, (total - 1) * elem);
  const int32_t lo = state->type == kTfLiteInt16 ? INT16_MIN : INT8_MIN;
  const int32_t hi = state->type == kTfLiteInt16 ? INT16_MAX : INT8_MAX;
  for (int b = 0; b < d->batch; ++b) {
    const int8_t* x = in->data.int8 + (size_t)b * d->input_size;
    for (int f = 0; f < d->filters; ++f) {
      const int8_t* w = wf->data.int8 + (size_t)f * d->input_size;
      int32_t dot = 0;
      for (int k = 0; k < d->input_size; ++k) dot = el_cov_add32(dot, (int32_t)w[k] * (x[k] - d->input_zp));
      dot = el_q_clamp(el_q_mbqm(dot, d->feature_a, d->feature_b), lo, hi);
      state_set(state, ((size_t)b * d->filters + f) * d->memory + d->memory - 1, d->state_zp + dot);
    }
  }
  for (int b = 0; b < d->batch; ++b) {
    for (int u = 0; u < d->units; ++u) {
      int32_t sum = bias ? bias->data.i32[u] : 0;
      for (int r = 0; r < d->rank; ++r) {
        const int f = u * d->rank + r;
        const size_t w0 = (size_t)f * d->memory, s0 = ((size_t)b * d->filters + f) * d->memory;
        /* int32 sums wrap on overflow, as TFLite's do in practice (so any grouping of them gives
         * the same bits). */
        int32_t dot = 0;
        for (int m = 0; m < d->memory; ++m) {
          dot = el_cov_add32(dot, state_get(wt, w0 + m) * (state_get(state, s0 + m) - d->state_zp));
        }
        sum = el_cov_add32(sum, dot);
      }
      const int32_t v = el_cov_add32(el_q_mbqm(sum, d->time_a, d->time_b), d->output_zp);
      out[(size_t)b * d->units + u] = (int8_t)el_q_clamp(v, -128, 127);
    }
  }
}

static TfLiteStatus svdf_invoke(TfLiteContext* ctx, TfLiteNode* node) {
  const el_svdf_data* d = (const el_svdf_data*)node->user_data;
  const TfLiteSVDFParams* p = (const TfLiteSVDFParams*)node->builtin_data;
  const TfLiteTensor* in = &ctx->tensors[node->inputs->data[EL_SVDF_IN]];
  const TfLiteTensor* wf = &ctx->tensors[node->inputs->data[EL_SVDF_W_FEATURE]];
  const TfLiteTensor* wt = &ctx->tensors[node->inputs->data[EL_SVDF_W_TIME]];
  const TfLiteTensor* bias = el_optional_input(ctx, node, EL_SVDF_BIAS);
  TfLiteTensor* state = &ctx->tensors[node->inputs->data[EL_SVDF_STATE]];
  TfLiteTensor* out = &ctx->tensors[node->outputs->data[0]];
  if (in->type == kTfLiteInt8) {
    eval_int8(d, in, wf, wt, bias, state, out->data.int8);
  } else {
    eval_float(ctx, d, p, in, wf, wt, bias, state->data.f, out->data.f);
  }
  return kTfLiteOk;
}

const TfLiteRegistration el_ref_svdf = EL_REGISTRATION(svdf_init, el_kernel_free, svdf_prepare, svdf_invoke, EL_OP_SVDF);
