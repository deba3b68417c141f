/* Optimized FULLY_CONNECTED (int8, uint8 and float32 with constant weights): weights packed
 * once in prepare, the product by the GEMM micro-kernels (one row at a time for the usual
 * batch of one, tiles of rows otherwise), threads splitting the output units. Integer sums are
 * the reference ones and the rescale gives the reference's round(acc * scale) in double (the
 * x86 levels through single precision where that provably rounds the same), so the bits are
 * too. Hybrid models (float rows, int8 weights) quantize each row as the reference
 * kernel does, take the same integer sums from the micro-kernels, and scale them back in the
 * reference's order. 16x8 and shuffled-weight models run the reference kernel. */
#include <string.h>

#include "kernels/fully_connected.h"
#include "kernels/kernels.h"
#include "kernels/optimized/fgemm.h"
#include "kernels/optimized/hybrid_opt.h"
#include "kernels/optimized/opt_kernels.h"
#include "kernels/optimized/qgemm.h"
#include "kernels/quant_util.h"

typedef enum fc_path { PATH_REFERENCE = 0, PATH_Q8 = 1, PATH_F32 = 2, PATH_HYBRID = 3 } fc_path;

typedef struct el_opt_fc {
  el_fc_data ref; /* first: the reference kernel runs on the same user_data */
  fc_path path;
  int batches, depth, units;
  int threads;
  el_opt_scratch scratch;
  void* packed;
  size_t packed_cap;
  size_t block_bytes;
  int kp, nblocks;
  int cap;
  const el_qgemm_kernels* qk;
  const el_quant_kernels* quant; /* hybrid: the input quantization step */
  int32_t* bias; /* folded integer bias */
  double* scale; /* per unit */
  float* fscale; /* the same in single precision, for the vector rescales */
  int use_fscale; /* el_qgemm_rescale_floats allowed the single-precision pass */
  int32_t in_off, out_zp, act_min, act_max;
  int is_unsigned;
  const el_fgemm_kernels* fk;
  float* fbias;
  float lo, hi;
  /* hybrid path: the weight sums are in `bias`, the float bias in `fbias` */
  el_opt_scratch qinput; /* the quantized rows, then per row its scale and zero point */
  size_t qinput_bytes;
  const float* channel_scales; /* per unit, or NULL: one scale, `tensor_scale` */
  float tensor_scale;
  int asymmetric;
  int has_bias;
  int raw_row; /* a batch of one read in place by gemv_raw: no packed row, no scratch */
} el_opt_fc;

static void* opt_fc_init(TfLiteContext* ctx, const char* buf, size_t len) {
  (void)ctx;
  (void)buf;
  (void)len;
  return el_kernel_alloc(sizeof(el_opt_fc));
}

static TfLiteStatus buffers(TfLiteContext* ctx, el_opt_fc* s, size_t packed_bytes) {
  const int padded = s->nblocks * 16;
  if (s->cap < padded) {
    s->bias = (int32_t*)el_opt_persistent(ctx, (size_t)padded * sizeof(int32_t));
    s->scale = (double*)el_opt_persistent(ctx, (size_t)padded * sizeof(double));
    s->fbias = (float*)el_opt_persistent(ctx, (size_t)padded * sizeof(float));
    s->fscale = (float*)el_opt_persistent(ctx, (size_t)padded * sizeof(float));
    EL_ENSURE(ctx, s->bias && s->scale && s->fbias && s->fscale);
    s->cap = padded;
  }
  if (s->packed_cap < packed_bytes) {
    s->packed = el_opt_persistent(ctx, packed_bytes);
    EL_ENSURE(ctx, s->packed != NULL);
    s->packed_cap = packed_bytes;
  }
  memset(s->bias, 0, (size_t)padded * sizeof(int32_t));
  memset(s->fbias, 0, (size_t)padded * sizeof(float));
  return kTfLiteOk;
}

/* Rows pack_rows writes: the single-row kernel's one for a batch of one, else the tile's mr. */
static int packed_rows(const el_opt_fc* s) { return s->batches == 1 ? 1 : s->qk->mr; }

