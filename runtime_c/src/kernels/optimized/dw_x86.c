/* x86-64 depthwise kernels: 8 (AVX2) or 16 (AVX-512) channels per vector, input bytes widened
 * to int32 and multiplied by the weights' low 16 bits in VPMADDWD (weights_low16), float with
 * FMA; several output pixels at a time
 * share each weight load. */
#if defined(__x86_64__)
#include <string.h>

#include "kernels/optimized/dw_kernels.h"
#include "kernels/optimized/rq_x86.h"
#include "kernels/optimized/simd_x86.h"

/* ---- AVX2 ---------------------------------------------------------------------------------- */

EL_TARGET_AVX2 static inline __m256i load8_widen(const uint8_t* p, int is_unsigned) {
  const __m128i v = _mm_loadl_epi64((const __m128i*)p);
  return is_unsigned ? _mm256_cvtepu8_epi32(v) : _mm256_cvtepi8_epi32(v);
}

EL_TARGET_AVX2 static inline void q8_store_avx2(__m256i acc, const el_requant* rq, int c,
                                                int8_t* out) {
  const __m256i m = _mm256_loadu_si256((const __m256i*)(rq->mult + c));
  const __m256i lsh = _mm256_loadu_si256((const __m256i*)(rq->lshift + c));
  const __m256i rsh = _mm256_loadu_si256((const __m256i*)(rq->rshift + c));
  acc = _mm256_add_epi32(acc, _mm256_loadu_si256((const __m256i*)(rq->bias + c)));
  __m256i v = _mm256_add_epi32(el_mbqm_avx2(acc, m, lsh, rsh), _mm256_set1_epi32(rq->out_zp));
  v = _mm256_min_epi32(_mm256_max_epi32(v, _mm256_set1_epi32(rq->act_min)),
                       _mm256_set1_epi32(rq->act_max));
  _mm_storel_epi64((__m128i*)out, el_narrow8_avx2(v));
}

EL_TARGET_AVX2 static void q8_avx2(int taps, const void* const* x, ptrdiff_t step, int count,
                                   int is_unsigned, int channels, const int32_t* w, int stride,
                                   const el_requant* rq, int8_t* out, ptrdiff_t out_step) {
  int c = 0;
  for (; c + 8 <= channels; c += 8) {
    int i = 0;
    for (; i + 2 <= count; i += 2) {
      __m256i a0 = _mm256_setzero_si256(), a1 = _mm256_setzero_si256();
      for (int t = 0; t < taps; ++t) {
        const uint8_t* p = (const uint8_t*)x[t] + i * step + c;
        const __m256i wv = _mm256_loadu_si256((const __m256i*)(w + (size_t)t * (size_t)stride + c));
        a0 = _mm256_add_epi32(a0, _mm256_madd_epi16(load8_widen(p, is_unsigned), wv));
        a1 = _mm256_add_epi32(a1, _mm256_madd_epi16(load8_widen(p + step, is_unsigned), wv));
      }
      q8_store_avx2(a0, rq, c, out + i * out_step + c);
      q8_store_avx2(a1, rq, c, out + (i + 1) * out_step + c);
    }
    for (; i < count; ++i) {
      __m256i a0 = _mm256_setzero_si256();
      for (int t = 0; t < taps; ++t) {
        const uint8_t* p = (const uint8_t*)x[t] + i * step + c;
        const __m256i wv = _mm256_loadu_si256((const __m256i*)(w + (size_t)t * (size_t)stride + c));
        a0 = _mm256_add_epi32(a0, _mm256_madd_epi16(load8_widen(p, is_unsigned), wv));
      }
      q8_store_avx2(a0, rq, c, out + i * out_step + c);
    }
  }
  for (; c < channels; ++c) {
    for (int i = 0; i < count; ++i) {
      int32_t acc = rq->bias[c];
      for (int t = 0; t < taps; ++t) {
        const uint8_t* p = (const uint8_t*)x[t] + i * step + c;
        const int32_t xv = is_unsigned ? *p : *(const int8_t*)p;
        acc = el_wrap_fold(acc, xv, (int16_t)w[(size_t)t * (size_t)stride + c]);
      }
      out[i * out_step + c] = (int8_t)el_requant_one(acc, rq->mult[c], rq->lshift[c], rq->rshift[c],
                                                     rq->out_zp, rq->act_min, rq->act_max);
    }
  }
}

