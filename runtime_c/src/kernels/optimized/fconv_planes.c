/* The plane-split float convolution of few input channels into 8 (see fconv_planes.h). */
#include "kernels/optimized/fconv_planes.h"

#include <math.h>
#include <string.h>

enum { LANES = 16, OUT_C = EL_FCONV_PLANES_OUT_C, MAX_KDIM = 64, MAX_SOURCES = 6 };

/* Output columns per plane row the kernel reads: whole groups of 16 plus the taps' reach. */
static int plane_width(const el_conv_geom* g) {
  const int read = (g->out_w + LANES - 1) / LANES * LANES + (g->kw - 1) / g->sw;
  const int written = (g->in_w + g->pad_w + g->sw - 1) / g->sw;
  /* Whole cache lines per row: the runs' stores and the taps' loads do not split lines. */
  return ((read > written ? read : written) + LANES - 1) / LANES * LANES;
}

static int plane_height(const el_conv_geom* g) {
  const int read = (g->out_h - 1) * g->sh + g->kh;
  return read > g->in_h + g->pad_h ? read : g->in_h + g->pad_h;
}

int64_t el_fconv_planes_floats(const el_conv_geom* g) {
  return (int64_t)g->batches * g->in_c * g->sw * plane_height(g) * plane_width(g);
}

int el_fconv_planes_ok(const el_conv_geom* g, el_isa isa) {
#if defined(__x86_64__)
  return el_isa_at_least(isa, EL_ISA_AVX512) && !g->pointwise && g->out_c == OUT_C &&
         g->dh == 1 && g->dw == 1 && g->kdim <= MAX_KDIM && g->in_c * g->sw <= MAX_SOURCES &&
         g->out_w >= LANES && el_fconv_planes_floats(g) <= ((int64_t)1 << 20);
#else
  (void)g;
  (void)isa;
  return 0;
#endif
}

void el_fconv_planes_init(el_fconv_planes* p, const el_conv_geom* g, float* planes, float* weights,
                          const float* filter, const float* bias, float lo, float hi) {
  p->g = *g;
  p->plane_h = plane_height(g);
  p->plane_w = plane_width(g);
  p->planes = planes;
  p->weights = weights;
  p->bias = bias;
  p->lo = lo;
  p->hi = hi;
  memset(planes, 0, (size_t)el_fconv_planes_floats(g) * sizeof(float));
  memset(p->fill_from, 0, sizeof p->fill_from);
  for (int combo = 0; combo < g->in_c * g->sw && combo < MAX_SOURCES; ++combo) {
    const int ci = combo / g->sw, ph = combo % g->sw;
    for (int j = 0; j < LANES; ++j) {
      const int e = (j * g->sw + ph) * g->in_c + ci;
      p->fill_index[combo][j] = e % 32;
      p->fill_from[combo][e / 32] |= (uint16_t)(1u << j);
    }
  }
  for (int k = 0; k < g->kdim; ++k) {
    for (int c = 0; c < OUT_C; ++c) weights[k * OUT_C + c] = filter[(size_t)c * (size_t)g->kdim + (size_t)k];
  }
}

/* The plane row of batch b, input channel ci, phase ph, padded row v. */
static inline float* plane_row(const el_fconv_planes* p, int64_t b, int ci, int ph, int v) {
  const el_conv_geom* g = &p->g;
  return p->planes + (((b * g->in_c + ci) * g->sw + ph) * p->plane_h + v) * (int64_t)p->plane_w;
}

#if defined(__x86_64__)
#include "kernels/optimized/simd_x86.h"

/* Runs of 16 * sw pixels (PER = sw * in_c vectors, a constant once inlined) of one input row
 * into 16 columns of each (channel, phase) plane: lane j of plane combo ci * sw + ph is float
 * (j * sw + ph) * in_c + ci of the run, taken from its pair of the run's vectors by a two-source
 * permute (fill_index, fill_from). */
