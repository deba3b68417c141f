/* Optimized DEPTHWISE_CONV_2D (depth multiplier 1; int8, uint8 and float32 with constant
 * weights): per output pixel, vectors of channels summed over the taps, the weights widened and
 * laid out [tap][channel] in prepare. Taps outside the image read a prepared row of input zero
 * points, so with the input offset folded into the bias every pixel runs the same loop; the
 * integer sums are the reference ones, and so are the requantized bits. Other cases run the
 * reference kernel. */
#include <string.h>

#include "kernels/conv.h"
#include "kernels/kernels.h"
#include "kernels/optimized/dw_kernels.h"
#include "kernels/optimized/opt_kernels.h"
#include "kernels/quant_util.h"
#include "pad_fold.h"

typedef enum dw_path { PATH_REFERENCE = 0, PATH_Q8 = 1, PATH_F32 = 2 } dw_path;

enum { MAX_TAPS = 256 };
/* Narrow maps (at most this many output columns, padded image within kPaddedMax bytes) copy the
 * input into a persistent image with its padding around it: every pixel then reads its taps
 * inside, so a row is one run of pixels sharing the weight loads, where edge pixels would be
 * single-pixel runs (a 5-column map has two edges in five). */
enum { kNarrowCols = 16 };
enum { kPaddedMax = 1 << 18 };
/* A depth multiplier above 1 (output channel c reads input channel c / multiplier; e.g. the
 * micro_speech model's 1 -> 8 channels) runs the multiplier-1 kernels on a copy of the input with
 * every channel repeated multiplier times, made per invoke: one write per output channel and
 * pixel against kh * kw multiply-adds. Copies above kExpandedMax bytes stay on the reference. */
enum { kExpandedMax = 1 << 22 };

typedef struct el_opt_dw {
  el_conv_data ref; /* first: the reference kernel runs on the same user_data */
  dw_path path;
  const el_dw_kernels* k;
  int threads;
  int batches, in_h, in_w, channels, out_h, out_w;
  int kh, kw, sh, sw, dh, dw, pad_h, pad_w;
  int stride; /* channels padded to 16 */
  int cap;    /* entries allocated in each per-channel array */
  int wcap;
  void* weights;  /* int32 or float, [tap][stride] */
  void* zero_row; /* a whole input row of zero points (or 0.0f): taps outside the image */
  size_t zero_cap;
  el_rq_block* blocks;
  int blocks_cap;
  int32_t *bias, *mult, *lshift, *rshift;
  float* fbias;
  el_requant rq;
  int is_unsigned;
  float lo, hi;
  /* The padded copy of one batch's input (NULL: taps read the input in place). */
  uint8_t* padded;
  uint8_t* padded_buffer;
  size_t padded_cap;
  int pad_rows, pad_cols; /* its extent */
  int input; /* the tensor the taps read: input 0, or the input of a PAD folded in (pad_fold.h) */
  int multiplier;      /* depth multiplier: input channels are channels / multiplier */
  uint8_t* expanded;   /* the input with each channel repeated multiplier times (multiplier > 1) */
  uint8_t* expanded_buffer;
  size_t expanded_cap;
  /* float, stride 1, channels dividing 16 (8 on VWW's first layers): a run of pixels is one
   * stretch of floats in and out, computed as runs of 16 "channels" holding `flat` pixels each,
   * the weights and bias repeated along those 16 lanes (0: off). */
  int flat;
} el_opt_dw;

static void* opt_dw_init(TfLiteContext* ctx, const char* buf, size_t len) {
  (void)ctx;
  (void)buf;
  (void)len;
  return el_kernel_alloc(sizeof(el_opt_dw));
}

