/* Optimized float UNIDIRECTIONAL_SEQUENCE_LSTM and LSTM: the gates' weights are packed once, in
 * prepare, into two matrices (input-to-gates and recurrent-to-gates, the gates side by side), so
 * that each step of each batch row is two matrix-vector products into one row of gates (the
 * input half, then the recurrent half added onto it: as much scratch as the reference's gate
 * rows, where the input halves of a whole sequence would take rows times that); the gate
 * activations take the vector logistic and tanh of ew_kernels.h. Each pre-activation is summed
 * in a different order than the reference's (input, then recurrent products, then bias), so
 * outputs agree within float rounding, not bit for bit. Layer normalisation, hybrid (int8
 * weight) and integer models, non-constant weights, and nodes held to the least scratch by an
 * arena limit run the reference kernel. */
#include <math.h>
#include <string.h>

#include "kernels/coverage_ops.h"
#include "kernels/kernel_util.h"
#include "kernels/kernels.h"
#include "kernels/lstm.h"
#include "kernels/optimized/ew_kernels.h"
#include "kernels/optimized/fgemm.h"
#include "kernels/optimized/opt_kernels.h"
#include "kernels/seq_util.h"

typedef struct opt_lstm_state {
  el_lstm_data ref; /* first: the reference kernel runs on the same user_data */
  int fast;
  int gates;    /* 4, or 3 with CIFG (forget, cell, output) */
  int width;    /* gates * n_cell */
  int ld;       /* width rounded up to the GEMM's 16 channels: stride of the gate rows */
  float* w_in;  /* packed [width][n_input] */
  float* w_rec; /* packed [width][n_output] */
  float* bias;  /* ld floats: the gate biases side by side */
  float* w_proj;      /* packed [n_output][n_cell], or NULL */
  float* proj_bias;   /* n_output rounded up to 16 floats (zeros without a projection bias) */
  size_t in_block, rec_block, proj_block;
  size_t cap_in, cap_rec, cap_bias, cap_proj, cap_proj_bias;
  el_opt_scratch scratch; /* ld (one row's gates) + n_cell with a projection */
  const el_fgemm_kernels* fk;
  const el_ew_kernels* ew;
} opt_lstm_state;

static void* opt_lstm_init(TfLiteContext* ctx, const char* buf, size_t len) {
  (void)ctx;
  (void)buf;
  (void)len;
  return el_kernel_alloc(sizeof(opt_lstm_state));
}

/* A persistent buffer of at least `bytes`, reused across prepares when big enough. */
static float* grow(TfLiteContext* ctx, float* have, size_t* cap, size_t bytes) {
  if (have != NULL && *cap >= bytes) return have;
  float* p = (float*)el_opt_persistent(ctx, bytes);
  if (p != NULL) *cap = bytes;
  return p;
}

static int round16(int n) { return (n + EL_FGEMM_NR - 1) / EL_FGEMM_NR * EL_FGEMM_NR; }

/* Packs the gates' [n_cell][k] matrices (operands first..first+3, the input gate's skipped with
 * CIFG) as one [gates * n_cell][k] matrix. */
static TfLiteStatus pack_gates(TfLiteContext* ctx, const opt_lstm_state* s, int first, int k, float* packed) {
  const el_lstm_geometry* g = &s->ref.g;
  const int nc = g->n_cell;
  float* rows = (float*)el_kernel_alloc((size_t)s->width * (size_t)k * sizeof(float));
  EL_ENSURE(ctx, rows != NULL);
  for (int gate = 0; gate < s->gates; ++gate) {
    const TfLiteTensor* w = g->t[first + (4 - s->gates) + gate];
    memcpy(rows + (size_t)gate * nc * k, w->data.f, (size_t)nc * k * sizeof(float));
  }
  el_fgemm_pack(rows, s->width, k, packed);
  el_kernel_free(ctx, rows);
  return kTfLiteOk;
}

static bool fits(const el_lstm_geometry* g) {
  if (g->t[EL_LSTM_INPUT]->type != kTfLiteFloat32 || g->use_layer_norm || g->n_aux_input != 0) return false;
  for (int i = EL_LSTM_W_INPUT_I; i <= EL_LSTM_BIAS_PROJ; ++i) {
    if (g->t[i] != NULL && !el_is_constant_or_persistent(g->t[i])) return false;
  }
  return g->n_input > 0 && g->n_output > 0 && g->n_cell > 0 && g->n_batch > 0 && g->n_time > 0;
}

