/* UNIDIRECTIONAL_SEQUENCE_LSTM and LSTM (full kernel): float path and the shared checks; the
 * integer path is lstm_int8.c.
 *
 * One step, per batch row: each gate is bias + W_x x + W_h h (+ peephole w_c * c), or, with
 * layer normalisation, normalise(W_x x + W_h h + ...) * coefficients + bias; input/forget/output
 * gates go through a sigmoid, the cell gate through the op's activation. Then
 * c = f * c + i * g (i = 1 - f with CIFG), clipped; h = o * act(c), optionally projected and
 * clipped. The output and cell states are the node's (variable) inputs 18 and 19: they carry
 * across invokes. Batch-major sequences run each batch row through time on its own. Float
 * activations with int8 weights run the hybrid path (lstm_hybrid.c). */
#include <string.h>

#include "kernels/coverage_ops.h"
#include "kernels/kernel_util.h"
#include "kernels/kernels.h"
#include "kernels/lstm.h"
#include "kernels/seq_util.h"


static void* lstm_init(TfLiteContext* ctx, const char* buf, size_t len) {
  (void)ctx;
  (void)buf;
  (void)len;
  return el_kernel_alloc(sizeof(el_lstm_data));
}

static void gather(TfLiteContext* ctx, const TfLiteNode* node, el_lstm_geometry* g) {
  for (int i = 0; i < EL_LSTM_NUM_OPERANDS; ++i) g->t[i] = el_optional_input(ctx, node, i);
}

static TfLiteStatus check_matrix(TfLiteContext* ctx, const TfLiteTensor* t, int rows, int cols) {
  if (t == NULL) return kTfLiteOk;
  EL_ENSURE_EQ(ctx, el_ndims(t), 2);
  EL_ENSURE_EQ(ctx, el_dim(t, 0), rows);
  EL_ENSURE_EQ(ctx, el_dim(t, 1), cols);
  return kTfLiteOk;
}

static TfLiteStatus check_vector(TfLiteContext* ctx, const TfLiteTensor* t, int n) {
  if (t == NULL) return kTfLiteOk;
  EL_ENSURE_EQ(ctx, el_ndims(t), 1);
  EL_ENSURE_EQ(ctx, el_dim(t, 0), n);
  return kTfLiteOk;
}

TfLiteStatus el_lstm_check_geometry(TfLiteContext* ctx, el_lstm_geometry* g) {
  const TfLiteTensor* const* t = g->t;
  for (int i = 0; i < EL_LSTM_NUM_OPERANDS; ++i) {
    const bool optional = i == EL_LSTM_W_INPUT_I || i == EL_LSTM_W_RECUR_I ||
                          (i >= EL_LSTM_W_PEEP_I && i <= EL_LSTM_W_PEEP_O) || i == EL_LSTM_BIAS_I ||
                          i == EL_LSTM_W_PROJ || i == EL_LSTM_BIAS_PROJ || i >= EL_LSTM_NORM_I;
    if (!optional && t[i] == NULL) {
      ctx->ReportError(ctx, "LSTM operand %d is missing.", i);
      return kTfLiteError;
    }
  }
  EL_ENSURE_EQ(ctx, el_ndims(t[EL_LSTM_W_INPUT_O]), 2);
  EL_ENSURE_EQ(ctx, el_ndims(t[EL_LSTM_W_RECUR_O]), 2);
  g->n_cell = el_dim(t[EL_LSTM_W_INPUT_O], 0);
  g->n_output = el_dim(t[EL_LSTM_W_RECUR_O], 1);
  const int n = g->n_cell, ni = g->n_input, no = g->n_output;
  g->use_cifg = t[EL_LSTM_W_INPUT_I] == NULL;
  EL_ENSURE_MSG(ctx, g->use_cifg == (t[EL_LSTM_W_RECUR_I] == NULL),
                "LSTM: input-gate weights must be all present or all absent.");
  for (int i = EL_LSTM_W_INPUT_I; i <= EL_LSTM_W_INPUT_O; ++i) EL_ENSURE_OK(ctx, check_matrix(ctx, t[i], n, ni));
  for (int i = EL_LSTM_W_RECUR_I; i <= EL_LSTM_W_RECUR_O; ++i) EL_ENSURE_OK(ctx, check_matrix(ctx, t[i], n, no));
  g->use_peephole = t[EL_LSTM_W_PEEP_O] != NULL;
  EL_ENSURE_MSG(ctx, (t[EL_LSTM_W_PEEP_F] != NULL) == g->use_peephole &&
                         (g->use_cifg || (t[EL_LSTM_W_PEEP_I] != NULL) == g->use_peephole),
                "LSTM: peephole weights must be all present or all absent.");
  for (int i = EL_LSTM_W_PEEP_I; i <= EL_LSTM_W_PEEP_O; ++i) EL_ENSURE_OK(ctx, check_vector(ctx, t[i], n));
  EL_ENSURE_MSG(ctx, g->use_cifg == (t[EL_LSTM_BIAS_I] == NULL), "LSTM: input gate bias presence must follow CIFG.");
  for (int i = EL_LSTM_BIAS_I; i <= EL_LSTM_BIAS_O; ++i) EL_ENSURE_OK(ctx, check_vector(ctx, t[i], n));
  g->use_projection = t[EL_LSTM_W_PROJ] != NULL;
  EL_ENSURE_OK(ctx, check_matrix(ctx, t[EL_LSTM_W_PROJ], no, n));
  EL_ENSURE_OK(ctx, check_vector(ctx, t[EL_LSTM_BIAS_PROJ], no));
  EL_ENSURE_MSG(ctx, g->use_projection || no == n, "LSTM without projection needs n_output == n_cell.");
  g->use_layer_norm = t[EL_LSTM_NORM_F] != NULL;
  EL_ENSURE_MSG(ctx, (t[EL_LSTM_NORM_C] != NULL) == g->use_layer_norm &&
                         (t[EL_LSTM_NORM_O] != NULL) == g->use_layer_norm &&
                         (g->use_cifg || (t[EL_LSTM_NORM_I] != NULL) == g->use_layer_norm),
                "LSTM: layer-norm coefficients must be all present or all absent.");
  for (int i = EL_LSTM_NORM_I; i <= EL_LSTM_NORM_O; ++i) EL_ENSURE_OK(ctx, check_vector(ctx, t[i], n));
  EL_ENSURE_OK(ctx, check_matrix(ctx, t[EL_LSTM_OUTPUT_STATE], g->n_batch, no));
  EL_ENSURE_OK(ctx, check_matrix(ctx, t[EL_LSTM_CELL_STATE], g->n_batch, n));
  return kTfLiteOk;
}

