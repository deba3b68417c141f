/* Subgraph life cycle: consistency check, prepare + arena planning (allocate_tensors), the
 * invoke loop, and release. Nodes after the first one whose output shape is only known at run
 * time are prepared during invoke and keep their tensors on the heap, as TFLite does. */
#define _POSIX_C_SOURCE 200809L
#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "arena_plan.h"
#include "interp.h"
#include "op_names.h"

/* The name TFLite's error messages use for a node (GetTFLiteOpName). */
const char* el_node_error_name(const el_node* n) {
  const TfLiteRegistration* r = &n->reg;
  if (r->builtin_code == EL_BUILTIN_CUSTOM) return r->custom_name ? r->custom_name : "UnknownCustomOp";
  if (r->builtin_code == EL_BUILTIN_DELEGATE && r->custom_name) return r->custom_name;
  const char* name = el_builtin_name(r->builtin_code);
  return name ? name : "";
}

/* The name the Python API reports as op_name. */
const char* el_node_info_name(const el_node* n) {
  const TfLiteRegistration* r = &n->reg;
  if (r->builtin_code == EL_BUILTIN_CUSTOM) return r->custom_name ? r->custom_name : "";
  const char* name = el_builtin_name(r->builtin_code);
  return name ? name : "";
}

static int check_indices(el_subgraph* sg, const int* idx, int n, const char* label) {
  for (int i = 0; i < n; ++i) {
    if (idx[i] == kTfLiteOptionalTensor) continue;
    if (idx[i] < 0 || (size_t)idx[i] >= sg->ctx.tensors_size) {
      el_report(sg, "Invalid tensor index %d in %s. The subgraph has %d tensors\n", idx[i], label,
                (int)sg->ctx.tensors_size);
      return -1;
    }
  }
  return 0;
}

el_status el_subgraph_check_consistent(el_subgraph* sg) {
  if (sg->consistent) return EL_OK;
  int bad = check_indices(sg, sg->desc->inputs.v, sg->desc->inputs.n, "inputs") ||
            check_indices(sg, sg->desc->outputs.v, sg->desc->outputs.n, "outputs");
  for (int i = 0; !bad && i < sg->num_nodes; ++i) {
    const TfLiteNode* nd = &sg->nodes[i]->node;
    bad = check_indices(sg, nd->inputs->data, nd->inputs->size, "node inputs") ||
          check_indices(sg, nd->outputs->data, nd->outputs->size, "node outputs") ||
          check_indices(sg, nd->intermediates->data, nd->intermediates->size, "node intermediates");
    /* Constants live in read-only model memory: a node may never write one. */
    for (int k = 0; !bad && k < nd->outputs->size; ++k) {
      int t = nd->outputs->data[k];
      if (t >= 0 && sg->extra[t].is_constant) {
        el_report(sg, "Node number %d (%s) writes to constant tensor %d.\n", i,
                  el_node_error_name(sg->nodes[i]), t);
        bad = 1;
      }
    }
  }
  if (bad) {
    el_report(sg, "AllocateTensors() called on inconsistent model.");
    return EL_RUNTIME_ERROR;
  }
  sg->consistent = 1;
  return EL_OK;
}

static void drop_arena(el_subgraph* sg) {
  for (size_t i = 0; i < sg->ctx.tensors_size; ++i) {
    el_tensor_extra* x = &sg->extra[i];
    TfLiteTensor* t = &sg->ctx.tensors[i];
    if (x->is_constant || t->allocation_type != kTfLiteArenaRw) continue;
    free(x->owned);
    x->owned = NULL;
    x->owned_cap = 0;
    x->arena_offset = -1;
    x->arena_bytes = 0;
    t->data.raw = NULL;
  }
  for (int i = 0; i < sg->num_scratch; ++i) free(sg->scratch[i].heap);
  sg->num_scratch = 0;
  free(sg->arena_raw);
  sg->arena_raw = NULL;
  sg->arena = NULL;
  sg->arena_size = 0;
  sg->arena_lower_bound = 0;
}

static TfLiteStatus apply_pending_resizes(el_subgraph* sg) {
  int saved = sg->preparing;
  sg->preparing = 1;
  TfLiteStatus st = kTfLiteOk;
  for (size_t i = 0; i < sg->ctx.tensors_size; ++i) {
    TfLiteIntArray* dims = sg->extra[i].pending_dims;
    if (dims == NULL) continue;
    sg->extra[i].pending_dims = NULL;
    if (el_resize_tensor(sg, &sg->ctx.tensors[i], dims) != kTfLiteOk) st = kTfLiteError;
  }
  sg->preparing = saved;
  sg->has_pending_resize = 0;
  return st;
}

