/* Optimized AVERAGE_POOL_2D and MAX_POOL_2D for float32, int8 and uint8 NHWC tensors. The
 * reference walks one channel at a time with strided loads; here every window tap is one
 * contiguous row of channels, folded into a per-channel accumulator row (plain C the compiler
 * vectorizes). The results keep the reference bits: float sums add the taps in the reference
 * order and divide by the tap count; integer averages round half away from zero with the same
 * integer division; maxima start from the reference's lowest value. int16 and windows with no
 * input tap run the reference kernel. */
#include <math.h>
#include <string.h>
#if defined(__SSE__)
#include <xmmintrin.h>
#endif

#include "kernels/kernel_util.h"
#include "kernels/kernels.h"
#include "kernels/optimized/opt_kernels.h"
#include "kernels/pooling.h"
#include "kernels/quant_util.h"

/* Integer sums of at most this many 8-bit taps fit in int32. */
enum { kMaxTaps = 1 << 23 };
/* 256 taps of int8 sum within [-32768, 32512] and of uint8 within [0, 65280]: 16 bits hold them. */
enum { kTapsPer16 = 256 };
/* Windows of at most this many taps divide their sums in double (avg_row_q). */
enum { kTapsExactDouble = 1 << 16 };

typedef struct opt_pool_state {
  el_pool_data ref; /* first, so the reference prepare/invoke run on the same node->user_data */
  int fast;
  int average;
  TfLiteType type;
  int batches, in_h, in_w, depth, out_h, out_w;
  int filter_h, filter_w, stride_h, stride_w, pad_h, pad_w;
  int32_t qlo, qhi;
  float flo, fhi;
  int fclamp; /* a float bound is finite (else the clamp changes nothing, a NaN passes) */
  int full;   /* every window lies inside the input: no clipping anywhere */
  el_opt_scratch scratch; /* one accumulator row of `depth` 32-bit and `depth` 16-bit lanes */
} opt_pool_state;

/* The clipped window [*t0, *t1) of output position `o` along one axis. */
static void window(int o, int stride, int pad, int filter, int size, int* origin, int* t0,
                   int* t1) {
  const int start = o * stride - pad;
  *origin = start;
  *t0 = start < 0 ? -start : 0;
  *t1 = size - start < filter ? size - start : filter;
}

/* True when every output window holds at least one input tap (else the reference reports it). */
static int windows_nonempty(const opt_pool_state* s) {
  int origin, t0, t1;
  for (int oy = 0; oy < s->out_h; ++oy) {
    window(oy, s->stride_h, s->pad_h, s->filter_h, s->in_h, &origin, &t0, &t1);
    if (t1 <= t0) return 0;
  }
  for (int ox = 0; ox < s->out_w; ++ox) {
    window(ox, s->stride_w, s->pad_w, s->filter_w, s->in_w, &origin, &t0, &t1);
    if (t1 <= t0) return 0;
  }
  return 1;
}

/* True when no window is clipped by the input's borders. */
static int windows_full(const opt_pool_state* s) {
  int origin, t0, t1;
  for (int oy = 0; oy < s->out_h; ++oy) {
    window(oy, s->stride_h, s->pad_h, s->filter_h, s->in_h, &origin, &t0, &t1);
    if (t0 != 0 || t1 != s->filter_h) return 0;
  }
  for (int ox = 0; ox < s->out_w; ++ox) {
    window(ox, s->stride_w, s->pad_w, s->filter_w, s->in_w, &origin, &t0, &t1);
    if (t0 != 0 || t1 != s->filter_w) return 0;
  }
  return 1;
}

static void* opt_pool_init(TfLiteContext* ctx, const char* buf, size_t len) {
  (void)ctx;
  (void)buf;
  (void)len;
  return el_kernel_alloc(sizeof(opt_pool_state));
}

