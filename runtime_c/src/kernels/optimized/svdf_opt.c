/* Optimized integer SVDF (int8 input and feature weights, int16 time weights and state with
 * zero point 0, TFLite's EvalIntegerSVDF): the input zero point is folded into one constant per
 * filter in prepare (sum_k w (x - zp) = sum_k w x - zp sum_k w, modulo 2^32 like the
 * reference's wrapping sums), and both products run as 16-bit multiply-adds on vectors. Integer
 * sums modulo 2^32 do not depend on their order, so the outputs and the state are the
 * reference's bits. Other forms (float, hybrid, int8 state) run the reference kernel. */
#include <string.h>

#include "cpu_isa.h"
#include "kernels/coverage_ops.h"
#include "kernels/kernel_util.h"
#include "kernels/kernels.h"
#include "kernels/optimized/opt_kernels.h"
#include "kernels/quant_util.h"
#include "kernels/svdf.h"

#if defined(__x86_64__)
#include "kernels/optimized/simd_x86.h"
#endif

typedef int32_t (*dot8_fn)(const int8_t* w, const int8_t* x, int n);
typedef int32_t (*dot16_fn)(const int16_t* w, const int16_t* x, int n);

typedef struct opt_svdf_state {
  el_svdf_data ref; /* first: the reference kernel runs on the same user_data */
  int fast;
  int32_t* fold; /* per filter: -input_zp * sum_k w_feature[f][k], modulo 2^32 */
  int fold_cap;
  dot8_fn dot8;
  dot16_fn dot16;
} opt_svdf_state;

static int32_t dot8_c(const int8_t* w, const int8_t* x, int n) {
  uint32_t s = 0;
  for (int k = 0; k < n; ++k) s += (uint32_t)((int32_t)w[k] * x[k]);
  return (int32_t)s;
}

static int32_t dot16_c(const int16_t* w, const int16_t* x, int n) {
  uint32_t s = 0;
  for (int k = 0; k < n; ++k) s += (uint32_t)((int32_t)w[k] * x[k]);
  return (int32_t)s;
}

#if defined(__x86_64__)
EL_TARGET_AVX2 static uint32_t hsum8(__m256i v) {
  __m128i s = _mm_add_epi32(_mm256_castsi256_si128(v), _mm256_extracti128_si256(v, 1));
  s = _mm_add_epi32(s, _mm_shuffle_epi32(s, 0x4E));
  s = _mm_add_epi32(s, _mm_shuffle_epi32(s, 0xB1));
  return (uint32_t)_mm_cvtsi128_si32(s);
}

/* madd_epi16 wraps only when both pairs are -32768 * -32768, to 2^31's residue: the sums stay
 * exact modulo 2^32. */
EL_TARGET_AVX2 static int32_t dot8_avx2(const int8_t* w, const int8_t* x, int n) {
  __m256i acc = _mm256_setzero_si256();
  int k = 0;
  for (; k + 16 <= n; k += 16) {
    const __m256i a = _mm256_cvtepi8_epi16(_mm_loadu_si128((const __m128i*)(const void*)(w + k)));
    const __m256i b = _mm256_cvtepi8_epi16(_mm_loadu_si128((const __m128i*)(const void*)(x + k)));
    acc = _mm256_add_epi32(acc, _mm256_madd_epi16(a, b));
  }
  return (int32_t)(hsum8(acc) + (uint32_t)dot8_c(w + k, x + k, n - k));
}

EL_TARGET_AVX2 static int32_t dot16_avx2(const int16_t* w, const int16_t* x, int n) {
  __m256i acc = _mm256_setzero_si256();
  int k = 0;
  for (; k + 16 <= n; k += 16) {
    const __m256i a = _mm256_loadu_si256((const __m256i*)(const void*)(w + k));
    const __m256i b = _mm256_loadu_si256((const __m256i*)(const void*)(x + k));
    acc = _mm256_add_epi32(acc, _mm256_madd_epi16(a, b));
  }
  if (k + 8 <= n) {
    const __m128i a = _mm_loadu_si128((const __m128i*)(const void*)(w + k));
    const __m128i b = _mm_loadu_si128((const __m128i*)(const void*)(x + k));
    acc = _mm256_add_epi32(acc, _mm256_zextsi128_si256(_mm_madd_epi16(a, b)));
    k += 8;
  }
  return (int32_t)(hsum8(acc) + (uint32_t)dot16_c(w + k, x + k, n - k));
}
#endif

static void* opt_svdf_init(TfLiteContext* ctx, const char* buf, size_t len) {
  (void)ctx;
  (void)buf;
  (void)len;
  return el_kernel_alloc(sizeof(opt_svdf_state));
}