static int has_dynamic_output(const el_subgraph* sg, const TfLiteNode* nd) {
  for (int k = 0; k < nd->outputs->size; ++k) {
    int t = nd->outputs->data[k];
    if (t >= 0 && sg->ctx.tensors[t].allocation_type == kTfLiteDynamic) return 1;
  }
  return 0;
}

/* Records that the node at `step` was prepared reading or writing these tensors (see
 * el_resize_tensor). */
static void mark_used(el_subgraph* sg, const TfLiteIntArray* a, int step, int write) {
  for (int k = 0; a != NULL && k < a->size; ++k) {
    int t = a->data[k];
    if (t < 0 || (size_t)t >= sg->ctx.tensors_size) continue;
    int* first = write ? &sg->extra[t].first_write : &sg->extra[t].first_read;
    if (*first > step) *first = step;
  }
}

static void clear_uses(el_subgraph* sg) {
  for (size_t i = 0; i < sg->ctx.tensors_size; ++i) {
    sg->extra[i].first_read = INT_MAX;
    sg->extra[i].first_write = INT_MAX;
  }
}

/* Subgraph inputs count as read before the first node: the caller owns their shapes. */
static void mark_subgraph_inputs(el_subgraph* sg) {
  for (int32_t k = 0; k < sg->desc->inputs.n; ++k) {
    int t = sg->desc->inputs.v[k];
    if (t >= 0 && (size_t)t < sg->ctx.tensors_size) sg->extra[t].first_read = -1;
  }
}

static TfLiteStatus prepare_node(el_subgraph* sg, int step) {
  el_node* n = sg->nodes[sg->plan->data[step]];
  sg->current_step = step;
  mark_used(sg, n->node.inputs, step, 0);
  mark_used(sg, n->node.outputs, step, 1);
  mark_used(sg, n->node.intermediates, step, 1);
  if (n->unresolved) {
    const char* name = n->reg.custom_name ? n->reg.custom_name : "UnknownOp";
    if (strncmp(name, "Flex", 4) == 0) {
      el_report(sg,
                "Select TensorFlow op(s), included in the given model, is(are) not supported by "
                "this interpreter. Make sure you apply/link the Flex delegate before inference. "
                "For the Android, it can be resolved by adding "
                "\"org.tensorflow:tensorflow-lite-select-tf-ops\" dependency. See instructions: "
                "https://www.tensorflow.org/lite/guide/ops_select");
    } else {
      el_report(sg,
                "Encountered unresolved custom op: %s.\nSee instructions: "
                "https://www.tensorflow.org/lite/guide/ops_custom ",
                name);
    }
    el_report(sg, "Node number %d (%s) failed to prepare.", sg->plan->data[step],
              el_node_error_name(n));
    if (strcmp(name, "edgetpu-custom-op") == 0) {
      /* TFLite's text stops here; the one question everybody then asks gets its answer. */
      el_report(sg,
                "\nThis is an Edge TPU model: pass the Edge TPU delegate, e.g. "
                "edgelite_runtime.edgetpu.make_interpreter(model), or Interpreter(..., "
                "experimental_delegates=[load_delegate('libedgetpu.so.1')]).");
    }
    return kTfLiteError;
  }
  if (el_kernel_call_prepare(&n->reg, &sg->ctx, &n->node) != kTfLiteOk) {
    el_report(sg, "Node number %d (%s) failed to prepare.", sg->plan->data[step],
              el_node_error_name(n));
    return kTfLiteError;
  }
  return kTfLiteOk;
}

/* TFLite's ResetVariableTensor: zero, or the zero point for int8. */
static void reset_variable(TfLiteTensor* t) {
  if (!t->is_variable || t->data.raw == NULL) return;
  int value = t->type == kTfLiteInt8 ? t->params.zero_point : 0;
  memset(t->data.raw, value, t->bytes);
}

static el_status allocate_variables(el_subgraph* sg) {
  for (size_t i = 0; i < sg->ctx.tensors_size; ++i) {
    TfLiteTensor* t = &sg->ctx.tensors[i];
    if (t->allocation_type != kTfLiteArenaRwPersistent || sg->extra[i].is_constant) continue;
    if (el_tensor_realloc(sg, (int)i, t->bytes) != kTfLiteOk) {
      el_report(sg, "Out of memory allocating variable tensor %d.", (int)i);
      return EL_NO_MEMORY;
    }
    reset_variable(t);
  }
  return EL_OK;
}