EL_TARGET_AVX2 static void f32_avx2(int taps, const float* const* x, ptrdiff_t step, int count,
                                    int channels, const float* w, int stride, const float* bias,
                                    float lo, float hi, float* out, ptrdiff_t out_step) {
  const __m256 vlo = _mm256_set1_ps(lo), vhi = _mm256_set1_ps(hi);
  int c = 0;
  for (; c + 8 <= channels; c += 8) {
    const __m256 b = _mm256_loadu_ps(bias + c);
    int i = 0;
    for (; i + 4 <= count; i += 4) {
      __m256 a0 = b, a1 = b, a2 = b, a3 = b;
      for (int t = 0; t < taps; ++t) {
        const float* p = x[t] + i * step + c;
        const __m256 wv = _mm256_loadu_ps(w + (size_t)t * (size_t)stride + c);
        a0 = _mm256_fmadd_ps(_mm256_loadu_ps(p), wv, a0);
        a1 = _mm256_fmadd_ps(_mm256_loadu_ps(p + step), wv, a1);
        a2 = _mm256_fmadd_ps(_mm256_loadu_ps(p + 2 * step), wv, a2);
        a3 = _mm256_fmadd_ps(_mm256_loadu_ps(p + 3 * step), wv, a3);
      }
      _mm256_storeu_ps(out + i * out_step + c, _mm256_min_ps(_mm256_max_ps(a0, vlo), vhi));
      _mm256_storeu_ps(out + (i + 1) * out_step + c, _mm256_min_ps(_mm256_max_ps(a1, vlo), vhi));
      _mm256_storeu_ps(out + (i + 2) * out_step + c, _mm256_min_ps(_mm256_max_ps(a2, vlo), vhi));
      _mm256_storeu_ps(out + (i + 3) * out_step + c, _mm256_min_ps(_mm256_max_ps(a3, vlo), vhi));
    }
    for (; i < count; ++i) {
      __m256 a0 = b;
      for (int t = 0; t < taps; ++t) {
        a0 = _mm256_fmadd_ps(_mm256_loadu_ps(x[t] + i * step + c),
                             _mm256_loadu_ps(w + (size_t)t * (size_t)stride + c), a0);
      }
      _mm256_storeu_ps(out + i * out_step + c, _mm256_min_ps(_mm256_max_ps(a0, vlo), vhi));
    }
  }
  for (; c < channels; ++c) {
    for (int i = 0; i < count; ++i) {
      float acc = bias[c];
      for (int t = 0; t < taps; ++t) acc += x[t][i * step + c] * w[(size_t)t * (size_t)stride + c];
      out[i * out_step + c] = acc < lo ? lo : (acc > hi ? hi : acc);
    }
  }
}

const el_dw_kernels el_dw_avx2 = {q8_avx2, f32_avx2, 1};

/* ---- AVX-512 -------------------------------------------------------------------------------- */

EL_TARGET_AVX512 static inline __m512i load16_widen(const uint8_t* p, __mmask16 keep,
                                                    int is_unsigned) {
  const __m128i v = keep == 0xFFFF ? _mm_loadu_si128((const __m128i*)(const void*)p)
                                   : _mm_maskz_loadu_epi8(keep, p);
  return is_unsigned ? _mm512_cvtepu8_epi32(v) : _mm512_cvtepi8_epi32(v);
}