static TfLiteStatus lstm_prepare_common(TfLiteContext* ctx, TfLiteNode* node, bool sequence) {
  EL_ENSURE_OK(ctx, el_check_user_data(ctx, node));
  el_lstm_data* d = (el_lstm_data*)node->user_data;
  el_lstm_geometry* g = &d->g;
  EL_ENSURE_MSG(ctx, node->builtin_data != NULL, "LSTM has no options.");
  if (sequence) {
    const TfLiteUnidirectionalSequenceLSTMParams* p = node->builtin_data;
    g->activation = p->activation;
    g->cell_clip = p->cell_clip;
    g->proj_clip = p->proj_clip;
    g->time_major = p->time_major;
    d->asymmetric = p->asymmetric_quantize_inputs;
  } else {
    const TfLiteLSTMParams* p = node->builtin_data;
    EL_ENSURE_MSG(ctx, p->kernel_type == kTfLiteLSTMFullKernel, "The basic LSTM kernel type is not supported.");
    g->activation = p->activation;
    g->cell_clip = p->cell_clip;
    g->proj_clip = p->proj_clip;
    g->time_major = true;
    d->asymmetric = p->asymmetric_quantize_inputs;
  }
  EL_ENSURE_MSG(ctx, el_seq_activation_ok(g->activation), "LSTM: unsupported activation.");
  EL_ENSURE(ctx, el_num_inputs(node) == 20 || el_num_inputs(node) == 24);
  EL_ENSURE_EQ(ctx, el_num_outputs(node), 1);
  gather(ctx, node, g);
  const TfLiteTensor* in = g->t[EL_LSTM_INPUT];
  EL_ENSURE(ctx, in != NULL);
  if (sequence) {
    EL_ENSURE_EQ(ctx, el_ndims(in), 3);
    g->n_time = el_dim(in, g->time_major ? 0 : 1);
    g->n_batch = el_dim(in, g->time_major ? 1 : 0);
    g->n_input = el_dim(in, 2);
  } else {
    EL_ENSURE_EQ(ctx, el_ndims(in), 2);
    g->n_time = 1;
    g->n_batch = el_dim(in, 0);
    g->n_input = el_dim(in, 1);
  }
  EL_ENSURE_OK(ctx, el_lstm_check_geometry(ctx, g));
  TfLiteTensor* out;
  EL_ENSURE_OK(ctx, el_get_output(ctx, node, 0, &out));
  EL_ENSURE_TYPES_EQ(ctx, out->type, in->type);
  if (sequence) {
    int dims[3] = {el_dim(in, 0), el_dim(in, 1), g->n_output};
    EL_ENSURE_OK(ctx, el_resize(ctx, out, 3, dims));
  } else {
    int dims[2] = {g->n_batch, g->n_output};
    EL_ENSURE_OK(ctx, el_resize(ctx, out, 2, dims));
  }
  switch (in->type) {
    case kTfLiteFloat32: {
      if (g->t[EL_LSTM_W_INPUT_O]->type == kTfLiteInt8) {
        return el_lstm_hybrid_prepare(ctx, node, g, d->asymmetric, &d->hybrid);
      }
      d->hybrid = NULL;
      for (int i = 1; i < EL_LSTM_NUM_OPERANDS; ++i) {
        if (g->t[i] != NULL && g->t[i]->type != kTfLiteFloat32) {
          ctx->ReportError(ctx, "Float LSTM operand %d is %s, where float (or int8 for hybrid weights) is expected.",
                           i, TfLiteTypeGetName(g->t[i]->type));
          return kTfLiteError;
        }
      }
      const size_t floats = el_lstm_scratch_floats(g, g->time_major ? g->n_batch : 1);
      return ctx->RequestScratchBufferInArena(ctx, floats * sizeof(float), &d->scratch);
    }
    case kTfLiteInt8:
      return el_lstm_int8_prepare(ctx, node, g, &d->q);
    default:
      return el_unsupported_type(ctx, sequence ? "UNIDIRECTIONAL_SEQUENCE_LSTM" : "LSTM", in->type);
  }
}

