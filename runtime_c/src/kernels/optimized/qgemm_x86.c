/* x86-64 integer GEMM micro-kernels: AVX2 and AVX-512 (PAIR16 layout, VPMADDWD: exact int16
 * products summed in pairs into int32) and AVX-512 VNNI (QUAD layout, VPDPBUSD: unsigned A
 * bytes times signed weights, four per lane). Each is compiled for its own target and chosen at
 * run time; nothing here runs unless the CPU has the instructions. */
#if defined(__x86_64__)
#include <string.h>

#include "kernels/optimized/qgemm.h"
#include "kernels/optimized/rq_x86.h"
#include "kernels/optimized/simd_x86.h"

static inline int32_t load_i32(const void* p) {
  int32_t v;
  memcpy(&v, p, sizeof v);
  return v;
}

/* ---- AVX2: 4 rows x 16 channels per step ---------------------------------------------------- */

/* igemm: 7 rows (14 accumulators of two blocks): MobileNet maps are 7 * 2^k pixels a side. */
enum { MR_AVX2 = 4, MR_AVX512 = 6, IGEMM_MR = 7 };

EL_TARGET_AVX2 static void gemm_avx2(int kp, const void* a, size_t a_stride, const void* b,
                                     size_t b_block, int nb, int32_t* acc) {
  const char* a0 = (const char*)a;
  const char* a1 = a0 + a_stride;
  const char* a2 = a1 + a_stride;
  const char* a3 = a2 + a_stride;
  for (int blk = 0; blk < nb; ++blk) {
    const int16_t* w = (const int16_t*)((const char*)b + (size_t)blk * b_block);
    __m256i c0l = _mm256_setzero_si256(), c0h = _mm256_setzero_si256();
    __m256i c1l = _mm256_setzero_si256(), c1h = _mm256_setzero_si256();
    __m256i c2l = _mm256_setzero_si256(), c2h = _mm256_setzero_si256();
    __m256i c3l = _mm256_setzero_si256(), c3h = _mm256_setzero_si256();
    for (int k = 0; k < kp; k += 2) {
      const __m256i wl = _mm256_loadu_si256((const __m256i*)(w + (size_t)k * 16));
      const __m256i wh = _mm256_loadu_si256((const __m256i*)(w + (size_t)k * 16 + 16));
      const size_t off = (size_t)k * 2;
      __m256i x = _mm256_set1_epi32(load_i32(a0 + off));
      c0l = _mm256_add_epi32(c0l, _mm256_madd_epi16(x, wl));
      c0h = _mm256_add_epi32(c0h, _mm256_madd_epi16(x, wh));
      x = _mm256_set1_epi32(load_i32(a1 + off));
      c1l = _mm256_add_epi32(c1l, _mm256_madd_epi16(x, wl));
      c1h = _mm256_add_epi32(c1h, _mm256_madd_epi16(x, wh));
      x = _mm256_set1_epi32(load_i32(a2 + off));
      c2l = _mm256_add_epi32(c2l, _mm256_madd_epi16(x, wl));
      c2h = _mm256_add_epi32(c2h, _mm256_madd_epi16(x, wh));
      x = _mm256_set1_epi32(load_i32(a3 + off));
      c3l = _mm256_add_epi32(c3l, _mm256_madd_epi16(x, wl));
      c3h = _mm256_add_epi32(c3h, _mm256_madd_epi16(x, wh));
    }
    int32_t* o = acc + blk * 16;
    _mm256_storeu_si256((__m256i*)(o + 0 * 64), c0l);
    _mm256_storeu_si256((__m256i*)(o + 0 * 64 + 8), c0h);
    _mm256_storeu_si256((__m256i*)(o + 1 * 64), c1l);
    _mm256_storeu_si256((__m256i*)(o + 1 * 64 + 8), c1h);
    _mm256_storeu_si256((__m256i*)(o + 2 * 64), c2l);
    _mm256_storeu_si256((__m256i*)(o + 2 * 64 + 8), c2h);
    _mm256_storeu_si256((__m256i*)(o + 3 * 64), c3l);
    _mm256_storeu_si256((__m256i*)(o + 3 * 64 + 8), c3h);
  }
}

EL_TARGET_AVX2 static void gemv_avx2(int kp, const void* a, const void* b, size_t b_block, int nb,
                                     int32_t* acc) {
  const char* ar = (const char*)a;
  for (int blk = 0; blk < nb; ++blk) {
    const int16_t* w = (const int16_t*)((const char*)b + (size_t)blk * b_block);
    __m256i cl = _mm256_setzero_si256(), ch = _mm256_setzero_si256();
    for (int k = 0; k < kp; k += 2) {
      const __m256i x = _mm256_set1_epi32(load_i32(ar + (size_t)k * 2));
      cl = _mm256_add_epi32(cl, _mm256_madd_epi16(x, _mm256_loadu_si256((const __m256i*)(w + (size_t)k * 16))));
      ch = _mm256_add_epi32(ch, _mm256_madd_epi16(x, _mm256_loadu_si256((const __m256i*)(w + (size_t)k * 16 + 16))));
    }
    _mm256_storeu_si256((__m256i*)(acc + blk * 16), cl);
    _mm256_storeu_si256((__m256i*)(acc + blk * 16 + 8), ch);
  }
}

