/* Optimized float32 ARG_MAX and ARG_MIN. Along an inner axis (elements `inner` apart) the running
 * best value and index of a block of positions are kept side by side, so the comparison loop runs
 * on vectors; along the last axis each row's extreme is found on vectors and then its first
 * position. Both keep the reference's rule: the first index of the extreme under a strict
 * comparison from element 0, so a NaN never wins unless it is element 0 (rows holding a NaN take
 * the reference loop); short last axes run eight rows at a time, compared lane by lane. Other
 * types run the reference kernel. */
#include <math.h>
#include <stdint.h>

#include "cpu_isa.h"
#include "kernels/arg_min_max.h"
#include "kernels/coverage_ops.h"
#include "kernels/kernel_util.h"
#include "kernels/kernels.h"
#include "kernels/optimized/opt_kernels.h"
#include "kernels/quant_ops.h"

#if defined(__x86_64__)
#include "kernels/optimized/simd_x86.h"
#endif

/* kGatherAxis: last axes up to this long run eight rows at a time. */
enum { kBlock = 64, kGatherAxis = 32 };

typedef struct opt_arg_state {
  el_arg_data ref; /* first: the reference kernel runs on the same user_data */
  int fast;
  int avx2;
} opt_arg_state;

static void* opt_arg_init(TfLiteContext* ctx, const char* buf, size_t len) {
  (void)ctx;
  (void)buf;
  (void)len;
  return el_kernel_alloc(sizeof(opt_arg_state));
}

static void store_index(TfLiteTensor* out, int64_t at, int64_t index) {
  if (out->type == kTfLiteInt32) {
    out->data.i32[at] = (int32_t)index;
  } else {
    out->data.i64[at] = index;
  }
}

/* The reference loop over one row of n contiguous values. */
static int64_t row_scalar(const float* p, int n, int is_max) {
  float best = p[0];
  int64_t at = 0;
  for (int k = 1; k < n; ++k) {
    if (is_max ? p[k] > best : p[k] < best) {
      best = p[k];
      at = k;
    }
  }
  return at;
}

#if defined(__x86_64__)
/* Elements k..k+7 of the row; lanes past n repeat element 0, which cannot change the extreme nor
 * be its first position (element 0 is seen before them). */
EL_TARGET_AVX2 static __m256 row_lanes(const float* p, int k, int n) {
  if (k + 8 <= n) return _mm256_loadu_ps(p + k);
  const __m256i keep = _mm256_cmpgt_epi32(_mm256_set1_epi32(n - k), _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7));
  return _mm256_blendv_ps(_mm256_set1_ps(p[0]), _mm256_maskload_ps(p + k, keep), _mm256_castsi256_ps(keep));
}

/* First index of the row's extreme; -1 when the row holds a NaN. */
EL_TARGET_AVX2 static int64_t row_avx2(const float* p, int n, int is_max) {
  __m256 m = _mm256_set1_ps(p[0]);
  __m256 nan = _mm256_setzero_ps();
  for (int k = 0; k < n; k += 8) {
    const __m256 v = row_lanes(p, k, n);
    nan = _mm256_or_ps(nan, _mm256_cmp_ps(v, v, _CMP_UNORD_Q));
    m = is_max ? _mm256_max_ps(m, v) : _mm256_min_ps(m, v);
  }
  if (_mm256_movemask_ps(nan) != 0) return -1;
  __m128 h = is_max ? _mm_max_ps(_mm256_castps256_ps128(m), _mm256_extractf128_ps(m, 1))
                    : _mm_min_ps(_mm256_castps256_ps128(m), _mm256_extractf128_ps(m, 1));
  h = is_max ? _mm_max_ps(h, _mm_movehl_ps(h, h)) : _mm_min_ps(h, _mm_movehl_ps(h, h));
  h = is_max ? _mm_max_ss(h, _mm_shuffle_ps(h, h, 1)) : _mm_min_ss(h, _mm_shuffle_ps(h, h, 1));
  const __m256 best = _mm256_set1_ps(_mm_cvtss_f32(h));
  for (int k = 0; k < n; k += 8) {
    const int hit = _mm256_movemask_ps(_mm256_cmp_ps(row_lanes(p, k, n), best, _CMP_EQ_OQ));
    if (hit != 0) return k + __builtin_ctz((unsigned)hit);
  }
  return 0;
}

/* Eight rows of a short last axis side by side (gathered), with the reference's strict
 * comparison on each lane: a NaN never wins, a NaN element 0 is kept. */
EL_TARGET_AVX2 static void rows8_avx2(const float* p, int axis, int is_max, int32_t* index) {
  const __m256i offs = _mm256_mullo_epi32(_mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7), _mm256_set1_epi32(axis));
  __m256 best = _mm256_i32gather_ps(p, offs, 4);
  __m256i at = _mm256_setzero_si256();
  for (int k = 1; k < axis; ++k) {
    const __m256 v = _mm256_i32gather_ps(p + k, offs, 4);
    const __m256 better = is_max ? _mm256_cmp_ps(v, best, _CMP_GT_OQ) : _mm256_cmp_ps(v, best, _CMP_LT_OQ);
    best = _mm256_blendv_ps(best, v, better);
    at = _mm256_castps_si256(
        _mm256_blendv_ps(_mm256_castsi256_ps(at), _mm256_castsi256_ps(_mm256_set1_epi32(k)), better));
  }
  _mm256_storeu_si256((__m256i*)(void*)index, at);
}
#endif

