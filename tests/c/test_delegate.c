/* Delegates on the stand-in kernels: a delegate that claims every FULLY_CONNECTED and
 * CONV_2D node, with the sequencing libedgetpu relies on (kernel init sees the original nodes,
 * external context round trip, registration by value), and failing delegates (Prepare fails, or
 * a kernel's init returns TfLiteKernelInitFailed()) whose changes are rolled back. */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "edgelite/edgelite.h"
#include "fake_kernels.h"

typedef struct probe {
  TfLiteDelegate base;
  TfLiteExternalContext ext;
  int inits;
  int init_saw_original;
  int prepares_saw_context;
  int frees;
  int fail;
  int fail_init;
  int previewed_partitions;
  int previewed_nodes;
  TfLiteContext* main_ctx; /* previews are recorded for the main subgraph only */
} probe;

static void* dk_init(TfLiteContext* ctx, const char* buffer, size_t length) {
  const TfLiteDelegateParams* p = (const TfLiteDelegateParams*)buffer;
  probe* pr = (probe*)p->delegate;
  pr->inits++;
  TfLiteNode* node = NULL;
  TfLiteRegistration* reg = NULL;
  if (length == 0 && p->nodes_to_replace->size >= 1 &&
      ctx->GetNodeAndRegistration(ctx, p->nodes_to_replace->data[0], &node, &reg) == kTfLiteOk &&
      (reg->builtin_code == 9 || reg->builtin_code == 3)) {
    pr->init_saw_original++;
  }
  return pr->fail_init ? TfLiteKernelInitFailed() : pr;
}

static void dk_free(TfLiteContext* ctx, void* data) {
  (void)ctx;
  ((probe*)data)->frees++;
}

static TfLiteStatus dk_prepare(TfLiteContext* ctx, TfLiteNode* node) {
  probe* pr = node->user_data;
  if (ctx->GetExternalContext(ctx, kTfLiteEdgeTpuContext) == &pr->ext) pr->prepares_saw_context++;
  for (int k = 0; k < node->outputs->size; ++k) {
    TfLiteTensor* t = &ctx->tensors[node->outputs->data[k]];
    if (ctx->ResizeTensor(ctx, t, TfLiteIntArrayCopy(t->dims)) != kTfLiteOk) return kTfLiteError;
  }
  return kTfLiteOk;
}

static TfLiteStatus dk_invoke(TfLiteContext* ctx, TfLiteNode* node) {
  for (int k = 0; k < node->outputs->size; ++k) {
    int t = node->outputs->data[k];
    memset(ctx->tensors[t].data.raw, fake_pattern(t), ctx->tensors[t].bytes);
  }
  return kTfLiteOk;
}

static TfLiteStatus probe_prepare(TfLiteContext* ctx, TfLiteDelegate* d) {
  probe* pr = (probe*)d;
  ctx->SetExternalContext(ctx, kTfLiteEdgeTpuContext, &pr->ext);
  TfLiteIntArray* plan = NULL;
  if (ctx->GetExecutionPlan(ctx, &plan) != kTfLiteOk) return kTfLiteError;
  TfLiteIntArray* claim = TfLiteIntArrayCreate(plan->size);
  claim->size = 0;
  for (int i = 0; i < plan->size; ++i) {
    TfLiteNode* n;
    TfLiteRegistration* r;
    ctx->GetNodeAndRegistration(ctx, plan->data[i], &n, &r);
    if (r->builtin_code == 9 || r->builtin_code == 3) claim->data[claim->size++] = plan->data[i];
  }
  TfLiteDelegateParams* preview = NULL;
  int partitions = 0;
  if (ctx->PreviewDelegatePartitioning(ctx, claim, &preview, &partitions) != kTfLiteOk) return kTfLiteError;
  if (ctx == pr->main_ctx) {
    pr->previewed_partitions = partitions;
    for (int i = 0; i < partitions; ++i) pr->previewed_nodes += preview[i].nodes_to_replace->size;
  }
  TfLiteRegistration reg;
  memset(&reg, 0, sizeof reg);
  reg.init = dk_init;
  reg.free = dk_free;
  reg.prepare = dk_prepare;
  reg.invoke = dk_invoke;
  reg.custom_name = "ProbeDelegate";
  reg.version = 1;
  TfLiteStatus st = ctx->ReplaceNodeSubsetsWithDelegateKernels(ctx, reg, claim, d);
  TfLiteIntArrayFree(claim);
  return pr->fail ? kTfLiteError : st;
}

