#include "kernels/elementwise_quant.h"

#include <math.h>
#include <stdbool.h>

#include "edgelite/builtin_op_data.h"
#include "kernels/quant_util.h"

typedef struct el_binary_q {
  el_binary_op op;
  el_bcast plan;
  bool pot_int16; /* ADD/SUB int16 with power-of-two scales: shift-only arithmetic (s1, s2 only) */
  /* Offsets, multipliers, shifts and range; MUL uses the offsets, mo/so and the range. */
  el_add_sub_params p;
} el_binary_q;

/* ADD and SUB share their parameters: TFLite stores them in structs of the same layout. */
static void read_add_sub_params(const TfLiteNode* node, TfLiteFusedActivation* act, bool* pot) {
  const TfLiteAddParams* p = (const TfLiteAddParams*)node->builtin_data;
  *act = p ? p->activation : kTfLiteActNone;
  *pot = p ? p->pot_scale_int16 : false;
}

static TfLiteStatus prepare_add_sub(TfLiteContext* context, TfLiteNode* node, el_binary_op op,
                                    const TfLiteTensor* in1, const TfLiteTensor* in2,
                                    const TfLiteTensor* out, el_binary_q* q) {
  TfLiteFusedActivation act;
  bool pot_param;
  read_add_sub_params(node, &act, &pot_param);
  bool general = true;
  int log1 = 0, log2v = 0, logo = 0;
  if (out->type == kTfLiteInt16) {
    /* int16 quantization is symmetric: LiteRT refuses other zero points for ADD and SUB alike. */
    EL_ENSURE_EQ(context, in1->params.zero_point, 0);
    EL_ENSURE_EQ(context, in2->params.zero_point, 0);
    EL_ENSURE_EQ(context, out->params.zero_point, 0);
    general = !pot_param;
    if (!general) {
      const bool p1 = el_q_checked_log2(in1->params.scale, &log1);
      const bool p2 = el_q_checked_log2(in2->params.scale, &log2v);
      const bool po = el_q_checked_log2(out->params.scale, &logo);
      general = !(p1 && p2 && po);
    }
  }
  q->pot_int16 = !general;
  EL_ENSURE_OK(context, el_q_activation_range(act, out->type, out->params.scale,
                                              out->params.zero_point, &q->p.act_min, &q->p.act_max));
  if (q->pot_int16) {
    EL_ENSURE_EQ(context, in1->params.zero_point, 0);
    EL_ENSURE_EQ(context, in2->params.zero_point, 0);
    EL_ENSURE_EQ(context, out->params.zero_point, 0);
    q->p.s1 = log1 - logo;
    q->p.s2 = log2v - logo;
    EL_ENSURE(context, q->p.s1 == 0 || q->p.s2 == 0);
    EL_ENSURE(context, q->p.s1 <= 0 && q->p.s2 <= 0);
    return kTfLiteOk;
  }
  if (op == EL_BIN_SUB) {
    int32_t lo = 0, hi = 0;
    EL_ENSURE_OK(context, el_q_type_range(out->type, &lo, &hi));
    EL_ENSURE(context, in1->params.zero_point >= lo && in1->params.zero_point <= hi);
    EL_ENSURE(context, in2->params.zero_point >= lo && in2->params.zero_point <= hi);
    EL_ENSURE(context, out->params.zero_point >= lo && out->params.zero_point <= hi);
  }
  q->p.off1 = -in1->params.zero_point;
  q->p.off2 = -in2->params.zero_point;
  q->p.out_off = out->params.zero_point;
  q->p.subtract = op == EL_BIN_SUB;
  q->p.left_shift = out->type == kTfLiteInt16 ? 15 : 20;
  const float max_scale = in1->params.scale > in2->params.scale ? in1->params.scale
                                                                 : in2->params.scale;
  const double twice_max = 2.0 * (double)max_scale;
  const double m1 = (double)in1->params.scale / twice_max;
  const double m2 = (double)in2->params.scale / twice_max;
  const double mo = twice_max / ((double)(1 << q->p.left_shift) * (double)out->params.scale);
  EL_ENSURE_OK(context, el_q_quantize_multiplier_smaller_than_one(m1, &q->p.m1,
                                                                  &q->p.s1));
  EL_ENSURE_OK(context, el_q_quantize_multiplier_smaller_than_one(m2, &q->p.m2,
                                                                  &q->p.s2));
  if (op == EL_BIN_SUB && mo > 1.0) {
    EL_ENSURE_OK(context, el_q_quantize_multiplier_greater_than_one(mo, &q->p.mo,
                                                                    &q->p.so));
  } else {
    EL_ENSURE_OK(context, el_q_quantize_multiplier_smaller_than_one(mo, &q->p.mo,
                                                                    &q->p.so));
  }
  return kTfLiteOk;
}