static TfLiteStatus buffers(TfLiteContext* ctx, el_opt_dw* s, int taps, size_t elem) {
  const int stride = s->stride;
  if (s->cap < stride) {
    const size_t bytes = (size_t)stride * sizeof(int32_t);
    s->bias = (int32_t*)el_opt_persistent(ctx, bytes);
    s->mult = (int32_t*)el_opt_persistent(ctx, bytes);
    s->lshift = (int32_t*)el_opt_persistent(ctx, bytes);
    s->rshift = (int32_t*)el_opt_persistent(ctx, bytes);
    s->fbias = (float*)el_opt_persistent(ctx, (size_t)stride * sizeof(float));
    EL_ENSURE(ctx, s->bias && s->mult && s->lshift && s->rshift && s->fbias);
    s->cap = stride;
  }
  if (s->wcap < taps * stride) {
    s->weights = el_opt_persistent(ctx, (size_t)taps * (size_t)stride * 4);
    EL_ENSURE(ctx, s->weights != NULL);
    s->wcap = taps * stride;
  }
  const size_t zero_bytes = ((size_t)s->in_w + 1) * (size_t)s->channels * elem;
  if (s->zero_cap < zero_bytes) {
    s->zero_row = el_opt_persistent(ctx, zero_bytes);
    EL_ENSURE(ctx, s->zero_row != NULL);
    s->zero_cap = zero_bytes;
  }
  memset(s->bias, 0, (size_t)stride * sizeof(int32_t));
  memset(s->mult, 0, (size_t)stride * sizeof(int32_t));
  memset(s->lshift, 0, (size_t)stride * sizeof(int32_t));
  memset(s->rshift, 0, (size_t)stride * sizeof(int32_t));
  memset(s->fbias, 0, (size_t)stride * sizeof(float));
  memset(s->weights, 0, (size_t)taps * (size_t)stride * 4);
  return kTfLiteOk;
}

static TfLiteStatus prepare_q8(TfLiteContext* ctx, TfLiteNode* node, el_opt_dw* s,
                               const TfLiteTensor* input, const TfLiteTensor* filter,
                               const TfLiteTensor* bias, const TfLiteTensor* output) {
  const TfLiteDepthwiseConvParams* params = (const TfLiteDepthwiseConvParams*)node->builtin_data;
  const int taps = s->kh * s->kw, n = s->channels;
  EL_ENSURE_OK(ctx, buffers(ctx, s, taps, 1));
  s->is_unsigned = input->type == kTfLiteUInt8;
  if (s->is_unsigned) {
    double real = 0.0;
    EL_ENSURE_OK(ctx, el_q_legacy_conv_multiplier(ctx, input, filter, bias, output, &real));
    int32_t q = 0;
    int shift = 0;
    el_q_quantize_multiplier(real, &q, &shift);
    for (int c = 0; c < n; ++c) {
      s->mult[c] = q;
      s->lshift[c] = shift;
    }
  } else {
    EL_ENSURE_OK(ctx, el_q_conv_multipliers(ctx, input, filter, output, n, s->mult, s->lshift));
  }
  for (int c = 0; c < n; ++c) {
    const int shift = s->lshift[c];
    s->lshift[c] = shift > 0 ? shift : 0;
    s->rshift[c] = shift > 0 ? 0 : -shift;
  }
  const int32_t w_off = s->is_unsigned ? -filter->params.zero_point : 0;
  const int32_t in_off = -input->params.zero_point;
  int32_t* w = (int32_t*)s->weights;
  for (int c = 0; c < n; ++c) {
    int32_t sum = 0;
    for (int t = 0; t < taps; ++t) {
      const size_t i = (size_t)t * (size_t)n + (size_t)c; /* filter is 1HWC */
      const int32_t v =
          (s->is_unsigned ? (int32_t)filter->data.uint8[i] : (int32_t)filter->data.int8[i]) + w_off;
      w[(size_t)t * (size_t)s->stride + (size_t)c] =
          s->k->weights_low16 ? (int32_t)(uint16_t)(int16_t)v : v;
      sum += v;
    }
    s->bias[c] = el_wrap_fold(bias ? bias->data.i32[c] : 0, in_off, sum);
  }
  memset(s->zero_row, (uint8_t)input->params.zero_point, s->zero_cap);
  int32_t lo = 0, hi = 0;
  EL_ENSURE_OK(ctx, el_q_activation_range(params->activation, output->type, output->params.scale,
                                          output->params.zero_point, &lo, &hi));
  s->rq.bias = s->bias;
  s->rq.mult = s->mult;
  s->rq.lshift = s->lshift;
  s->rq.rshift = s->rshift;
  s->rq.out_zp = output->params.zero_point;
  s->rq.act_min = lo;
  s->rq.act_max = hi;
  s->rq.any_lshift = 0;
  for (int c = 0; c < n; ++c) s->rq.any_lshift |= s->lshift[c] != 0;
  const int nblocks = s->stride / 16;
  if (s->blocks_cap < nblocks) {
    s->blocks = (el_rq_block*)el_opt_persistent(ctx, sizeof(el_rq_block) * (size_t)nblocks);
    EL_ENSURE(ctx, s->blocks != NULL);
    s->blocks_cap = nblocks;
  }
  el_rq_blocks_build(&s->rq, n, s->blocks);
  s->rq.blocks = s->blocks;
  s->path = PATH_Q8;
  return kTfLiteOk;
}