/* Running extremes of `count` positions (elements `inner` apart along the axis). */
#define INNER_BODY                                                                     \
  float best[kBlock];                                                                  \
  int32_t at[kBlock];                                                                  \
  for (int i = 0; i < count; ++i) {                                                    \
    best[i] = p[i];                                                                    \
    at[i] = 0;                                                                         \
  }                                                                                    \
  for (int k = 1; k < axis; ++k) {                                                     \
    const float* row = p + (int64_t)k * inner;                                         \
    for (int i = 0; i < count; ++i) {                                                  \
      const int better = is_max ? row[i] > best[i] : row[i] < best[i];                 \
      best[i] = better ? row[i] : best[i];                                             \
      at[i] = better ? k : at[i];                                                      \
    }                                                                                  \
  }                                                                                    \
  for (int i = 0; i < count; ++i) index[i] = at[i];

static void inner_c(const float* p, int axis, int64_t inner, int count, int is_max, int32_t* index) {
  INNER_BODY
}

#if defined(__x86_64__)
EL_TARGET_AVX2 static void inner_avx2(const float* p, int axis, int64_t inner, int count, int is_max,
                                      int32_t* index) {
  INNER_BODY
}
#endif

static TfLiteStatus opt_arg_prepare(TfLiteContext* ctx, TfLiteNode* node, const TfLiteRegistration* ref) {
  EL_ENSURE_OK(ctx, ref->prepare(ctx, node));
  opt_arg_state* s = (opt_arg_state*)node->user_data;
  const TfLiteTensor* in = el_optional_input(ctx, node, 0);
  s->fast = in->type == kTfLiteFloat32 && s->ref.axis_size > 0 && s->ref.axis_size < INT32_MAX;
  s->avx2 = 0;
#if defined(__x86_64__)
  s->avx2 = el_isa_at_least(el_context_isa(ctx), EL_ISA_AVX2);
#endif
  return kTfLiteOk;
}

static TfLiteStatus opt_arg_invoke(TfLiteContext* ctx, TfLiteNode* node, const TfLiteRegistration* ref,
                                   int is_max) {
  const opt_arg_state* s = (const opt_arg_state*)node->user_data;
  if (!s->fast) return ref->invoke(ctx, node);
  const float* x = ctx->tensors[node->inputs->data[0]].data.f;
  TfLiteTensor* out = &ctx->tensors[node->outputs->data[0]];
  EL_ENSURE(ctx, x != NULL && out->data.raw != NULL);
  const int axis = s->ref.axis_size;
  const int64_t inner = s->ref.inner;
  for (int64_t o = 0; o < s->ref.outer; ++o) {
    const float* base = x + o * axis * inner;
    if (inner == 1) {
#if defined(__x86_64__)
      if (s->avx2 && axis <= kGatherAxis && o + 8 <= s->ref.outer) {
        int32_t index[8];
        rows8_avx2(base, axis, is_max, index);
        for (int r = 0; r < 8; ++r) store_index(out, o + r, index[r]);
        o += 7;
        continue;
      }
#endif
      int64_t at = -1;
#if defined(__x86_64__)
      if (s->avx2) at = row_avx2(base, axis, is_max);
#endif
      if (at < 0) at = row_scalar(base, axis, is_max);
      store_index(out, o, at);
      continue;
    }
    for (int64_t i0 = 0; i0 < inner; i0 += kBlock) {
      const int count = inner - i0 < kBlock ? (int)(inner - i0) : kBlock;
      int32_t index[kBlock];
#if defined(__x86_64__)
      if (s->avx2) {
        inner_avx2(base + i0, axis, inner, count, is_max, index);
      } else {
        inner_c(base + i0, axis, inner, count, is_max, index);
      }
#else
      inner_c(base + i0, axis, inner, count, is_max, index);
#endif
      for (int i = 0; i < count; ++i) store_index(out, o * inner + i0 + i, index[i]);
    }
  }
  return kTfLiteOk;
}

static TfLiteStatus opt_arg_max_prepare(TfLiteContext* ctx, TfLiteNode* node) {
  return opt_arg_prepare(ctx, node, &el_ref_arg_max);
}
static TfLiteStatus opt_arg_max_invoke(TfLiteContext* ctx, TfLiteNode* node) {
  return opt_arg_invoke(ctx, node, &el_ref_arg_max, 1);
}
static TfLiteStatus opt_arg_min_prepare(TfLiteContext* ctx, TfLiteNode* node) {
  return opt_arg_prepare(ctx, node, &el_ref_arg_min);
}
static TfLiteStatus opt_arg_min_invoke(TfLiteContext* ctx, TfLiteNode* node) {
  return opt_arg_invoke(ctx, node, &el_ref_arg_min, 0);
}

const TfLiteRegistration el_opt_arg_max =
    EL_REGISTRATION(opt_arg_init, el_kernel_free, opt_arg_max_prepare, opt_arg_max_invoke, EL_OP_ARG_MAX);
const TfLiteRegistration el_opt_arg_min =
    EL_REGISTRATION(opt_arg_init, el_kernel_free, opt_arg_min_prepare, opt_arg_min_invoke, EL_OP_ARG_MIN);