static const float* fdata(const TfLiteTensor* t) { return t ? t->data.f : NULL; }

/* One gate for `nb` batch rows: pre-activation into `gate`, then its activation. */
static void gate_f32(const el_lstm_geometry* g, int nb, const float* x, const float* aux, const float* h,
                     const float* c, const TfLiteTensor* w_x, const TfLiteTensor* w_aux, const TfLiteTensor* w_h,
                     const TfLiteTensor* w_c, const TfLiteTensor* norm, const TfLiteTensor* bias,
                     TfLiteFusedActivation act, float* gate) {
  const int nc = g->n_cell, ni = g->n_input, no = g->n_output, na = g->n_aux_input;
  const float *wx = fdata(w_x), *wa = fdata(w_aux), *wh = fdata(w_h), *wc = fdata(w_c), *ln = fdata(norm),
              *b = fdata(bias);
  for (int r = 0; r < nb; ++r) {
    float* row = gate + (size_t)r * nc;
    for (int k = 0; k < nc; ++k) {
      float acc = (ln == NULL && b != NULL) ? b[k] : 0.0f;
      acc += el_seq_dot(wx + (size_t)k * ni, x + (size_t)r * ni, ni);
      if (wa != NULL) acc += el_seq_dot(wa + (size_t)k * na, aux + (size_t)r * na, na);
      acc += el_seq_dot(wh + (size_t)k * no, h + (size_t)r * no, no);
      if (wc != NULL) acc += wc[k] * c[(size_t)r * nc + k];
      row[k] = acc;
    }
    if (ln != NULL) {
      float sum = 0.0f;
      for (int k = 0; k < nc; ++k) sum += row[k];
      const float mean = sum / (float)nc;
      float sq = 0.0f;
      for (int k = 0; k < nc; ++k) sq += (row[k] - mean) * (row[k] - mean);
      const float inv = 1.0f / sqrtf(sq / (float)nc + 1e-8f);
      for (int k = 0; k < nc; ++k) row[k] = (row[k] - mean) * inv * ln[k] + (b ? b[k] : 0.0f);
    }
    for (int k = 0; k < nc; ++k) row[k] = el_seq_activate(row[k], act);
  }
}

static float clip(float v, float limit) { return v > limit ? limit : (v < -limit ? -limit : v); }

size_t el_lstm_scratch_floats(const el_lstm_geometry* g, int nb) {
  return (size_t)4 * (size_t)nb * (size_t)g->n_cell;
}