static TfLiteStatus prepare_f32(TfLiteContext* ctx, TfLiteNode* node, el_opt_dw* s,
                                const TfLiteTensor* filter, const TfLiteTensor* bias) {
  const TfLiteDepthwiseConvParams* params = (const TfLiteDepthwiseConvParams*)node->builtin_data;
  const int taps = s->kh * s->kw, n = s->channels;
  EL_ENSURE_OK(ctx, buffers(ctx, s, taps, sizeof(float)));
  float* w = (float*)s->weights;
  /* Only where each channel of a pixel ran as a vector lane (fused multiply-adds) before: the
   * AVX2 and NEON kernels take channels below their vector width one by one. */
  const el_isa isa = el_context_isa(ctx);
  const int lanes_before = isa == EL_ISA_SCALAR || isa == EL_ISA_AVX512 ||
                           isa == EL_ISA_AVX512_VNNI || n == 8;
  s->flat = lanes_before && s->sw == 1 && n < 16 && 16 % n == 0 ? 16 / n : 0;
  /* Channel c's weights and bias in lane c (and, flat, in every lane j with j % n == c). */
  const int lanes = s->flat ? 16 : n;
  for (int t = 0; t < taps; ++t) {
    for (int j = 0; j < lanes; ++j) {
      w[(size_t)t * (size_t)s->stride + (size_t)j] = filter->data.f[(size_t)t * (size_t)n + (size_t)(j % n)];
    }
  }
  for (int j = 0; j < lanes; ++j) s->fbias[j] = bias ? bias->data.f[j % n] : 0.0f;
  memset(s->zero_row, 0, s->zero_cap);
  el_activation_range_f32(params->activation, &s->lo, &s->hi);
  s->path = PATH_F32;
  return kTfLiteOk;
}

/* The padded image of narrow maps, its border filled once with the zero row's value (the input
 * zero point, or 0.0f); invoke copies only the inside. */
static TfLiteStatus prepare_padded(TfLiteContext* ctx, el_opt_dw* s, size_t elem) {
  s->padded = NULL;
  if (s->out_w > kNarrowCols || s->batches != 1 || (s->pad_h == 0 && s->pad_w == 0)) {
    return kTfLiteOk;
  }
  const int64_t rows_needed = (int64_t)(s->out_h - 1) * s->sh + (int64_t)(s->kh - 1) * s->dh + 1;
  const int64_t cols_needed = (int64_t)(s->out_w - 1) * s->sw + (int64_t)(s->kw - 1) * s->dw + 1;
  const int64_t rows = rows_needed > s->pad_h + s->in_h ? rows_needed : s->pad_h + s->in_h;
  const int64_t cols = cols_needed > s->pad_w + s->in_w ? cols_needed : s->pad_w + s->in_w;
  const int64_t bytes = rows * cols * s->channels * (int64_t)elem;
  if (bytes > kPaddedMax) return kTfLiteOk;
  if (s->padded_cap < (size_t)bytes) {
    s->padded_buffer = (uint8_t*)el_opt_persistent(ctx, (size_t)bytes);
    EL_ENSURE(ctx, s->padded_buffer != NULL);
    s->padded_cap = (size_t)bytes;
  }
  s->padded = s->padded_buffer;
  s->pad_rows = (int)rows;
  s->pad_cols = (int)cols;
  /* The zero row holds in_w + 1 pixels of the fill value; tile it over the whole image. */
  const size_t chunk = (size_t)s->in_w * (size_t)s->channels * elem;
  for (size_t at = 0; at < (size_t)bytes; at += chunk) {
    memcpy(s->padded + at, s->zero_row, (size_t)bytes - at < chunk ? (size_t)bytes - at : chunk);
  }
  return kTfLiteOk;
}

static TfLiteStatus prepare_expanded(TfLiteContext* ctx, el_opt_dw* s, size_t elem) {
  s->expanded = NULL;
  const int64_t bytes = (int64_t)s->batches * s->in_h * s->in_w * s->channels * (int64_t)elem;
  if (elem == 0 || bytes <= 0 || bytes > kExpandedMax) return kTfLiteOk;
  if (s->expanded_cap < (size_t)bytes) {
    void* buffer = el_opt_persistent(ctx, (size_t)bytes);
    EL_ENSURE(ctx, buffer != NULL);
    s->expanded_buffer = (uint8_t*)buffer;
    s->expanded_cap = (size_t)bytes;
  }
  s->expanded = s->expanded_buffer;
  return kTfLiteOk;
}