static TfLiteStatus opt_pool_prepare(TfLiteContext* ctx, TfLiteNode* node,
                                     const TfLiteRegistration* ref, int average) {
  EL_ENSURE_OK(ctx, el_check_user_data(ctx, node));
  EL_ENSURE_OK(ctx, ref->prepare(ctx, node));
  opt_pool_state* s = (opt_pool_state*)node->user_data;
  s->fast = 0;
  const TfLitePoolParams* params = (const TfLitePoolParams*)node->builtin_data;
  const TfLiteTensor* input = el_optional_input(ctx, node, 0);
  const TfLiteTensor* output = &ctx->tensors[node->outputs->data[0]];
  if (input->type != kTfLiteFloat32 && input->type != kTfLiteInt8 &&
      input->type != kTfLiteUInt8) {
    return kTfLiteOk;
  }
  if (el_is_dynamic(output) || el_ndims(output) != 4) return kTfLiteOk;
  s->average = average;
  s->type = input->type;
  s->batches = el_dim(input, 0);
  s->in_h = el_dim(input, 1);
  s->in_w = el_dim(input, 2);
  s->depth = el_dim(input, 3);
  s->out_h = el_dim(output, 1);
  s->out_w = el_dim(output, 2);
  s->filter_h = params->filter_height;
  s->filter_w = params->filter_width;
  s->stride_h = params->stride_height;
  s->stride_w = params->stride_width;
  s->pad_h = s->ref.pad_h;
  s->pad_w = s->ref.pad_w;
  if (s->depth <= 0 || !windows_nonempty(s)) return kTfLiteOk;
  s->full = windows_full(s);
  const int64_t taps = (int64_t)(s->filter_h < s->in_h ? s->filter_h : s->in_h) *
                       (int64_t)(s->filter_w < s->in_w ? s->filter_w : s->in_w);
  if (taps > kMaxTaps || el_context_small_scratch(ctx)) return kTfLiteOk;
  if (input->type == kTfLiteFloat32) {
    el_activation_range_f32(params->activation, &s->flo, &s->fhi);
    s->fclamp = s->flo > -INFINITY || s->fhi < INFINITY;
  } else {
    EL_ENSURE_OK(ctx, el_q_activation_range(params->activation, output->type,
                                            output->params.scale, output->params.zero_point,
                                            &s->qlo, &s->qhi));
  }
  EL_ENSURE_OK(ctx, el_opt_request_scratch(ctx, (size_t)s->depth * (sizeof(int32_t) + sizeof(uint16_t)), 1,
                                           &s->scratch));
  s->fast = 1;
  return kTfLiteOk;
}

typedef float f32x4 __attribute__((vector_size(16)));
typedef int32_t i32x4 __attribute__((vector_size(16)));

/* v > a ? v : a lane by lane (a NaN tap leaves a): MAXPS is exactly that on x86-64. */
static inline f32x4 max_taken(f32x4 v, f32x4 a) {
#if defined(__SSE__)
  return (f32x4)_mm_max_ps((__m128)v, (__m128)a);
#else
  const i32x4 gt = v > a;
  return (f32x4)(((i32x4)v & gt) | ((i32x4)a & ~gt));
#endif
}

/* el_clamp_f32 lane by lane: a NaN passes through. */
static inline f32x4 clamp4(f32x4 a, float flo, float fhi) {
  const i32x4 above = a > fhi, below = a < flo;
  const f32x4 hi = (f32x4){0.0f, 0.0f, 0.0f, 0.0f} + fhi;
  const f32x4 lo = (f32x4){0.0f, 0.0f, 0.0f, 0.0f} + flo;
  i32x4 r = ((i32x4)hi & above) | ((i32x4)a & ~above);
  r = ((i32x4)lo & below) | (r & ~below);
  return (f32x4)r;
}

static inline f32x4 load4(const float* x) {
  f32x4 v;
  memcpy(&v, x, sizeof(v));
  return v;
}

/* One block of V vectors of 4 channels from channel k0: V independent chains across the taps
 * (a long window's sums are bound by the add latency, not by the loads). */
