#include <stdint.h>

#include "interp.h"
#include "kernels/optimized/opt_kernels.h"

const el_cpu_backend* el_context_backend(const TfLiteContext* ctx) {
  const el_subgraph* sg = ctx ? (const el_subgraph*)ctx->impl_ : NULL;
  if (sg == NULL || &sg->ctx != ctx || sg->interp == NULL) return NULL;
  return sg->interp->backend;
}

el_isa el_context_isa(const TfLiteContext* ctx) {
  const el_cpu_backend* b = el_context_backend(ctx);
  return b ? b->isa : el_isa_best();
}

int el_context_small_scratch(const TfLiteContext* ctx) {
  const el_subgraph* sg = ctx ? (const el_subgraph*)ctx->impl_ : NULL;
  if (sg == NULL || &sg->ctx != ctx || !sg->preparing || sg->plan == NULL) return 0;
  if (sg->current_step < 0 || sg->current_step >= sg->plan->size) return 0;
  const int node = sg->plan->data[sg->current_step];
  return node >= 0 && node < sg->num_nodes && sg->nodes[node]->small_scratch;
}

void* el_opt_persistent(TfLiteContext* ctx, size_t bytes) {
  if (bytes > SIZE_MAX - 64) return NULL;
  uint8_t* p = (uint8_t*)ctx->AllocatePersistentBuffer(ctx, bytes + 64);
  if (p == NULL) return NULL;
  return p + ((64 - ((uintptr_t)p & 63)) & 63);
}

TfLiteStatus el_opt_request_scratch(TfLiteContext* ctx, size_t bytes, int threads,
                                    el_opt_scratch* s) {
  s->threads = threads < 1 ? 1 : threads;
  s->slice = (bytes + 63) & ~(size_t)63;
  if (s->slice > (SIZE_MAX - 64) / (size_t)s->threads) return kTfLiteError;
  TfLiteStatus st = ctx->RequestScratchBufferInArena(ctx, s->slice * (size_t)s->threads, &s->index);
  /* The slices' vector loops want them on cache lines: the plan aligns this buffer to 64 bytes
   * (scratch on the heap always is). */
  el_subgraph* sg = (el_subgraph*)ctx->impl_;
  if (st == kTfLiteOk && sg != NULL && &sg->ctx == ctx) sg->scratch[s->index].align = 64;
  return st;
}

void el_opt_withdraw_scratch(TfLiteContext* ctx, int index) {
  el_subgraph* sg = (el_subgraph*)ctx->impl_;
  if (sg == NULL || &sg->ctx != ctx || !sg->preparing) return;
  if (index >= 0 && index == sg->num_scratch - 1 && sg->scratch[index].node == sg->current_step) {
    --sg->num_scratch;
  }
}

void* el_opt_scratch_slice(TfLiteContext* ctx, const el_opt_scratch* s, int thread) {
  uint8_t* p = (uint8_t*)ctx->GetScratchBuffer(ctx, s->index);
  if (p == NULL) return NULL;
  return p + s->slice * (size_t)thread;
}

int el_opt_task_count(int units, int threads) {
  if (threads <= 1 || units <= 1) return 1;
  const int tasks = threads * 4;
  return units < tasks ? units : tasks;
}
