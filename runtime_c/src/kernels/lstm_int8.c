/* TFLite's integer LSTM ("8x8_16"): int8 input, weights and output state, int32 biases, int16
 * cell state (a power-of-two scale), int16 peephole and layer-norm weights, and five
 * intermediate tensors whose quantization fixes the gate scales (Q3.12 without layer norm) and
 * the hidden state's.
 *
 * Per gate: W_x (x - zp_x) and W_h (h - zp_h) are each requantized to the gate scale and
 * accumulated with int16 saturation (zero points and biases are folded into per-row effective
 * biases at prepare); the peephole adds w_c * c requantized; layer norm (optional) normalises
 * in integer arithmetic; then gemmlowp's 16-bit fixed-point sigmoid (Q3.12 input) or tanh.
 * c = (f * c) >> 15 + (i * g) >> (30 + cell_shift), saturated and clipped; the hidden value
 * o * tanh(c) is requantized to int8, and projected when there are projection weights. These are
 * the rounding steps of TFLite's lstm_eval.cc (LstmStepInteger8x8_16) and tensor_utils.
 * Layer norm and projection need whole gate / hidden rows: four gate rows of arena scratch.
 * Without them the gates are computed a block of cells at a time on the stack (no scratch). */
#include <math.h>
#include <string.h>

#include "kernels/cov_util.h"
#include "kernels/fixedpoint16.h"
#include "kernels/kernel_util.h"
#include "kernels/lstm.h"
#include "kernels/quant_util.h"

enum { GATE_I = 0, GATE_F = 1, GATE_C = 2, GATE_O = 3 };

struct el_lstm_int8 {
  int32_t* bias_x[4]; /* per gate: input bias + W_x row sums times -zp_x (n_cell each) */
  int32_t* bias_h[4]; /* per gate: W_h row sums times -zp_h */
  int32_t* bias_proj; /* projection bias - W_proj row sums times hidden_zp (n_output) */
  int capacity[9];
  int32_t x_a[4], h_a[4], c_a[4], ln_a[4], ln_guard[4];
  int x_b[4], h_b[4], c_b[4], ln_b[4];
  int32_t hidden_a, proj_a;
  int hidden_b, proj_b;
  int32_t hidden_zp, output_state_zp;
  int cell_shift; /* log2 of the cell state scale */
  int16_t cell_clip;
  int8_t proj_clip;
  int scratch;
};

static const int kInputW[4] = {EL_LSTM_W_INPUT_I, EL_LSTM_W_INPUT_F, EL_LSTM_W_INPUT_C, EL_LSTM_W_INPUT_O};
static const int kRecurW[4] = {EL_LSTM_W_RECUR_I, EL_LSTM_W_RECUR_F, EL_LSTM_W_RECUR_C, EL_LSTM_W_RECUR_O};
static const int kPeepW[4] = {EL_LSTM_W_PEEP_I, EL_LSTM_W_PEEP_F, -1, EL_LSTM_W_PEEP_O};
static const int kBias[4] = {EL_LSTM_BIAS_I, EL_LSTM_BIAS_F, EL_LSTM_BIAS_C, EL_LSTM_BIAS_O};
static const int kNorm[4] = {EL_LSTM_NORM_I, EL_LSTM_NORM_F, EL_LSTM_NORM_C, EL_LSTM_NORM_O};

static TfLiteStatus expect_type(TfLiteContext* ctx, const TfLiteTensor* t, TfLiteType type, int index) {
  if (t == NULL || t->type == type) return kTfLiteOk;
  ctx->ReportError(ctx, "Integer LSTM operand %d must be %s, not %s.", index, TfLiteTypeGetName(type),
                   TfLiteTypeGetName(t->type));
  return kTfLiteError;
}

static TfLiteStatus intermediate_params(TfLiteContext* ctx, const TfLiteNode* node, int i, float* scale,
                                        int32_t* zp) {
  const int idx = node->intermediates->data[i];
  EL_ENSURE(ctx, idx >= 0 && (size_t)idx < ctx->tensors_size);
  const TfLiteAffineQuantization* q = el_q_affine(&ctx->tensors[idx]);
  EL_ENSURE_MSG(ctx, q != NULL && q->scale->size >= 1 && q->zero_point->size >= 1,
                "Integer LSTM intermediates need quantization parameters.");
  *scale = q->scale->data[0];
  *zp = q->zero_point->data[0];
  return kTfLiteOk;
}

