/* The TfLiteContext callbacks a subgraph offers its kernels and delegates. */
#define _POSIX_C_SOURCE 200809L
#include <limits.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "interp.h"

static el_subgraph* sg_of(const TfLiteContext* ctx) { return (el_subgraph*)ctx->impl_; }

void(el_report)(el_subgraph* sg, const char* fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  el_err_vappend(&sg->interp->err, fmt, ap);
  va_end(ap);
}

static void report_error(TfLiteContext* ctx, const char* fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  el_err_vappend(&sg_of(ctx)->interp->err, fmt, ap);
  va_end(ap);
}

static TfLiteStatus get_execution_plan(TfLiteContext* ctx, TfLiteIntArray** plan) {
  *plan = sg_of(ctx)->plan;
  return kTfLiteOk;
}

TfLiteStatus el_add_tensors(el_subgraph* sg, int n, int* first) {
  if (n < 0) return kTfLiteError;
  size_t old = sg->ctx.tensors_size;
  if ((size_t)n > (size_t)INT32_MAX - old) return kTfLiteError;
  size_t want = old + (size_t)n;
  if (n == 0) {
    /* Nothing to add (a subgraph without tensors has no arrays to clear yet). */
    if (first) *first = (int)old;
    return kTfLiteOk;
  }
  if (want > sg->tensor_cap) {
    /* Kernels may hold TfLiteTensor pointers across AddTensors, so grow rarely and generously. */
#ifdef EDGELITE_FREESTANDING
    /* Firmware RAM is the caller's arena: the model's tensors exactly, grown only when a
     * kernel adds temporaries. */
    size_t cap = want;
#else
    size_t cap = sg->tensor_cap * 2 > want ? sg->tensor_cap * 2 : want + 16;
#endif
    TfLiteTensor* t = realloc(sg->ctx.tensors, cap * sizeof *t);
    if (t == NULL) return kTfLiteError;
    sg->ctx.tensors = t;
    el_tensor_extra* x = realloc(sg->extra, cap * sizeof *x);
    if (x == NULL) return kTfLiteError;
    sg->extra = x;
    sg->tensor_cap = cap;
  }
  memset(sg->ctx.tensors + old, 0, (size_t)n * sizeof(TfLiteTensor));
  memset(sg->extra + old, 0, (size_t)n * sizeof(el_tensor_extra));
  for (size_t i = old; i < want; ++i) {
    sg->ctx.tensors[i].buffer_handle = kTfLiteNullBufferHandle;
    sg->extra[i].arena_offset = -1;
    sg->extra[i].first_read = INT_MAX;
    sg->extra[i].first_write = INT_MAX;
  }
  sg->ctx.tensors_size = want;
  if (first) *first = (int)old;
  return kTfLiteOk;
}

static TfLiteStatus add_tensors(TfLiteContext* ctx, int n, int* first) {
  return el_add_tensors(sg_of(ctx), n, first);
}

TfLiteStatus el_add_node(el_subgraph* sg, el_node** out, int* index) {
  if (sg->num_nodes == sg->node_cap) {
    int cap = sg->node_cap ? sg->node_cap * 2 : 8;
    el_node** nodes = realloc(sg->nodes, (size_t)cap * sizeof *nodes);
    if (nodes == NULL) return kTfLiteError;
    sg->nodes = nodes;
    sg->node_cap = cap;
  }
  el_node* n = el_pool_alloc(&sg->interp->pool, 1, sizeof *n);
  if (n == NULL) return kTfLiteError;
  n->op_index = -1;
  sg->nodes[sg->num_nodes] = n;
  *index = sg->num_nodes++;
  *out = n;
  return kTfLiteOk;
}