static TfLiteStatus opt_prepare(TfLiteContext* ctx, TfLiteNode* node, const TfLiteRegistration* ref) {
  EL_ENSURE_OK(ctx, ref->prepare(ctx, node));
  opt_lstm_state* s = (opt_lstm_state*)node->user_data;
  s->fast = 0;
  const el_lstm_geometry* g = &s->ref.g;
  if (s->ref.hybrid != NULL || !fits(g) || el_context_small_scratch(ctx)) return kTfLiteOk;
  const int nc = g->n_cell, ni = g->n_input, no = g->n_output;
  s->gates = g->use_cifg ? 3 : 4;
  s->width = s->gates * nc;
  s->ld = round16(s->width);
  const el_isa isa = el_context_isa(ctx);
  s->fk = el_fgemm_kernels_for(isa);
  s->ew = el_ew_kernels_for(isa);
  const int blocks = s->ld / EL_FGEMM_NR;
  s->in_block = el_fgemm_block_bytes(ni);
  s->rec_block = el_fgemm_block_bytes(no);
  s->w_in = grow(ctx, s->w_in, &s->cap_in, s->in_block * (size_t)blocks);
  s->w_rec = grow(ctx, s->w_rec, &s->cap_rec, s->rec_block * (size_t)blocks);
  s->bias = grow(ctx, s->bias, &s->cap_bias, (size_t)s->ld * sizeof(float));
  EL_ENSURE(ctx, s->w_in != NULL && s->w_rec != NULL && s->bias != NULL);
  EL_ENSURE_OK(ctx, pack_gates(ctx, s, EL_LSTM_W_INPUT_I, ni, s->w_in));
  EL_ENSURE_OK(ctx, pack_gates(ctx, s, EL_LSTM_W_RECUR_I, no, s->w_rec));
  memset(s->bias, 0, (size_t)s->ld * sizeof(float));
  for (int gate = 0; gate < s->gates; ++gate) {
    const TfLiteTensor* b = g->t[EL_LSTM_BIAS_I + (4 - s->gates) + gate];
    memcpy(s->bias + (size_t)gate * nc, b->data.f, (size_t)nc * sizeof(float));
  }
  s->w_proj = NULL;
  if (g->use_projection) {
    const int pb = round16(no) / EL_FGEMM_NR;
    s->proj_block = el_fgemm_block_bytes(nc);
    s->w_proj = grow(ctx, s->w_proj, &s->cap_proj, s->proj_block * (size_t)pb);
    s->proj_bias = grow(ctx, s->proj_bias, &s->cap_proj_bias, (size_t)round16(no) * sizeof(float));
    EL_ENSURE(ctx, s->w_proj != NULL && s->proj_bias != NULL);
    el_fgemm_pack(g->t[EL_LSTM_W_PROJ]->data.f, no, nc, s->w_proj);
    memset(s->proj_bias, 0, (size_t)round16(no) * sizeof(float));
    const TfLiteTensor* pbias = g->t[EL_LSTM_BIAS_PROJ];
    if (pbias != NULL) memcpy(s->proj_bias, pbias->data.f, (size_t)no * sizeof(float));
  }
  /* The reference's gate rows give way to this kernel's own (its last request). */
  el_opt_withdraw_scratch(ctx, s->ref.scratch);
  const size_t floats = (size_t)s->ld + (g->use_projection ? (size_t)round16(nc) : 0);
  EL_ENSURE_OK(ctx, el_opt_request_scratch(ctx, floats * sizeof(float), 1, &s->scratch));
  s->fast = 1;
  return kTfLiteOk;
}

/* out = W x + bias for one row x (k floats) and n outputs, 64 channels per micro-kernel call. */
static void gemv(const el_fgemm_kernels* fk, int k, const float* x, const float* w, size_t block, int n,
                 const float* bias, float lo, float hi, float* out) {
  for (int c = 0; c < n; c += EL_FGEMM_CHUNK) {
    const int m = n - c < EL_FGEMM_CHUNK ? n - c : EL_FGEMM_CHUNK;
    fk->gemv(k, x, (const float*)((const char*)w + (size_t)(c / EL_FGEMM_NR) * block), block, m, bias + c, lo,
             hi, out + c);
  }
}

static void activate(const el_ew_kernels* ew, TfLiteFusedActivation act, float* x, int n) {
  if (act == kTfLiteActTanh) {
    ew->f32_tanh(x, x, n);
  } else if (act == kTfLiteActSigmoid) {
    ew->f32_logistic(x, x, n);
  } else if (act != kTfLiteActNone) {
    for (int k = 0; k < n; ++k) x[k] = el_seq_activate(x[k], act);
  }
}

static float clip(float v, float limit) { return v > limit ? limit : (v < -limit ? -limit : v); }

/* One time step of one batch row: gates = (bias + W_x x) + W_h h, each output summed in k order
 * (the second product starts from the first's row, which the kernels read before they write
 * it), then the cell and output update. hid is NULL without a projection: h takes its values. */