EL_TARGET_AVX512 static inline void q8_store_avx512(__m512i acc, const el_rq_avx512* prm,
                                                    __mmask16 keep, int8_t* out) {
  _mm_mask_storeu_epi8(out, keep, _mm512_cvtepi32_epi8(el_rq_apply_avx512(acc, prm)));
}

/* Pixels i and i + 1 of a run of at most 8 channels in one vector: lanes 0..7 and 8..15. */
EL_TARGET_AVX512 static inline __m512i load_pair_widen(const uint8_t* p, ptrdiff_t step,
                                                       __mmask16 keep, int is_unsigned) {
  const __m128i lo = _mm_maskz_loadu_epi8(keep, p);
  const __m128i v = _mm_mask_loadu_epi8(lo, (__mmask16)(keep << 8), p + step - 8);
  return is_unsigned ? _mm512_cvtepu8_epi32(v) : _mm512_cvtepi8_epi32(v);
}

EL_TARGET_AVX512 static inline void q8_store_pair(__m512i acc, const el_rq_avx512* prm,
                                                  __mmask16 keep, int8_t* out, ptrdiff_t out_step) {
  const __m128i v = _mm512_cvtepi32_epi8(el_rq_apply_avx512(acc, prm));
  _mm_mask_storeu_epi8(out, keep, v);
  _mm_mask_storeu_epi8(out + out_step - 8, (__mmask16)(keep << 8), v);
}

/* The low 8 lanes of each requantization parameter in both halves. */
EL_TARGET_AVX512 static inline __m512i dup8(__m512i v) { return _mm512_shuffle_i64x2(v, v, 0x44); }

/* At most 8 channels fill half a vector: two pixels share each one (eight per step), the
 * weights and requantization parameters repeated in both halves. Kept out of line: inlined, it
 * slowed the loops of wider maps. */
__attribute__((noinline)) EL_TARGET_AVX512 static void q8_pairs_avx512(
    int taps, const void* const* x, ptrdiff_t step, int count, int is_unsigned, int channels,
    const int32_t* w, int stride, const el_requant* rq, int8_t* out, ptrdiff_t out_step) {
  const __mmask16 keep = (__mmask16)((1u << channels) - 1u);
  el_rq_avx512 prm = el_rq_load_avx512(rq, rq->blocks);
  prm.bias = dup8(prm.bias);
  prm.mult = dup8(prm.mult);
  prm.mult_odd = dup8(prm.mult_odd);
  prm.lshift = dup8(prm.lshift);
  prm.round_even = dup8(prm.round_even);
  prm.round_odd = dup8(prm.round_odd);
  prm.neg_even = dup8(prm.neg_even);
  prm.neg_odd = dup8(prm.neg_odd);
  prm.shift_even = dup8(prm.shift_even);
  prm.shift_odd = dup8(prm.shift_odd);
  int i = 0;
  for (; i + 8 <= count; i += 8) {
    __m512i a0 = _mm512_setzero_si512(), a1 = _mm512_setzero_si512();
    __m512i a2 = _mm512_setzero_si512(), a3 = _mm512_setzero_si512();
    for (int t = 0; t < taps; ++t) {
      const uint8_t* p = (const uint8_t*)x[t] + i * step;
      const __m512i wv =
          _mm512_broadcast_i32x8(_mm256_loadu_si256((const __m256i*)(w + (size_t)t * (size_t)stride)));
      a0 = _mm512_add_epi32(a0, _mm512_madd_epi16(load_pair_widen(p, step, keep, is_unsigned), wv));
      a1 = _mm512_add_epi32(a1, _mm512_madd_epi16(load_pair_widen(p + 2 * step, step, keep, is_unsigned), wv));
      a2 = _mm512_add_epi32(a2, _mm512_madd_epi16(load_pair_widen(p + 4 * step, step, keep, is_unsigned), wv));
      a3 = _mm512_add_epi32(a3, _mm512_madd_epi16(load_pair_widen(p + 6 * step, step, keep, is_unsigned), wv));
    }
    q8_store_pair(a0, &prm, keep, out + i * out_step, out_step);
    q8_store_pair(a1, &prm, keep, out + (i + 2) * out_step, out_step);
    q8_store_pair(a2, &prm, keep, out + (i + 4) * out_step, out_step);
    q8_store_pair(a3, &prm, keep, out + (i + 6) * out_step, out_step);
  }
  const el_rq_avx512 one = el_rq_load_avx512(rq, rq->blocks);
  for (; i < count; ++i) {
    __m512i a0 = _mm512_setzero_si512();
    for (int t = 0; t < taps; ++t) {
      const uint8_t* p = (const uint8_t*)x[t] + i * step;
      a0 = _mm512_add_epi32(a0, _mm512_madd_epi16(load16_widen(p, keep, is_unsigned),
                                                   _mm512_loadu_si512(w + (size_t)t * (size_t)stride)));
    }
    q8_store_avx512(a0, &one, keep, out + i * out_step);
  }
}

