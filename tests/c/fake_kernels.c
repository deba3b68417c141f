/* Stand-in kernels for every builtin op, linked into the core tests instead of the real
 * registry. They keep the model's shapes, write a per-tensor byte pattern into each output and
 * check the pattern of every input some node produced, so two tensors the planner placed on
 * top of each other while both were alive show up as a mismatch. A RESHAPE-like op whose output
 * the planner put on its input's bytes writes nothing, as the real one copies nothing: readers of
 * that output expect its input's pattern. Each node also asks for a scratch buffer and adds one
 * temporary tensor, to exercise those callbacks. */
#include <string.h>

#include "edgelite/common.h"
#include "fake_kernels.h"
#include "kernels/registry.h"

typedef struct fake_state {
  int scratch;
  int temp;
} fake_state;

unsigned char fake_pattern(int tensor_index) { return (unsigned char)((tensor_index * 37 + 11) | 1); }

static void* fake_init(TfLiteContext* ctx, const char* buffer, size_t length) {
  (void)buffer;
  (void)length;
  fake_state* s = ctx->AllocatePersistentBuffer(ctx, sizeof *s);
  if (s != NULL) {
    s->scratch = -1;
    s->temp = -1;
  }
  return s;
}

static TfLiteStatus fake_prepare(TfLiteContext* ctx, TfLiteNode* node) {
  fake_state* s = node->user_data;
  if (s == NULL) return kTfLiteError;
  for (int k = 0; k < node->outputs->size; ++k) {
    int t = node->outputs->data[k];
    if (t < 0) continue;
    TfLiteTensor* out = &ctx->tensors[t];
    if (out->allocation_type != kTfLiteArenaRw) continue;
    if (ctx->ResizeTensor(ctx, out, TfLiteIntArrayCopy(out->dims)) != kTfLiteOk) return kTfLiteError;
  }
  if (s->temp < 0) {
    if (ctx->AddTensors(ctx, 1, &s->temp) != kTfLiteOk) return kTfLiteError;
    TfLiteIntArrayFree(node->temporaries);
    node->temporaries = TfLiteIntArrayCreate(1);
    node->temporaries->data[0] = s->temp;
  }
  TfLiteTensor* temp = &ctx->tensors[s->temp];
  temp->type = kTfLiteFloat32;
  temp->allocation_type = kTfLiteArenaRw;
  TfLiteIntArray* dims = TfLiteIntArrayCreate(1);
  dims->data[0] = 5;
  if (ctx->ResizeTensor(ctx, temp, dims) != kTfLiteOk) return kTfLiteError;
  return ctx->RequestScratchBufferInArena(ctx, 48, &s->scratch);
}

/* The node in the plan that writes tensor t, or NULL. */
static const TfLiteNode* producer(TfLiteContext* ctx, int t, const TfLiteRegistration** reg) {
  TfLiteIntArray* plan = NULL;
  if (ctx->GetExecutionPlan(ctx, &plan) != kTfLiteOk) return NULL;
  for (int i = 0; i < plan->size; ++i) {
    TfLiteNode* n = NULL;
    TfLiteRegistration* r = NULL;
    if (ctx->GetNodeAndRegistration(ctx, plan->data[i], &n, &r) != kTfLiteOk) return NULL;
    for (int k = 0; k < n->outputs->size; ++k) {
      if (n->outputs->data[k] == t) {
        *reg = r;
        return n;
      }
    }
  }
  return NULL;
}

static int produced(TfLiteContext* ctx, int t) {
  const TfLiteRegistration* r = NULL;
  return producer(ctx, t, &r) != NULL;
}

/* RESHAPE, SQUEEZE, EXPAND_DIMS, BITCAST with their output on their input's bytes. */
static int shares_input(const TfLiteContext* ctx, const TfLiteNode* n, const TfLiteRegistration* r) {
  const int32_t code = r->builtin_code;
  if (code != 22 && code != 43 && code != 70 && code != 159) return 0;
  if (n->inputs->size < 1 || n->outputs->size != 1 || n->inputs->data[0] < 0) return 0;
  const TfLiteTensor* in = &ctx->tensors[n->inputs->data[0]];
  const TfLiteTensor* out = &ctx->tensors[n->outputs->data[0]];
  return in->data.raw != NULL && in->data.raw == out->data.raw;
}

/* The tensor whose pattern t holds once its producer ran: t, or the one whose bytes it shares. */
static int pattern_owner(TfLiteContext* ctx, int t) {
  for (int depth = 0; depth < 64; ++depth) {
    const TfLiteRegistration* r = NULL;
    const TfLiteNode* n = producer(ctx, t, &r);
    if (n == NULL || !shares_input(ctx, n, r)) break;
    t = n->inputs->data[0];
  }
  return t;
}

static int has_pattern(const TfLiteTensor* t, unsigned char p) {
  for (size_t i = 0; i < t->bytes; ++i) {
    if ((unsigned char)t->data.raw[i] != p) return 0;
  }
  return 1;
}

static TfLiteStatus fake_invoke(TfLiteContext* ctx, TfLiteNode* node) {
  fake_state* s = node->user_data;
  for (int k = 0; k < node->inputs->size; ++k) {
    int t = node->inputs->data[k];
    if (t < 0) continue;
    const TfLiteTensor* in = &ctx->tensors[t];
    const int owner = pattern_owner(ctx, t);
    if (in->allocation_type != kTfLiteArenaRw || in->data.raw == NULL || !produced(ctx, owner)) continue;
    if (!has_pattern(in, fake_pattern(owner))) {
      ctx->ReportError(ctx, "tensor %d was overwritten while still alive", t);
      return kTfLiteError;
    }
  }
  unsigned char* scratch = ctx->GetScratchBuffer(ctx, s->scratch);
  TfLiteTensor* temp = &ctx->tensors[s->temp];
  if (scratch == NULL || temp->data.raw == NULL || temp->bytes != 20) return kTfLiteError;
  memset(scratch, 0xEE, 48);
  memset(temp->data.raw, 0xDD, temp->bytes);
  const TfLiteRegistration* self = NULL;
  if (node->outputs->size == 1 && producer(ctx, node->outputs->data[0], &self) == node &&
      shares_input(ctx, node, self)) {
    return kTfLiteOk;
  }
  for (int k = 0; k < node->outputs->size; ++k) {
    int t = node->outputs->data[k];
    if (t < 0) continue;
    TfLiteTensor* out = &ctx->tensors[t];
    if (out->data.raw != NULL) memset(out->data.raw, fake_pattern(t), out->bytes);
  }
  return kTfLiteOk;
}

static const TfLiteRegistration kFake = {fake_init, NULL, fake_prepare, fake_invoke, NULL, 0, NULL, 1,
                                         NULL, NULL, 0};

const TfLiteRegistration* fake_registration(void) { return &kFake; }

const TfLiteRegistration* el_kernels_lookup(int32_t builtin_code, int version, el_kernel_tier tier) {
  (void)tier;
  if (builtin_code == 32 || version < 1 || version > FAKE_MAX_VERSION) return NULL;
  return &kFake;
}

int el_kernels_max_version(int32_t builtin_code) { return builtin_code == 32 ? 0 : FAKE_MAX_VERSION; }

/* The stand-in registry has no built-in custom ops: every custom op is the user's or unresolved. */
const TfLiteRegistration* el_kernels_lookup_custom(const char* name, int version, el_kernel_tier tier) {
  (void)name;
  (void)version;
  (void)tier;
  return NULL;
}