/* The input with each of its channels repeated s->multiplier times (elem: 1 or 4 bytes). */
static void expand_channels(const el_opt_dw* s, const uint8_t* in, size_t elem, uint8_t* out) {
  const int m = s->multiplier;
  const int64_t values = (int64_t)s->batches * s->in_h * s->in_w * (s->channels / m);
  if (elem == 1 && m % 4 == 0) {
    /* Four copies per store: byte loops become a memset call per value. */
    for (int64_t i = 0; i < values; ++i) {
      const uint32_t word = (uint32_t)in[i] * 0x01010101u;
      uint8_t* d = out + i * m;
      for (int k = 0; k < m; k += 4) memcpy(d + k, &word, 4);
    }
    return;
  }
  if (elem == 1) {
    for (int64_t i = 0; i < values; ++i) memset(out + i * m, in[i], (size_t)m);
    return;
  }
  const uint32_t* src = (const uint32_t*)(const void*)in;
  uint32_t* dst = (uint32_t*)(void*)out;
  for (int64_t i = 0; i < values; ++i) {
    const uint32_t v = src[i];
    uint32_t* d = dst + i * m;
    for (int k = 0; k < m; ++k) d[k] = v;
  }
}

static TfLiteStatus opt_dw_prepare(TfLiteContext* ctx, TfLiteNode* node) {
  EL_ENSURE_OK(ctx, el_ref_depthwise_conv_2d.prepare(ctx, node));
  el_opt_dw* s = (el_opt_dw*)node->user_data;
  s->path = PATH_REFERENCE;
  s->flat = 0;
  const TfLiteDepthwiseConvParams* params = (const TfLiteDepthwiseConvParams*)node->builtin_data;
  const TfLiteTensor* input = el_optional_input(ctx, node, 0);
  const TfLiteTensor* filter = el_optional_input(ctx, node, 1);
  const TfLiteTensor* bias = el_optional_input(ctx, node, 2);
  const TfLiteTensor* output = &ctx->tensors[node->outputs->data[0]];
  if (s->ref.depth_multiplier < 1 || !el_is_constant_or_persistent(filter) ||
      (bias != NULL && !el_is_constant_or_persistent(bias)) || el_num_elements(output) == 0 ||
      el_num_elements(filter) == 0) {
    return kTfLiteOk;
  }
  s->kh = filter->dims->data[1];
  s->kw = filter->dims->data[2];
  s->sh = params->stride_height;
  s->sw = params->stride_width;
  s->dh = params->dilation_height_factor;
  s->dw = params->dilation_width_factor;
  s->multiplier = s->ref.depth_multiplier;
  /* A PAD before this VALID convolution becomes its leading rows and columns. */
  el_pad_fold fold;
  const int folded = input->type == filter->type && s->multiplier == 1 &&
                     el_pad_fold_find(ctx, node, s->dh * (s->kh - 1), s->dw * (s->kw - 1), &fold);
  const TfLiteTensor* image = folded ? &ctx->tensors[fold.src] : input;
  s->input = folded ? fold.src : node->inputs->data[0];
  s->batches = image->dims->data[0];
  s->in_h = image->dims->data[1];
  s->in_w = image->dims->data[2];
  s->channels = image->dims->data[3] * s->multiplier;
  s->out_h = output->dims->data[1];
  s->out_w = output->dims->data[2];
  s->pad_h = folded ? fold.top : s->ref.pad_h;
  s->pad_w = folded ? fold.left : s->ref.pad_w;
  if (s->kh * s->kw > MAX_TAPS) return kTfLiteOk;
  if (s->multiplier > 1) {
    const size_t elem = input->type == kTfLiteFloat32 ? sizeof(float)
                        : (input->type == kTfLiteInt8 || input->type == kTfLiteUInt8) ? 1 : 0;
    EL_ENSURE_OK(ctx, prepare_expanded(ctx, s, elem));
  }
  if (s->multiplier > 1 && s->expanded == NULL) return kTfLiteOk;
  s->stride = (s->channels + 15) / 16 * 16;
  s->k = el_dw_kernels_for(el_context_isa(ctx));
  s->threads = el_cpu_threads(el_context_backend(ctx));
  const TfLiteType t = input->type;
  if ((t == kTfLiteInt8 && filter->type == kTfLiteInt8 && output->type == kTfLiteInt8) ||
      (t == kTfLiteUInt8 && filter->type == kTfLiteUInt8 && output->type == kTfLiteUInt8)) {
    if (bias != NULL && bias->type != kTfLiteInt32) return kTfLiteOk;
    /* No bound on the sums is needed: every integer step here (packing folds, vector adds,
     * dot products) is arithmetic modulo 2^32, as the reference kernel's wrapping sums are, so
     * the accumulators equal the reference's bit for bit even when they wrap. */
    EL_ENSURE_OK(ctx, prepare_q8(ctx, node, s, input, filter, bias, output));
    EL_ENSURE_OK(ctx, prepare_padded(ctx, s, 1));
  } else if (t == kTfLiteFloat32 && filter->type == kTfLiteFloat32 && output->type == kTfLiteFloat32) {
    EL_ENSURE_OK(ctx, prepare_f32(ctx, node, s, filter, bias));
    EL_ENSURE_OK(ctx, prepare_padded(ctx, s, sizeof(float)));
  } else if (s->path == PATH_Q8) {
    EL_ENSURE_OK(ctx, prepare_padded(ctx, s, 1));
  }
  if (folded && s->path != PATH_REFERENCE) el_pad_fold_accept(ctx, node, &fold);
  return kTfLiteOk;
}