/* Stores 16 bytes; a full mask is a plain store. */
EL_TARGET_AVX512 static inline void store16(int8_t* out, __mmask16 keep, __m128i v) {
  if (keep == 0xFFFF) {
    _mm_storeu_si128((__m128i*)(void*)out, v);
  } else {
    _mm_mask_storeu_epi8(out, keep, v);
  }
}

/* One block of 16 channels (KEEP of them valid), eight pixels at a time, then four, then one; MAC(a, x, w)
 * adds x * w per lane (x sign-extended, w its low 16 bits: VPMADDWD plus an add, or one
 * VPDPWSSD). The accumulators start from the bias; four pixels' outputs are packed into one
 * vector of bytes (el_rqf_bytes) and stored 16 bytes per pixel. */
#define EL_DW_Q8_BLOCK(MAC, KEEP, FAST)                                                         \
  do {                                                                                          \
    const __mmask16 keep = (KEEP);                                                              \
    const el_rqf prm = el_rqf_load(blk, FAST);                                                  \
    const __m512i bias = _mm512_load_si512(blk->bias);                                          \
    int i = 0;                                                                                  \
    for (; i + 8 <= count; i += 8) {                                                            \
      /* Eight chains of sums: four left the multiply-adds waiting on their latency. */         \
      __m512i a[8];                                                                             \
      for (int k = 0; k < 8; ++k) a[k] = bias;                                                  \
      for (int t = 0; t < taps; ++t) {                                                          \
        const uint8_t* p = (const uint8_t*)x[t] + i * step + c;                                 \
        const __m512i wv = _mm512_loadu_si512(w + (size_t)t * (size_t)stride + c);             \
        _Pragma("GCC unroll 8") for (int k = 0; k < 8; ++k) {                                   \
          a[k] = MAC(a[k], load16_widen(p + k * step, keep, is_unsigned), wv);                  \
        }                                                                                       \
      }                                                                                         \
      for (int h = 0; h < 8; h += 4) {                                                          \
        const __m512i v = el_rqf_bytes(                                                         \
            el_rqf_scale(a[h], &prm, FAST), el_rqf_scale(a[h + 1], &prm, FAST),                 \
            el_rqf_scale(a[h + 2], &prm, FAST), el_rqf_scale(a[h + 3], &prm, FAST), zp16, lo8,  \
            hi8, is_unsigned);                                                                  \
        int8_t* o = out + (i + h) * out_step + c;                                               \
        store16(o, keep, _mm512_castsi512_si128(v));                                            \
        store16(o + out_step, keep, _mm512_extracti32x4_epi32(v, 1));                           \
        store16(o + 2 * out_step, keep, _mm512_extracti32x4_epi32(v, 2));                       \
        store16(o + 3 * out_step, keep, _mm512_extracti32x4_epi32(v, 3));                       \
      }                                                                                         \
    }                                                                                           \
    for (; i + 4 <= count; i += 4) {                                                            \
      __m512i a0 = bias, a1 = bias, a2 = bias, a3 = bias;                                       \
      for (int t = 0; t < taps; ++t) {                                                          \
        const uint8_t* p = (const uint8_t*)x[t] + i * step + c;                                 \
        const __m512i wv = _mm512_loadu_si512(w + (size_t)t * (size_t)stride + c);             \
        a0 = MAC(a0, load16_widen(p, keep, is_unsigned), wv);                                   \
        a1 = MAC(a1, load16_widen(p + step, keep, is_unsigned), wv);                            \
        a2 = MAC(a2, load16_widen(p + 2 * step, keep, is_unsigned), wv);                        \
        a3 = MAC(a3, load16_widen(p + 3 * step, keep, is_unsigned), wv);                        \
      }                                                                                         \
      const __m512i v = el_rqf_bytes(el_rqf_scale(a0, &prm, FAST), el_rqf_scale(a1, &prm, FAST), \
                                     el_rqf_scale(a2, &prm, FAST), el_rqf_scale(a3, &prm, FAST), \
                                     zp16, lo8, hi8, is_unsigned);                              \
      int8_t* o = out + i * out_step + c;                                                       \
      store16(o, keep, _mm512_castsi512_si128(v));                                              \
      store16(o + out_step, keep, _mm512_extracti32x4_epi32(v, 1));                             \
      store16(o + 2 * out_step, keep, _mm512_extracti32x4_epi32(v, 2));                         \
      store16(o + 3 * out_step, keep, _mm512_extracti32x4_epi32(v, 3));                         \
    }                                                                                           \
    for (; i < count; ++i) {                                                                    \
      __m512i a0 = bias;                                                                        \
      for (int t = 0; t < taps; ++t) {                                                          \
        const uint8_t* p = (const uint8_t*)x[t] + i * step + c;                                 \
        a0 = MAC(a0, load16_widen(p, keep, is_unsigned),                                        \
                 _mm512_loadu_si512(w + (size_t)t * (size_t)stride + c));                       \
      }                                                                                         \
      const __m512i q = el_rqf_scale(a0, &prm, FAST);                                           \
      store16(out + i * out_step + c, keep,                                                     \
              _mm512_castsi512_si128(el_rqf_bytes(q, q, q, q, zp16, lo8, hi8, is_unsigned)));   \
    }                                                                                           \
  } while (0)

