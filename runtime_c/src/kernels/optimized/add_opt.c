/* Optimized ADD and MUL (int8, uint8, float32), SUB (float32) and int16 ADD/SUB with general
 * scales (add16_opt.h) for operands of the same shape, one operand of a single element, or
 * (float32 and int16) one operand of the output's trailing shape such as a per-channel bias:
 * vectorized with the reference arithmetic, so the bits are the reference ones. Other types and
 * broadcasts run the reference kernel. */
#include <math.h>
#include <string.h>

#include "kernels/elementwise_binary.h"
#include "kernels/elementwise_quant.h"
#include "kernels/kernels.h"
#include "kernels/optimized/add16_opt.h"
#include "kernels/optimized/ew_kernels.h"
#include "kernels/optimized/opt_kernels.h"
#include "kernels/quant_util.h"

/* Elements below which a second thread costs more than it saves. */
enum { kMinParallel = 1 << 14, kChunk = 1 << 12 };

typedef struct el_opt_binary {
  el_binary_data ref; /* first: the reference kernel runs on the same user_data */
  int fast;
  int is_float;
  int is_i16;             /* int16 ADD/SUB: p16 and add16 */
  el_add_sub_params p16;
  el_add16_fn add16;
  el_f32_op fop;
  float lo, hi; /* float activation range */
  const el_ew_kernels* k;
  el_q8_binary p;
  int a_step, b_step;
  /* float32 and int16: one operand of the output's trailing shape (a bias per channel), repeating
   * every `period` output elements; the other operand has the output's shape. 0: none. */
  int period;
  int period_is_b;
  /* float, a constant short operand: repeated to `tile_len` (a multiple of `period`) elements, so
   * the vector kernel runs on long segments instead of one repetition at a time. NULL: none. */
  const float* tile;
  int64_t tile_len;
  int threads;
} el_opt_binary;

static void* opt_binary_init(TfLiteContext* ctx, const char* buf, size_t len) {
  (void)ctx;
  (void)buf;
  (void)len;
  return el_kernel_alloc(sizeof(el_opt_binary));
}

/* The 32-bit split of el_q8_binary fits: inputs of at most 10 bits, no input left shifts. */
static void prepare_split(el_q8_binary* p) {
  p->split = p->left_shift == 20 && p->ls1 == 0 && p->ls2 == 0 && p->off1 >= -768 &&
             p->off1 <= 768 && p->off2 >= -768 && p->off2 <= 768 && p->m1 >= 0 && p->m2 >= 0 &&
             p->rs1 <= 30 && p->rs2 <= 30;
  p->mh1 = p->m1 >> 16;
  p->ml1 = p->m1 & 0xFFFF;
  p->mh2 = p->m2 >> 16;
  p->ml2 = p->m2 & 0xFFFF;
}

/* The float form of el_q8_binary's ADD and its error bound. With S = 31 + rso the exact output
 * is floor(W) + zp, W = (v mo + 2^30 + [rso > 0] 2^(30+rso) - [rso > 0][v mo < -2^30] 2^31) / 2^S
 * and v = A(x) + B(y), each rescale within 1 of x m1 / 2^(11+rs1) (two roundings of at most
 * 1/2 each): W is within 2 mo / 2^S + 2^(31-S) of its real-valued form. The float evaluation
 * (three rounded constants, two fused multiply-adds, the fractional part) adds at most
 * 5 M 2^-24, M bounding every magnitude on the way. eps is twice the sum. */
static void prepare_approx(el_q8_binary* p) {
  p->approx = 0;
  if (p->is_mul || !p->split || p->lso != 0 || p->mo < (1 << 30) || p->rso > 30) return;
  const double s = ldexp(1.0, -(31 + p->rso));
  const double f = (double)p->mo * s;
  const double ax = (double)p->m1 * ldexp(1.0, -(11 + p->rs1)) * f;
  const double bx = (double)p->m2 * ldexp(1.0, -(11 + p->rs2)) * f;
  const double round = (ldexp(1.0, 30) + (p->rso > 0 ? ldexp(1.0, 30 + p->rso) : 0.0)) * s;
  const double c = round + p->off1 * ax + p->off2 * bx + p->out_zp;
  const double m = 256.0 * (ax + bx) + fabs(c) + 1.0;
  const double eps = 2.0 * (2.0 * f + ldexp(1.0, -p->rso) + 5.0 * m * ldexp(1.0, -24));
  if (eps > 1.0 / 64 || m > ldexp(1.0, 20)) return;
  p->ax = (float)ax;
  p->bx = (float)bx;
  p->c = (float)c;
  p->eps = (float)eps;
  p->approx = 1;
}