static TfLiteStatus prepare_mul(TfLiteContext* context, const TfLiteNode* node,
                                const TfLiteTensor* in1, const TfLiteTensor* in2,
                                const TfLiteTensor* out, el_binary_q* q) {
  const TfLiteMulParams* p = (const TfLiteMulParams*)node->builtin_data;
  const TfLiteFusedActivation act = p ? p->activation : kTfLiteActNone;
  EL_ENSURE_OK(context, el_q_activation_range(act, out->type, out->params.scale,
                                              out->params.zero_point, &q->p.act_min, &q->p.act_max));
  EL_ENSURE_TYPES_EQ(context, out->type, in1->type);
  q->p.off1 = -in1->params.zero_point;
  q->p.off2 = -in2->params.zero_point;
  q->p.out_off = out->params.zero_point;
  if (out->type == kTfLiteInt16) {
    EL_ENSURE_EQ(context, q->p.off1, 0);
    EL_ENSURE_EQ(context, q->p.off2, 0);
    EL_ENSURE_EQ(context, q->p.out_off, 0);
  }
  /* The product of the scales is formed in float, as TFLite does. */
  const float real = in1->params.scale * in2->params.scale / out->params.scale;
  el_q_quantize_multiplier((double)real, &q->p.mo, &q->p.so);
  q->pot_int16 = false;
  return kTfLiteOk;
}

TfLiteStatus el_binary_prepare_quant(TfLiteContext* context, TfLiteNode* node, void** state,
                                     el_binary_op op) {
  el_binary_q* q = (el_binary_q*)el_q_state(context, state, sizeof(el_binary_q));
  EL_ENSURE(context, q != NULL);
  EL_ENSURE(context, op == EL_BIN_ADD || op == EL_BIN_SUB || op == EL_BIN_MUL);
  q->op = op;
  EL_ENSURE_OK(context, el_check_io_count(context, node, 2, 1));
  const TfLiteTensor* in1;
  const TfLiteTensor* in2;
  TfLiteTensor* out;
  EL_ENSURE_OK(context, el_get_input(context, node, 0, &in1));
  EL_ENSURE_OK(context, el_get_input(context, node, 1, &in2));
  EL_ENSURE_OK(context, el_get_output(context, node, 0, &out));
  EL_ENSURE_TYPES_EQ(context, in1->type, in2->type);
  EL_ENSURE(context, in1->type == kTfLiteUInt8 || in1->type == kTfLiteInt8 ||
                         in1->type == kTfLiteInt16);
  out->type = in2->type;
  int dims[EL_MAX_DIMS];
  int ndims = 0;
  EL_ENSURE_OK(context, el_bcast_prepare(context, in1, in2, 6, dims, &ndims, &q->plan));
  if (op == EL_BIN_MUL) {
    EL_ENSURE_OK(context, prepare_mul(context, node, in1, in2, out, q));
  } else {
    EL_ENSURE_OK(context, prepare_add_sub(context, node, op, in1, in2, out, q));
  }
  return el_resize(context, out, ndims, dims);
}

/* One element of the general-scale ADD/SUB: both inputs are rescaled to a common scale with
 * 2^left_shift headroom, summed (or subtracted), and rescaled to the output. */
static inline int32_t add_sub_one(const el_binary_q* q, bool subtract, int32_t a, int32_t b) {
  const int32_t sa = (int32_t)(uint32_t)((uint32_t)(q->p.off1 + a) << q->p.left_shift);
  const int32_t sb = (int32_t)(uint32_t)((uint32_t)(q->p.off2 + b) << q->p.left_shift);
  const int32_t ra = el_q_mbqm_smaller_than_one(sa, q->p.m1, q->p.s1);
  const int32_t rb = el_q_mbqm_smaller_than_one(sb, q->p.m2, q->p.s2);
  const int32_t raw = subtract ? el_q_sub_wrap(ra, rb) : el_q_add_wrap(ra, rb);
  const int32_t scaled = q->p.so > 0
                             ? el_q_mbqm(raw, q->p.mo, q->p.so)
                             : el_q_mbqm_smaller_than_one(raw, q->p.mo,
                                                          q->p.so);
  return el_q_clamp(el_q_add_wrap(scaled, q->p.out_off), q->p.act_min, q->p.act_max);
}