/* The packed-row scratch, or none when a batch of one of int8 rows is read in place. */
static TfLiteStatus request_row_scratch(TfLiteContext* ctx, el_opt_fc* s) {
  s->raw_row = s->batches == 1 && !s->is_unsigned && s->qk->format == EL_QFORMAT_QUAD &&
               s->qk->gemv_raw != NULL;
  if (s->raw_row) return kTfLiteOk;
  const size_t elem = s->qk->format == EL_QFORMAT_QUAD ? 1 : 2;
  return el_opt_request_scratch(ctx, (size_t)packed_rows(s) * (size_t)s->kp * elem, s->threads,
                                &s->scratch);
}

static TfLiteStatus prepare_q8(TfLiteContext* ctx, TfLiteNode* node, el_opt_fc* s,
                               const TfLiteTensor* input, const TfLiteTensor* filter,
                               const TfLiteTensor* bias, const TfLiteTensor* output) {
  const TfLiteFullyConnectedParams* params = (const TfLiteFullyConnectedParams*)node->builtin_data;
  const TfLiteAffineQuantization* aq = el_q_affine(filter);
  if (aq == NULL || aq->scale == NULL || aq->scale->size < 1) return kTfLiteOk;
  const int per_channel = aq->scale->size > 1;
  s->is_unsigned = input->type == kTfLiteUInt8;
  const int32_t w_off = per_channel ? 0 : -filter->params.zero_point;
  const el_isa isa = el_context_isa(ctx);
  s->qk = el_qgemm_kernels_for(isa);
  /* QUAD weights stay int8: a weight offset, or uint8, needs the int16 layout. */
  if ((s->is_unsigned || w_off != 0) && s->qk->format == EL_QFORMAT_QUAD) {
    s->qk = el_qgemm_kernels_for((el_isa)(isa - 1));
  }
  s->kp = el_qgemm_kp(s->qk, s->depth);
  s->nblocks = (s->units + 15) / 16;
  s->block_bytes = el_qgemm_block_bytes(s->qk->format, s->kp);
  EL_ENSURE_OK(ctx, buffers(ctx, s, s->block_bytes * (size_t)s->nblocks));
  el_qgemm_pack(s->qk->format, filter->data.raw_const, s->is_unsigned, w_off, s->units, s->depth,
                s->kp, s->packed, s->bias);
  s->in_off = -input->params.zero_point;
  const int32_t a_bias = s->qk->a_xor ? 128 : 0;
  for (int c = 0; c < s->units; ++c) {
    const int32_t b = bias ? bias->data.i32[c] : 0;
    s->bias[c] = s->qk->format == EL_QFORMAT_QUAD ? el_wrap_fold(b, s->in_off - a_bias, s->bias[c]) : b;
    const double w = (double)aq->scale->data[per_channel ? c : 0];
    s->scale[c] = (double)input->params.scale * w / (double)output->params.scale;
  }
  s->out_zp = output->params.zero_point;
  EL_ENSURE_OK(ctx, el_q_activation_range(params->activation, output->type, output->params.scale,
                                          output->params.zero_point, &s->act_min, &s->act_max));
  s->use_fscale = el_qgemm_rescale_floats(s->scale, s->units, s->out_zp, s->act_min, s->act_max,
                                          s->fscale);
  EL_ENSURE_OK(ctx, request_row_scratch(ctx, s));
  s->path = PATH_Q8;
  return kTfLiteOk;
}

static TfLiteStatus prepare_f32(TfLiteContext* ctx, TfLiteNode* node, el_opt_fc* s,
                                const TfLiteTensor* filter, const TfLiteTensor* bias) {
  const TfLiteFullyConnectedParams* params = (const TfLiteFullyConnectedParams*)node->builtin_data;
  s->fk = el_fgemm_kernels_for(el_context_isa(ctx));
  s->nblocks = (s->units + EL_FGEMM_NR - 1) / EL_FGEMM_NR;
  s->block_bytes = el_fgemm_block_bytes(s->depth);
  EL_ENSURE_OK(ctx, buffers(ctx, s, s->block_bytes * (size_t)s->nblocks));
  el_fgemm_pack(filter->data.f, s->units, s->depth, (float*)s->packed);
  for (int c = 0; c < s->units; ++c) s->fbias[c] = bias ? bias->data.f[c] : 0.0f;
  el_activation_range_f32(params->activation, &s->lo, &s->hi);
  s->path = PATH_F32;
  return kTfLiteOk;
}