#define POOL_BLOCK_F32(V)                                                                     \
  for (; k0 + 4 * (V) <= c; k0 += 4 * (V)) {                                                  \
    f32x4 a[V];                                                                               \
    for (int v = 0; v < (V); ++v) a[v] = (f32x4){0.0f, 0.0f, 0.0f, 0.0f} + init;              \
    for (int fy = fy0; fy < fy1; ++fy) {                                                      \
      const float* x = in + first + (size_t)(fy - fy0) * row + (size_t)k0;                    \
      if (average) {                                                                          \
        for (int fx = fx0; fx < fx1; ++fx, x += c) {                                          \
          for (int v = 0; v < (V); ++v) a[v] = a[v] + load4(x + 4 * v);                       \
        }                                                                                     \
      } else {                                                                                \
        for (int fx = fx0; fx < fx1; ++fx, x += c) {                                          \
          for (int v = 0; v < (V); ++v) a[v] = max_taken(load4(x + 4 * v), a[v]);            \
        }                                                                                     \
      }                                                                                       \
    }                                                                                         \
    for (int v = 0; v < (V); ++v) {                                                           \
      f32x4 r = average ? a[v] / count : a[v];                                                \
      if (s->fclamp) r = clamp4(r, s->flo, s->fhi);                                           \
      memcpy(out + k0 + 4 * v, &r, sizeof(r));                                                \
    }                                                                                         \
  }

/* Folds the taps of one window (float sums or maxima) and writes the output row: blocks of 32,
 * 16, 8 and 4 channels in vector registers of the compiler across the taps, the rest one by one.
 * Each channel's sum adds its taps in the reference order. A maximum takes the tap only where
 * it compares greater, as the reference does (NaN taps are skipped). */
static void pool_row_f32(const opt_pool_state* s, const float* in, int y0, int x0, int fy0,
                         int fy1, int fx0, int fx1, float* out) {
  const int c = s->depth;
  const int average = s->average;
  const float init = average ? 0.0f : -INFINITY;
  const float count = (float)((fy1 - fy0) * (fx1 - fx0));
  const size_t first = ((size_t)(y0 + fy0) * (size_t)s->in_w + (size_t)(x0 + fx0)) * (size_t)c;
  const size_t row = (size_t)s->in_w * (size_t)c;
  int k0 = 0;
  POOL_BLOCK_F32(8)
  POOL_BLOCK_F32(4)
  POOL_BLOCK_F32(2)
  POOL_BLOCK_F32(1)
  for (; k0 < c; ++k0) {
    float a = init;
    for (int fy = fy0; fy < fy1; ++fy) {
      const float* x = in + first + (size_t)(fy - fy0) * row + (size_t)k0;
      for (int fx = fx0; fx < fx1; ++fx, x += c) {
        if (average) {
          a += *x;
        } else {
          a = *x > a ? *x : a;
        }
      }
    }
    out[k0] = el_clamp_f32(average ? a / count : a, s->flo, s->fhi);
  }
}
#undef POOL_BLOCK_F32

static int32_t clamp_q(int32_t v, int32_t lo, int32_t hi) {
  return v < lo ? lo : (v > hi ? hi : v);
}

/* Adds the 16-bit partial sums into the int32 sums and clears them. */
static void flush16(int c, int is_signed, uint16_t* part, int32_t* acc) {
  if (is_signed) {
    for (int k = 0; k < c; ++k) acc[k] += (int16_t)part[k];
  } else {
    for (int k = 0; k < c; ++k) acc[k] += part[k];
  }
  memset(part, 0, (size_t)c * sizeof(uint16_t));
}

/* out[k] = clamp(round(acc[k] / count)), the reference's rounding half away from zero (its
 * (a +- count / 2) / count in integers), for count <= kTapsExactDouble: the division in double
 * (|numerator| < 2^25 and count <= 2^16, so a quotient that is not an integer lies at least
 * 2^-16 from one, far beyond its rounding error, and the truncation gives the integer
 * quotient), without branches on the sign or the clamp, so the compiler vectorizes it. */
static void divide_row(const int32_t* restrict acc, int c, int32_t count, int32_t lo, int32_t hi,
                       uint8_t* restrict out) {
  const int32_t half = count / 2;
  const double dc = (double)count;
  for (int k = 0; k < c; ++k) {
    const int32_t a = acc[k];
    const int32_t neg = a > 0 ? 0 : -1;
    const int32_t num = a + ((half ^ neg) - neg);
    int32_t q = (int32_t)((double)num / dc);
    q = q < lo ? lo : q;
    q = q > hi ? hi : q;
    out[k] = (uint8_t)q;
  }
}

