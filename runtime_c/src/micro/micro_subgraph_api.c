/* The hosted interpreter's extra kernel hooks (subgraph_api.h) for other subgraphs, dynamic
 * tensors and shared resources. The micro interpreter has one subgraph, static shapes and no
 * resource store: a kernel that needs them (control flow, strings, resource variables) fails
 * here with a report instead of the build missing these symbols. */
#include "subgraph_api.h"

static TfLiteStatus unsupported(TfLiteContext* ctx) {
  ctx->ReportError(ctx, "Subgraphs, dynamic tensors and resources are not part of the micro interpreter.");
  return kTfLiteError;
}

TfLiteStatus el_ctx_subgraph_io(const TfLiteContext* ctx, const int** inputs, int* num_inputs,
                                const int** outputs, int* num_outputs) {
  (void)inputs;
  (void)num_inputs;
  (void)outputs;
  (void)num_outputs;
  return unsupported((TfLiteContext*)(uintptr_t)ctx);
}

TfLiteStatus el_ctx_resize_input(TfLiteContext* ctx, int tensor_index, const int* dims, int ndims) {
  (void)tensor_index;
  (void)dims;
  (void)ndims;
  return unsupported(ctx);
}

TfLiteStatus el_ctx_allocate(TfLiteContext* ctx) { return unsupported(ctx); }

TfLiteStatus el_ctx_invoke(TfLiteContext* ctx) { return unsupported(ctx); }

TfLiteStatus el_ctx_tensor_realloc(TfLiteContext* ctx, TfLiteTensor* t, size_t bytes) {
  (void)t;
  (void)bytes;
  return unsupported(ctx);
}

void* el_ctx_get_resources(TfLiteContext* ctx) {
  (void)ctx;
  return NULL;
}

TfLiteStatus el_ctx_set_resources(TfLiteContext* ctx, void* store, void (*free_fn)(void* store)) {
  (void)store;
  (void)free_fn;
  return unsupported(ctx);
}