el_status el_subgraph_reset_variables(el_subgraph* sg) {
  for (size_t i = 0; i < sg->ctx.tensors_size; ++i) reset_variable(&sg->ctx.tensors[i]);
  return EL_OK;
}

/* Prepares the execution plan's nodes up to the first one whose output shape is only known at
 * run time, and plans the arena for them (no arena memory yet). */
static el_status prepare_and_plan(el_subgraph* sg, int* prepared) {
  drop_arena(sg);
  clear_uses(sg);
  mark_subgraph_inputs(sg);
  for (int i = 0; i < sg->num_nodes; ++i) {
    sg->nodes[i]->pad_folded = 0;
    sg->nodes[i]->pad_source = 0;
  }
  sg->deferred_from = -1;
  sg->deferred_prepared = 0;
  sg->preparing = 1;
  *prepared = 0;
  for (int step = 0; step < sg->plan->size; ++step) {
    if (prepare_node(sg, step) != kTfLiteOk) {
      sg->preparing = 0;
      drop_arena(sg);
      return EL_RUNTIME_ERROR;
    }
    *prepared = step + 1;
    if (has_dynamic_output(sg, &sg->nodes[sg->plan->data[step]]->node) && step + 1 < sg->plan->size) {
      sg->deferred_from = step + 1;
      break;
    }
  }
  sg->preparing = 0;
  el_status st = el_arena_plan(sg, *prepared);
  if (st != EL_OK) el_report(sg, "Out of memory planning the tensor arena.");
  return st;
}

typedef struct scratch_user {
  int node;
  size_t bytes;
} scratch_user;

static int cmp_scratch_user(const void* pa, const void* pb) {
  const scratch_user* a = pa;
  const scratch_user* b = pb;
  if (a->bytes != b->bytes) return a->bytes < b->bytes ? -1 : 1;
  return a->node - b->node;
}

/* Every node of the fast plan that asked for scratch, with its bytes, smallest first. */
static int scratch_users(const el_subgraph* sg, scratch_user* users) {
  int m = 0;
  for (int k = 0; k < sg->num_scratch; ++k) {
    const int node = sg->plan->data[sg->scratch[k].node];
    int j = 0;
    while (j < m && users[j].node != node) ++j;
    if (j == m) users[m++] = (scratch_user){node, 0};
    users[j].bytes += sg->scratch[k].bytes;
  }
  qsort(users, (size_t)m, sizeof *users, cmp_scratch_user);
  return m;
}

/* Plans again with the first `fast` users on their fast kernels and the rest on the kernels
 * with the least scratch; returns whether the arena then fits `limit`. */
static el_status try_fast(el_subgraph* sg, const scratch_user* users, int m, int fast,
                          size_t limit, int* prepared, int* fits) {
  for (int j = 0; j < m; ++j) sg->nodes[users[j].node]->small_scratch = j >= fast;
  el_status st = prepare_and_plan(sg, prepared);
  *fits = st == EL_OK && sg->arena_size <= limit;
  return st;
}

/* The caller's arena limit: keep the fast kernels of as many scratch users as fit, smallest
 * scratch first (a binary search over how many), the others taking their least-scratch kernel. */
static el_status fit_limit(el_subgraph* sg, int* prepared) {
  const size_t limit = sg->interp->arena_limit;
  const size_t fast_size = sg->arena_size;
  scratch_user* users = malloc((size_t)(sg->num_scratch + 1) * sizeof *users);
  if (users == NULL) return EL_NO_MEMORY;
  const int m = scratch_users(sg, users);
  int fits = 0;
  el_status st = m > 0 ? try_fast(sg, users, m, 0, limit, prepared, &fits) : EL_OK;
  if (st == EL_OK && !fits) {
    el_report(sg,
              "The tensor arena needs %zu bytes (%zu with the fastest kernels; lower bound %zu), "
              "more than the arena limit of %zu bytes.",
              m > 0 ? sg->arena_size : fast_size, fast_size, sg->arena_lower_bound, limit);
    st = EL_RUNTIME_ERROR;
  }
  int lo = 0, hi = m; /* lo fast users fit, hi do not */
  while (st == EL_OK && hi - lo > 1) {
    const int mid = lo + (hi - lo) / 2;
    st = try_fast(sg, users, m, mid, limit, prepared, &fits);
    if (fits) {
      lo = mid;
    } else {
      hi = mid;
    }
  }
  if (st == EL_OK && !fits) st = try_fast(sg, users, m, lo, limit, prepared, &fits);
  free(users);
  return st;
}