static TfLiteStatus prepare_hybrid(TfLiteContext* ctx, TfLiteNode* node, el_opt_fc* s,
                                   const TfLiteTensor* input, const TfLiteTensor* filter,
                                   const TfLiteTensor* bias) {
  const TfLiteFullyConnectedParams* params = (const TfLiteFullyConnectedParams*)node->builtin_data;
  const TfLiteAffineQuantization* aq = el_q_affine(filter);
  if (aq == NULL || aq->scale == NULL || aq->scale->size < 1) return kTfLiteOk;
  if (aq->scale->size > 1 && (aq->scale->size != s->units || aq->quantized_dimension != 0)) {
    return kTfLiteOk;
  }
  /* The activations the reference applies by clamping; TANH and SIGMOID stay there. */
  const TfLiteFusedActivation act = params->activation;
  if (act != kTfLiteActNone && act != kTfLiteActRelu && act != kTfLiteActReluN1To1 &&
      act != kTfLiteActRelu6) {
    return kTfLiteOk;
  }
  if (el_num_elements(input) >= INT32_MAX) return kTfLiteOk;
  s->channel_scales = aq->scale->size > 1 ? aq->scale->data : NULL;
  s->tensor_scale = filter->params.scale;
  s->asymmetric = params->asymmetric_quantize_inputs;
  s->is_unsigned = 0;
  s->in_off = 0;
  s->qk = el_qgemm_kernels_for(el_context_isa(ctx));
  s->quant = el_quant_kernels_for(el_context_isa(ctx));
  s->kp = el_qgemm_kp(s->qk, s->depth);
  s->nblocks = (s->units + 15) / 16;
  s->block_bytes = el_qgemm_block_bytes(s->qk->format, s->kp);
  EL_ENSURE_OK(ctx, buffers(ctx, s, s->block_bytes * (size_t)s->nblocks));
  el_qgemm_pack(s->qk->format, filter->data.raw_const, 0, 0, s->units, s->depth, s->kp,
                s->packed, s->bias);
  s->has_bias = bias != NULL;
  for (int c = 0; c < s->units; ++c) s->fbias[c] = bias ? bias->data.f[c] : 0.0f;
  el_activation_range_f32(act, &s->lo, &s->hi);
  s->qinput_bytes = ((size_t)s->batches * (size_t)s->depth + 63) & ~(size_t)63;
  EL_ENSURE_OK(ctx, el_opt_request_scratch(
                        ctx, s->qinput_bytes + (size_t)s->batches * (sizeof(float) + sizeof(int32_t)),
                        1, &s->qinput));
  EL_ENSURE_OK(ctx, request_row_scratch(ctx, s));
  s->path = PATH_HYBRID;
  return kTfLiteOk;
}

static TfLiteStatus opt_fc_prepare(TfLiteContext* ctx, TfLiteNode* node) {
  EL_ENSURE_OK(ctx, el_ref_fully_connected.prepare(ctx, node));
  el_opt_fc* s = (el_opt_fc*)node->user_data;
  s->path = PATH_REFERENCE;
  s->raw_row = 0;
  const TfLiteFullyConnectedParams* params = (const TfLiteFullyConnectedParams*)node->builtin_data;
  const TfLiteTensor* input = el_optional_input(ctx, node, 0);
  const TfLiteTensor* filter = el_optional_input(ctx, node, 1);
  const TfLiteTensor* bias = el_optional_input(ctx, node, 2);
  const TfLiteTensor* output = &ctx->tensors[node->outputs->data[0]];
  if (params == NULL || params->weights_format != kTfLiteFullyConnectedWeightsFormatDefault ||
      el_num_outputs(node) != 1 || !el_is_constant_or_persistent(filter) ||
      (bias != NULL && !el_is_constant_or_persistent(bias)) || el_ndims(filter) != 2) {
    return kTfLiteOk;
  }
  const int small = el_context_small_scratch(ctx);
  s->units = filter->dims->data[0];
  s->depth = filter->dims->data[1];
  if (s->depth <= 0 || s->units <= 0 || el_num_elements(input) % s->depth != 0) return kTfLiteOk;
  s->batches = (int)(el_num_elements(input) / s->depth);
  if (s->batches == 0) return kTfLiteOk;
  s->threads = el_cpu_threads(el_context_backend(ctx));
  const TfLiteType t = input->type;
  if ((t == kTfLiteInt8 && filter->type == kTfLiteInt8 && output->type == kTfLiteInt8) ||
      (t == kTfLiteUInt8 && filter->type == kTfLiteUInt8 && output->type == kTfLiteUInt8)) {
    if (small || (bias != NULL && bias->type != kTfLiteInt32)) return kTfLiteOk;
    /* No bound on the sums is needed: every integer step here (packing folds, vector adds,
     * dot products) is arithmetic modulo 2^32, as the reference kernel's wrapping sums are, so
     * the accumulators equal the reference's bit for bit even when they wrap. */
    return prepare_q8(ctx, node, s, input, filter, bias, output);
  }
  if (t == kTfLiteFloat32 && filter->type == kTfLiteFloat32 && output->type == kTfLiteFloat32) {
    return prepare_f32(ctx, node, s, filter, bias);
  }
  if (!small && t == kTfLiteFloat32 && filter->type == kTfLiteInt8 && output->type == kTfLiteFloat32 &&
      (bias == NULL || bias->type == kTfLiteFloat32)) {
    return prepare_hybrid(ctx, node, s, input, filter, bias);
  }
  return kTfLiteOk;
}