/* bias[r] (or 0) + zero_point * sum of row r of the int8 matrix. */
static TfLiteStatus effective_bias(TfLiteContext* ctx, const TfLiteTensor* w, const TfLiteTensor* bias,
                                   int32_t zero_point, int* capacity, int32_t** out) {
  if (w == NULL) return kTfLiteOk;
  const int rows = el_dim(w, 0), cols = el_dim(w, 1);
  EL_ENSURE_OK(ctx, el_q_channel_buffer(ctx, rows, sizeof(int32_t), capacity, (void**)out));
  for (int r = 0; r < rows; ++r) {
    int32_t sum = 0;
    for (int k = 0; k < cols; ++k) sum += w->data.int8[(size_t)r * cols + k];
    (*out)[r] = el_cov_add32(bias ? bias->data.i32[r] : 0, el_cov_mul32(sum, zero_point));
  }
  return kTfLiteOk;
}

static void split(double m, int32_t* a, int* b) { el_q_quantize_multiplier(m, a, b); }

TfLiteStatus el_lstm_int8_prepare(TfLiteContext* ctx, TfLiteNode* node, const el_lstm_geometry* g,
                                  el_lstm_int8** state) {
  const TfLiteTensor* const* t = g->t;
  for (int i = 1; i < EL_LSTM_NUM_OPERANDS; ++i) {
    TfLiteType want = kTfLiteInt8;
    if ((i >= EL_LSTM_BIAS_I && i <= EL_LSTM_BIAS_O) || i == EL_LSTM_BIAS_PROJ) want = kTfLiteInt32;
    if ((i >= EL_LSTM_W_PEEP_I && i <= EL_LSTM_W_PEEP_O) || i >= EL_LSTM_NORM_I || i == EL_LSTM_CELL_STATE) {
      want = kTfLiteInt16;
    }
    EL_ENSURE_OK(ctx, expect_type(ctx, t[i], want, i));
    /* Zero points and biases are folded into the weights' row sums once, here. */
    const bool folded = (i >= EL_LSTM_W_INPUT_I && i <= EL_LSTM_BIAS_PROJ);
    EL_ENSURE_MSG(ctx, t[i] == NULL || !folded || el_is_constant_or_persistent(t[i]),
                  "Integer LSTM weights and biases must be constant tensors.");
  }
  EL_ENSURE_MSG(ctx, node->intermediates != NULL && node->intermediates->size == 5,
                "Integer LSTM needs its five intermediate tensors (the 8x8->16 form).");
  el_lstm_int8* q = el_q_state(ctx, (void**)state, sizeof(el_lstm_int8));
  EL_ENSURE_MSG(ctx, q != NULL, "Out of memory preparing the integer LSTM.");

  const TfLiteTensor* in = t[EL_LSTM_INPUT];
  const TfLiteTensor* hs = t[EL_LSTM_OUTPUT_STATE];
  const TfLiteTensor* cs = t[EL_LSTM_CELL_STATE];
  EL_ENSURE_MSG(ctx, el_q_checked_log2(el_q_scale(cs), &q->cell_shift),
                "Integer LSTM needs a power-of-two cell state scale.");
  /* tanh(c) takes 15 + cell_shift integer bits, which must be in [0, 6] (TFLite's fixed-point tanh has
   * no other forms: below 2^-15 its kernel leaves tanh(c) unwritten). */
  if (q->cell_shift > -9 || q->cell_shift < -15) {
    ctx->ReportError(ctx, "Integer LSTM cell state scale 2^%d is outside 2^-15..2^-9 (a power-of-two range "
                     "of 1..64).", q->cell_shift);
    return kTfLiteError;
  }
  const float in_scale = el_q_scale(in), hs_scale = el_q_scale(hs);
  float inter_scale[5];
  int32_t inter_zp[5];
  for (int i = 0; i < 5; ++i) {
    if (i < 4 && !g->use_layer_norm) {
      inter_scale[i] = 1.0f / 4096.0f; /* Q3.12 gates */
      inter_zp[i] = 0;
    } else {
      EL_ENSURE_OK(ctx, intermediate_params(ctx, node, i, &inter_scale[i], &inter_zp[i]));
    }
  }
  const double cell_pot = ldexp(1.0, q->cell_shift);
  for (int gi = 0; gi < 4; ++gi) {
    if (gi == GATE_I && g->use_cifg) continue;
    const float wx = el_q_scale(t[kInputW[gi]]) * in_scale / inter_scale[gi];
    const float wh = el_q_scale(t[kRecurW[gi]]) * hs_scale / inter_scale[gi];
    split((double)wx, &q->x_a[gi], &q->x_b[gi]);
    split((double)wh, &q->h_a[gi], &q->h_b[gi]);
    if (g->use_peephole && kPeepW[gi] >= 0) {
      const float wc = (float)(cell_pot * el_q_scale(t[kPeepW[gi]]) / inter_scale[gi]);
      split((double)wc, &q->c_a[gi], &q->c_b[gi]);
    }
    if (g->use_layer_norm) {
      const float ln_scale = el_q_scale(t[kNorm[gi]]);
      split((double)ln_scale, &q->ln_a[gi], &q->ln_b[gi]);
      const int32_t guard = (int32_t)(10000 * ln_scale);
      q->ln_guard[gi] = guard > 1 ? guard : 1;
    }
    /* With layer norm the gate bias is added after normalisation, not folded in here. */
    const TfLiteTensor* bias = g->use_layer_norm ? NULL : t[kBias[gi]];
    EL_ENSURE_OK(ctx, effective_bias(ctx, t[kInputW[gi]], bias, -el_q_zero_point(in), &q->capacity[gi], &q->bias_x[gi]));
    EL_ENSURE_OK(ctx, effective_bias(ctx, t[kRecurW[gi]], NULL, -el_q_zero_point(hs), &q->capacity[4 + gi],
                                     &q->bias_h[gi]));
  }
  const float hidden = (float)(ldexp(1.0, -15) / inter_scale[4] * ldexp(1.0, -15));
  split((double)hidden, &q->hidden_a, &q->hidden_b);
  /* With a projection, TFLite's kernel quantizes the hidden value with the intermediate's zero point
   * negated, and folds that negated zero point out of the projection consistently (only where the
   * hidden value saturates does it show); the reference kernels are what models are checked against. */
  q->hidden_zp = g->use_projection ? -inter_zp[4] : inter_zp[4];
  q->output_state_zp = el_q_zero_point(hs);
  if (g->use_projection) {
    const float proj = el_q_scale(t[EL_LSTM_W_PROJ]) * inter_scale[4] / hs_scale;
    split((double)proj, &q->proj_a, &q->proj_b);
    EL_ENSURE_OK(ctx, effective_bias(ctx, t[EL_LSTM_W_PROJ], t[EL_LSTM_BIAS_PROJ], -q->hidden_zp,
                                     &q->capacity[8], &q->bias_proj));
  }
  q->cell_clip = 0;
  if (g->cell_clip > 0.0f) {
    q->cell_clip = (int16_t)fminf(fmaxf(g->cell_clip / el_q_scale(cs), -32768.0f), 32767.0f);
  }
  q->proj_clip = 0;
  if (g->proj_clip > 0.0f) {
    q->proj_clip = (int8_t)fminf(fmaxf(g->proj_clip / hs_scale, -128.0f), 127.0f);
  }
  q->scratch = -1;
  /* Without layer norm (statistics over a whole gate row) or a projection (a product over the
   * whole hidden row), each cell's gates depend on that cell alone: they are computed one cell at
   * a time in registers and no scratch is needed. */
  if (!g->use_layer_norm && !g->use_projection) return kTfLiteOk;
  const size_t n = (size_t)(g->time_major ? g->n_batch : 1) * (size_t)g->n_cell;
  /* Four gate rows; the cell's tanh and the hidden row reuse two of them once the cell is updated. */
  return ctx->RequestScratchBufferInArena(ctx, n * 4 * sizeof(int16_t), &q->scratch);
}