static TfLiteStatus opt_svdf_prepare(TfLiteContext* ctx, TfLiteNode* node) {
  EL_ENSURE_OK(ctx, el_ref_svdf.prepare(ctx, node));
  opt_svdf_state* s = (opt_svdf_state*)node->user_data;
  s->fast = 0;
  const el_svdf_data* d = &s->ref;
  const TfLiteTensor* in = &ctx->tensors[node->inputs->data[EL_SVDF_IN]];
  const TfLiteTensor* wf = &ctx->tensors[node->inputs->data[EL_SVDF_W_FEATURE]];
  const TfLiteTensor* wt = &ctx->tensors[node->inputs->data[EL_SVDF_W_TIME]];
  const TfLiteTensor* state = &ctx->tensors[node->inputs->data[EL_SVDF_STATE]];
  if (in->type != kTfLiteInt8 || wt->type != kTfLiteInt16 || state->type != kTfLiteInt16 || d->state_zp != 0 ||
      !el_is_constant_or_persistent(wf) || d->filters <= 0 || d->memory <= 0 || d->batch <= 0) {
    return kTfLiteOk;
  }
  EL_ENSURE_OK(ctx, el_q_channel_buffer(ctx, d->filters, sizeof(int32_t), &s->fold_cap, (void**)&s->fold));
  for (int f = 0; f < d->filters; ++f) {
    uint32_t sum = 0;
    for (int k = 0; k < d->input_size; ++k) sum += (uint32_t)(int32_t)wf->data.int8[(size_t)f * d->input_size + k];
    s->fold[f] = (int32_t)(sum * (uint32_t)(-d->input_zp));
  }
  s->dot8 = dot8_c;
  s->dot16 = dot16_c;
#if defined(__x86_64__)
  if (el_isa_at_least(el_context_isa(ctx), EL_ISA_AVX2)) {
    s->dot8 = dot8_avx2;
    s->dot16 = dot16_avx2;
  }
#endif
  s->fast = 1;
  return kTfLiteOk;
}

static TfLiteStatus opt_svdf_invoke(TfLiteContext* ctx, TfLiteNode* node) {
  const opt_svdf_state* s = (const opt_svdf_state*)node->user_data;
  if (!s->fast) return el_ref_svdf.invoke(ctx, node);
  const el_svdf_data* d = &s->ref;
  const int8_t* x = ctx->tensors[node->inputs->data[EL_SVDF_IN]].data.int8;
  const int8_t* wf = ctx->tensors[node->inputs->data[EL_SVDF_W_FEATURE]].data.int8;
  const int16_t* wt = ctx->tensors[node->inputs->data[EL_SVDF_W_TIME]].data.i16;
  const TfLiteTensor* bias = el_optional_input(ctx, node, EL_SVDF_BIAS);
  int16_t* state = ctx->tensors[node->inputs->data[EL_SVDF_STATE]].data.i16;
  int8_t* out = ctx->tensors[node->outputs->data[0]].data.int8;
  EL_ENSURE(ctx, x != NULL && wf != NULL && wt != NULL && state != NULL && out != NULL);
  const int nf = d->filters, mem = d->memory, ni = d->input_size;
  const size_t total = (size_t)d->batch * nf * mem;
  memmove(state, state + 1, (total - 1) * sizeof(int16_t));
  for (int b = 0; b < d->batch; ++b) {
    const int8_t* xb = x + (size_t)b * ni;
    int16_t* sb = state + (size_t)b * nf * mem;
    for (int f = 0; f < nf; ++f) {
      const int32_t dot = (int32_t)((uint32_t)s->dot8(wf + (size_t)f * ni, xb, ni) + (uint32_t)s->fold[f]);
      sb[(size_t)f * mem + mem - 1] = (int16_t)el_q_clamp(el_q_mbqm(dot, d->feature_a, d->feature_b), INT16_MIN,
                                                         INT16_MAX);
    }
    for (int u = 0; u < d->units; ++u) {
      uint32_t sum = bias ? (uint32_t)bias->data.i32[u] : 0u;
      for (int r = 0; r < d->rank; ++r) {
        const size_t f = (size_t)u * d->rank + r;
        sum += (uint32_t)s->dot16(wt + f * mem, sb + f * mem, mem);
      }
      const uint32_t v = (uint32_t)el_q_mbqm((int32_t)sum, d->time_a, d->time_b) + (uint32_t)d->output_zp;
      out[(size_t)b * d->units + u] = (int8_t)el_q_clamp((int32_t)v, -128, 127);
    }
  }
  return kTfLiteOk;
}

const TfLiteRegistration el_opt_svdf =
    EL_REGISTRATION(opt_svdf_init, el_kernel_free, opt_svdf_prepare, opt_svdf_invoke, EL_OP_SVDF);