EL_TARGET_AVX2 static void requant_avx2(const int32_t* acc, int rows, int n, const el_requant* rq,
                                        int c0, int8_t* out, ptrdiff_t out_stride) {
  const __m256i zp = _mm256_set1_epi32(rq->out_zp);
  const __m256i lo = _mm256_set1_epi32(rq->act_min);
  const __m256i hi = _mm256_set1_epi32(rq->act_max);
  for (int j = 0; j < n; j += 8) {
    const int c = c0 + j;
    const __m256i bias = _mm256_loadu_si256((const __m256i*)(rq->bias + c));
    const __m256i m = _mm256_loadu_si256((const __m256i*)(rq->mult + c));
    const __m256i lsh = _mm256_loadu_si256((const __m256i*)(rq->lshift + c));
    const __m256i rsh = _mm256_loadu_si256((const __m256i*)(rq->rshift + c));
    const int count = n - j < 8 ? n - j : 8;
    for (int r = 0; r < rows; ++r) {
      __m256i v = _mm256_add_epi32(_mm256_loadu_si256((const __m256i*)(acc + r * 64 + j)), bias);
      v = _mm256_add_epi32(el_mbqm_avx2(v, m, lsh, rsh), zp);
      v = _mm256_min_epi32(_mm256_max_epi32(v, lo), hi);
      const __m128i bytes = el_narrow8_avx2(v);
      int8_t* dst = out + r * out_stride + j;
      if (count == 8) {
        _mm_storel_epi64((__m128i*)dst, bytes);
      } else {
        int8_t tmp[16];
        _mm_storeu_si128((__m128i*)tmp, bytes);
        memcpy(dst, tmp, (size_t)count);
      }
    }
  }
}

/* ---- AVX-512: 6 rows x 32 channels per step (16 when one block is left) ---------------------- */

EL_TARGET_AVX512 static void requant_avx512(const int32_t* acc, int rows, int n,
                                            const el_requant* rq, int c0, int8_t* out,
                                            ptrdiff_t out_stride) {
  const __m512i zp = _mm512_set1_epi32(rq->out_zp);
  const __m512i lo = _mm512_set1_epi32(rq->act_min);
  const __m512i hi = _mm512_set1_epi32(rq->act_max);
  for (int j = 0; j < n; j += 16) {
    const int c = c0 + j;
    const int count = n - j < 16 ? n - j : 16;
    const __mmask16 keep = (__mmask16)(count == 16 ? 0xFFFF : ((1u << count) - 1u));
    if (rq->blocks != NULL) {
      const el_rq_avx512 prm = el_rq_load_avx512(rq, rq->blocks + c / 16);
      for (int r = 0; r < rows; ++r) {
        const __m512i v = el_rq_apply_avx512(_mm512_loadu_si512(acc + r * 64 + j), &prm);
        _mm_mask_storeu_epi8(out + r * out_stride + j, keep, _mm512_cvtepi32_epi8(v));
      }
      continue;
    }
    const __m512i bias = _mm512_loadu_si512(rq->bias + c);
    const __m512i m = _mm512_loadu_si512(rq->mult + c);
    const __m512i lsh = _mm512_loadu_si512(rq->lshift + c);
    const __m512i rsh = _mm512_loadu_si512(rq->rshift + c);
    for (int r = 0; r < rows; ++r) {
      __m512i v = _mm512_add_epi32(_mm512_loadu_si512(acc + r * 64 + j), bias);
      v = _mm512_add_epi32(el_mbqm_avx512(v, m, lsh, rsh), zp);
      v = _mm512_min_epi32(_mm512_max_epi32(v, lo), hi);
      _mm_mask_storeu_epi8(out + r * out_stride + j, keep, _mm512_cvtepi32_epi8(v));
    }
  }
}

/* One pass of the AVX-512 kernels over k for 6 rows and one or two channel blocks; STEP is
 * the k step, DOT(acc, x, w) the multiply-accumulate and LOADX the broadcast of a row's bytes. */