typedef struct dw_job {
  const el_opt_dw* s;
  const uint8_t* in;
  uint8_t* out;
  size_t elem;
  int rows; /* batches * out_h */
  int tasks;
  int in_h, in_w, pad_h, pad_w; /* of the image the taps read: the input or its padded copy */
} dw_job;

static void run_f32(const el_opt_dw* s, const float* const* tp, ptrdiff_t step, int count,
                    int channels, float* out, ptrdiff_t out_step) {
  s->k->f32(s->kh * s->kw, tp, step, count, channels, (const float*)s->weights, s->stride, s->fbias,
            s->lo, s->hi, out, out_step);
}

/* One run of `count` pixels: the kernel of the node's path. */
static void run(const el_opt_dw* s, const void* const* tp, ptrdiff_t step, int count, uint8_t* out,
                size_t pixel) {
  const int taps = s->kh * s->kw;
  if (s->path == PATH_Q8) {
    s->k->q8(taps, tp, step, count, s->is_unsigned, s->channels, (const int32_t*)s->weights,
             s->stride, &s->rq, (int8_t*)out, (ptrdiff_t)pixel);
    return;
  }
  const float* const* x = (const float* const*)tp;
  float* y = (float*)out;
  const ptrdiff_t fpixel = (ptrdiff_t)(pixel / sizeof(float));
  if (s->flat == 0 || count < s->flat) {
    run_f32(s, x, step / (ptrdiff_t)sizeof(float), count, s->channels, y, fpixel);
    return;
  }
  /* Neighbouring pixels are neighbouring floats (stride 1): 16 floats are `flat` whole pixels,
   * lane j channel j % channels, as the repeated weights have it. */
  const int vectors = count / s->flat, rest = count % s->flat;
  run_f32(s, x, 16, vectors, 16, y, 16);
  if (rest > 0) {
    const float* tail[MAX_TAPS];
    for (int t = 0; t < taps; ++t) tail[t] = x[t] + (ptrdiff_t)vectors * 16;
    run_f32(s, tail, 0, 1, rest * s->channels, y + (ptrdiff_t)vectors * 16, 16);
  }
}