typedef struct fc_job {
  const el_opt_fc* s;
  const uint8_t* in;
  uint8_t* out;
  uint8_t* scratch;
  int chunks; /* of 64 units */
  int tasks;
  const float* row_scales; /* hybrid: per row, times the one weight scale when there is one */
  const int32_t* row_zero_points;
} fc_job;

/* The A rows of batches b0.. into the kernels' layout. */
static void pack_rows(const el_opt_fc* s, const uint8_t* in, int b0, int rows, uint8_t* dst) {
  const el_qgemm_kernels* qk = s->qk;
  const uint8_t flip = qk->a_xor;
  const int32_t off = s->in_off;
  const int depth = s->depth;
  /* The single-row kernel reads one row; the tiled one reads mr (zeros past the last batch). */
  const int packed = rows == 1 ? 1 : qk->mr;
  for (int r = 0; r < packed; ++r) {
    const uint8_t* src = in + (size_t)(b0 + r) * (size_t)s->depth;
    if (qk->format == EL_QFORMAT_QUAD) {
      uint8_t* d = dst + (size_t)r * (size_t)s->kp;
      if (r < rows) {
        for (int k = 0; k < depth; ++k) d[k] = src[k] ^ flip;
      }
      memset(d + (r < rows ? s->depth : 0), 0, (size_t)(r < rows ? s->kp - s->depth : s->kp));
    } else {
      int16_t* d = (int16_t*)dst + (size_t)r * (size_t)s->kp;
      if (r < rows) {
        if (s->is_unsigned) {
          for (int k = 0; k < depth; ++k) d[k] = (int16_t)((int32_t)src[k] + off);
        } else {
          for (int k = 0; k < depth; ++k) d[k] = (int16_t)((int32_t)(int8_t)src[k] + off);
        }
      }
      memset(d + (r < rows ? s->depth : 0), 0,
             (size_t)(r < rows ? s->kp - s->depth : s->kp) * sizeof(int16_t));
    }
  }
}

static void q8_task(void* arg, int task, int thread) {
  const fc_job* j = (const fc_job*)arg;
  const el_opt_fc* s = j->s;
  const el_qgemm_kernels* qk = s->qk;
  const int c0 = j->chunks * task / j->tasks, c1 = j->chunks * (task + 1) / j->tasks;
  uint8_t* a = s->raw_row ? NULL : j->scratch + s->scratch.slice * (size_t)thread;
  const size_t row_bytes = (size_t)s->kp * (qk->format == EL_QFORMAT_QUAD ? 1 : 2);
  int32_t acc[EL_QGEMM_MAX_MR * 64];
  for (int b0 = 0; b0 < s->batches; b0 += qk->mr) {
    const int rows = s->batches - b0 < qk->mr ? s->batches - b0 : qk->mr;
    if (!s->raw_row) pack_rows(s, j->in, b0, rows, a);
    for (int chunk = c0; chunk < c1; ++chunk) {
      const int c = chunk * 64;
      const int n = s->units - c < 64 ? s->units - c : 64;
      const int nb = (n + 15) / 16;
      const uint8_t* w = (const uint8_t*)s->packed + (size_t)(c / 16) * s->block_bytes;
      if (s->raw_row) {
        qk->gemv_raw(s->depth, (const int8_t*)j->in, w, s->block_bytes, nb, acc);
      } else if (rows == 1) {
        qk->gemv(s->kp, a, w, s->block_bytes, nb, acc);
      } else {
        qk->gemm(s->kp, a, row_bytes, w, s->block_bytes, nb, acc);
      }
      for (int r = 0; r < rows; ++r) {
        qk->rescale(acc + (rows == 1 ? 0 : r * 64), s->bias + c, s->scale + c,
                    s->use_fscale ? s->fscale + c : NULL, n, s->out_zp, s->act_min, s->act_max,
                    (int8_t*)j->out + (size_t)(b0 + r) * (size_t)s->units + c);
      }
    }
  }
}