static TfLiteStatus get_node_and_registration(TfLiteContext* ctx, int index, TfLiteNode** node,
                                              TfLiteRegistration** reg) {
  el_subgraph* sg = sg_of(ctx);
  if (index < 0 || index >= sg->num_nodes) {
    el_report(sg, "Invalid node index %d (the subgraph has %d nodes)", index, sg->num_nodes);
    return kTfLiteError;
  }
  *node = &sg->nodes[index]->node;
  *reg = &sg->nodes[index]->reg;
  return kTfLiteOk;
}

TfLiteStatus el_tensor_realloc(el_subgraph* sg, int index, size_t bytes) {
  el_tensor_extra* x = &sg->extra[index];
  TfLiteTensor* t = &sg->ctx.tensors[index];
  if (bytes <= x->owned_cap && x->owned != NULL) {
    t->data.raw = x->owned;
    return kTfLiteOk;
  }
  void* p = NULL;
  if (posix_memalign(&p, 64, bytes ? bytes : 1) != 0) return kTfLiteError;
  if (x->owned != NULL) {
    memcpy(p, x->owned, x->owned_cap < bytes ? x->owned_cap : bytes);
    free(x->owned);
  }
  x->owned = p;
  x->owned_cap = bytes;
  t->data.raw = p;
  return kTfLiteOk;
}

TfLiteStatus el_resize_tensor(el_subgraph* sg, TfLiteTensor* t, TfLiteIntArray* dims) {
  if (dims == NULL) return kTfLiteError;
  if (t < sg->ctx.tensors || t >= sg->ctx.tensors + sg->ctx.tensors_size) {
    TfLiteIntArrayFree(dims);
    el_report(sg, "ResizeTensor was given a tensor that is not in this subgraph.");
    return kTfLiteError;
  }
  int index = (int)(t - sg->ctx.tensors);
  el_tensor_extra* x = &sg->extra[index];
  /* Kernels size their work in prepare: a node already prepared reading this tensor (the
   * resizing node itself included) or writing it would use it with the old shape. Only a
   * malformed graph does this: a tensor with two producers, read before it is produced or by
   * its own producer, or a node writing a subgraph input. */
  if ((sg->preparing || sg->invoking) && !TfLiteIntArrayEqual(t->dims, dims) &&
      (x->first_read <= sg->current_step || x->first_write < sg->current_step)) {
    TfLiteIntArrayFree(dims);
    const int first = x->first_read <= sg->current_step ? x->first_read : x->first_write;
    if (first < 0) {
      el_report(sg, "Node number %d gives the subgraph input tensor %d a new shape.",
                sg->plan->data[sg->current_step], index);
    } else {
      el_report(sg,
                "Tensor %d changes shape after node %d was prepared with it (it has two "
                "producers, or is read before it is produced or by its producer).",
                index, sg->plan->data[first]);
    }
    return kTfLiteError;
  }
  TfLiteAllocationType at = t->allocation_type;
  if (at != kTfLiteArenaRw && at != kTfLiteDynamic && at != kTfLiteArenaRwPersistent &&
      at != kTfLitePersistentRo && at != kTfLiteCustom) {
    TfLiteIntArrayFree(dims);
    el_report(sg, "Attempting to resize a fixed-size tensor.");
    return kTfLiteError;
  }
  size_t bytes = 0;
  int sized = t->type != kTfLiteString && t->type != kTfLiteResource && t->type != kTfLiteVariant;
  if ((sized ? el_bytes_required(t->type, dims->data, dims->size, &bytes)
             : el_element_count(dims->data, dims->size, &bytes)) != kTfLiteOk) {
    TfLiteIntArrayFree(dims);
    el_report(sg, "BytesRequired number of elements overflowed.\n");
    return kTfLiteError;
  }
  if (sized) {
    if (at == kTfLiteDynamic || (x->owned != NULL && at != kTfLiteCustom)) {
      /* Heap-backed tensors follow their size at once, even inside invoke. */
      if (el_tensor_realloc(sg, index, bytes) != kTfLiteOk) {
        TfLiteIntArrayFree(dims);
        el_report(sg, "Out of memory resizing tensor %d.", index);
        return kTfLiteError;
      }
    } else if (at == kTfLiteArenaRw && !sg->preparing && sg->invoking) {
      /* An arena slot cannot grow during invoke; shrinking in place is fine. */
      if (x->arena_offset < 0 || bytes > x->arena_bytes) {
        TfLiteIntArrayFree(dims);
        el_report(sg, "Tensor %d grew beyond its planned arena slot during invoke.", index);
        return kTfLiteError;
      }
    } else if (at == kTfLiteArenaRw || at == kTfLiteArenaRwPersistent) {
      t->data.raw = NULL;
    }
    t->bytes = bytes;
  }
  if (sg->invoking && !TfLiteIntArrayEqual(t->dims, dims)) sg->resized_in_invoke = 1;
#ifdef EDGELITE_FREESTANDING
  /* Firmware RAM: a shape read in place from the model (tensor_setup.c) stays there while
   * kernels confirm it, and is never freed. */
  if (el_model_holds(sg->interp->model, t->dims)) {
    if (TfLiteIntArrayEqual(t->dims, dims)) {
      TfLiteIntArrayFree(dims);
      return kTfLiteOk;
    }
    t->dims = dims;
    return kTfLiteOk;
  }
#endif
  if (t->dims != dims) TfLiteIntArrayFree(t->dims);
  t->dims = dims;
  return kTfLiteOk;
}