#define EL_GEMM6_BODY(STEP, DOT, ABYTES)                                                       \
  const char* a0 = (const char*)a;                                                            \
  const char* a1 = a0 + a_stride;                                                             \
  const char* a2 = a1 + a_stride;                                                             \
  const char* a3 = a2 + a_stride;                                                             \
  const char* a4 = a3 + a_stride;                                                             \
  const char* a5 = a4 + a_stride;                                                             \
  int blk = 0;                                                                                \
  for (; blk + 2 <= nb; blk += 2) {                                                           \
    const char* w0 = (const char*)b + (size_t)blk * b_block;                                  \
    const char* w1 = w0 + b_block;                                                            \
    __m512i c00 = _mm512_setzero_si512(), c01 = _mm512_setzero_si512();                       \
    __m512i c10 = _mm512_setzero_si512(), c11 = _mm512_setzero_si512();                       \
    __m512i c20 = _mm512_setzero_si512(), c21 = _mm512_setzero_si512();                       \
    __m512i c30 = _mm512_setzero_si512(), c31 = _mm512_setzero_si512();                       \
    __m512i c40 = _mm512_setzero_si512(), c41 = _mm512_setzero_si512();                       \
    __m512i c50 = _mm512_setzero_si512(), c51 = _mm512_setzero_si512();                       \
    for (int k = 0; k < kp; k += (STEP)) {                                                    \
      const size_t boff = (size_t)k * 16 * (4 / (STEP));                                      \
      const __m512i wa = _mm512_loadu_si512(w0 + boff);                                       \
      const __m512i wb = _mm512_loadu_si512(w1 + boff);                                       \
      const size_t off = (size_t)k * (ABYTES);                                                \
      __m512i x = _mm512_set1_epi32(load_i32(a0 + off));                                      \
      c00 = DOT(c00, x, wa);                                                                  \
      c01 = DOT(c01, x, wb);                                                                  \
      x = _mm512_set1_epi32(load_i32(a1 + off));                                              \
      c10 = DOT(c10, x, wa);                                                                  \
      c11 = DOT(c11, x, wb);                                                                  \
      x = _mm512_set1_epi32(load_i32(a2 + off));                                              \
      c20 = DOT(c20, x, wa);                                                                  \
      c21 = DOT(c21, x, wb);                                                                  \
      x = _mm512_set1_epi32(load_i32(a3 + off));                                              \
      c30 = DOT(c30, x, wa);                                                                  \
      c31 = DOT(c31, x, wb);                                                                  \
      x = _mm512_set1_epi32(load_i32(a4 + off));                                              \
      c40 = DOT(c40, x, wa);                                                                  \
      c41 = DOT(c41, x, wb);                                                                  \
      x = _mm512_set1_epi32(load_i32(a5 + off));                                              \
      c50 = DOT(c50, x, wa);                                                                  \
      c51 = DOT(c51, x, wb);                                                                  \
    }                                                                                         \
    int32_t* o = acc + blk * 16;                                                              \
    _mm512_storeu_si512(o + 0 * 64, c00);                                                     \
    _mm512_storeu_si512(o + 0 * 64 + 16, c01);                                                \
    _mm512_storeu_si512(o + 1 * 64, c10);                                                     \
    _mm512_storeu_si512(o + 1 * 64 + 16, c11);                                                \
    _mm512_storeu_si512(o + 2 * 64, c20);                                                     \
    _mm512_storeu_si512(o + 2 * 64 + 16, c21);                                                \
    _mm512_storeu_si512(o + 3 * 64, c30);                                                     \
    _mm512_storeu_si512(o + 3 * 64 + 16, c31);                                                \
    _mm512_storeu_si512(o + 4 * 64, c40);                                                     \
    _mm512_storeu_si512(o + 4 * 64 + 16, c41);                                                \
    _mm512_storeu_si512(o + 5 * 64, c50);                                                     \
    _mm512_storeu_si512(o + 5 * 64 + 16, c51);                                                \
  }                                                                                           \
  if (blk < nb) {                                                                             \
    const char* w0 = (const char*)b + (size_t)blk * b_block;                                  \
    __m512i c0 = _mm512_setzero_si512(), c1 = _mm512_setzero_si512();                         \
    __m512i c2 = _mm512_setzero_si512(), c3 = _mm512_setzero_si512();                         \
    __m512i c4 = _mm512_setzero_si512(), c5 = _mm512_setzero_si512();                         \
    for (int k = 0; k < kp; k += (STEP)) {                                                    \
      const __m512i wa = _mm512_loadu_si512(w0 + (size_t)k * 16 * (4 / (STEP)));              \
      const size_t off = (size_t)k * (ABYTES);                                                \
      c0 = DOT(c0, _mm512_set1_epi32(load_i32(a0 + off)), wa);                                \
      c1 = DOT(c1, _mm512_set1_epi32(load_i32(a1 + off)), wa);                                \
      c2 = DOT(c2, _mm512_set1_epi32(load_i32(a2 + off)), wa);                                \
      c3 = DOT(c3, _mm512_set1_epi32(load_i32(a3 + off)), wa);                                \
      c4 = DOT(c4, _mm512_set1_epi32(load_i32(a4 + off)), wa);                                \
      c5 = DOT(c5, _mm512_set1_epi32(load_i32(a5 + off)), wa);                                \
    }                                                                                         \
    int32_t* o = acc + blk * 16;                                                              \
    _mm512_storeu_si512(o + 0 * 64, c0);                                                      \
    _mm512_storeu_si512(o + 1 * 64, c1);                                                      \
    _mm512_storeu_si512(o + 2 * 64, c2);                                                      \
    _mm512_storeu_si512(o + 3 * 64, c3);                                                      \
    _mm512_storeu_si512(o + 4 * 64, c4);                                                      \
    _mm512_storeu_si512(o + 5 * 64, c5);                                                      \
  }

