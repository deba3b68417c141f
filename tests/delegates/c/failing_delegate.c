/* Test delegates (c): the ways a delegate can fail, chosen with the option "mode":
 *
 *   "prepare"          Prepare reports an error and fails before touching the graph;
 *   "prepare_late"     Prepare claims every node, then fails (the host must restore its plan);
 *   "kernel_init"      claims every node; the delegate kernel's init returns TfLiteKernelInitFailed();
 *   "kernel_prepare"   claims every node; the delegate kernel's prepare fails;
 *   "kernel_invoke"    claims every node; the delegate kernel's invoke fails;
 *   "null"             create returns NULL without a word (what libedgetpu does with no device);
 *   "null_report"      create reports a reason through the error callback, then returns NULL.
 *
 * A missing mode means "prepare". The kernels never compute anything: a run that gets past a
 * failure would give garbage, so the tests see every failure the host lets through. */
#include <stdio.h>

#include "plugin_util.h"

typedef enum fail_mode { kPrepare, kPrepareLate, kKernelInit, kKernelPrepare, kKernelInvoke } fail_mode;

typedef struct failing_delegate {
  TfLiteDelegate base;
  fail_mode mode;
} failing_delegate;

static void* kernel_init(TfLiteContext* ctx, const char* buffer, size_t length) {
  (void)ctx;
  (void)length;
  const TfLiteDelegateParams* params = (const TfLiteDelegateParams*)buffer;
  const failing_delegate* d = params->delegate->data_;
  if (d->mode == kKernelInit) return pu_init_failed();
  return params->delegate->data_;
}

static TfLiteStatus kernel_prepare(TfLiteContext* ctx, TfLiteNode* node) {
  const failing_delegate* d = node->user_data;
  if (d->mode == kKernelPrepare) {
    ctx->ReportError(ctx, "failing delegate: kernel prepare refused");
    return kTfLiteError;
  }
  return kTfLiteOk;
}

static TfLiteStatus kernel_invoke(TfLiteContext* ctx, TfLiteNode* node) {
  (void)node;
  ctx->ReportError(ctx, "failing delegate: kernel invoke failed");
  return kTfLiteError;
}

static TfLiteStatus claim_all(TfLiteContext* ctx, TfLiteDelegate* delegate) {
  TfLiteIntArray* plan = NULL;
  if (ctx->GetExecutionPlan(ctx, &plan) != kTfLiteOk) return kTfLiteError;
  TfLiteIntArray* nodes = pu_int_array(plan->size);
  if (nodes == NULL) return kTfLiteError;
  memcpy(nodes->data, plan->data, pu_int_array_bytes(plan->size) - sizeof(TfLiteIntArray));
  TfLiteRegistration reg;
  memset(&reg, 0, sizeof reg);
  reg.init = kernel_init;
  reg.prepare = kernel_prepare;
  reg.invoke = kernel_invoke;
  reg.custom_name = "FailingDelegateKernel";
  reg.version = 1;
  TfLiteStatus st = ctx->ReplaceNodeSubsetsWithDelegateKernels(ctx, reg, nodes, delegate);
  pu_int_array_free(nodes);
  return st;
}

static TfLiteStatus delegate_prepare(TfLiteContext* ctx, TfLiteDelegate* delegate) {
  const failing_delegate* d = (const failing_delegate*)delegate;
  if (d->mode == kPrepare) {
    ctx->ReportError(ctx, "failing delegate: Prepare refused the graph");
    return kTfLiteError;
  }
  TfLiteStatus st = claim_all(ctx, delegate);
  if (st != kTfLiteOk) return st;
  if (d->mode == kPrepareLate) {
    ctx->ReportError(ctx, "failing delegate: Prepare failed after claiming the graph");
    return kTfLiteError;
  }
  return kTfLiteOk;
}

PLUGIN_EXPORT TfLiteDelegate* tflite_plugin_create_delegate(char** keys, char** values, size_t n,
                                                            void (*report_error)(const char*)) {
  fail_mode mode = kPrepare;
  for (size_t i = 0; i < n; ++i) {
    if (strcmp(keys[i], "mode") != 0) continue;
    const char* v = values[i];
    if (strcmp(v, "null") == 0) return NULL;
    if (strcmp(v, "null_report") == 0) {
      if (report_error != NULL) report_error("failing delegate: cannot open the device");
      return NULL;
    }
    if (strcmp(v, "prepare") == 0) {
      mode = kPrepare;
    } else if (strcmp(v, "prepare_late") == 0) {
      mode = kPrepareLate;
    } else if (strcmp(v, "kernel_init") == 0) {
      mode = kKernelInit;
    } else if (strcmp(v, "kernel_prepare") == 0) {
      mode = kKernelPrepare;
    } else if (strcmp(v, "kernel_invoke") == 0) {
      mode = kKernelInvoke;
    } else {
      char msg[128];
      snprintf(msg, sizeof msg, "failing delegate: unknown mode '%s'", v);
      if (report_error != NULL) report_error(msg);
      return NULL;
    }
  }
  failing_delegate* d = calloc(1, sizeof *d);
  if (d == NULL) return NULL;
  d->mode = mode;
  d->base.data_ = d;
  d->base.Prepare = delegate_prepare;
  return &d->base;
}

PLUGIN_EXPORT void tflite_plugin_destroy_delegate(TfLiteDelegate* delegate) { free(delegate); }