/* The reference hybrid kernel's arithmetic for units c .. c+n-1 of one row: the sum of
 * (q - zero point) * w from the raw one and the weight sums, times the row's scale (and the
 * unit's), added to the bias, clamped. */
static void hybrid_row(const el_opt_fc* s, const int32_t* restrict acc, int c, int n, int32_t fold,
                       float row_scale, float* restrict dst) {
  const int32_t* restrict wsum = s->bias + c;
  const float* restrict bias = s->fbias + c;
  float v[64];
  if (s->channel_scales != NULL) {
    const float* restrict cs = s->channel_scales + c;
    for (int x = 0; x < n; ++x) {
      const float scale = row_scale * cs[x];
      v[x] = (float)el_wrap_fold(acc[x], fold, wsum[x]) * scale;
    }
  } else {
    for (int x = 0; x < n; ++x) v[x] = (float)el_wrap_fold(acc[x], fold, wsum[x]) * row_scale;
  }
  if (s->has_bias) {
    for (int x = 0; x < n; ++x) v[x] = bias[x] + v[x];
  }
  for (int x = 0; x < n; ++x) dst[x] = el_clamp_f32(v[x], s->lo, s->hi);
}

static void hybrid_task(void* arg, int task, int thread) {
  const fc_job* j = (const fc_job*)arg;
  const el_opt_fc* s = j->s;
  const el_qgemm_kernels* qk = s->qk;
  const int c0 = j->chunks * task / j->tasks, c1 = j->chunks * (task + 1) / j->tasks;
  uint8_t* a = s->raw_row ? NULL : j->scratch + s->scratch.slice * (size_t)thread;
  const size_t row_bytes = (size_t)s->kp * (qk->format == EL_QFORMAT_QUAD ? 1 : 2);
  /* The rows are packed without their zero points; QUAD also stores q ^ a_xor. */
  const int32_t xor_term = qk->format == EL_QFORMAT_QUAD && qk->a_xor ? 128 : 0;
  float* out = (float*)j->out;
  int32_t acc[EL_QGEMM_MAX_MR * 64];
  for (int b0 = 0; b0 < s->batches; b0 += qk->mr) {
    const int rows = s->batches - b0 < qk->mr ? s->batches - b0 : qk->mr;
    if (!s->raw_row) pack_rows(s, j->in, b0, rows, a);
    for (int chunk = c0; chunk < c1; ++chunk) {
      const int c = chunk * 64;
      const int n = s->units - c < 64 ? s->units - c : 64;
      const int nb = (n + 15) / 16;
      const uint8_t* w = (const uint8_t*)s->packed + (size_t)(c / 16) * s->block_bytes;
      if (s->raw_row) {
        qk->gemv_raw(s->depth, (const int8_t*)j->in, w, s->block_bytes, nb, acc);
      } else if (rows == 1) {
        qk->gemv(s->kp, a, w, s->block_bytes, nb, acc);
      } else {
        qk->gemm(s->kp, a, row_bytes, w, s->block_bytes, nb, acc);
      }
      for (int r = 0; r < rows; ++r) {
        const int b = b0 + r;
        hybrid_row(s, acc + (rows == 1 ? 0 : r * 64), c, n, -j->row_zero_points[b] - xor_term,
                   j->row_scales[b], out + (size_t)b * (size_t)s->units + c);
      }
    }
  }
}

/* Quantizes each row as the reference hybrid kernel does. */
static void hybrid_quantize(const el_opt_fc* s, const float* in, int8_t* q, float* scales,
                            int32_t* zero_points) {
  for (int b = 0; b < s->batches; ++b) {
    const float* x = in + (size_t)b * (size_t)s->depth;
    int8_t* qx = q + (size_t)b * (size_t)s->depth;
    if (s->asymmetric) {
      el_opt_hybrid_quantize_asymmetric(x, s->depth, qx, &scales[b], &zero_points[b]);
    } else {
      el_opt_hybrid_quantize_symmetric_with(s->quant, x, s->depth, qx, &scales[b]);
      zero_points[b] = 0;
    }
    if (s->channel_scales == NULL) scales[b] *= s->tensor_scale;
  }
}