/* gate + requantize(bias + W_row v), saturated to int16. */
static int16_t add_product(int16_t gate, int32_t bias, const int8_t* v, const int8_t* row, int n, int32_t a, int b) {
  int32_t acc = bias;
  for (int j = 0; j < n; ++j) acc = el_cov_add32(acc, (int32_t)v[j] * row[j]);
  return (int16_t)el_q_clamp(el_cov_add32(el_q_mbqm(acc, a, b), gate), INT16_MIN, INT16_MAX);
}

/* gate += requantize(bias + W v) for each of nb rows, saturating to int16. */
static void matvec_acc(const int8_t* v, const int32_t* bias, const int8_t* w, int32_t a, int b, int nb, int n_in,
                       int n_out, int16_t* gate) {
  for (int r = 0; r < nb; ++r) {
    for (int k = 0; k < n_out; ++k) {
      int16_t* out = &gate[(size_t)r * n_out + k];
      *out = add_product(*out, bias[k], v + (size_t)r * n_in, w + (size_t)k * n_in, n_in, a, b);
    }
  }
}

/* gate + requantize(w * c), the peephole term. */
static inline int16_t add_peephole(int16_t gate, int16_t w, int16_t c, int32_t a, int b) {
  return (int16_t)el_q_clamp(el_q_mbqm((int32_t)w * c, a, b) + gate, INT16_MIN, INT16_MAX);
}