static TfLiteStatus prepare_params(TfLiteContext* ctx, const TfLiteNode* node, int is_mul,
                                   const TfLiteTensor* a, const TfLiteTensor* b,
                                   const TfLiteTensor* out, el_q8_binary* p) {
  TfLiteFusedActivation act = kTfLiteActNone;
  if (node->builtin_data != NULL) {
    act = is_mul ? ((const TfLiteMulParams*)node->builtin_data)->activation
                 : ((const TfLiteAddParams*)node->builtin_data)->activation;
  }
  p->is_mul = is_mul;
  p->is_unsigned = a->type == kTfLiteUInt8;
  p->off1 = -a->params.zero_point;
  p->off2 = -b->params.zero_point;
  p->out_zp = out->params.zero_point;
  EL_ENSURE_OK(ctx, el_q_activation_range(act, out->type, out->params.scale, out->params.zero_point,
                                          &p->act_min, &p->act_max));
  int32_t q = 0;
  int shift = 0;
  if (is_mul) {
    /* The product of the scales is formed in float, as the reference kernel does. */
    const float real = a->params.scale * b->params.scale / out->params.scale;
    el_q_quantize_multiplier((double)real, &q, &shift);
    p->mo = q;
    el_split_shift(shift, &p->lso, &p->rso);
    return kTfLiteOk;
  }
  p->left_shift = 20;
  const float max_scale = a->params.scale > b->params.scale ? a->params.scale : b->params.scale;
  const double twice_max = 2.0 * (double)max_scale;
  EL_ENSURE_OK(ctx, el_q_quantize_multiplier_smaller_than_one((double)a->params.scale / twice_max,
                                                              &q, &shift));
  p->m1 = q;
  el_split_shift(shift, &p->ls1, &p->rs1);
  EL_ENSURE_OK(ctx, el_q_quantize_multiplier_smaller_than_one((double)b->params.scale / twice_max,
                                                              &q, &shift));
  p->m2 = q;
  el_split_shift(shift, &p->ls2, &p->rs2);
  const double mo = twice_max / ((double)(1 << 20) * (double)out->params.scale);
  EL_ENSURE_OK(ctx, el_q_quantize_multiplier_smaller_than_one(mo, &q, &shift));
  p->mo = q;
  el_split_shift(shift, &p->lso, &p->rso);
  prepare_split(p);
  prepare_approx(p);
  return kTfLiteOk;
}

static TfLiteFusedActivation activation_of(const TfLiteNode* node, el_f32_op op) {
  if (node->builtin_data == NULL) return kTfLiteActNone;
  switch (op) {
    case EL_F32_ADD:
      return ((const TfLiteAddParams*)node->builtin_data)->activation;
    case EL_F32_SUB:
      return ((const TfLiteSubParams*)node->builtin_data)->activation;
    default:
      return ((const TfLiteMulParams*)node->builtin_data)->activation;
  }
}

/* Whether x's dimensions, leading 1s dropped, are the last dimensions of out (x then repeats
 * along out's leading ones), with out's leading dimensions holding more than one copy. */
static int trailing_shape(const TfLiteTensor* x, const TfLiteTensor* out) {
  const TfLiteIntArray* xd = x->dims;
  const TfLiteIntArray* od = out->dims;
  int first = 0;
  while (first < xd->size && xd->data[first] == 1) ++first;
  const int kept = xd->size - first;
  if (kept == 0 || kept > od->size) return 0;
  for (int i = 0; i < kept; ++i) {
    if (xd->data[first + i] != od->data[od->size - kept + i]) return 0;
  }
  return el_num_elements(x) > 0 && el_num_elements(out) % el_num_elements(x) == 0;
}