/* The integer average of one window. Taps add into 16-bit lanes (twice the lanes of int32 per
 * vector), which hold the sum of kTapsPer16 8-bit taps exactly, then into int32 sums (prepare
 * keeps the tap count within kMaxTaps). Integer sums do not depend on the order. */
static void avg_row_q(const opt_pool_state* s, const uint8_t* in, int is_signed, int y0, int x0,
                      int fy0, int fy1, int fx0, int fx1, int32_t* acc, uint16_t* part,
                      uint8_t* out) {
  const int c = s->depth;
  for (int k = 0; k < c; ++k) acc[k] = 0;
  memset(part, 0, (size_t)c * sizeof(uint16_t));
  int pending = 0;
  for (int fy = fy0; fy < fy1; ++fy) {
    for (int fx = fx0; fx < fx1; ++fx) {
      const size_t at = ((size_t)(y0 + fy) * (size_t)s->in_w + (size_t)(x0 + fx)) * (size_t)c;
      if (is_signed) {
        const int8_t* x = (const int8_t*)in + at;
        for (int k = 0; k < c; ++k) part[k] = (uint16_t)(part[k] + (uint16_t)(int16_t)x[k]);
      } else {
        const uint8_t* x = in + at;
        for (int k = 0; k < c; ++k) part[k] = (uint16_t)(part[k] + x[k]);
      }
      if (++pending == kTapsPer16) {
        flush16(c, is_signed, part, acc);
        pending = 0;
      }
    }
  }
  if (pending) flush16(c, is_signed, part, acc);
  const int32_t count = (fy1 - fy0) * (fx1 - fx0);
  const int32_t half = count / 2;
  if (count <= kTapsExactDouble) {
    divide_row(acc, c, count, s->qlo, s->qhi, out);
    return;
  }
  for (int k = 0; k < c; ++k) {
    const int32_t a = acc[k];
    const int32_t q = a > 0 ? (a + half) / count : (a - half) / count;
    out[k] = (uint8_t)clamp_q(q, s->qlo, s->qhi);
  }
}

/* Byte vectors of the compiler (SSE2 / NEON registers on the plain C level). */
typedef uint8_t u8x16 __attribute__((vector_size(16)));
typedef uint8_t u8x8 __attribute__((vector_size(8)));

#define EL_UMAX(a, b) (((a) > (b)) ? (a) : (b))

static inline u8x16 umax16(u8x16 a, u8x16 b) {
  const u8x16 gt = (u8x16)(a > b);
  return (a & gt) | (b & ~gt);
}
static inline u8x8 umax8(u8x8 a, u8x8 b) {
  const u8x8 gt = (u8x8)(a > b);
  return (a & gt) | (b & ~gt);
}

/* The maxima of one window, clamped, for 8-bit channels. int8 values are compared as unsigned
 * bytes with the top bit flipped (the same order; unsigned byte maxima are one instruction on
 * every SIMD level, signed ones not on SSE2), in byte vectors of 16 and 8 channels held in
 * registers across the taps; the last few channels one by one. */