/* The gate's activation: tanh for the cell gate, the logistic otherwise (Q3.12 in, Q0.15 out). */
static inline int16_t activate(int gi, int16_t v) { return gi == GATE_C ? el_fp16_tanh(v, 3) : el_fp16_logistic(v, 3); }

/* c = (f * c) >> 15 + (i * g) >> (30 + cell_shift), saturated, then clipped. */
static inline int16_t cell_update(const el_lstm_int8* q, int16_t in_gate, int16_t forget, int16_t cell_gate, int16_t c) {
  const int16_t kept = (int16_t)el_q_rdbpot((int32_t)forget * c, 15);
  const int16_t added = (int16_t)el_q_rdbpot((int32_t)in_gate * cell_gate, 30 + q->cell_shift);
  int16_t v = (int16_t)el_q_clamp((int32_t)kept + added, INT16_MIN, INT16_MAX);
  if (q->cell_clip > 0) v = v > q->cell_clip ? q->cell_clip : (v < -q->cell_clip ? (int16_t)-q->cell_clip : v);
  return v;
}

/* The int8 hidden value o * tanh(c) requantized, from tanh(c) already computed. */
static inline int8_t hidden_value(const el_lstm_int8* q, int16_t out_gate, int16_t tanh_c) {
  const int32_t scaled = el_q_mbqm((int32_t)out_gate * tanh_c, q->hidden_a, q->hidden_b);
  return (int8_t)el_q_clamp(el_cov_add32(scaled, q->hidden_zp), -128, 127);
}

static void layer_norm(int16_t* gate, const int16_t* weights, const int32_t* bias, int32_t a, int b, int32_t guard,
                       int nb, int n) {
  for (int r = 0; r < nb; ++r) {
    int16_t* row = gate + (size_t)r * n;
    int64_t sum = 0, sum_sq = 0;
    for (int k = 0; k < n; ++k) {
      sum += row[k];
      sum_sq += (int64_t)row[k] * row[k];
    }
    const int32_t mean = (int32_t)(sum * 1024 / n);
    const int32_t temp = (1 << 20) / n;
    const int64_t variance = sum_sq * temp - (int64_t)mean * mean;
    int32_t variance2 = (int32_t)(variance / (1 << 20));
    if (variance2 < 1) variance2 = guard;
    int32_t inv_a;
    int inv_b;
    el_q_inv_sqrt_multiplier(variance2, -1, &inv_a, &inv_b);
    for (int k = 0; k < n; ++k) {
      const int32_t shifted = 1024 * row[k] - mean;
      const int32_t rescaled = el_q_mbqm(shifted, inv_a, inv_b);
      const int64_t v3 = (int64_t)rescaled * weights[k] + (bias ? bias[k] : 0);
      const int32_t v4 = (int32_t)((v3 > 0 ? v3 + 512 : v3 - 512) / 1024);
      row[k] = (int16_t)el_q_clamp(el_q_mbqm(v4, a, b + 12), INT16_MIN, INT16_MAX);
    }
  }
}