/* Every block of 16 channels, the full ones with unmasked loads and stores. */
#define EL_DW_Q8_BLOCKS(MAC)                                                                    \
  const __m512i zp16 = _mm512_set1_epi16((int16_t)rq->out_zp);                                  \
  const __m512i lo8 = _mm512_set1_epi8((char)rq->act_min);                                      \
  const __m512i hi8 = _mm512_set1_epi8((char)rq->act_max);                                      \
  for (int c = 0; c < channels; c += 16) {                                                      \
    const int left = channels - c;                                                              \
    const el_rq_block* blk = rq->blocks + c / 16;                                               \
    const int fast = el_rqf_fast(blk, left < 16 ? left : 16);                                   \
    if (left >= 16 && fast) {                                                                   \
      EL_DW_Q8_BLOCK(MAC, 0xFFFF, 1);                                                           \
    } else if (left >= 16) {                                                                    \
      EL_DW_Q8_BLOCK(MAC, 0xFFFF, 0);                                                           \
    } else {                                                                                    \
      EL_DW_Q8_BLOCK(MAC, (__mmask16)((1u << left) - 1u), 0);                                   \
    }                                                                                           \
  }

#define EL_DW_MADD(a, x, w) _mm512_add_epi32((a), _mm512_madd_epi16((x), (w)))
#define EL_DW_DPWSSD(a, x, w) _mm512_dpwssd_epi32((a), (x), (w))