EL_TARGET_AVX512 static inline __attribute__((always_inline)) void fill_runs(
    const el_fconv_planes* p, int PER, const float* src, int runs, float* const* dst) {
  __m512i idx[MAX_SOURCES];
  __mmask16 from[MAX_SOURCES][MAX_SOURCES / 2];
  for (int combo = 0; combo < PER; ++combo) {
    idx[combo] = _mm512_loadu_si512(p->fill_index[combo]);
    for (int pair = 0; 2 * pair < PER; ++pair) from[combo][pair] = (__mmask16)p->fill_from[combo][pair];
  }
  for (int q = 0; q < runs; ++q, src += LANES * PER) {
    __m512 v[MAX_SOURCES];
    for (int k = 0; k < PER; ++k) v[k] = _mm512_loadu_ps(src + LANES * k);
    for (int combo = 0; combo < PER; ++combo) {
      __m512 r = _mm512_permutex2var_ps(v[0], idx[combo], v[PER > 1 ? 1 : 0]);
      for (int pair = 1; 2 * pair < PER; ++pair) {
        const __m512 hi = v[2 * pair + 1 < PER ? 2 * pair + 1 : 2 * pair];
        r = _mm512_mask_mov_ps(r, from[combo][pair], _mm512_permutex2var_ps(v[2 * pair], idx[combo], hi));
      }
      _mm512_storeu_ps(dst[combo] + q * LANES, r);
    }
  }
}

#define EL_FILL_RUNS(PER)                                                                        \
  EL_TARGET_AVX512 static __attribute__((noinline)) void fill_runs_##PER(                        \
      const el_fconv_planes* p, const float* src, int runs, float* const* dst) {                 \
    fill_runs(p, PER, src, runs, dst);                                                           \
  }
EL_FILL_RUNS(1)
EL_FILL_RUNS(2)
EL_FILL_RUNS(3)
EL_FILL_RUNS(4)
EL_FILL_RUNS(5)
EL_FILL_RUNS(6)
#undef EL_FILL_RUNS

typedef void (*fill_runs_fn)(const el_fconv_planes*, const float*, int, float* const*);

/* One input row into its planes: whole runs by fill_runs without left padding; the columns past
 * them, and rows with left padding, one by one. */
static void fill_row(const el_fconv_planes* p, int64_t b, int y, const float* src) {
  static const fill_runs_fn by_sources[MAX_SOURCES] = {fill_runs_1, fill_runs_2, fill_runs_3,
                                                       fill_runs_4, fill_runs_5, fill_runs_6};
  const el_conv_geom* g = &p->g;
  const int v = y + g->pad_h, per = g->sw * g->in_c;
  int x = 0;
  if (g->pad_w == 0) {
    float* dst[MAX_SOURCES];
    for (int combo = 0; combo < per; ++combo) dst[combo] = plane_row(p, b, combo / g->sw, combo % g->sw, v);
    const int runs = g->in_w / (LANES * g->sw);
    by_sources[per - 1](p, src, runs, dst);
    x = runs * LANES * g->sw;
  }
  for (; x < g->in_w; ++x) {
    const int u = x + g->pad_w;
    for (int ci = 0; ci < g->in_c; ++ci) {
      plane_row(p, b, ci, u % g->sw, v)[u / g->sw] = src[(int64_t)x * g->in_c + ci];
    }
  }
}

void el_fconv_planes_fill(const el_fconv_planes* p, const float* in) {
  const el_conv_geom* g = &p->g;
  const int64_t row = (int64_t)g->in_w * g->in_c;
  for (int64_t b = 0; b < g->batches; ++b) {
    for (int y = 0; y < g->in_h; ++y) fill_row(p, b, y, in + (b * g->in_h + y) * row);
  }
}

/* Two-source permute indices of the 8 x 16 -> 16 x 8 transpose (channel-major sums to
 * pixel-major outputs), in three rounds of pairs. */