static void dw_task(void* arg, int task, int thread) {
  (void)thread;
  const dw_job* j = (const dw_job*)arg;
  const el_opt_dw* s = j->s;
  /* Tasks split the output pixels, not rows: maps of 7 or 14 rows split evenly too. */
  const int64_t pixels = (int64_t)j->rows * s->out_w;
  const int64_t p0 = pixels * task / j->tasks, p1 = pixels * (task + 1) / j->tasks;
  const size_t pixel = (size_t)s->channels * j->elem;
  /* Output columns whose taps all fall inside the image: one run per row. */
  int lo = (j->pad_w + s->sw - 1) / s->sw;
  const int span = j->in_w - 1 - (s->kw - 1) * s->dw + j->pad_w;
  int hi = span < 0 ? 0 : span / s->sw + 1;
  if (lo > s->out_w) lo = s->out_w;
  if (hi > s->out_w) hi = s->out_w;
  if (hi < lo) hi = lo;
  const uint8_t* rows[MAX_TAPS];
  const void* tp[MAX_TAPS];
  for (int row = (int)(p0 / s->out_w); (int64_t)row * s->out_w < p1; ++row) {
    const int64_t first = (int64_t)row * s->out_w;
    const int x0 = first < p0 ? (int)(p0 - first) : 0;
    const int x1 = first + s->out_w > p1 ? (int)(p1 - first) : s->out_w;
    const int b = row / s->out_h, oy = row % s->out_h;
    const int iy0 = oy * s->sh - j->pad_h;
    for (int fy = 0; fy < s->kh; ++fy) {
      const int iy = iy0 + fy * s->dh;
      rows[fy] = (iy >= 0 && iy < j->in_h)
                     ? j->in + ((size_t)b * (size_t)j->in_h + (size_t)iy) * (size_t)j->in_w * pixel
                     : (const uint8_t*)s->zero_row;
    }
    uint8_t* out = j->out + (size_t)row * (size_t)s->out_w * pixel;
    for (int ox = x0; ox < x1; ++ox) {
      if (ox >= lo && ox < hi) {
        const int end = hi < x1 ? hi : x1;
        const int ix0 = ox * s->sw - j->pad_w;
        for (int fy = 0, t = 0; fy < s->kh; ++fy) {
          for (int fx = 0; fx < s->kw; ++fx, ++t) tp[t] = rows[fy] + (size_t)(ix0 + fx * s->dw) * pixel;
        }
        run(s, tp, (ptrdiff_t)((size_t)s->sw * pixel), end - ox, out + (size_t)ox * pixel, pixel);
        ox = end - 1;
        continue;
      }
      const int ix0 = ox * s->sw - j->pad_w;
      for (int fy = 0, t = 0; fy < s->kh; ++fy) {
        for (int fx = 0; fx < s->kw; ++fx, ++t) {
          const int ix = ix0 + fx * s->dw;
          tp[t] = (ix >= 0 && ix < j->in_w) ? (const void*)(rows[fy] + (size_t)ix * pixel) : s->zero_row;
        }
      }
      run(s, tp, 0, 1, out + (size_t)ox * pixel, pixel);
    }
  }
}

static TfLiteStatus opt_dw_invoke(TfLiteContext* ctx, TfLiteNode* node) {
  const el_opt_dw* s = (const el_opt_dw*)node->user_data;
  if (s->path == PATH_REFERENCE) return el_ref_depthwise_conv_2d.invoke(ctx, node);
  const TfLiteTensor* input = &ctx->tensors[s->input];
  TfLiteTensor* output = &ctx->tensors[node->outputs->data[0]];
  dw_job j;
  j.s = s;
  j.in = (const uint8_t*)input->data.raw_const;
  j.out = (uint8_t*)output->data.raw;
  EL_ENSURE(ctx, j.in != NULL && j.out != NULL);
  j.elem = s->path == PATH_Q8 ? 1 : sizeof(float);
  j.rows = s->batches * s->out_h;
  const el_cpu_backend* b = el_context_backend(ctx);
  const int threads = el_cpu_threads(b) < s->threads ? el_cpu_threads(b) : s->threads;
  const int64_t pixels = (int64_t)j.rows * s->out_w;
  j.tasks = el_opt_task_count(pixels > 1 << 20 ? 1 << 20 : (int)pixels, threads);
  j.in_h = s->in_h;
  j.in_w = s->in_w;
  j.pad_h = s->pad_h;
  j.pad_w = s->pad_w;
  if (s->multiplier > 1) {
    expand_channels(s, j.in, j.elem, s->expanded);
    j.in = s->expanded;
  }
  if (s->padded != NULL) {
    /* The inside of the padded image; its border keeps the fill from prepare. */
    const size_t row = (size_t)s->in_w * (size_t)s->channels * j.elem;
    const size_t prow = (size_t)s->pad_cols * (size_t)s->channels * j.elem;
    uint8_t* dst = s->padded + (size_t)s->pad_h * prow + (size_t)s->pad_w * (size_t)s->channels * j.elem;
    for (int y = 0; y < s->in_h; ++y) memcpy(dst + (size_t)y * prow, j.in + (size_t)y * row, row);
    j.in = s->padded;
    j.in_h = s->pad_rows;
    j.in_w = s->pad_cols;
    j.pad_h = 0;
    j.pad_w = 0;
  }
  el_cpu_parallel(b, j.tasks, threads, dw_task, &j);
  return kTfLiteOk;
}

const TfLiteRegistration el_opt_depthwise_conv_2d =
    EL_REGISTRATION(opt_dw_init, el_kernel_free, opt_dw_prepare, opt_dw_invoke,
                    EL_OP_DEPTHWISE_CONV_2D);