el_status el_subgraph_allocate(el_subgraph* sg) {
  el_status st = el_subgraph_check_consistent(sg);
  if (st != EL_OK) return st;
  if (sg->state == EL_STATE_READY && !sg->has_pending_resize) return EL_OK;
  sg->state = EL_STATE_UNPREPARED;
  drop_arena(sg);
  clear_uses(sg);
  if (apply_pending_resizes(sg) != kTfLiteOk) return EL_RUNTIME_ERROR;
  for (int i = 0; i < sg->num_nodes; ++i) sg->nodes[i]->small_scratch = 0;
  int prepared = 0;
  st = prepare_and_plan(sg, &prepared);
  if (st == EL_OK && sg->interp->arena_limit > 0 && sg->arena_size > sg->interp->arena_limit) {
    st = fit_limit(sg, &prepared);
  }
  if (st == EL_OK) st = el_arena_commit(sg);
  if (st == EL_OK) st = allocate_variables(sg);
  if (st != EL_OK) {
    drop_arena(sg);
    return st;
  }
  sg->state = EL_STATE_READY;
  return EL_OK;
}

/* A node prepared during invoke gets heap memory for whatever the arena plan did not cover. */
static TfLiteStatus back_with_heap(el_subgraph* sg, const TfLiteIntArray* a) {
  for (int k = 0; a != NULL && k < a->size; ++k) {
    int t = a->data[k];
    if (!el_is_arena_tensor(sg, t) || sg->extra[t].arena_offset >= 0) continue;
    if (el_tensor_realloc(sg, t, sg->ctx.tensors[t].bytes) != kTfLiteOk) return kTfLiteError;
  }
  return kTfLiteOk;
}

static TfLiteStatus prepare_deferred(el_subgraph* sg, int step) {
  int first_scratch = sg->num_scratch;
  sg->preparing = 1;
  TfLiteStatus st = prepare_node(sg, step);
  sg->preparing = 0;
  if (st != kTfLiteOk) return st;
  const TfLiteNode* nd = &sg->nodes[sg->plan->data[step]]->node;
  if (back_with_heap(sg, nd->outputs) != kTfLiteOk || back_with_heap(sg, nd->temporaries) != kTfLiteOk ||
      back_with_heap(sg, nd->intermediates) != kTfLiteOk) {
    el_report(sg, "Out of memory preparing node %d.", sg->plan->data[step]);
    return kTfLiteError;
  }
  for (int k = first_scratch; k < sg->num_scratch; ++k) {
    el_scratch* s = &sg->scratch[k];
    if (posix_memalign(&s->heap, 64, s->bytes ? s->bytes : 1) != 0) {
      s->heap = NULL;
      return kTfLiteError;
    }
  }
  return kTfLiteOk;
}

/* Deferred nodes request their scratch again each time they are prepared. */
static void drop_deferred_scratch(el_subgraph* sg) {
  int keep = sg->num_scratch;
  for (int k = 0; k < sg->num_scratch; ++k) {
    if (sg->scratch[k].node >= sg->deferred_from) {
      if (k < keep) keep = k;
      free(sg->scratch[k].heap);
      sg->scratch[k].heap = NULL;
    }
  }
  sg->num_scratch = keep;
}

/* A tensor a delegate left in its own buffer (data_is_stale) is copied back to CPU memory. */
static TfLiteStatus read_back(el_subgraph* sg, TfLiteTensor* tensor) {
  if (tensor->delegate == NULL || !tensor->data_is_stale || tensor->buffer_handle == kTfLiteNullBufferHandle ||
      tensor->delegate->CopyFromBufferHandle == NULL) {
    return kTfLiteOk;
  }
  if (tensor->delegate->CopyFromBufferHandle(&sg->ctx, tensor->delegate, tensor->buffer_handle, tensor) !=
      kTfLiteOk) {
    return kTfLiteError;
  }
  tensor->data_is_stale = false;
  return kTfLiteOk;
}

static TfLiteStatus check_inputs(el_subgraph* sg, const el_node* n) {
  const TfLiteNode* nd = &n->node;
  for (int k = 0; k < nd->inputs->size; ++k) {
    int t = k == 0 && n->pad_source > 0 ? n->pad_source - 1 : nd->inputs->data[k];
    if (t == kTfLiteOptionalTensor) continue;
    TfLiteTensor* tensor = &sg->ctx.tensors[t];
    if (tensor->delegate != nd->delegate && read_back(sg, tensor) != kTfLiteOk) return kTfLiteError;
    if (tensor->data.raw == NULL && tensor->bytes > 0) {
      /* RESHAPE may take its shape from the options and ignore the second input's data. */
      if (n->reg.builtin_code == EL_BUILTIN_RESHAPE && k == 1 && tensor->dims != NULL && tensor->dims->size != 1) {
        continue;
      }
      el_report(sg, "Input tensor %d lacks data", t);
      return kTfLiteError;
    }
  }
  return kTfLiteOk;
}