static void max_row_q8(const opt_pool_state* s, const uint8_t* in, uint8_t flip, int y0, int x0,
                       int fy0, int fy1, int fx0, int fx1, uint8_t* out) {
  const int c = s->depth;
  const uint8_t lo = (uint8_t)(s->qlo ^ flip), hi = (uint8_t)(s->qhi ^ flip);
  const size_t first = ((size_t)(y0 + fy0) * (size_t)s->in_w + (size_t)(x0 + fx0)) * (size_t)c;
  const size_t row = (size_t)s->in_w * (size_t)c;
  int k0 = 0;
  for (; k0 + 16 <= c; k0 += 16) {
    const u8x16 f = (u8x16){0} + flip;
    u8x16 m = {0};
    for (int fy = fy0; fy < fy1; ++fy) {
      const uint8_t* x = in + first + (size_t)(fy - fy0) * row + (size_t)k0;
      for (int fx = fx0; fx < fx1; ++fx, x += c) {
        u8x16 v;
        memcpy(&v, x, sizeof(v));
        m = umax16(m, v ^ f);
      }
    }
    m = umax16(m, (u8x16){0} + lo);
    m = ~umax16(~m, ~((u8x16){0} + hi)); /* min(m, hi) */
    m ^= f;
    memcpy(out + k0, &m, sizeof(m));
  }
  if (k0 + 8 <= c) {
    const u8x8 f = (u8x8){0} + flip;
    u8x8 m = {0};
    for (int fy = fy0; fy < fy1; ++fy) {
      const uint8_t* x = in + first + (size_t)(fy - fy0) * row + (size_t)k0;
      for (int fx = fx0; fx < fx1; ++fx, x += c) {
        u8x8 v;
        memcpy(&v, x, sizeof(v));
        m = umax8(m, v ^ f);
      }
    }
    m = umax8(m, (u8x8){0} + lo);
    m = ~umax8(~m, ~((u8x8){0} + hi));
    m ^= f;
    memcpy(out + k0, &m, sizeof(m));
    k0 += 8;
  }
  for (; k0 < c; ++k0) {
    uint8_t m = 0;
    for (int fy = fy0; fy < fy1; ++fy) {
      const uint8_t* x = in + first + (size_t)(fy - fy0) * row + (size_t)k0;
      for (int fx = fx0; fx < fx1; ++fx, x += c) m = EL_UMAX(m, (uint8_t)(*x ^ flip));
    }
    m = m < lo ? lo : (m > hi ? hi : m);
    out[k0] = (uint8_t)(m ^ flip);
  }
}

/* max_row_q8 over a whole map whose windows are all inside it (s->full): the constants are set
 * up once per map instead of once per pixel, which on small maps (a 2x2 pool of 16 channels
 * reads four vectors per pixel) cost more than the maxima. Same order of taps, same bytes. */
static void max_full_q8(const opt_pool_state* s, const uint8_t* in, uint8_t flip, uint8_t* out) {
  const int c = s->depth;
  const size_t row = (size_t)s->in_w * (size_t)c;
  const uint8_t lo = (uint8_t)(s->qlo ^ flip), hi = (uint8_t)(s->qhi ^ flip);
  const u8x16 f = (u8x16){0} + flip;
  const u8x16 vlo = (u8x16){0} + lo;
  const u8x16 nhi = ~((u8x16){0} + hi);
  for (int oy = 0; oy < s->out_h; ++oy) {
    const uint8_t* line = in + (size_t)oy * (size_t)s->stride_h * row;
    for (int ox = 0; ox < s->out_w; ++ox, out += c) {
      const uint8_t* first = line + (size_t)ox * (size_t)s->stride_w * (size_t)c;
      int k0 = 0;
      for (; k0 + 16 <= c; k0 += 16) {
        u8x16 m = vlo;
        for (int fy = 0; fy < s->filter_h; ++fy) {
          const uint8_t* x = first + (size_t)fy * row + (size_t)k0;
          for (int fx = 0; fx < s->filter_w; ++fx, x += c) {
            u8x16 v;
            memcpy(&v, x, sizeof(v));
            m = umax16(m, v ^ f);
          }
        }
        m = ~umax16(~m, nhi); /* min(m, hi) */
        m ^= f;
        memcpy(out + k0, &m, sizeof(m));
      }
      if (k0 + 8 <= c) {
        const u8x8 f8 = (u8x8){0} + flip;
        u8x8 m = (u8x8){0} + lo;
        for (int fy = 0; fy < s->filter_h; ++fy) {
          const uint8_t* x = first + (size_t)fy * row + (size_t)k0;
          for (int fx = 0; fx < s->filter_w; ++fx, x += c) {
            u8x8 v;
            memcpy(&v, x, sizeof(v));
            m = umax8(m, v ^ f8);
          }
        }
        m = ~umax8(~m, ~((u8x8){0} + hi)); /* min(m, hi) */
        m ^= f8;
        memcpy(out + k0, &m, sizeof(m));
        k0 += 8;
      }
      for (; k0 < c; ++k0) {
        uint8_t m = lo;
        for (int fy = 0; fy < s->filter_h; ++fy) {
          const uint8_t* x = first + (size_t)fy * row + (size_t)k0;
          for (int fx = 0; fx < s->filter_w; ++fx, x += c) m = EL_UMAX(m, (uint8_t)(*x ^ flip));
        }
        m = m > hi ? hi : m;
        out[k0] = (uint8_t)(m ^ flip);
      }
    }
  }
}