/* One row against up to four blocks, four independent accumulators. */
#define EL_GEMV_BODY(STEP, DOT, ABYTES)                                                     \
  const char* ar = (const char*)a;                                                         \
  __m512i c0 = _mm512_setzero_si512(), c1 = _mm512_setzero_si512();                        \
  __m512i c2 = _mm512_setzero_si512(), c3 = _mm512_setzero_si512();                        \
  const char* w0 = (const char*)b;                                                         \
  const char* w1 = w0 + (nb > 1 ? b_block : 0);                                            \
  const char* w2 = w0 + (nb > 2 ? 2 * b_block : 0);                                        \
  const char* w3 = w0 + (nb > 3 ? 3 * b_block : 0);                                        \
  for (int k = 0; k < kp; k += (STEP)) {                                                   \
    const size_t boff = (size_t)k * 16 * (4 / (STEP));                                     \
    const __m512i x = _mm512_set1_epi32(load_i32(ar + (size_t)k * (ABYTES)));              \
    c0 = DOT(c0, x, _mm512_loadu_si512(w0 + boff));                                        \
    if (nb > 1) c1 = DOT(c1, x, _mm512_loadu_si512(w1 + boff));                            \
    if (nb > 2) c2 = DOT(c2, x, _mm512_loadu_si512(w2 + boff));                            \
    if (nb > 3) c3 = DOT(c3, x, _mm512_loadu_si512(w3 + boff));                            \
  }                                                                                        \
  _mm512_storeu_si512(acc, c0);                                                            \
  if (nb > 1) _mm512_storeu_si512(acc + 16, c1);                                           \
  if (nb > 2) _mm512_storeu_si512(acc + 32, c2);                                           \
  if (nb > 3) _mm512_storeu_si512(acc + 48, c3);

#define EL_DOT_MADD(c, x, w) _mm512_add_epi32((c), _mm512_madd_epi16((x), (w)))
#define EL_DOT_VNNI(c, x, w) _mm512_dpbusd_epi32((c), (x), (w))

/* PAIR16: k advances by 2 int16 (4 bytes of A, 64 bytes of weights per block). */
EL_TARGET_AVX512 static void gemm_avx512(int kp, const void* a, size_t a_stride, const void* b,
                                         size_t b_block, int nb, int32_t* acc) {
  EL_GEMM6_BODY(2, EL_DOT_MADD, 2)
}

EL_TARGET_AVX512 static void gemv_avx512(int kp, const void* a, const void* b, size_t b_block,
                                         int nb, int32_t* acc) {
  EL_GEMV_BODY(2, EL_DOT_MADD, 2)
}

EL_TARGET_VNNI static void gemv_vnni(int kp, const void* a, const void* b, size_t b_block, int nb,
                                     int32_t* acc) {
  EL_GEMV_BODY(4, EL_DOT_VNNI, 1)
}

/* gemv_vnni on the stored bytes: each broadcast group of four is XORed here; the last partial
 * group comes from a copy (its padding bytes meet zero weights). */
EL_TARGET_VNNI static void gemv_raw_vnni(int kdim, const int8_t* a, const void* b, size_t b_block,
                                         int nb, int32_t* acc) {
  const __m512i flip = _mm512_set1_epi32((int32_t)0x80808080u);
  __m512i c0 = _mm512_setzero_si512(), c1 = c0, c2 = c0, c3 = c0;
  const char* w0 = (const char*)b;
  const char* w1 = w0 + (nb > 1 ? b_block : 0);
  const char* w2 = w0 + (nb > 2 ? 2 * b_block : 0);
  const char* w3 = w0 + (nb > 3 ? 3 * b_block : 0);
#define EL_RAW_GROUP(GROUP, K)                                                    \
  do {                                                                            \
    const size_t boff_ = (size_t)(K) * 16;                                        \
    const __m512i x_ = _mm512_xor_si512(_mm512_set1_epi32(GROUP), flip);          \
    c0 = _mm512_dpbusd_epi32(c0, x_, _mm512_loadu_si512(w0 + boff_));             \
    if (nb > 1) c1 = _mm512_dpbusd_epi32(c1, x_, _mm512_loadu_si512(w1 + boff_)); \
    if (nb > 2) c2 = _mm512_dpbusd_epi32(c2, x_, _mm512_loadu_si512(w2 + boff_)); \
    if (nb > 3) c3 = _mm512_dpbusd_epi32(c3, x_, _mm512_loadu_si512(w3 + boff_)); \
  } while (0)
  int k = 0;
  for (; k + 4 <= kdim; k += 4) EL_RAW_GROUP(load_i32(a + k), k);
  if (k < kdim) {
    int32_t group = 0;
    memcpy(&group, a + k, (size_t)(kdim - k));
    EL_RAW_GROUP(group, k);
  }
#undef EL_RAW_GROUP
  _mm512_storeu_si512(acc, c0);
  if (nb > 1) _mm512_storeu_si512(acc + 16, c1);
  if (nb > 2) _mm512_storeu_si512(acc + 32, c2);
  if (nb > 3) _mm512_storeu_si512(acc + 48, c3);
}

/* QUAD: k advances by 4 bytes (64 bytes of weights per block). */
EL_TARGET_VNNI static void gemm_vnni(int kp, const void* a, size_t a_stride, const void* b,
                                     size_t b_block, int nb, int32_t* acc) {
  EL_GEMM6_BODY(4, EL_DOT_VNNI, 1)
}

/* Where a tap reads: the input at o, or the bytes outside it at -1 - o, picked without a branch
 * (which taps fall outside follows the image's borders, too irregular to predict). */
static inline const int8_t* tap_at(const int8_t* in, const int8_t* aux, int32_t o) {
  const uintptr_t inside = (uintptr_t)in + (uintptr_t)(intptr_t)o;
  const uintptr_t outside = (uintptr_t)aux + (uintptr_t)(-1 - (intptr_t)o);
  const uintptr_t pick = (uintptr_t)0 - (uintptr_t)(o < 0);
  return (const int8_t*)(inside ^ ((inside ^ outside) & pick));
}