static TfLiteStatus resize_tensor(TfLiteContext* ctx, TfLiteTensor* t, TfLiteIntArray* dims) {
  return el_resize_tensor(sg_of(ctx), t, dims);
}

static TfLiteStatus resize_tensor_explicit(TfLiteContext* ctx, TfLiteTensor* t, int ndims,
                                           const int* shape) {
  if (ndims < 0 || (ndims > 0 && shape == NULL)) return kTfLiteError;
  TfLiteIntArray* dims = TfLiteIntArrayCreate(ndims);
  if (dims == NULL) return kTfLiteError;
  if (ndims > 0) memcpy(dims->data, shape, sizeof(int) * (size_t)ndims);
  return el_resize_tensor(sg_of(ctx), t, dims);
}

static TfLiteExternalContext* get_external_context(TfLiteContext* ctx, TfLiteExternalContextType type) {
  if ((unsigned)type >= (unsigned)kTfLiteMaxExternalContexts) return NULL;
  return sg_of(ctx)->external[type];
}

static void set_external_context(TfLiteContext* ctx, TfLiteExternalContextType type,
                                 TfLiteExternalContext* ext) {
  if ((unsigned)type >= (unsigned)kTfLiteMaxExternalContexts) return;
  sg_of(ctx)->external[type] = ext;
}

/* Persistent buffers live until the interpreter is destroyed; a header links them. */
static void* allocate_persistent(TfLiteContext* ctx, size_t bytes) {
  el_subgraph* sg = sg_of(ctx);
#ifdef EDGELITE_FREESTANDING
  /* Firmware: the allocator's 8-byte alignment serves the kernels' persistent data (no SIMD
   * loads of it), and every padding byte would come out of the caller's arena. */
  enum { kHeader = 8 };
  if (bytes > SIZE_MAX - kHeader) return NULL;
  void* p = malloc(kHeader + bytes);
  if (p == NULL) return NULL;
#else
  enum { kHeader = 64 };
  if (bytes > SIZE_MAX - kHeader) return NULL;
  void* p = NULL;
  if (posix_memalign(&p, 64, kHeader + bytes) != 0) return NULL;
#endif
  el_persistent* rec = p;
  rec->next = sg->persistent;
  sg->persistent = rec;
  return (uint8_t*)p + kHeader;
}

void el_free_persistent(el_subgraph* sg) {
  el_persistent* p = sg->persistent;
  while (p != NULL) {
    el_persistent* next = p->next;
    free(p);
    p = next;
  }
  sg->persistent = NULL;
}