static TfLiteStatus opt_pool_invoke(TfLiteContext* ctx, TfLiteNode* node,
                                    const TfLiteRegistration* ref) {
  const opt_pool_state* s = (const opt_pool_state*)node->user_data;
  if (!s->fast) return ref->invoke(ctx, node);
  const uint8_t* in = (const uint8_t*)ctx->tensors[node->inputs->data[0]].data.raw_const;
  uint8_t* out = (uint8_t*)ctx->tensors[node->outputs->data[0]].data.raw;
  void* acc = el_opt_scratch_slice(ctx, &s->scratch, 0);
  EL_ENSURE(ctx, in != NULL && out != NULL && acc != NULL);
  const size_t elem = s->type == kTfLiteFloat32 ? sizeof(float) : 1;
  const size_t row = (size_t)s->depth * elem;
  const size_t in_image = (size_t)s->in_h * (size_t)s->in_w * row;
  for (int b = 0; b < s->batches; ++b) {
    const uint8_t* image = in + (size_t)b * in_image;
    if (s->full && !s->average && s->type != kTfLiteFloat32) {
      max_full_q8(s, image, s->type == kTfLiteInt8 ? 0x80 : 0, out);
      out += (size_t)s->out_h * (size_t)s->out_w * row;
      continue;
    }
    for (int oy = 0; oy < s->out_h; ++oy) {
      int y0, fy0, fy1;
      window(oy, s->stride_h, s->pad_h, s->filter_h, s->in_h, &y0, &fy0, &fy1);
      for (int ox = 0; ox < s->out_w; ++ox, out += row) {
        int x0, fx0, fx1;
        window(ox, s->stride_w, s->pad_w, s->filter_w, s->in_w, &x0, &fx0, &fx1);
        if (s->type == kTfLiteFloat32) {
          pool_row_f32(s, (const float*)image, y0, x0, fy0, fy1, fx0, fx1, (float*)out);
        } else if (s->average) {
          avg_row_q(s, image, s->type == kTfLiteInt8, y0, x0, fy0, fy1, fx0, fx1, (int32_t*)acc,
                    (uint16_t*)((int32_t*)acc + s->depth), out);
        } else if (s->type == kTfLiteInt8) {
          max_row_q8(s, image, 0x80, y0, x0, fy0, fy1, fx0, fx1, out);
        } else {
          max_row_q8(s, image, 0, y0, x0, fy0, fy1, fx0, fx1, out);
        }
      }
    }
  }
  return kTfLiteOk;
}

static TfLiteStatus opt_avg_prepare(TfLiteContext* ctx, TfLiteNode* node) {
  return opt_pool_prepare(ctx, node, &el_ref_average_pool_2d, 1);
}
static TfLiteStatus opt_avg_invoke(TfLiteContext* ctx, TfLiteNode* node) {
  return opt_pool_invoke(ctx, node, &el_ref_average_pool_2d);
}
static TfLiteStatus opt_max_prepare(TfLiteContext* ctx, TfLiteNode* node) {
  return opt_pool_prepare(ctx, node, &el_ref_max_pool_2d, 0);
}
static TfLiteStatus opt_max_invoke(TfLiteContext* ctx, TfLiteNode* node) {
  return opt_pool_invoke(ctx, node, &el_ref_max_pool_2d);
}

const TfLiteRegistration el_opt_average_pool_2d = EL_REGISTRATION(
    opt_pool_init, el_kernel_free, opt_avg_prepare, opt_avg_invoke, EL_OP_AVERAGE_POOL_2D);
const TfLiteRegistration el_opt_max_pool_2d = EL_REGISTRATION(
    opt_pool_init, el_kernel_free, opt_max_prepare, opt_max_invoke, EL_OP_MAX_POOL_2D);
