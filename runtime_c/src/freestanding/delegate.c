/* Delegates hand parts of a graph to an accelerator's runtime, which a bare-metal target does
 * not have (TFLite Micro reaches NPUs through custom ops instead). The freestanding build keeps
 * the context hooks, failing cleanly, and leaves the partitioning code (delegate.c) out. */
#include "interp.h"

el_status el_apply_delegate(el_subgraph* sg, TfLiteDelegate* delegate) {
  (void)delegate;
  el_report(sg, "Delegates are not part of the freestanding build.");
  return EL_VALUE_ERROR;
}

TfLiteStatus el_replace_with_delegate(TfLiteContext* ctx, TfLiteRegistration reg,
                                      const TfLiteIntArray* nodes, TfLiteDelegate* delegate) {
  (void)reg;
  (void)nodes;
  (void)delegate;
  el_report(ctx->impl_, "Delegates are not part of the freestanding build.");
  return kTfLiteError;
}

TfLiteStatus el_preview_partitioning(TfLiteContext* ctx, const TfLiteIntArray* nodes,
                                     TfLiteDelegateParams** params, int* num) {
  (void)nodes;
  (void)params;
  (void)num;
  el_report(ctx->impl_, "Delegates are not part of the freestanding build.");
  return kTfLiteError;
}

void el_free_preview(el_subgraph* sg) { (void)sg; }