/* MR rows (1, 2, 4 or 7: a tile's last rows take the smallest that holds them, not seven) by one
 * or two 16-channel blocks of the indirect VNNI product, then the fused requantization; TWO
 * selects two blocks (12 accumulators). The activations are the unsigned operand (x ^ 0x80, one
 * XOR per broadcast) and the weights the signed one; the bias carries the -128 * sum(w) term.
 * Row indices are constants throughout, so the accumulators stay in registers. */
#define EL_IGEMM_ROW(R, TWO, MR)                                                            \
  do {                                                                                      \
    if ((R) < (MR)) {                                                                       \
      const __m512i x = _mm512_xor_si512(_mm512_set1_epi32(load_i32(p##R + k)), flip);     \
      acc[R][0] = _mm512_dpbusd_epi32(acc[R][0], x, wa);                                    \
      if (TWO) acc[R][1] = _mm512_dpbusd_epi32(acc[R][1], x, wb);                           \
    }                                                                                       \
  } while (0)

/* Row R, or the last computed row where R is past MR (its bytes are never stored). */
#define EL_IGEMM_R(R, MR) ((R) < (MR) ? (R) : (MR) - 1)

/* Two blocks: rows R and R + 1 of 32 channels in one vector of bytes. */
#define EL_IGEMM_STORE_TWO(R, FAST, MR)                                                     \
  do {                                                                                      \
    if ((R) < (MR) && rows > (R)) {                                                         \
      const int r1 = EL_IGEMM_R((R) + 1, MR);                                               \
      const __m512i v = el_rqf_bytes(                                                       \
          el_rqf_scale(acc[R][0], &rq0, FAST), el_rqf_scale(acc[R][1], &rq1, FAST),         \
          el_rqf_scale(acc[r1][0], &rq0, FAST), el_rqf_scale(acc[r1][1], &rq1, FAST), zp16, \
          lo8, hi8, 0);                                                                     \
      _mm256_mask_storeu_epi8(o + (R) * out_stride, keep, _mm512_castsi512_si256(v));                       \
      if (rows > (R) + 1) _mm256_mask_storeu_epi8(o + ((R) + 1) * out_stride, keep, _mm512_extracti64x4_epi64(v, 1)); \
    }                                                                                       \
  } while (0)

/* One block: rows R .. R + 3 of 16 channels in one vector of bytes. */
#define EL_IGEMM_STORE_ONE(R, FAST, MR)                                                     \
  do {                                                                                      \
    if ((R) < (MR) && rows > (R)) {                                                         \
      const __m512i v = el_rqf_bytes(el_rqf_scale(acc[R][0], &rq0, FAST),                  \
                                     el_rqf_scale(acc[EL_IGEMM_R((R) + 1, MR)][0], &rq0, FAST), \
                                     el_rqf_scale(acc[EL_IGEMM_R((R) + 2, MR)][0], &rq0, FAST), \
                                     el_rqf_scale(acc[EL_IGEMM_R((R) + 3, MR)][0], &rq0, FAST), \
                                     zp16, lo8, hi8, 0);                                    \
      _mm_mask_storeu_epi8(o + (R) * out_stride, keep, _mm512_castsi512_si128(v));          \
      if (rows > (R) + 1) _mm_mask_storeu_epi8(o + ((R) + 1) * out_stride, keep, _mm512_extracti32x4_epi32(v, 1)); \
      if (rows > (R) + 2) _mm_mask_storeu_epi8(o + ((R) + 2) * out_stride, keep, _mm512_extracti32x4_epi32(v, 2)); \
      if (rows > (R) + 3) _mm_mask_storeu_epi8(o + ((R) + 3) * out_stride, keep, _mm512_extracti32x4_epi32(v, 3)); \
    }                                                                                       \
  } while (0)

#define EL_IGEMM_PASS(TWO, FAST, MR)                                                        \
  do {                                                                                      \
    const el_rq_block* blocks = rq->blocks + (c0 + blk * 16) / 16;                          \
    const __m512i bias0 = _mm512_load_si512(blocks[0].bias);                                \
    const __m512i bias1 = TWO ? _mm512_load_si512(blocks[1].bias) : bias0;                  \
    __m512i acc[IGEMM_MR][2];                                                               \
    for (int r = 0; r < IGEMM_MR; ++r) {                                                    \
      acc[r][0] = bias0;                                                                    \
      acc[r][1] = bias1;                                                                    \
    }                                                                                       \
    const char* wb0 = (const char*)b + (size_t)blk * b_block;                               \
    const char* wb1 = wb0 + b_block;                                                        \
    for (int t = 0; t < taps; ++t) {                                                        \
      const int32_t* ot = off + t * IGEMM_MR;                                               \
      const int8_t* p0 = tap_at(in, aux, ot[0]);                                            \
      const int8_t* p1 = tap_at(in, aux, ot[EL_IGEMM_R(1, MR)]);                            \
      const int8_t* p2 = tap_at(in, aux, ot[EL_IGEMM_R(2, MR)]);                            \
      const int8_t* p3 = tap_at(in, aux, ot[EL_IGEMM_R(3, MR)]);                            \
      const int8_t* p4 = tap_at(in, aux, ot[EL_IGEMM_R(4, MR)]);                            \
      const int8_t* p5 = tap_at(in, aux, ot[EL_IGEMM_R(5, MR)]);                            \
      const int8_t* p6 = tap_at(in, aux, ot[EL_IGEMM_R(6, MR)]);                            \
      const char* w0 = wb0 + (size_t)t * (size_t)cin * 16;                                  \
      const char* w1 = wb1 + (size_t)t * (size_t)cin * 16;                                  \
      for (int k = 0; k < cin; k += 4) {                                                    \
        const __m512i wa = _mm512_loadu_si512(w0 + (size_t)k * 16);                         \
        const __m512i wb = TWO ? _mm512_loadu_si512(w1 + (size_t)k * 16) : wa;              \
        EL_IGEMM_ROW(0, TWO, MR);                                                           \
        EL_IGEMM_ROW(1, TWO, MR);                                                           \
        EL_IGEMM_ROW(2, TWO, MR);                                                           \
        EL_IGEMM_ROW(3, TWO, MR);                                                           \
        EL_IGEMM_ROW(4, TWO, MR);                                                           \
        EL_IGEMM_ROW(5, TWO, MR);                                                           \
        EL_IGEMM_ROW(6, TWO, MR);                                                           \
      }                                                                                     \
    }                                                                                       \
    const int j = blk * 16;                                                                 \
    int8_t* o = out + j;                                                                    \
    const el_rqf rq0 = el_rqf_load(&blocks[0], FAST);                                       \
    if (TWO) {                                                                              \
      const el_rqf rq1 = el_rqf_load(&blocks[1], FAST);                                     \
      const int count = n - j < 32 ? n - j : 32;                                            \
      const __mmask32 keep = count >= 32 ? 0xFFFFFFFFu : (__mmask32)((1u << count) - 1u);   \
      EL_IGEMM_STORE_TWO(0, FAST, MR);                                                      \
      EL_IGEMM_STORE_TWO(2, FAST, MR);                                                      \
      EL_IGEMM_STORE_TWO(4, FAST, MR);                                                      \
      EL_IGEMM_STORE_TWO(6, FAST, MR);                                                      \
    } else {                                                                                \
      const int count = n - j < 16 ? n - j : 16;                                            \
      const __mmask16 keep = (__mmask16)(count >= 16 ? 0xFFFF : ((1u << count) - 1u));     \
      EL_IGEMM_STORE_ONE(0, FAST, MR);                                                      \
      EL_IGEMM_STORE_ONE(4, FAST, MR);                                                      \
    }                                                                                       \
  } while (0)

#define EL_IGEMM_ALL(FAST, MR)                                                              \
  do {                                                                                      \
    int blk = 0;                                                                            \
    for (; blk + 2 <= nb; blk += 2) EL_IGEMM_PASS(1, FAST, MR);                             \
    if (blk < nb) EL_IGEMM_PASS(0, FAST, MR);                                               \
  } while (0)

/* One function per tile height, so that the seven-row one (nearly every tile) keeps its own
 * register allocation and code layout. */
#define EL_IGEMM_FN(NAME, MR)                                                               \
  EL_TARGET_VNNI static void NAME(int taps, int cin, const int32_t* off, const int8_t* in,  \
                                  const int8_t* aux, const void* b, size_t b_block,         \
                                  const el_requant* rq, int c0, int rows, int8_t* out,      \
                                  ptrdiff_t out_stride, int n) {                            \
    const __m512i flip = _mm512_set1_epi32((int32_t)0x80808080u);                           \
    const __m512i zp16 = _mm512_set1_epi16((int16_t)rq->out_zp);                            \
    const __m512i lo8 = _mm512_set1_epi8((int8_t)rq->act_min);                              \
    const __m512i hi8 = _mm512_set1_epi8((int8_t)rq->act_max);                              \
    const int nb = (n + 15) / 16;                                                           \
    if (el_rqf_fast(rq->blocks + c0 / 16, n)) {                                             \
      EL_IGEMM_ALL(1, MR);                                                                  \
    } else {                                                                                \
      EL_IGEMM_ALL(0, MR);                                                                  \
    }                                                                                       \
  }

EL_IGEMM_FN(igemm_vnni7, IGEMM_MR)
EL_IGEMM_FN(igemm_vnni4, 4)
EL_IGEMM_FN(igemm_vnni2, 2)
EL_IGEMM_FN(igemm_vnni1, 1)

EL_TARGET_VNNI static void igemm_vnni(int taps, int cin, const int32_t* off, const int8_t* in,
                                      const int8_t* aux, const void* b, size_t b_block,
                                      const el_requant* rq, int c0, int rows, int8_t* out,
                                      ptrdiff_t out_stride, int n) {
  void (*fn)(int, int, const int32_t*, const int8_t*, const int8_t*, const void*, size_t,
             const el_requant*, int, int, int8_t*, ptrdiff_t, int) =
      rows > 4 ? igemm_vnni7 : rows > 2 ? igemm_vnni4 : rows == 2 ? igemm_vnni2 : igemm_vnni1;
  fn(taps, cin, off, in, aux, b, b_block, rq, c0, rows, out, out_stride, n);
}

/* Round half away from zero of a double: add the largest double below one half, with the
 * value's sign, and truncate. No sum can round up to the next integer unless the value is at
 * least half-way to it (the double below 0.5 keeps x + 0.4999... under n + 1 for x < n + 0.5). */
#define EL_HALF_BELOW 0.49999999999999994

/* The single-precision pass: y = fl32(fl32(acc) * fl32(scale) + zp) by one FMA, clamped to
 * [lo, hi], rounded to nearest. Only lanes whose exact value acc * scale + zp is near [lo, hi]
 * can round differently from the reference, and there |acc * scale| <= 2^9 + 1 (el_qgemm_
 * rescale_floats keeps lo, hi and zp within 2^8): the roundings of acc and scale (2^-24
 * relative each, the scales normal floats) move it by at most 2^-14, the FMA's by 2^-16, the
 * reference's double product by 2^-44: under 1.3 * 2^-14 in all (2.6 * 2^-14 should the AVX2
 * pass run under a directed MXCSR rounding mode). Elsewhere the clamp gives lo or hi exactly,
 * as the reference's. Clamping to integers commutes with rounding and brings no two values
 * farther apart, so when the clamped y is at least 2^-12 from every half-integer, the exact
 * value is no tie and rounds to the same integer: the reference's, half away from zero. Lanes
 * nearer than that, ties included, are rare unless the scales are short binary fractions; their
 * vector is redone in double. Lanes past n hold zp, an integer, and never ask for that. */
#define EL_RESCALE_EDGE (0.5f - 0x1p-12f)

/* Four lanes of the double rescale. */
EL_TARGET_AVX2 static inline void rescale4_avx2(const int32_t* acc, const int32_t* bias,
                                                const double* scale, int32_t zp, int32_t lo,
                                                int32_t hi, int8_t* out) {
  const __m256d half = _mm256_set1_pd(EL_HALF_BELOW);
  const __m256d sign = _mm256_set1_pd(-0.0);
  const __m128i vzp = _mm_set1_epi32(zp), vlo = _mm_set1_epi32(lo), vhi = _mm_set1_epi32(hi);
  const __m256d dlo = _mm256_set1_pd((double)lo - zp), dhi = _mm256_set1_pd((double)hi - zp);
  const __m128i a = _mm_add_epi32(_mm_loadu_si128((const __m128i*)acc),
                                  _mm_loadu_si128((const __m128i*)bias));
  const __m256d x = _mm256_mul_pd(_mm256_cvtepi32_pd(a), _mm256_loadu_pd(scale));
  __m256d r = _mm256_round_pd(_mm256_add_pd(x, _mm256_or_pd(half, _mm256_and_pd(x, sign))),
                              _MM_FROUND_TO_ZERO | _MM_FROUND_NO_EXC);
  /* Clamped in double before the conversion, as the reference clamps: huge products too. */
  r = _mm256_min_pd(_mm256_max_pd(r, dlo), dhi);
  __m128i v = _mm_add_epi32(_mm256_cvtpd_epi32(r), vzp);
  v = _mm_min_epi32(_mm_max_epi32(v, vlo), vhi);
  const __m128i bytes = _mm_shuffle_epi8(v, _mm_setr_epi8(0, 4, 8, 12, -1, -1, -1, -1, -1, -1, -1,
                                                          -1, -1, -1, -1, -1));
  const int32_t word = _mm_cvtsi128_si32(bytes);
  memcpy(out, &word, 4);
}

EL_TARGET_AVX2 static void rescale_avx2(const int32_t* acc, const int32_t* bias, const double* scale,
                                        const float* fscale, int n, int32_t zp, int32_t lo,
                                        int32_t hi, int8_t* out) {
  int j = 0;
  if (fscale != NULL) {
    const __m256 flo = _mm256_set1_ps((float)lo), fhi = _mm256_set1_ps((float)hi);
    const __m256 fzp = _mm256_set1_ps((float)zp), edge = _mm256_set1_ps(EL_RESCALE_EDGE);
    const __m256 sign = _mm256_set1_ps(-0.0f);
    for (; j + 8 <= n; j += 8) {
      const __m256i a = _mm256_add_epi32(_mm256_loadu_si256((const __m256i*)(acc + j)),
                                         _mm256_loadu_si256((const __m256i*)(bias + j)));
      const __m256 y = _mm256_fmadd_ps(_mm256_cvtepi32_ps(a), _mm256_loadu_ps(fscale + j), fzp);
      const __m256 c = _mm256_min_ps(_mm256_max_ps(y, flo), fhi);
      const __m256 r = _mm256_round_ps(c, _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC);
      const __m256 d = _mm256_andnot_ps(sign, _mm256_sub_ps(c, r));
      if (_mm256_movemask_ps(_mm256_cmp_ps(d, edge, _CMP_GE_OQ)) == 0) {
        _mm_storel_epi64((__m128i*)(out + j), el_narrow8_avx2(_mm256_cvttps_epi32(r)));
      } else {
        rescale4_avx2(acc + j, bias + j, scale + j, zp, lo, hi, out + j);
        rescale4_avx2(acc + j + 4, bias + j + 4, scale + j + 4, zp, lo, hi, out + j + 4);
      }
    }
  }
  for (; j + 4 <= n; j += 4) rescale4_avx2(acc + j, bias + j, scale + j, zp, lo, hi, out + j);
  el_qgemm_rescale_scalar(acc + j, bias + j, scale + j, NULL, n - j, zp, lo, hi, out + j);
}

/* Up to eight lanes (keep) of the double rescale. */
EL_TARGET_AVX512 static inline void rescale8_avx512(const int32_t* acc, const int32_t* bias,
                                                    const double* scale, __mmask8 keep, int32_t zp,
                                                    int32_t lo, int32_t hi, int8_t* out) {
  const __m512d half = _mm512_set1_pd(EL_HALF_BELOW);
  const __m512i sign = _mm512_set1_epi64((int64_t)0x8000000000000000ull);
  const __m256i vzp = _mm256_set1_epi32(zp);
  const __m512d dlo = _mm512_set1_pd((double)lo - zp), dhi = _mm512_set1_pd((double)hi - zp);
  const __m256i a = _mm256_add_epi32(_mm256_maskz_loadu_epi32(keep, acc),
                                     _mm256_maskz_loadu_epi32(keep, bias));
  const __m512d x = _mm512_mul_pd(_mm512_cvtepi32_pd(a), _mm512_maskz_loadu_pd(keep, scale));
  const __m512d signed_half = _mm512_castsi512_pd(
      _mm512_or_si512(_mm512_castpd_si512(half), _mm512_and_si512(_mm512_castpd_si512(x), sign)));
  /* Clamping to the integers lo - zp, hi - zp commutes with the truncation (which is
   * monotone and keeps integers), so the truncating conversion comes last and the sum with
   * the zero point is inside [lo, hi] already. */
  const __m512d r = _mm512_min_pd(_mm512_max_pd(_mm512_add_pd(x, signed_half), dlo), dhi);
  const __m256i v = _mm256_add_epi32(_mm512_cvttpd_epi32(r), vzp);
  _mm_mask_storeu_epi8(out, keep, _mm256_cvtepi32_epi8(v));
}

EL_TARGET_AVX512 static void rescale_avx512(const int32_t* acc, const int32_t* bias,
                                            const double* scale, const float* fscale, int n,
                                            int32_t zp, int32_t lo, int32_t hi, int8_t* out) {
  if (fscale == NULL) {
    for (int j = 0; j < n; j += 8) {
      const int left = n - j;
      const __mmask8 keep = (__mmask8)(left >= 8 ? 0xFF : ((1u << left) - 1u));
      rescale8_avx512(acc + j, bias + j, scale + j, keep, zp, lo, hi, out + j);
    }
    return;
  }
  /* Rounding given in the instructions: the bound above holds whatever MXCSR says. */
  enum { RN = _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC };
  const __m512 flo = _mm512_set1_ps((float)lo), fhi = _mm512_set1_ps((float)hi);
  const __m512 fzp = _mm512_set1_ps((float)zp), edge = _mm512_set1_ps(EL_RESCALE_EDGE);
  for (int j = 0; j < n; j += 16) {
    const int left = n - j;
    const __mmask16 keep = (__mmask16)(left >= 16 ? 0xFFFF : ((1u << left) - 1u));
    const __m512i a = _mm512_add_epi32(_mm512_maskz_loadu_epi32(keep, acc + j),
                                       _mm512_maskz_loadu_epi32(keep, bias + j));
    const __m512 y = _mm512_fmadd_round_ps(_mm512_cvt_roundepi32_ps(a, RN),
                                           _mm512_maskz_loadu_ps(keep, fscale + j), fzp, RN);
    const __m512 c = _mm512_min_ps(_mm512_max_ps(y, flo), fhi);
    /* c less its nearest integer (VREDUCEPS, 0 fraction bits, to nearest). */
    const __m512 d = _mm512_abs_ps(_mm512_reduce_ps(c, RN));
    if (_mm512_cmp_ps_mask(d, edge, _CMP_GE_OQ) == 0) {
      const __m512i v = _mm512_cvt_roundps_epi32(c, RN);
      _mm_mask_storeu_epi8(out + j, keep, _mm512_cvtepi32_epi8(v));
    } else {
      rescale8_avx512(acc + j, bias + j, scale + j, (__mmask8)keep, zp, lo, hi, out + j);
      if (left > 8) {
        rescale8_avx512(acc + j + 8, bias + j + 8, scale + j + 8, (__mmask8)(keep >> 8), zp, lo,
                        hi, out + j + 8);
      }
    }
  }
}

const el_qgemm_kernels el_qgemm_avx2 = {
    .format = EL_QFORMAT_PAIR16, .mr = MR_AVX2, .kstep = 2, .a_xor = 0, .gemm = gemm_avx2,
    .gemv = gemv_avx2, .requant = requant_avx2, .igemm = NULL,
    .rescale = rescale_avx2};
const el_qgemm_kernels el_qgemm_avx512 = {
    .format = EL_QFORMAT_PAIR16, .mr = MR_AVX512, .kstep = 2, .a_xor = 0, .gemm = gemm_avx512,
    .gemv = gemv_avx512, .requant = requant_avx512, .igemm = NULL,
    .rescale = rescale_avx512};
const el_qgemm_kernels el_qgemm_avx512_vnni = {
    .format = EL_QFORMAT_QUAD, .mr = MR_AVX512, .kstep = 4, .a_xor = 0x80, .gemm = gemm_vnni,
    .gemv = gemv_vnni, .gemv_raw = gemv_raw_vnni, .requant = requant_avx512, .igemm = igemm_vnni,
    .igemm_mr = IGEMM_MR,
    .rescale = rescale_avx512};

#endif /* __x86_64__ */