static TfLiteStatus request_scratch(TfLiteContext* ctx, size_t bytes, int* idx) {
  el_subgraph* sg = sg_of(ctx);
  if (!sg->preparing) {
    el_report(sg, "RequestScratchBufferInArena is only available while preparing a node.");
    return kTfLiteError;
  }
  if (sg->num_scratch == sg->scratch_cap) {
    int cap = sg->scratch_cap ? sg->scratch_cap * 2 : 8;
    el_scratch* s = realloc(sg->scratch, (size_t)cap * sizeof *s);
    if (s == NULL) return kTfLiteError;
    sg->scratch = s;
    sg->scratch_cap = cap;
  }
  el_scratch* s = &sg->scratch[sg->num_scratch];
  memset(s, 0, sizeof *s);
  s->bytes = bytes;
  s->node = sg->current_step;
  s->arena_offset = -1;
  s->align = 8; /* any scalar element type */
  *idx = sg->num_scratch++;
  return kTfLiteOk;
}

static void* get_scratch(TfLiteContext* ctx, int idx) {
  el_subgraph* sg = sg_of(ctx);
  if (idx < 0 || idx >= sg->num_scratch) return NULL;
  el_scratch* s = &sg->scratch[idx];
  if (s->heap != NULL) return s->heap;
  if (s->arena_offset < 0 || sg->arena == NULL) return NULL;
  return sg->arena + s->arena_offset;
}

static TfLiteTensor* get_tensor(const TfLiteContext* ctx, int idx) {
  if (idx < 0 || (size_t)idx >= ctx->tensors_size) return NULL;
  return &ctx->tensors[idx];
}

static TfLiteStatus get_model_metadata(const TfLiteContext* ctx, const char* name, const char** ptr,
                                       size_t* bytes) {
  const void* data = NULL;
  size_t size = 0;
  if (el_model_metadata(sg_of(ctx)->interp->model, name, &data, &size) != EL_OK) return kTfLiteError;
  *ptr = data;
  *bytes = size;
  return kTfLiteOk;
}

static TfLiteStatus acquire_subgraph_context(TfLiteContext* ctx, int index, TfLiteContext** out) {
  struct el_interpreter* it = sg_of(ctx)->interp;
  if (index < 0 || index >= it->num_subgraphs) return kTfLiteError;
  *out = &it->subgraphs[index].ctx;
  return kTfLiteOk;
}

static TfLiteStatus release_subgraph_context(TfLiteContext* ctx, int index) {
  struct el_interpreter* it = sg_of(ctx)->interp;
  return (index >= 0 && index < it->num_subgraphs) ? kTfLiteOk : kTfLiteError;
}

void el_context_init(el_subgraph* sg) {
  TfLiteContext* c = &sg->ctx;
  c->impl_ = sg;
  c->GetExecutionPlan = get_execution_plan;
  c->ResizeTensor = resize_tensor;
  c->ReportError = report_error;
  c->AddTensors = add_tensors;
  c->GetNodeAndRegistration = get_node_and_registration;
  c->ReplaceNodeSubsetsWithDelegateKernels = el_replace_with_delegate;
  c->recommended_num_threads = sg->interp->num_threads;
  c->GetExternalContext = get_external_context;
  c->SetExternalContext = set_external_context;
  c->allow_fp32_relax_to_fp16 = false;
  c->profiler = NULL;
  c->AllocatePersistentBuffer = allocate_persistent;
  c->AllocateBufferForEval = NULL;
  c->RequestScratchBufferInArena = request_scratch;
  c->GetScratchBuffer = get_scratch;
  c->ResizeTensorExplicit = resize_tensor_explicit;
  c->PreviewDelegatePartitioning = el_preview_partitioning;
  c->GetTensor = get_tensor;
  c->GetEvalTensor = NULL;
  c->GetModelMetadata = get_model_metadata;
  c->AcquireSubgraphContext = acquire_subgraph_context;
  c->ReleaseSubgraphContext = release_subgraph_context;
}