static const int32_t kPairLo[LANES] = {0, 16, 1, 17, 2, 18, 3, 19, 4, 20, 5, 21, 6, 22, 7, 23};
static const int32_t kPairHi[LANES] = {8, 24, 9, 25, 10, 26, 11, 27, 12, 28, 13, 29, 14, 30, 15, 31};
static const int32_t kQuadLo[LANES] = {0, 1, 16, 17, 2, 3, 18, 19, 4, 5, 20, 21, 6, 7, 22, 23};
static const int32_t kQuadHi[LANES] = {8, 9, 24, 25, 10, 11, 26, 27, 12, 13, 28, 29, 14, 15, 30, 31};
static const int32_t kOctLo[LANES] = {0, 1, 2, 3, 16, 17, 18, 19, 4, 5, 6, 7, 20, 21, 22, 23};
static const int32_t kOctHi[LANES] = {8, 9, 10, 11, 24, 25, 26, 27, 12, 13, 14, 15, 28, 29, 30, 31};

/* acc[c] holds channel c of 16 pixels: stored as pixels of 8 channels, the first `pixels` only. */
EL_TARGET_AVX512 static inline void store_transposed(const __m512* acc, int pixels, float* out) {
  const __m512i pl = _mm512_loadu_si512(kPairLo), ph = _mm512_loadu_si512(kPairHi);
  const __m512i ql = _mm512_loadu_si512(kQuadLo), qh = _mm512_loadu_si512(kQuadHi);
  const __m512i ol = _mm512_loadu_si512(kOctLo), oh = _mm512_loadu_si512(kOctHi);
  __m512 pair[8], quad[8];
  for (int c = 0; c < 8; c += 2) {
    /* Channels c, c + 1 interleaved: pixels 0-7, then 8-15. */
    pair[c] = _mm512_permutex2var_ps(acc[c], pl, acc[c + 1]);
    pair[c + 1] = _mm512_permutex2var_ps(acc[c], ph, acc[c + 1]);
  }
  for (int h = 0; h < 2; ++h) {
    /* Channels 0-3 (from pairs 01, 23) and 4-7 (45, 67) of pixels 8h..8h+3, 8h+4..8h+7. */
    quad[4 * h] = _mm512_permutex2var_ps(pair[h], ql, pair[2 + h]);
    quad[4 * h + 1] = _mm512_permutex2var_ps(pair[h], qh, pair[2 + h]);
    quad[4 * h + 2] = _mm512_permutex2var_ps(pair[4 + h], ql, pair[6 + h]);
    quad[4 * h + 3] = _mm512_permutex2var_ps(pair[4 + h], qh, pair[6 + h]);
  }
  for (int q = 0; q < 4; ++q) {
    /* Pixels 4q..4q+3: channels 0-3 in quad[(q/2)*4 + q%2], 4-7 in the one two after it. */
    const __m512 a = quad[(q / 2) * 4 + q % 2], b = quad[(q / 2) * 4 + q % 2 + 2];
    const __m512 v[2] = {_mm512_permutex2var_ps(a, ol, b), _mm512_permutex2var_ps(a, oh, b)};
    for (int k = 0; k < 2; ++k) {
      const int first = 4 * q + 2 * k; /* the vector's first pixel */
      const __mmask16 keep = first + 2 <= pixels ? (__mmask16)0xFFFF
                             : first < pixels    ? (__mmask16)0x00FF
                                                 : (__mmask16)0;
      if (keep) _mm512_mask_storeu_ps(out + first * OUT_C, keep, v[k]);
    }
  }
}