static void f32_task(void* arg, int task, int thread) {
  (void)thread;
  const fc_job* j = (const fc_job*)arg;
  const el_opt_fc* s = j->s;
  const el_fgemm_kernels* fk = s->fk;
  const int c0 = j->chunks * task / j->tasks, c1 = j->chunks * (task + 1) / j->tasks;
  const float* in = (const float*)j->in;
  float* out = (float*)j->out;
  const float* rows_ptr[EL_FGEMM_MAX_MR];
  for (int b0 = 0; b0 < s->batches; b0 += fk->mr) {
    const int rows = s->batches - b0 < fk->mr ? s->batches - b0 : fk->mr;
    for (int r = 0; r < fk->mr; ++r) rows_ptr[r] = in + (size_t)(b0 + (r < rows ? r : 0)) * (size_t)s->depth;
    for (int chunk = c0; chunk < c1; ++chunk) {
      const int c = chunk * 64;
      const int n = s->units - c < 64 ? s->units - c : 64;
      const float* w = (const float*)((const uint8_t*)s->packed + (size_t)(c / 16) * s->block_bytes);
      float* o = out + (size_t)b0 * (size_t)s->units + c;
      if (rows == 1) {
        fk->gemv(s->depth, rows_ptr[0], w, s->block_bytes, n, s->fbias + c, s->lo, s->hi, o);
      } else {
        fk->gemm(s->depth, rows_ptr, rows, w, s->block_bytes, n, s->fbias + c, s->lo, s->hi, o,
                 s->units);
      }
    }
  }
}

static TfLiteStatus opt_fc_invoke(TfLiteContext* ctx, TfLiteNode* node) {
  const el_opt_fc* s = (const el_opt_fc*)node->user_data;
  if (s->path == PATH_REFERENCE) return el_ref_fully_connected.invoke(ctx, node);
  fc_job j;
  j.s = s;
  j.in = (const uint8_t*)ctx->tensors[node->inputs->data[0]].data.raw_const;
  j.out = (uint8_t*)ctx->tensors[node->outputs->data[0]].data.raw;
  /* The float path and rows read in place have no scratch. */
  const int no_scratch = s->path == PATH_F32 || s->raw_row;
  j.scratch = no_scratch ? NULL : (uint8_t*)el_opt_scratch_slice(ctx, &s->scratch, 0);
  EL_ENSURE(ctx, j.in != NULL && j.out != NULL && (j.scratch != NULL || no_scratch));
  if (s->path == PATH_HYBRID) {
    uint8_t* q = (uint8_t*)el_opt_scratch_slice(ctx, &s->qinput, 0);
    EL_ENSURE(ctx, q != NULL);
    float* scales = (float*)(void*)(q + s->qinput_bytes);
    int32_t* zero_points = (int32_t*)(void*)(scales + s->batches);
    hybrid_quantize(s, (const float*)(const void*)j.in, (int8_t*)q, scales, zero_points);
    j.in = q;
    j.row_scales = scales;
    j.row_zero_points = zero_points;
  }
  j.chunks = (s->units + 63) / 64;
  const el_cpu_backend* b = el_context_backend(ctx);
  int threads = el_cpu_threads(b) < s->threads ? el_cpu_threads(b) : s->threads;
  /* Small layers finish before a worker would wake up. */
  if ((int64_t)s->units * s->depth * s->batches < (1 << 16)) threads = 1;
  j.tasks = threads <= 1 ? 1 : (j.chunks < 2 * threads ? j.chunks : 2 * threads);
  el_cpu_parallel(b, j.tasks, threads,
                  s->path == PATH_Q8 ? q8_task : (s->path == PATH_F32 ? f32_task : hybrid_task), &j);
  return kTfLiteOk;
}

const TfLiteRegistration el_opt_fully_connected =
    EL_REGISTRATION(opt_fc_init, el_kernel_free, opt_fc_prepare, opt_fc_invoke,
                    EL_OP_FULLY_CONNECTED);