EL_TARGET_AVX512 static void q8_avx512(int taps, const void* const* x, ptrdiff_t step, int count,
                                       int is_unsigned, int channels, const int32_t* w, int stride,
                                       const el_requant* rq, int8_t* out, ptrdiff_t out_step) {
  if (channels <= 8) {
    q8_pairs_avx512(taps, x, step, count, is_unsigned, channels, w, stride, rq, out, out_step);
    return;
  }
  EL_DW_Q8_BLOCKS(EL_DW_MADD)
}

/* VPDPWSSD (without saturation: the sum wraps as the reference's) multiplies and adds in one. */
EL_TARGET_VNNI static void q8_vnni(int taps, const void* const* x, ptrdiff_t step, int count,
                                   int is_unsigned, int channels, const int32_t* w, int stride,
                                   const el_requant* rq, int8_t* out, ptrdiff_t out_step) {
  if (channels <= 8) {
    q8_pairs_avx512(taps, x, step, count, is_unsigned, channels, w, stride, rq, out, out_step);
    return;
  }
  EL_DW_Q8_BLOCKS(EL_DW_DPWSSD)
}

/* P pixels times V vectors of 16 channels from channel c (P and V constants once inlined): P * V
 * independent sums per tap, so the FMA latency is hidden (four sums, as one 16-channel block of
 * four pixels had, left the FMA units waiting on it half the time). Each output is still the bias
 * plus the taps' products in tap order. Only the last vector can be partial (`last` lanes;
 * FULL: it is not, and every load is a plain one). */
EL_TARGET_AVX512 static inline __attribute__((always_inline)) void f32_tile512(
    int P, int V, int FULL, int taps, const float* const* x, ptrdiff_t off, ptrdiff_t step, const float* w,
    int stride, const float* bias, __mmask16 last, __m512 vlo, __m512 vhi, float* out,
    ptrdiff_t out_step) {
  __m512 acc[8][8];
  _Pragma("GCC unroll 8") for (int v = 0; v < V; ++v) {
    const __m512 b = _mm512_maskz_loadu_ps(v == V - 1 ? last : 0xFFFF, bias + 16 * v);
    _Pragma("GCC unroll 8") for (int p = 0; p < P; ++p) acc[p][v] = b;
  }
  for (int t = 0; t < taps; ++t) {
    const float* xt = x[t] + off;
    const float* wt = w + (size_t)t * (size_t)stride;
    _Pragma("GCC unroll 8") for (int v = 0; v < V; ++v) {
      const __mmask16 keep = v == V - 1 ? last : 0xFFFF;
      const __m512 wv = _mm512_loadu_ps(wt + 16 * v);
      _Pragma("GCC unroll 8") for (int p = 0; p < P; ++p) {
        const float* xp = xt + p * step + 16 * v;
        const __m512 xv = FULL || v < V - 1 ? _mm512_loadu_ps(xp) : _mm512_maskz_loadu_ps(keep, xp);
        acc[p][v] = _mm512_fmadd_ps(xv, wv, acc[p][v]);
      }
    }
  }
  _Pragma("GCC unroll 8") for (int p = 0; p < P; ++p) {
    _Pragma("GCC unroll 8") for (int v = 0; v < V; ++v) {
      _mm512_mask_storeu_ps(out + p * out_step + 16 * v, v == V - 1 ? last : 0xFFFF,
                            _mm512_min_ps(_mm512_max_ps(acc[p][v], vlo), vhi));
    }
  }
}

#define EL_DW_F32_TILE(P, V)                                                                    \
  EL_TARGET_AVX512 static __attribute__((noinline)) void f32_tile_##P##x##V(                    \
      int taps, const float* const* x, ptrdiff_t off, ptrdiff_t step, const float* w,           \
      int stride, const float* bias, __mmask16 last, __m512 vlo, __m512 vhi, float* out,        \
      ptrdiff_t out_step) {                                                                     \
    if (last == 0xFFFF) {                                                                       \
      f32_tile512(P, V, 1, taps, x, off, step, w, stride, bias, last, vlo, vhi, out, out_step); \
    } else {                                                                                    \
      f32_tile512(P, V, 0, taps, x, off, step, w, stride, bias, last, vlo, vhi, out, out_step); \
    }                                                                                           \
  }