static void compute_gate(const el_lstm_geometry* g, const el_lstm_int8* q, int gi, int nb, const int8_t* x,
                         const int8_t* h, const int16_t* c, int16_t* gate) {
  const TfLiteTensor* const* t = g->t;
  const int nc = g->n_cell;
  const size_t n = (size_t)nb * nc;
  memset(gate, 0, n * sizeof(int16_t));
  matvec_acc(x, q->bias_x[gi], t[kInputW[gi]]->data.int8, q->x_a[gi], q->x_b[gi], nb, g->n_input, nc, gate);
  matvec_acc(h, q->bias_h[gi], t[kRecurW[gi]]->data.int8, q->h_a[gi], q->h_b[gi], nb, g->n_output, nc, gate);
  if (g->use_peephole && kPeepW[gi] >= 0) {
    /* TFLite's integer kernel walks the peephole product with the output size as the vector length:
     * with a projection (n_output < n_cell) only the first n_output * nb entries get a peephole term,
     * taken as consecutive runs of n_output. Equal to the plain diagonal product when there is none. */
    const int16_t* w = t[kPeepW[gi]]->data.i16;
    const int no = g->n_output;
    for (size_t k = 0; k < (size_t)nb * no; ++k) gate[k] = add_peephole(gate[k], w[k % no], c[k], q->c_a[gi], q->c_b[gi]);
  }
  if (g->use_layer_norm) {
    const TfLiteTensor* bias = t[kBias[gi]];
    layer_norm(gate, t[kNorm[gi]]->data.i16, bias ? bias->data.i32 : NULL, q->ln_a[gi], q->ln_b[gi],
               q->ln_guard[gi], nb, nc);
  }
  for (size_t k = 0; k < n; ++k) gate[k] = activate(gi, gate[k]);
}

static void step_int8(const el_lstm_geometry* g, const el_lstm_int8* q, int nb, const int8_t* x, int8_t* h,
                      int16_t* c, int8_t* out, int16_t* scratch) {
  const int nc = g->n_cell, no = g->n_output;
  const size_t n = (size_t)nb * nc;
  int16_t *ig = scratch, *fg = scratch + n, *cg = scratch + 2 * n, *og = scratch + 3 * n;
  /* After the cell update the input and cell gates are dead: tanh(c) and the hidden row go there. */
  int16_t* tc = ig;
  int8_t* hidden = (int8_t*)cg;
  if (!g->use_cifg) compute_gate(g, q, GATE_I, nb, x, h, c, ig);
  compute_gate(g, q, GATE_F, nb, x, h, c, fg);
  compute_gate(g, q, GATE_C, nb, x, h, c, cg);
  for (size_t k = 0; k < n; ++k) c[k] = cell_update(q, g->use_cifg ? (int16_t)(32767 - fg[k]) : ig[k], fg[k], cg[k], c[k]);
  compute_gate(g, q, GATE_O, nb, x, h, c, og);
  for (size_t k = 0; k < n; ++k) tc[k] = el_fp16_tanh(c[k], 15 + q->cell_shift);
  for (size_t k = 0; k < n; ++k) hidden[k] = hidden_value(q, og[k], tc[k]);
  if (g->use_projection) {
    const int8_t* w = g->t[EL_LSTM_W_PROJ]->data.int8;
    for (int r = 0; r < nb; ++r) {
      for (int k = 0; k < no; ++k) {
        int32_t acc = q->bias_proj[k];
        for (int j = 0; j < nc; ++j) acc = el_cov_add32(acc, (int32_t)hidden[(size_t)r * nc + j] * w[(size_t)k * nc + j]);
        const int32_t scaled = el_q_mbqm(acc, q->proj_a, q->proj_b);
        int32_t v = el_q_clamp(el_cov_add32(scaled, q->output_state_zp), -128, 127);
        if (q->proj_clip > 0) v = el_q_clamp(v, -q->proj_clip, q->proj_clip);
        h[(size_t)r * no + k] = (int8_t)v;
      }
    }
  } else {
    memcpy(h, hidden, n);
  }
  memcpy(out, h, (size_t)nb * no);
}

enum { kUnitBlock = 16 };

/* One gate's pre-activations for cells k0 .. k0 + n of one batch row: the input and recurrent
 * products, then the peephole on c (the cells' current values). */
