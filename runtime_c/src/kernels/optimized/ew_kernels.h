/* Elementwise and row kernels of the optimized tier. int8/uint8 ADD and MUL keep the reference
 * arithmetic (TFLite's integer add.h / mul.h): inputs rescaled to a common scale with
 * 2^left_shift headroom and summed, or multiplied, then requantized to the output. Float ADD,
 * SUB and MUL and the row sums of MEAN do what the reference does element by element, so their
 * bits are the reference ones too; only the exponentials of softmax, logistic and tanh differ
 * (a polynomial within a few float ulps of expf). */
#ifndef EDGELITE_KERNELS_OPTIMIZED_EW_KERNELS_H_
#define EDGELITE_KERNELS_OPTIMIZED_EW_KERNELS_H_

#include <stdint.h>

#include "cpu_isa.h"
#include "kernels/optimized/requant.h"

typedef struct el_q8_binary {
  int is_mul;
  int is_unsigned;
  int32_t off1, off2; /* minus the input zero points */
  int32_t left_shift; /* ADD: headroom shift of the inputs */
  int32_t m1, ls1, rs1, m2, ls2, rs2; /* ADD: input multipliers */
  int32_t mo, lso, rso;                /* output multiplier */
  int32_t out_zp, act_min, act_max;
  /* ADD with the 20-bit headroom, no input left shifts and inputs of at most 10 bits: the
   * input multipliers split into 15 high and 16 low bits, so that the input rescale
   * floor((x * m * 2^20 + 2^30) / 2^31) = x * mh * 2^5 + floor((x * ml + 2^10) / 2^11)
   * is formed in 32-bit lanes. */
  int split;
  int32_t mh1, ml1, mh2, ml2;
  /* ADD on the split path with no output left shift: the output before its floor, in float,
   *   w = a * ax + b * bx + c      (a, b the raw input values; c holds the offsets, the rounding
   * terms and the zero point), is within `eps` / 2 of the exact rational whose floor the
   * reference's two roundings produce (requant.h's one-rounding form; the input rescales are
   * within one unit of their real values). A vector whose every lane has a fractional part of w
   * in [eps, 1 - eps] takes floor(w); any other vector is computed exactly. */
  int approx;
  float ax, bx, c, eps;
} el_q8_binary;

static inline int32_t el_q8_binary_one(const el_q8_binary* p, int32_t a, int32_t b) {
  if (p->is_mul) {
    return el_requant_one((p->off1 + a) * (p->off2 + b), p->mo, p->lso, p->rso, p->out_zp,
                          p->act_min, p->act_max);
  }
  const int32_t sa = (int32_t)((uint32_t)(p->off1 + a) << p->left_shift);
  const int32_t sb = (int32_t)((uint32_t)(p->off2 + b) << p->left_shift);
  const int32_t ra = el_mbqm_one(sa, p->m1, p->ls1, p->rs1);
  const int32_t rb = el_mbqm_one(sb, p->m2, p->ls2, p->rs2);
  return el_requant_one(ra + rb, p->mo, p->lso, p->rso, p->out_zp, p->act_min, p->act_max);
}

typedef enum el_f32_op { EL_F32_ADD, EL_F32_SUB, EL_F32_MUL } el_f32_op;

/* The reference clamp: a NaN passes through. */
static inline float el_ew_clamp(float v, float lo, float hi) {
  return v < lo ? lo : (v > hi ? hi : v);
}

typedef struct el_ew_kernels {
  /* out[i] = op(a[i * a_step], b[i * b_step]) for i < n; a step of 0 repeats one element. */
  void (*q8_binary)(const el_q8_binary* p, const void* a, int a_step, const void* b, int b_step,
                    void* out, int64_t n);
  /* out[i] = clamp(a[i * a_step] op b[i * b_step], lo, hi); steps as above. */
  void (*f32_binary)(el_f32_op op, const float* a, int a_step, const float* b, int b_step,
                     float* out, int64_t n, float lo, float hi);
  /* out[k] = ((0 + x[0][k]) + x[1][k]) + ... + x[rows-1][k] for the rows x cols matrix x: the
   * float additions of each column in row order, as the reference sums. */
  void (*f32_column_sums)(float* out, const float* x, int64_t rows, int64_t cols);
  /* out[k] += x[0][k] + ... + x[rows-1][k] modulo 2^32, x int8 (or uint8). */
  void (*q8_column_sums)(int32_t* out, const void* x, int is_unsigned, int64_t rows, int64_t cols);
  /* out[i] = el_requant_one(acc[i], mult, lshift, rshift, zp, lo, hi) as a byte. */
  void (*requant_row)(const int32_t* acc, void* out, int64_t n, int32_t mult, int32_t lshift,
                      int32_t rshift, int32_t zp, int32_t lo, int32_t hi);
  /* The largest of x[0..n), n >= 1. */
  float (*f32_max)(const float* x, int64_t n);
  /* y[i] = exp((x[i] - max) * beta); returns the sum of the y[i]. */
  float (*f32_exp_sum)(const float* x, float* y, int64_t n, float max, float beta);
  /* y[i] *= s. */
  void (*f32_scale)(float* y, int64_t n, float s);
  /* y[i] = logistic(x[i]) and y[i] = tanh(x[i]): the reference's forms in plain C; the vector
   * bodies take the softmax's polynomial exponential (within a few float ulps). */
  void (*f32_logistic)(const float* x, float* y, int64_t n);
  void (*f32_tanh)(const float* x, float* y, int64_t n);
} el_ew_kernels;

/* The plain C bodies of f32_logistic and f32_tanh (the reference's arithmetic), shared by the
 * levels without their own. */
void el_ew_f32_logistic_c(const float* x, float* y, int64_t n);
void el_ew_f32_tanh_c(const float* x, float* y, int64_t n);

const el_ew_kernels* el_ew_kernels_for(el_isa isa);

#endif /* EDGELITE_KERNELS_OPTIMIZED_EW_KERNELS_H_ */