EL_DW_F32_TILE(1, 1)
EL_DW_F32_TILE(1, 2)
EL_DW_F32_TILE(1, 4)
EL_DW_F32_TILE(1, 8)
EL_DW_F32_TILE(2, 1)
EL_DW_F32_TILE(2, 2)
EL_DW_F32_TILE(2, 4)
EL_DW_F32_TILE(3, 1)
EL_DW_F32_TILE(3, 2)
EL_DW_F32_TILE(4, 1)
EL_DW_F32_TILE(4, 2)
EL_DW_F32_TILE(5, 1)
EL_DW_F32_TILE(6, 1)
EL_DW_F32_TILE(7, 1)
EL_DW_F32_TILE(8, 1)
#undef EL_DW_F32_TILE

typedef void (*f32_tile_fn)(int, const float* const*, ptrdiff_t, ptrdiff_t, const float*, int,
                            const float*, __mmask16, __m512, __m512, float*, ptrdiff_t);

/* Tiles by pixels (1-8) and log2 of vectors (1, 2, 4, 8): about 8 sums each, at most. */
static const f32_tile_fn kF32Tiles[8][4] = {
    {f32_tile_1x1, f32_tile_1x2, f32_tile_1x4, f32_tile_1x8},
    {f32_tile_2x1, f32_tile_2x2, f32_tile_2x4, NULL},
    {f32_tile_3x1, f32_tile_3x2, NULL, NULL},
    {f32_tile_4x1, f32_tile_4x2, NULL, NULL},
    {f32_tile_5x1, NULL, NULL, NULL},
    {f32_tile_6x1, NULL, NULL, NULL},
    {f32_tile_7x1, NULL, NULL, NULL},
    {f32_tile_8x1, NULL, NULL, NULL},
};

/* Runs of 8 pixels take one 16-channel vector at a time; the last 1-7 pixels of a run (a whole
 * run on 6x6 maps) one tile of as many pixels, by as many vectors as keep it near 8 sums, so
 * a tile always has several independent chains to hide the FMA latency. */
EL_TARGET_AVX512 static void f32_avx512(int taps, const float* const* x, ptrdiff_t step, int count,
                                        int channels, const float* w, int stride, const float* bias,
                                        float lo, float hi, float* out, ptrdiff_t out_step) {
  const __m512 vlo = _mm512_set1_ps(lo), vhi = _mm512_set1_ps(hi);
  const int vectors = (channels + 15) / 16;
  for (int i = 0; i < count;) {
    const int p = count - i < 8 ? count - i : 8;
    int widest = 0; /* log2 of the most vectors a tile of p pixels takes */
    while (widest < 3 && p * (2 << widest) <= 8) ++widest;
    for (int v0 = 0; v0 < vectors;) {
      int lv = widest;
      while ((1 << lv) > vectors - v0) --lv;
      const int nv = 1 << lv;
      const int c = 16 * v0, end = 16 * (v0 + nv) < channels ? 16 * (v0 + nv) : channels;
      const int left = end - 16 * (v0 + nv - 1);
      const __mmask16 last = (__mmask16)(left >= 16 ? 0xFFFF : ((1u << left) - 1u));
      kF32Tiles[p - 1][lv](taps, x, (ptrdiff_t)i * step + c, step, w + c, stride, bias + c, last,
                           vlo, vhi, out + (ptrdiff_t)i * out_step + c, out_step);
      v0 += nv;
    }
    i += p;
  }
}

const el_dw_kernels el_dw_avx512 = {q8_avx512, f32_avx512, 1};
const el_dw_kernels el_dw_avx512_vnni = {q8_vnni, f32_avx512, 1};

#endif /* __x86_64__ */