static TfLiteStatus opt_binary_prepare(TfLiteContext* ctx, TfLiteNode* node,
                                       const TfLiteRegistration* ref, el_f32_op op) {
  const int is_mul = op == EL_F32_MUL;
  EL_ENSURE_OK(ctx, ref->prepare(ctx, node));
  el_opt_binary* s = (el_opt_binary*)node->user_data;
  s->fast = 0;
  const TfLiteTensor* a = el_optional_input(ctx, node, 0);
  const TfLiteTensor* b = el_optional_input(ctx, node, 1);
  const TfLiteTensor* out = &ctx->tensors[node->outputs->data[0]];
  s->is_float = a->type == kTfLiteFloat32;
  s->is_i16 = a->type == kTfLiteInt16 && !is_mul;
  if (!s->is_float && !s->is_i16 &&
      (op == EL_F32_SUB || (a->type != kTfLiteInt8 && a->type != kTfLiteUInt8))) {
    return kTfLiteOk;
  }
  if (out->type != a->type || b->type != a->type) return kTfLiteOk;
  const int64_t n = el_num_elements(out);
  s->a_step = el_num_elements(a) == n ? 1 : (el_num_elements(a) == 1 ? 0 : -1);
  s->b_step = el_num_elements(b) == n ? 1 : (el_num_elements(b) == 1 ? 0 : -1);
  s->period = 0;
  const int periodic = s->is_i16 || s->is_float;
  if (periodic && s->a_step == 1 && s->b_step < 0 && trailing_shape(b, out)) {
    s->period = (int)el_num_elements(b);
    s->period_is_b = 1;
    s->b_step = 1;
  } else if (periodic && s->b_step == 1 && s->a_step < 0 && trailing_shape(a, out)) {
    s->period = (int)el_num_elements(a);
    s->period_is_b = 0;
    s->a_step = 1;
  }
  const int a_repeats = s->period && !s->period_is_b, b_repeats = s->period && s->period_is_b;
  if (s->a_step < 0 || s->b_step < 0 || (s->a_step == 1 && !a_repeats && !el_same_shape(a, out)) ||
      (s->b_step == 1 && !b_repeats && !el_same_shape(b, out))) {
    return kTfLiteOk;
  }
  s->tile = NULL;
  if (s->is_float) {
    s->fop = op;
    el_activation_range_f32(activation_of(node, op), &s->lo, &s->hi);
    const TfLiteTensor* short_op = s->period_is_b ? b : a;
    if (s->period > 0 && s->period < kChunk && el_is_constant_or_persistent(short_op)) {
      const int64_t reps = kChunk / s->period;
      float* tile = (float*)el_opt_persistent(ctx, (size_t)(reps * s->period) * sizeof(float));
      EL_ENSURE(ctx, tile != NULL);
      for (int64_t r = 0; r < reps; ++r) memcpy(tile + r * s->period, short_op->data.f, (size_t)s->period * sizeof(float));
      s->tile = tile;
      s->tile_len = reps * s->period;
    }
  } else if (s->is_i16) {
    /* The reference prepared the requantization; power-of-two scales keep its own path. */
    const el_add_sub_params* p16 = el_binary_add_sub_params(s->ref.quant);
    if (p16 == NULL || !el_add16_supported(p16)) return kTfLiteOk;
    s->p16 = *p16;
    s->add16 = el_add16_for(el_context_isa(ctx));
  } else {
    EL_ENSURE_OK(ctx, prepare_params(ctx, node, is_mul, a, b, out, &s->p));
  }
  s->k = el_ew_kernels_for(el_context_isa(ctx));
  s->threads = el_cpu_threads(el_context_backend(ctx));
  s->fast = 1;
  return kTfLiteOk;
}

static TfLiteStatus opt_add_prepare(TfLiteContext* ctx, TfLiteNode* node) {
  return opt_binary_prepare(ctx, node, &el_ref_add, EL_F32_ADD);
}

static TfLiteStatus opt_sub_prepare(TfLiteContext* ctx, TfLiteNode* node) {
  return opt_binary_prepare(ctx, node, &el_ref_sub, EL_F32_SUB);
}

static TfLiteStatus opt_mul_prepare(TfLiteContext* ctx, TfLiteNode* node) {
  return opt_binary_prepare(ctx, node, &el_ref_mul, EL_F32_MUL);
}

typedef struct binary_job {
  const el_opt_binary* s;
  const uint8_t* a;
  const uint8_t* b;
  uint8_t* out;
  int64_t n;
  int tasks;
} binary_job;

/* Elements out[o .. o + len) of a float or int16 job from a[ai ..] and b[bi ..] (steps s->a_step,
 * s->b_step; 1 for the repeating operand, read from its tile when it has one). */