static void step(const opt_lstm_state* s, float* gates, float* hid, const float* x, float* h, float* c, float* out) {
  const el_lstm_geometry* g = &s->ref.g;
  const TfLiteTensor* const* t = g->t;
  const int nc = g->n_cell, no = g->n_output;
  gemv(s->fk, g->n_input, x, s->w_in, s->in_block, s->width, s->bias, -INFINITY, INFINITY, gates);
  gemv(s->fk, no, h, s->w_rec, s->rec_block, s->width, gates, -INFINITY, INFINITY, gates);
  const int cifg = g->use_cifg;
  float* ig = cifg ? NULL : gates;
  float* fg = gates + (size_t)(cifg ? 0 : 1) * nc;
  float* cg = fg + nc;
  float* og = cg + nc;
  if (g->use_peephole) {
    const float* pf = t[EL_LSTM_W_PEEP_F]->data.f;
    for (int k = 0; k < nc; ++k) fg[k] += pf[k] * c[k];
    if (!cifg) {
      const float* pi = t[EL_LSTM_W_PEEP_I]->data.f;
      for (int k = 0; k < nc; ++k) ig[k] += pi[k] * c[k];
    }
  }
  /* Input and forget gates are adjacent: one logistic pass over both. */
  s->ew->f32_logistic(cifg ? fg : ig, cifg ? fg : ig, (int64_t)(cifg ? 1 : 2) * nc);
  activate(s->ew, g->activation, cg, nc);
  for (int k = 0; k < nc; ++k) {
    const float in_gate = cifg ? 1.0f - fg[k] : ig[k];
    const float v = fg[k] * c[k] + in_gate * cg[k];
    c[k] = g->cell_clip > 0.0f ? clip(v, g->cell_clip) : v;
  }
  if (g->use_peephole) {
    const float* po = t[EL_LSTM_W_PEEP_O]->data.f;
    for (int k = 0; k < nc; ++k) og[k] += po[k] * c[k];
  }
  s->ew->f32_logistic(og, og, nc);
  float* v = g->use_projection ? hid : h;
  memcpy(v, c, (size_t)nc * sizeof(float));
  activate(s->ew, g->activation, v, nc);
  for (int k = 0; k < nc; ++k) v[k] *= og[k];
  if (g->use_projection) {
    const float lim = g->proj_clip > 0.0f ? g->proj_clip : INFINITY;
    gemv(s->fk, nc, hid, s->w_proj, s->proj_block, no, s->proj_bias, -lim, lim, h);
  }
  memcpy(out, h, (size_t)no * sizeof(float));
}

static TfLiteStatus opt_invoke(TfLiteContext* ctx, TfLiteNode* node, const TfLiteRegistration* ref) {
  opt_lstm_state* s = (opt_lstm_state*)node->user_data;
  if (!s->fast) return ref->invoke(ctx, node);
  el_lstm_geometry* g = &s->ref.g;
  for (int i = 0; i < EL_LSTM_NUM_OPERANDS; ++i) g->t[i] = el_optional_input(ctx, node, i);
  const float* in = g->t[EL_LSTM_INPUT]->data.f;
  float* out = ctx->tensors[node->outputs->data[0]].data.f;
  float* h = g->t[EL_LSTM_OUTPUT_STATE]->data.f;
  float* c = g->t[EL_LSTM_CELL_STATE]->data.f;
  float* gates = (float*)el_opt_scratch_slice(ctx, &s->scratch, 0);
  EL_ENSURE(ctx, in != NULL && out != NULL && h != NULL && c != NULL && gates != NULL);
  float* hid = g->use_projection ? gates + s->ld : NULL;
  /* The padding channels of the gate row are read as the second product's bias: zeros. */
  memset(gates + s->width, 0, (size_t)(s->ld - s->width) * sizeof(float));
  const int nb = g->n_batch, nt = g->n_time, no = g->n_output, nc = g->n_cell, ni = g->n_input;
  /* Rows are in memory order: time-major row s * nb + b, batch-major b * nt + s. */
  for (int b = 0; b < nb; ++b) {
    for (int ts = 0; ts < nt; ++ts) {
      const size_t row = g->time_major ? (size_t)ts * nb + b : (size_t)b * nt + ts;
      step(s, gates, hid, in + row * ni, h + (size_t)b * no, c + (size_t)b * nc, out + row * no);
    }
  }
  return kTfLiteOk;
}

static TfLiteStatus opt_sequence_prepare(TfLiteContext* ctx, TfLiteNode* node) {
  return opt_prepare(ctx, node, &el_ref_unidirectional_sequence_lstm);
}
static TfLiteStatus opt_sequence_invoke(TfLiteContext* ctx, TfLiteNode* node) {
  return opt_invoke(ctx, node, &el_ref_unidirectional_sequence_lstm);
}
static TfLiteStatus opt_step_prepare(TfLiteContext* ctx, TfLiteNode* node) {
  return opt_prepare(ctx, node, &el_ref_lstm);
}
static TfLiteStatus opt_step_invoke(TfLiteContext* ctx, TfLiteNode* node) {
  return opt_invoke(ctx, node, &el_ref_lstm);
}

const TfLiteRegistration el_opt_unidirectional_sequence_lstm =
    EL_REGISTRATION(opt_lstm_init, el_kernel_free, opt_sequence_prepare, opt_sequence_invoke,
                    EL_OP_UNIDIRECTIONAL_SEQUENCE_LSTM);
const TfLiteRegistration el_opt_lstm =
    EL_REGISTRATION(opt_lstm_init, el_kernel_free, opt_step_prepare, opt_step_invoke, EL_OP_LSTM);