/* G (at most 3) groups of 16 output pixels from column ox0 of output row (b, oy). */
EL_TARGET_AVX512 static inline __attribute__((always_inline)) void pixels_x16(
    const el_fconv_planes* p, int G, int64_t b, int oy, int ox0, int pixels, float* out) {
  const el_conv_geom* g = &p->g;
  __m512 acc[3][OUT_C];
  for (int c = 0; c < OUT_C; ++c) {
    const __m512 bc = _mm512_set1_ps(p->bias[c]);
    for (int q = 0; q < G; ++q) acc[q][c] = bc;
  }
  const float* w = p->weights;
  for (int fy = 0; fy < g->kh; ++fy) {
    const int v = oy * g->sh + fy;
    for (int fx = 0; fx < g->kw; ++fx) {
      const int col = ox0 + fx / g->sw;
      for (int ci = 0; ci < g->in_c; ++ci, w += OUT_C) {
        const float* x = plane_row(p, b, ci, fx % g->sw, v) + col;
        __m512 xv[3];
        for (int q = 0; q < G; ++q) xv[q] = _mm512_loadu_ps(x + q * LANES);
        _Pragma("GCC unroll 8") for (int c = 0; c < OUT_C; ++c) {
          const __m512 wc = _mm512_set1_ps(w[c]);
          for (int q = 0; q < G; ++q) acc[q][c] = _mm512_fmadd_ps(xv[q], wc, acc[q][c]);
        }
      }
    }
  }
  /* The activation clamp as the GEMM kernels apply it: only the finite bounds. */
  const __m512 lo = _mm512_set1_ps(p->lo), hi = _mm512_set1_ps(p->hi);
  for (int q = 0; q < G; ++q) {
    for (int c = 0; c < OUT_C; ++c) {
      if (p->lo > -INFINITY) acc[q][c] = _mm512_max_ps(acc[q][c], lo);
      if (p->hi < INFINITY) acc[q][c] = _mm512_min_ps(acc[q][c], hi);
    }
    const int left = pixels - q * LANES;
    store_transposed(acc[q], left < LANES ? left : LANES, out + (int64_t)q * LANES * OUT_C);
  }
}

/* 48 pixels: 24 sums and 3 loads per tap, which keeps the FMA units (not the loads) busy. */
EL_TARGET_AVX512 static __attribute__((noinline)) void pixels_x48(const el_fconv_planes* p, int64_t b,
                                                                  int oy, int ox0, float* out) {
  pixels_x16(p, 3, b, oy, ox0, 3 * LANES, out);
}

EL_TARGET_AVX512 static __attribute__((noinline)) void pixels_x32(const el_fconv_planes* p, int64_t b,
                                                                  int oy, int ox0, float* out) {
  pixels_x16(p, 2, b, oy, ox0, 2 * LANES, out);
}

EL_TARGET_AVX512 static __attribute__((noinline)) void pixels_upto16(const el_fconv_planes* p,
                                                                     int64_t b, int oy, int ox0,
                                                                     int pixels, float* out) {
  pixels_x16(p, 1, b, oy, ox0, pixels, out);
}

void el_fconv_planes_rows(const el_fconv_planes* p, int64_t row0, int64_t row1, float* out) {
  const el_conv_geom* g = &p->g;
  for (int64_t row = row0; row < row1; ++row) {
    const int64_t b = row / g->out_h;
    const int oy = (int)(row % g->out_h);
    float* o = out + row * g->out_w * OUT_C;
    int ox = 0;
    for (; ox + 3 * LANES <= g->out_w; ox += 3 * LANES) pixels_x48(p, b, oy, ox, o + ox * OUT_C);
    for (; ox + 2 * LANES <= g->out_w; ox += 2 * LANES) pixels_x32(p, b, oy, ox, o + ox * OUT_C);
    for (; ox < g->out_w; ox += LANES) {
      const int left = g->out_w - ox;
      pixels_upto16(p, b, oy, ox, left < LANES ? left : LANES, o + ox * OUT_C);
    }
  }
}

#else

void el_fconv_planes_fill(const el_fconv_planes* p, const float* in) {
  (void)p;
  (void)in;
}

void el_fconv_planes_rows(const el_fconv_planes* p, int64_t row0, int64_t row1, float* out) {
  (void)p;
  (void)row0;
  (void)row1;
  (void)out;
}

#endif /* __x86_64__ */
