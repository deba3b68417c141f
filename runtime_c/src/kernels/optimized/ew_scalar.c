/* Plain C elementwise kernels and the table. */
#include <math.h>

#include "kernels/optimized/ew_kernels.h"

static void q8_binary(const el_q8_binary* p, const void* a, int a_step, const void* b, int b_step,
                      void* out, int64_t n) {
  const int8_t* as = (const int8_t*)a;
  const int8_t* bs = (const int8_t*)b;
  const uint8_t* au = (const uint8_t*)a;
  const uint8_t* bu = (const uint8_t*)b;
  int8_t* o = (int8_t*)out;
  for (int64_t i = 0; i < n; ++i) {
    const int32_t x = p->is_unsigned ? au[i * a_step] : as[i * a_step];
    const int32_t y = p->is_unsigned ? bu[i * b_step] : bs[i * b_step];
    o[i] = (int8_t)el_q8_binary_one(p, x, y);
  }
}

static void f32_binary(el_f32_op op, const float* a, int a_step, const float* b, int b_step,
                       float* out, int64_t n, float lo, float hi) {
  for (int64_t i = 0; i < n; ++i) {
    const float x = a[i * a_step], y = b[i * b_step];
    const float v = op == EL_F32_ADD ? x + y : (op == EL_F32_SUB ? x - y : x * y);
    out[i] = el_ew_clamp(v, lo, hi);
  }
}

static void f32_column_sums(float* out, const float* x, int64_t rows, int64_t cols) {
  for (int64_t k = 0; k < cols; ++k) out[k] = 0.0f;
  for (int64_t r = 0; r < rows; ++r, x += cols) {
    for (int64_t k = 0; k < cols; ++k) out[k] += x[k];
  }
}

static void q8_column_sums(int32_t* out, const void* x, int is_unsigned, int64_t rows,
                           int64_t cols) {
  for (int64_t r = 0; r < rows; ++r) {
    if (is_unsigned) {
      const uint8_t* u = (const uint8_t*)x + r * cols;
      for (int64_t k = 0; k < cols; ++k) out[k] = (int32_t)((uint32_t)out[k] + u[k]);
    } else {
      const int8_t* v = (const int8_t*)x + r * cols;
      for (int64_t k = 0; k < cols; ++k) out[k] = (int32_t)((uint32_t)out[k] + (uint32_t)(int32_t)v[k]);
    }
  }
}

static void requant_row(const int32_t* acc, void* out, int64_t n, int32_t mult, int32_t lshift,
                        int32_t rshift, int32_t zp, int32_t lo, int32_t hi) {
  int8_t* o = (int8_t*)out;
  for (int64_t i = 0; i < n; ++i) o[i] = (int8_t)el_requant_one(acc[i], mult, lshift, rshift, zp, lo, hi);
}

static float f32_max(const float* x, int64_t n) {
  float m = x[0];
  for (int64_t i = 1; i < n; ++i) m = x[i] > m ? x[i] : m;
  return m;
}

static float f32_exp_sum(const float* x, float* y, int64_t n, float max, float beta) {
  float sum = 0.0f;
  for (int64_t i = 0; i < n; ++i) {
    y[i] = expf((x[i] - max) * beta);
    sum += y[i];
  }
  return sum;
}

static void f32_scale(float* y, int64_t n, float s) {
  for (int64_t i = 0; i < n; ++i) y[i] *= s;
}

/* TFLite's reference logistic: saturated where float32 no longer tells the result from its
 * limit (which also keeps expf from overflowing). */
void el_ew_f32_logistic_c(const float* x, float* y, int64_t n) {
  for (int64_t i = 0; i < n; ++i) {
    const float v = x[i];
    y[i] = v > 16.619047164916992188f ? 1.0f : (v < -9.0f ? expf(v) : 1.0f / (1.0f + expf(-v)));
  }
}

void el_ew_f32_tanh_c(const float* x, float* y, int64_t n) {
  for (int64_t i = 0; i < n; ++i) y[i] = tanhf(x[i]);
}

static const el_ew_kernels kScalar = {
    .q8_binary = q8_binary,
    .f32_binary = f32_binary,
    .f32_column_sums = f32_column_sums,
    .q8_column_sums = q8_column_sums,
    .requant_row = requant_row,
    .f32_max = f32_max,
    .f32_exp_sum = f32_exp_sum,
    .f32_scale = f32_scale,
    .f32_logistic = el_ew_f32_logistic_c,
    .f32_tanh = el_ew_f32_tanh_c,
};

extern const el_ew_kernels el_ew_avx2;
extern const el_ew_kernels el_ew_avx512;
extern const el_ew_kernels el_ew_neon;

const el_ew_kernels* el_ew_kernels_for(el_isa isa) {
  switch (isa) {
#if defined(__x86_64__)
    case EL_ISA_AVX512_VNNI:
    case EL_ISA_AVX512:
      return &el_ew_avx512;
    case EL_ISA_AVX2:
      return &el_ew_avx2;
#endif
#if defined(__aarch64__)
    case EL_ISA_NEON_DOT:
    case EL_ISA_NEON:
      return &el_ew_neon;
#endif
    default:
      return &kScalar;
  }
}