static void run(const char* path) {
  char err[1024];
  el_model* m = NULL;
  el_interpreter* it = NULL;
  if (el_model_create_from_file(path, &m, err, sizeof err) != EL_OK) return;
  CHECK_EQ_INT(el_interpreter_create(m, NULL, &it, err, sizeof err), EL_OK);
  int nt = 0, before = 0, after = 0;
  el_subgraph_counts(it, 0, &nt, &before);
  int claimed = 0;
  for (int o = 0; o < before; ++o) {
    el_op_info info;
    el_op_get_info(it, 0, o, &info);
    claimed += info.builtin_code == 9 || info.builtin_code == 3;
  }

  probe* pr = calloc(1, sizeof *pr);
  pr->base = TfLiteDelegateCreate();
  pr->base.Prepare = probe_prepare;
  pr->base.flags = kTfLiteDelegateFlagsAllowDynamicTensors;
  pr->fail = 1;
  CHECK_EQ_INT(el_interpreter_modify_graph_with_delegate(it, &pr->base), EL_RUNTIME_ERROR);
  CHECK_CONTAINS(el_interpreter_error(it), "Restored original execution plan after delegate application failure.");
  el_subgraph_counts(it, 0, &nt, &after);
  CHECK_EQ_INT(after, before);
  CHECK_EQ_INT(pr->frees, pr->inits);

  /* The first kernel whose init fails stops the delegation; free never sees the sentinel. */
  memset(pr, 0, sizeof *pr);
  pr->base = TfLiteDelegateCreate();
  pr->base.Prepare = probe_prepare;
  pr->base.flags = kTfLiteDelegateFlagsAllowDynamicTensors;
  pr->fail_init = 1;
  el_status init_st = el_interpreter_modify_graph_with_delegate(it, &pr->base);
  CHECK_EQ_INT(init_st, pr->inits > 0 ? EL_RUNTIME_ERROR : EL_OK);
  if (pr->inits > 0) CHECK_CONTAINS(el_interpreter_error(it), "Failed to initialize kernel.");
  el_subgraph_counts(it, 0, &nt, &after);
  CHECK_EQ_INT(after, before);
  CHECK_EQ_INT(pr->frees, 0);
  CHECK_EQ_INT(pr->inits, claimed > 0 ? 1 : pr->inits);

  memset(pr, 0, sizeof *pr);
  pr->base = TfLiteDelegateCreate();
  pr->base.Prepare = probe_prepare;
  pr->main_ctx = el_interpreter_context(it, 0);
  CHECK_EQ_INT(el_interpreter_modify_graph_with_delegate(it, &pr->base), EL_OK);
  el_subgraph_counts(it, 0, &nt, &after);
  CHECK(after > before || claimed == 0);
  CHECK_EQ_INT(pr->init_saw_original, pr->inits);
  int delegated = 0, delegate_nodes = 0;
  for (int o = 0; o < after; ++o) {
    el_op_info info;
    el_op_get_info(it, 0, o, &info);
    delegated += info.delegated != 0;
    if (info.builtin_code == 51) {
      delegate_nodes++;
      CHECK(strcmp(info.op_name, "DELEGATE") == 0);
    }
  }
  CHECK_EQ_INT(delegated, claimed);
  CHECK_EQ_INT(delegate_nodes, after - before);
  CHECK_EQ_INT(pr->previewed_partitions, delegate_nodes);
  CHECK_EQ_INT(pr->previewed_nodes, claimed);
  /* Without kTfLiteDelegateFlagsAllowDynamicTensors every subgraph is prepared as soon as the
   * delegate is applied (as in TFLite); allocate_tensors then has nothing left to prepare. */
  int all_delegate_nodes = 0;
  for (int g = 0; g < el_interpreter_num_subgraphs(it); ++g) {
    int ng = 0, no = 0;
    el_subgraph_counts(it, g, &ng, &no);
    for (int o = 0; o < no; ++o) {
      el_op_info info;
      el_op_get_info(it, g, o, &info);
      all_delegate_nodes += info.builtin_code == 51;
    }
  }
  CHECK_EQ_INT(pr->prepares_saw_context, all_delegate_nodes);
  CHECK_EQ_INT(el_interpreter_allocate_tensors(it, 0), EL_OK);
  CHECK_EQ_INT(pr->prepares_saw_context, all_delegate_nodes);
  const int32_t *in, *out;
  int nin, nout;
  el_subgraph_io(it, 0, &in, &nin, &out, &nout);
  for (int k = 0; k < nin; ++k) {
    el_tensor_info info;
    el_tensor_get_info(it, 0, in[k], &info);
    memset(info.data, fake_pattern(in[k]), info.bytes);
  }
  el_status st = el_interpreter_invoke(it, 0);
  CHECK_EQ_INT(st, EL_OK);
  if (st != EL_OK) fprintf(stderr, "%s: %s\n", path, el_interpreter_error(it));
  el_interpreter_destroy(it);
  CHECK_EQ_INT(pr->frees, pr->inits);
  free(pr);
  el_model_destroy(m);
}

void test_delegate(const char* corpus) {
  char** models = corpus_models(corpus);
  for (char** p = models; *p; ++p) run(*p);
  free_list(models);
}