void el_lstm_step_f32(const el_lstm_geometry* g, int nb, const float* x, const float* aux, float* h, float* c,
                      float* out, int out_stride, float* scratch) {
  const TfLiteTensor* const* t = g->t;
  const int nc = g->n_cell, no = g->n_output;
  const size_t n = (size_t)nb * nc;
  float *ig = scratch, *fg = scratch + n, *cg = scratch + 2 * n, *og = scratch + 3 * n;
  float* hid = ig; /* the input gate is dead once the cell is updated */
  if (!g->use_cifg) {
    gate_f32(g, nb, x, aux, h, c, t[EL_LSTM_W_INPUT_I], g->aux_w[0], t[EL_LSTM_W_RECUR_I], t[EL_LSTM_W_PEEP_I],
             t[EL_LSTM_NORM_I], t[EL_LSTM_BIAS_I], kTfLiteActSigmoid, ig);
  }
  gate_f32(g, nb, x, aux, h, c, t[EL_LSTM_W_INPUT_F], g->aux_w[1], t[EL_LSTM_W_RECUR_F], t[EL_LSTM_W_PEEP_F],
           t[EL_LSTM_NORM_F], t[EL_LSTM_BIAS_F], kTfLiteActSigmoid, fg);
  gate_f32(g, nb, x, aux, h, c, t[EL_LSTM_W_INPUT_C], g->aux_w[2], t[EL_LSTM_W_RECUR_C], NULL, t[EL_LSTM_NORM_C],
           t[EL_LSTM_BIAS_C], g->activation, cg);
  for (size_t k = 0; k < n; ++k) {
    const float in_gate = g->use_cifg ? 1.0f - fg[k] : ig[k];
    float v = fg[k] * c[k] + in_gate * cg[k];
    c[k] = g->cell_clip > 0.0f ? clip(v, g->cell_clip) : v;
  }
  /* The output gate's peephole sees the updated cell state. */
  gate_f32(g, nb, x, aux, h, c, t[EL_LSTM_W_INPUT_O], g->aux_w[3], t[EL_LSTM_W_RECUR_O], t[EL_LSTM_W_PEEP_O],
           t[EL_LSTM_NORM_O], t[EL_LSTM_BIAS_O], kTfLiteActSigmoid, og);
  for (size_t k = 0; k < n; ++k) hid[k] = og[k] * el_seq_activate(c[k], g->activation);
  if (g->use_projection) {
    const float* w = t[EL_LSTM_W_PROJ]->data.f;
    const float* b = fdata(t[EL_LSTM_BIAS_PROJ]);
    for (int r = 0; r < nb; ++r) {
      for (int k = 0; k < no; ++k) {
        float v = (b ? b[k] : 0.0f) + el_seq_dot(w + (size_t)k * nc, hid + (size_t)r * nc, nc);
        h[(size_t)r * no + k] = g->proj_clip > 0.0f ? clip(v, g->proj_clip) : v;
      }
    }
  } else {
    memcpy(h, hid, n * sizeof(float));
  }
  for (int r = 0; r < nb; ++r) memcpy(out + (size_t)r * out_stride, h + (size_t)r * no, (size_t)no * sizeof(float));
}

static TfLiteStatus lstm_invoke(TfLiteContext* ctx, TfLiteNode* node) {
  el_lstm_data* d = (el_lstm_data*)node->user_data;
  el_lstm_geometry* g = &d->g;
  gather(ctx, node, g);
  const TfLiteTensor* in = g->t[EL_LSTM_INPUT];
  if (in->type == kTfLiteInt8) return el_lstm_int8_invoke(ctx, node, g, d->q);
  if (d->hybrid != NULL) return el_lstm_hybrid_invoke(ctx, node, g, d->hybrid);
  float* scratch = ctx->GetScratchBuffer(ctx, d->scratch);
  TfLiteTensor* out = &ctx->tensors[node->outputs->data[0]];
  float* h = g->t[EL_LSTM_OUTPUT_STATE]->data.f;
  float* c = g->t[EL_LSTM_CELL_STATE]->data.f;
  const int ni = g->n_input, no = g->n_output, nb = g->n_batch, nt = g->n_time;
  if (g->time_major) {
    for (int s = 0; s < nt; ++s) {
      el_lstm_step_f32(g, nb, in->data.f + (size_t)s * nb * ni, NULL, h, c, out->data.f + (size_t)s * nb * no, no,
                       scratch);
    }
    return kTfLiteOk;
  }
  for (int b = 0; b < nb; ++b) {
    for (int s = 0; s < nt; ++s) {
      const size_t row = (size_t)b * nt + s;
      el_lstm_step_f32(g, 1, in->data.f + row * ni, NULL, h + (size_t)b * no, c + (size_t)b * g->n_cell,
                       out->data.f + row * no, no, scratch);
    }
  }
  return kTfLiteOk;
}

static TfLiteStatus sequence_prepare(TfLiteContext* ctx, TfLiteNode* node) {
  return lstm_prepare_common(ctx, node, true);
}

static TfLiteStatus single_step_prepare(TfLiteContext* ctx, TfLiteNode* node) {
  return lstm_prepare_common(ctx, node, false);
}

const TfLiteRegistration el_ref_unidirectional_sequence_lstm = EL_REGISTRATION(
    lstm_init, el_kernel_free, sequence_prepare, lstm_invoke, EL_OP_UNIDIRECTIONAL_SEQUENCE_LSTM);
const TfLiteRegistration el_ref_lstm =
    EL_REGISTRATION(lstm_init, el_kernel_free, single_step_prepare, lstm_invoke, EL_OP_LSTM);