static void span(const el_opt_binary* s, const binary_job* j, int64_t ai, int64_t bi, int64_t o, int64_t len) {
  const int as = s->period ? 1 : s->a_step, bs = s->period ? 1 : s->b_step;
  if (s->is_float) {
    const float* a = s->tile != NULL && !s->period_is_b ? s->tile : (const float*)(const void*)j->a;
    const float* b = s->tile != NULL && s->period_is_b ? s->tile : (const float*)(const void*)j->b;
    s->k->f32_binary(s->fop, a + ai, as, b + bi, bs, (float*)(void*)j->out + o, len, s->lo, s->hi);
  } else {
    s->add16(&s->p16, (const int16_t*)(const void*)j->a + ai, as, (const int16_t*)(const void*)j->b + bi, bs,
             (int16_t*)(void*)j->out + o, len);
  }
}

static void binary_task(void* arg, int task, int thread) {
  (void)thread;
  const binary_job* j = (const binary_job*)arg;
  const el_opt_binary* s = j->s;
  const int64_t chunks = (j->n + kChunk - 1) / kChunk;
  const int64_t i0 = chunks * task / j->tasks * kChunk;
  int64_t i1 = chunks * (task + 1) / j->tasks * kChunk;
  if (i1 > j->n) i1 = j->n;
  if (i1 <= i0) return;
  if (s->is_float || s->is_i16) {
    if (s->period == 0) {
      span(s, j, i0 * s->a_step, i0 * s->b_step, i0, i1 - i0);
      return;
    }
    /* Segments that stay within one repetition of the short operand. */
    for (int64_t i = i0; i < i1;) {
      const int64_t at = i % s->period;
      const int64_t room = (s->tile != NULL ? s->tile_len : s->period) - at;
      const int64_t len = i1 - i < room ? i1 - i : room;
      span(s, j, s->period_is_b ? i : at, s->period_is_b ? at : i, i, len);
      i += len;
    }
    return;
  }
  s->k->q8_binary(&s->p, j->a + i0 * s->a_step, s->a_step, j->b + i0 * s->b_step, s->b_step,
                  j->out + i0, i1 - i0);
}

static TfLiteStatus opt_binary_invoke(TfLiteContext* ctx, TfLiteNode* node,
                                      const TfLiteRegistration* ref) {
  const el_opt_binary* s = (const el_opt_binary*)node->user_data;
  if (!s->fast) return ref->invoke(ctx, node);
  binary_job j;
  j.s = s;
  j.a = (const uint8_t*)ctx->tensors[node->inputs->data[0]].data.raw_const;
  j.b = (const uint8_t*)ctx->tensors[node->inputs->data[1]].data.raw_const;
  TfLiteTensor* out = &ctx->tensors[node->outputs->data[0]];
  j.out = (uint8_t*)out->data.raw;
  j.n = el_num_elements(out);
  if (j.n == 0) return kTfLiteOk; /* empty operands may have no buffer at all */
  EL_ENSURE(ctx, j.a != NULL && j.b != NULL && j.out != NULL);
  const el_cpu_backend* b = el_context_backend(ctx);
  int threads = el_cpu_threads(b) < s->threads ? el_cpu_threads(b) : s->threads;
  if (j.n < kMinParallel) threads = 1;
  const int64_t chunks = (j.n + kChunk - 1) / kChunk;
  j.tasks = el_opt_task_count(chunks > 1 << 20 ? 1 << 20 : (int)chunks, threads);
  el_cpu_parallel(b, j.tasks, threads, binary_task, &j);
  return kTfLiteOk;
}

static TfLiteStatus opt_add_invoke(TfLiteContext* ctx, TfLiteNode* node) {
  return opt_binary_invoke(ctx, node, &el_ref_add);
}

static TfLiteStatus opt_sub_invoke(TfLiteContext* ctx, TfLiteNode* node) {
  return opt_binary_invoke(ctx, node, &el_ref_sub);
}

static TfLiteStatus opt_mul_invoke(TfLiteContext* ctx, TfLiteNode* node) {
  return opt_binary_invoke(ctx, node, &el_ref_mul);
}

const TfLiteRegistration el_opt_add =
    EL_REGISTRATION(opt_binary_init, el_kernel_free, opt_add_prepare, opt_add_invoke, EL_OP_ADD);
const TfLiteRegistration el_opt_sub =
    EL_REGISTRATION(opt_binary_init, el_kernel_free, opt_sub_prepare, opt_sub_invoke, EL_OP_SUB);
const TfLiteRegistration el_opt_mul =
    EL_REGISTRATION(opt_binary_init, el_kernel_free, opt_mul_prepare, opt_mul_invoke, EL_OP_MUL);