static inline int32_t mul_one(const el_binary_q* q, int32_t a, int32_t b) {
  const int32_t prod = (q->p.off1 + a) * (q->p.off2 + b);
  const int32_t scaled = el_q_mbqm(prod, q->p.mo, q->p.so);
  const int32_t v = el_q_add_wrap(scaled, q->p.out_off);
  return el_q_clamp(v, q->p.act_min, q->p.act_max);
}

/* The int16 power-of-two ADD/SUB: the input with the finer scale is shifted right. */
static inline int32_t pot_one(const el_binary_q* q, bool subtract, int16_t a, int16_t b) {
  if (subtract) {
    const int32_t sa = el_q_rdbpot16(a, -q->p.s1);
    const int32_t sb = el_q_rdbpot16(b, -q->p.s2);
    return el_q_clamp(sa - sb, q->p.act_min, q->p.act_max);
  }
  const bool shift_first = q->p.s1 != 0;
  const int16_t keep = shift_first ? b : a;
  const int16_t shifted = el_q_rdbpot16(shift_first ? a : b,
                                        shift_first ? -q->p.s1 : -q->p.s2);
  int32_t sum = (int32_t)keep + (int32_t)shifted;
  sum = el_q_clamp(sum, INT16_MIN, INT16_MAX);
  return el_q_clamp(sum, q->p.act_min, q->p.act_max);
}

#define BINARY_LOOP(T, field, expr)                                       \
  do {                                                                    \
    const T* a_ = in1->data.field;                                        \
    const T* b_ = in2->data.field;                                        \
    T* o_ = out->data.field;                                              \
    EL_BCAST_FOR_EACH(&q->plan, o_[el_oi] = (T)(expr(a_[el_ai], b_[el_bi]))); \
  } while (0)

TfLiteStatus el_binary_invoke_quant(TfLiteContext* context, TfLiteNode* node, const void* state) {
  const el_binary_q* q = (const el_binary_q*)state;
  EL_ENSURE(context, q != NULL);
  const el_binary_op op = q->op;
  const TfLiteTensor* in1;
  const TfLiteTensor* in2;
  TfLiteTensor* out;
  EL_ENSURE_OK(context, el_get_input(context, node, 0, &in1));
  EL_ENSURE_OK(context, el_get_input(context, node, 1, &in2));
  EL_ENSURE_OK(context, el_get_output(context, node, 0, &out));
  const bool sub = op == EL_BIN_SUB;
#define ADD_SUB_EXPR(x, y) add_sub_one(q, sub, (x), (y))
#define MUL_EXPR(x, y) mul_one(q, (x), (y))
#define POT_EXPR(x, y) pot_one(q, sub, (x), (y))
  switch (out->type) {
    case kTfLiteInt8:
      if (op == EL_BIN_MUL) {
        BINARY_LOOP(int8_t, int8, MUL_EXPR);
      } else {
        BINARY_LOOP(int8_t, int8, ADD_SUB_EXPR);
      }
      return kTfLiteOk;
    case kTfLiteUInt8:
      if (op == EL_BIN_MUL) {
        BINARY_LOOP(uint8_t, uint8, MUL_EXPR);
      } else {
        BINARY_LOOP(uint8_t, uint8, ADD_SUB_EXPR);
      }
      return kTfLiteOk;
    case kTfLiteInt16:
      if (op == EL_BIN_MUL) {
        BINARY_LOOP(int16_t, i16, MUL_EXPR);
      } else if (q->pot_int16) {
        BINARY_LOOP(int16_t, i16, POT_EXPR);
      } else {
        BINARY_LOOP(int16_t, i16, ADD_SUB_EXPR);
      }
      return kTfLiteOk;
    default:
      return el_unsupported_type(context, op == EL_BIN_MUL ? "MUL" : (sub ? "SUB" : "ADD"),
                                 out->type);
  }
#undef ADD_SUB_EXPR
#undef MUL_EXPR
#undef POT_EXPR
}

const el_add_sub_params* el_binary_add_sub_params(const void* state) {
  const el_binary_q* q = (const el_binary_q*)state;
  if (q == NULL || q->op == EL_BIN_MUL || q->pot_int16) return NULL;
  return &q->p;
}