el_status el_subgraph_invoke(el_subgraph* sg) {
  if (sg->state != EL_STATE_READY) {
    el_report(sg, "Invoke called on model that is not ready.");
    return EL_RUNTIME_ERROR;
  }
  /* A control-flow op of a hostile model may call its own subgraph: refuse, do not recurse. */
  if (sg->invoking) {
    el_report(sg, "Subgraph %d is already running; recursive calls are not supported.", sg->index);
    return EL_RUNTIME_ERROR;
  }
  sg->invoking = 1;
  sg->resized_in_invoke = 0;
  el_status st = EL_OK;
  for (int step = 0; step < sg->plan->size; ++step) {
    int index = sg->plan->data[step];
    el_node* n = sg->nodes[index];
    sg->current_step = step;
    if (sg->deferred_from >= 0 && step >= sg->deferred_from &&
        (!sg->deferred_prepared || sg->resized_in_invoke)) {
      if (step == sg->deferred_from) drop_deferred_scratch(sg);
      if (prepare_deferred(sg, step) != kTfLiteOk) {
        st = EL_RUNTIME_ERROR;
        break;
      }
    }
    if (n->pad_folded) continue;
    const int64_t start_ns = sg->interp->profiling ? el_now_ns() : 0;
    if (check_inputs(sg, n) != kTfLiteOk || !el_kernel_has_invoke(&n->reg) ||
        el_kernel_call_invoke(&n->reg, &sg->ctx, &n->node) != kTfLiteOk) {
      el_report(sg, "Node number %d (%s) failed to invoke.", index, el_node_error_name(n));
      st = EL_RUNTIME_ERROR;
      break;
    }
    if (sg->interp->profiling) el_profile_record(sg, step, start_ns);
  }
  /* As TFLite's Invoke: outputs are readable afterwards, wherever a delegate left them. */
  for (int32_t k = 0; st == EL_OK && k < sg->desc->outputs.n; ++k) {
    int t = sg->desc->outputs.v[k];
    if (t >= 0 && read_back(sg, &sg->ctx.tensors[t]) != kTfLiteOk) {
      el_report(sg, "Could not read output tensor %d back from its delegate.", t);
      st = EL_RUNTIME_ERROR;
    }
  }
  if (st == EL_OK && sg->deferred_from >= 0) sg->deferred_prepared = 1;
  if (st != EL_OK && sg->deferred_from >= 0) sg->deferred_prepared = 0;
  sg->invoking = 0;
  return st;
}

void el_subgraph_release(el_subgraph* sg) {
  for (int i = 0; i < sg->num_nodes; ++i) {
    el_node* n = sg->nodes[i];
    if (n->initialized) el_kernel_call_free(&n->reg, &sg->ctx, n->node.user_data);
    /* Index arrays may be the model's own vectors (builder.c, freestanding). */
    const el_model* m = sg->interp->model;
    if (!el_model_holds(m, n->node.inputs)) TfLiteIntArrayFree(n->node.inputs);
    if (!el_model_holds(m, n->node.outputs)) TfLiteIntArrayFree(n->node.outputs);
    if (!el_model_holds(m, n->node.intermediates)) TfLiteIntArrayFree(n->node.intermediates);
    TfLiteIntArrayFree(n->node.temporaries);
  }
  free(sg->nodes);
  sg->nodes = NULL;
  sg->num_nodes = 0;
  drop_arena(sg);
  for (size_t i = 0; i < sg->ctx.tensors_size; ++i) {
    TfLiteTensor* t = &sg->ctx.tensors[i];
    if (t->buffer_handle != kTfLiteNullBufferHandle && t->delegate != NULL && t->delegate->FreeBufferHandle != NULL) {
      t->delegate->FreeBufferHandle(&sg->ctx, t->delegate, &t->buffer_handle);
    }
    el_release_tensor(sg, (int)i);
  }
  free(sg->ctx.tensors);
  free(sg->extra);
  free(sg->scratch);
  sg->ctx.tensors = NULL;
  sg->extra = NULL;
  sg->scratch = NULL;
  sg->ctx.tensors_size = 0;
  el_free_persistent(sg);
  el_free_preview(sg);
  sg->plan = NULL;
}