static void block_gate(const el_lstm_geometry* g, const el_lstm_int8* q, int gi, int k0, int n, const int8_t* x,
                       const int8_t* h, const int16_t* c, int16_t* gate) {
  const TfLiteTensor* const* t = g->t;
  const int ni = g->n_input, no = g->n_output;
  memset(gate, 0, (size_t)n * sizeof(int16_t));
  matvec_acc(x, q->bias_x[gi] + k0, t[kInputW[gi]]->data.int8 + (size_t)k0 * ni, q->x_a[gi], q->x_b[gi], 1, ni, n, gate);
  matvec_acc(h, q->bias_h[gi] + k0, t[kRecurW[gi]]->data.int8 + (size_t)k0 * no, q->h_a[gi], q->h_b[gi], 1, no, n, gate);
  if (g->use_peephole && kPeepW[gi] >= 0) {
    const int16_t* w = t[kPeepW[gi]]->data.i16 + k0;
    for (int k = 0; k < n; ++k) gate[k] = add_peephole(gate[k], w[k], c[k0 + k], q->c_a[gi], q->c_b[gi]);
  }
  for (int k = 0; k < n; ++k) gate[k] = activate(gi, gate[k]);
}

/* step_int8 without layer norm or projection, where each cell's gates depend on that cell
 * alone: a block of cells at a time with its gates on the stack, the new hidden row written to
 * the output while the state still holds the previous one, then copied over it. The same
 * arithmetic, so the same bits, with no gate rows in the arena. */
static void step_int8_units(const el_lstm_geometry* g, const el_lstm_int8* q, int nb, const int8_t* x, int8_t* h,
                            int16_t* c, int8_t* out) {
  const int nc = g->n_cell, ni = g->n_input;
  int16_t ig[kUnitBlock], fg[kUnitBlock], cg[kUnitBlock], og[kUnitBlock];
  for (int r = 0; r < nb; ++r) {
    const int8_t* xr = x + (size_t)r * ni;
    const int8_t* hr = h + (size_t)r * nc;
    int16_t* cr = c + (size_t)r * nc;
    for (int k0 = 0; k0 < nc; k0 += kUnitBlock) {
      const int n = nc - k0 < kUnitBlock ? nc - k0 : kUnitBlock;
      if (!g->use_cifg) block_gate(g, q, GATE_I, k0, n, xr, hr, cr, ig);
      block_gate(g, q, GATE_F, k0, n, xr, hr, cr, fg);
      block_gate(g, q, GATE_C, k0, n, xr, hr, cr, cg);
      for (int k = 0; k < n; ++k) {
        cr[k0 + k] = cell_update(q, g->use_cifg ? (int16_t)(32767 - fg[k]) : ig[k], fg[k], cg[k], cr[k0 + k]);
      }
      block_gate(g, q, GATE_O, k0, n, xr, hr, cr, og);
      for (int k = 0; k < n; ++k) {
        out[(size_t)r * nc + k0 + k] = hidden_value(q, og[k], el_fp16_tanh(cr[k0 + k], 15 + q->cell_shift));
      }
    }
  }
  memcpy(h, out, (size_t)nb * nc);
}

static void step(const el_lstm_geometry* g, const el_lstm_int8* q, int nb, const int8_t* x, int8_t* h, int16_t* c,
                 int8_t* out, int16_t* scratch) {
  if (scratch == NULL) {
    step_int8_units(g, q, nb, x, h, c, out);
  } else {
    step_int8(g, q, nb, x, h, c, out, scratch);
  }
}

TfLiteStatus el_lstm_int8_invoke(TfLiteContext* ctx, TfLiteNode* node, const el_lstm_geometry* g,
                                 const el_lstm_int8* q) {
  int16_t* scratch = q->scratch >= 0 ? ctx->GetScratchBuffer(ctx, q->scratch) : NULL;
  const int8_t* in = g->t[EL_LSTM_INPUT]->data.int8;
  int8_t* out = ctx->tensors[node->outputs->data[0]].data.int8;
  int8_t* h = g->t[EL_LSTM_OUTPUT_STATE]->data.int8;
  int16_t* c = g->t[EL_LSTM_CELL_STATE]->data.i16;
  const int ni = g->n_input, no = g->n_output, nb = g->n_batch, nt = g->n_time;
  if (g->time_major) {
    for (int s = 0; s < nt; ++s) {
      step(g, q, nb, in + (size_t)s * nb * ni, h, c, out + (size_t)s * nb * no, scratch);
    }
    return kTfLiteOk;
  }
  for (int b = 0; b < nb; ++b) {
    for (int s = 0; s < nt; ++s) {
      const size_t row = (size_t)b * nt + s;
      step(g, q, 1, in + row * ni, h + (size_t)b * no, c + (size_t)b * g->n_cell, out + row * no, scratch);
    }
  }
  return kTfLiteOk;
}
