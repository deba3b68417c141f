/* From prepared nodes to an arena plan: each arena tensor's lifetime over the execution plan,
 * tensors that share one buffer (the output of a RESHAPE-like op is its input's bytes), kernel
 * scratch living for one node, the alignment each buffer's element type needs, and the lower
 * bound any runtime running these nodes in this order must reach. */
#include <limits.h>
#include <stdint.h>
#include <stdlib.h>

#include "arena_plan.h"
#include "kernels/builtin_codes.h"
#include "planner.h"

int el_is_arena_tensor(const el_subgraph* sg, int t) {
  return t >= 0 && (size_t)t < sg->ctx.tensors_size && !sg->extra[t].is_constant &&
         sg->ctx.tensors[t].allocation_type == kTfLiteArenaRw;
}

/* What typed access to one element needs: its size, up to 8 (complex types: one part). */
static size_t element_align(TfLiteType type) {
  if (type == kTfLiteComplex64) return 4;
  if (type == kTfLiteComplex128) return 8;
  size_t size = 1;
  if (TfLiteTypeSizeOf(type, &size) != kTfLiteOk || size == 0) return 1;
  if (size > 8) return 8;
  return (size & (size - 1)) == 0 ? size : 8;
}

typedef struct span {
  int first;
  int last;
} span;

static void touch(span* s, int t, int step) {
  if (s[t].first > step) s[t].first = step;
  if (s[t].last < step) s[t].last = step;
}

static void touch_list(const el_subgraph* sg, span* s, const TfLiteIntArray* a, int step) {
  for (int k = 0; a != NULL && k < a->size; ++k) {
    if (el_is_arena_tensor(sg, a->data[k])) touch(s, a->data[k], step);
  }
}

static int in_list(const el_int_list* list, int t) {
  for (int32_t k = 0; k < list->n; ++k) {
    if (list->v[k] == t) return 1;
  }
  return 0;
}

/* Lifetimes over the prepared steps [0, prepared); tensors nobody touches keep last = -1. */
static void lifetimes(const el_subgraph* sg, int prepared, span* s) {
  const int last = prepared > 0 ? prepared - 1 : 0;
  for (size_t i = 0; i < sg->ctx.tensors_size; ++i) s[i] = (span){INT_MAX, -1};
  /* Graph inputs are written before the first node. Unless the caller allowed their reuse they
   * stay readable to the end, so invoking again without setting them gives the same result. */
  for (int32_t k = 0; k < sg->desc->inputs.n; ++k) {
    int t = sg->desc->inputs.v[k];
    if (!el_is_arena_tensor(sg, t)) continue;
    touch(s, t, 0);
    if (!sg->interp->reuse_inputs) touch(s, t, last);
  }
  for (int step = 0; step < prepared; ++step) {
    const el_node* n = sg->nodes[sg->plan->data[step]];
    const TfLiteNode* nd = &n->node;
    if (n->pad_folded) continue; /* its output is read by nobody: no memory */
    touch_list(sg, s, nd->inputs, step);
    if (n->pad_source > 0) {
      /* It reads the unpadded tensor, not its input 0 (which then has no lifetime at all). */
      if (nd->inputs->data[0] >= 0) s[nd->inputs->data[0]] = (span){INT_MAX, -1};
      if (el_is_arena_tensor(sg, n->pad_source - 1)) touch(s, n->pad_source - 1, step);
    }
    touch_list(sg, s, nd->outputs, step);
    touch_list(sg, s, nd->temporaries, step);
    touch_list(sg, s, nd->intermediates, step);
  }
  /* Tensors handed to nodes prepared later, and graph outputs, must survive to the end. */
  for (int step = prepared; step < sg->plan->size; ++step) {
    const TfLiteNode* nd = &sg->nodes[sg->plan->data[step]]->node;
    for (int k = 0; k < nd->inputs->size; ++k) {
      int t = nd->inputs->data[k];
      if (el_is_arena_tensor(sg, t) && s[t].last >= 0) s[t].last = last;
    }
  }
  for (int32_t k = 0; k < sg->desc->outputs.n; ++k) {
    int t = sg->desc->outputs.v[k];
    if (el_is_arena_tensor(sg, t) && s[t].last >= 0) s[t].last = last;
  }
}

static int is_alias_op(const el_node* n) {
  if (n->delegated || n->pad_folded || n->unresolved) return 0;
  const int32_t code = n->reg.builtin_code;
  return code == EL_OP_RESHAPE || code == EL_OP_SQUEEZE || code == EL_OP_EXPAND_DIMS ||
         code == EL_OP_BITCAST;
}

static int find_root(int* parent, int t) {
  while (parent[t] != t) {
    parent[t] = parent[parent[t]];
    t = parent[t];
  }
  return t;
}

/* parent[t]: the tensor whose buffer t shares (itself when none). A RESHAPE-like op only copies
 * its input's bytes unchanged, so its output can be those bytes when no node ever writes either
 * tensor again: each has at most its one producer (graph inputs: none), and the output is not a
 * graph output (the caller may read it after writing the inputs for the next invoke). The
 * kernels skip the copy when input and output share data. */
static void alias_groups(const el_subgraph* sg, int prepared, const span* s, int* parent) {
  const size_t nt = sg->ctx.tensors_size;
  for (size_t i = 0; i < nt; ++i) parent[i] = (int)i;
  if (sg->interp->preserve_all_tensors) return;
  int* writers = calloc(nt ? nt : 1, sizeof *writers);
  if (writers == NULL) return; /* no sharing: a valid, larger plan */
  for (int step = 0; step < sg->plan->size; ++step) {
    const TfLiteNode* nd = &sg->nodes[sg->plan->data[step]]->node;
    for (int k = 0; k < nd->outputs->size; ++k) {
      int t = nd->outputs->data[k];
      if (t >= 0 && (size_t)t < nt) ++writers[t];
    }
  }
  for (int step = 0; step < prepared; ++step) {
    const el_node* n = sg->nodes[sg->plan->data[step]];
    const TfLiteNode* nd = &n->node;
    if (!is_alias_op(n) || nd->inputs->size < 1 || nd->outputs->size != 1) continue;
    const int in = nd->inputs->data[0], out = nd->outputs->data[0];
    if (in == out || !el_is_arena_tensor(sg, in) || !el_is_arena_tensor(sg, out)) continue;
    if (s[in].last < 0 || s[out].last < 0) continue;
    if (sg->ctx.tensors[in].bytes != sg->ctx.tensors[out].bytes) continue;
    if (writers[in] > 1 || writers[out] != 1 || in_list(&sg->desc->outputs, out)) continue;
    const int ri = find_root(parent, in), ro = find_root(parent, out);
    if (ri != ro) parent[ro] = ri;
  }
  free(writers);
}

/* The lower bound: the most bytes of model tensors alive at one step, each group of tensors
 * holding the same bytes counted once, without kernel scratch, kernel temporaries or
 * intermediates (a runtime's own choices) and without alignment. */
static size_t lower_bound(const el_subgraph* sg, int prepared, const span* s, const int* parent,
                          el_plan_item* items) {
  const size_t nt = sg->ctx.tensors_size;
  int* kernel_owned = calloc(nt ? nt : 1, sizeof *kernel_owned);
  if (kernel_owned == NULL) return 0;
  for (int step = 0; step < prepared; ++step) {
    const TfLiteNode* nd = &sg->nodes[sg->plan->data[step]]->node;
    const TfLiteIntArray* lists[2] = {nd->temporaries, nd->intermediates};
    for (int l = 0; l < 2; ++l) {
      for (int k = 0; lists[l] != NULL && k < lists[l]->size; ++k) {
        int t = lists[l]->data[k];
        if (t >= 0 && (size_t)t < nt) kernel_owned[t] = 1;
      }
    }
  }
  int n = 0;
  for (size_t i = 0; i < nt; ++i) {
    if (s[i].last < 0 || kernel_owned[i] || parent[i] != (int)i) continue;
    items[n] = (el_plan_item){sg->ctx.tensors[i].bytes, s[i].first, s[i].last, 0, 1};
    ++n;
  }
  free(kernel_owned);
  return el_plan_peak(items, n);
}

el_status el_arena_plan(el_subgraph* sg, int prepared) {
  const size_t nt = sg->ctx.tensors_size;
  const int last = prepared > 0 ? prepared - 1 : 0;
  span* s = malloc((nt ? nt : 1) * sizeof *s);
  int* parent = malloc((nt ? nt : 1) * sizeof *parent);
  int* slot = malloc((nt ? nt : 1) * sizeof *slot);
  el_plan_item* items = malloc((nt + (size_t)sg->num_scratch + 1) * sizeof *items);
  el_status st = EL_OK;
  if (s == NULL || parent == NULL || slot == NULL || items == NULL) {
    st = EL_NO_MEMORY;
    goto out;
  }
  lifetimes(sg, prepared, s);
  if (sg->interp->preserve_all_tensors) {
    for (size_t i = 0; i < nt; ++i) {
      if (s[i].last >= 0) s[i] = (span){0, last};
    }
  }
  alias_groups(sg, prepared, s, parent);
  /* A group lives from its first member's first step to its last member's last. */
  for (size_t i = 0; i < nt; ++i) {
    if (s[i].last < 0) continue;
    const int r = find_root(parent, (int)i);
    parent[i] = r;
    if (r == (int)i) continue;
    if (s[i].first < s[r].first) s[r].first = s[i].first;
    if (s[i].last > s[r].last) s[r].last = s[i].last;
  }
  sg->arena_lower_bound = lower_bound(sg, prepared, s, parent, items);
  int n = 0;
  for (size_t i = 0; i < nt; ++i) {
    slot[i] = -1;
    if (s[i].last < 0 || parent[i] != (int)i) continue;
    slot[i] = n;
    items[n] = (el_plan_item){sg->ctx.tensors[i].bytes, s[i].first, s[i].last, 0,
                              element_align(sg->ctx.tensors[i].type)};
    ++n;
  }
  for (size_t i = 0; i < nt; ++i) {
    if (s[i].last < 0 || parent[i] == (int)i) continue;
    el_plan_item* g = &items[slot[parent[i]]];
    const TfLiteTensor* t = &sg->ctx.tensors[i];
    if (t->bytes > g->size) g->size = t->bytes;
    if (element_align(t->type) > g->align) g->align = element_align(t->type);
  }
  for (int k = 0; k < sg->num_scratch; ++k) {
    const int step = sg->scratch[k].node < last ? sg->scratch[k].node : last;
    items[n + k] = (el_plan_item){sg->scratch[k].bytes, step, step, 0, sg->scratch[k].align};
  }
  size_t total = 0, peak = 0;
  if (el_plan_arena(items, n + sg->num_scratch, 1, &total, &peak) != 0) {
    st = EL_NO_MEMORY;
    goto out;
  }
  sg->arena_size = total;
  for (size_t i = 0; i < nt; ++i) {
    if (s[i].last < 0) continue;
    el_tensor_extra* x = &sg->extra[i];
    x->arena_offset = (int64_t)items[slot[parent[i]]].offset;
    x->arena_bytes = sg->ctx.tensors[i].bytes;
  }
  for (int k = 0; k < sg->num_scratch; ++k) sg->scratch[k].arena_offset = (int64_t)items[n + k].offset;
out:
  free(s);
  free(parent);
  free(slot);
  free(items);
  return st;
}

el_status el_arena_commit(el_subgraph* sg) {
  const size_t total = sg->arena_size;
  /* Zero-byte scratch buffers still get a valid address. */
  if (total > 0 || sg->num_scratch > 0) {
    /* calloc leaves large arenas to lazily zeroed pages; 64 bytes align the start and 64 more
     * stay readable past the last buffer, which now ends exactly where its data does. */
    uint8_t* raw = total <= SIZE_MAX - 128 ? calloc(1, total + 128) : NULL;
    if (raw == NULL) {
      el_report(sg, "Out of memory allocating a %zu byte tensor arena.", total);
      return EL_NO_MEMORY;
    }
    sg->arena_raw = raw;
    sg->arena = raw + ((64 - ((uintptr_t)raw & 63)) & 63);
  }
  for (size_t i = 0; i < sg->ctx.tensors_size; ++i) {
    const el_tensor_extra* x = &sg->extra[i];
    if (x->arena_offset < 0 || !el_is_arena_tensor(sg, (int)i)) continue;
    TfLiteTensor* t = &sg->ctx.tensors[i];
    t->data.raw = t->bytes ? (char*)sg->arena + x->arena_offset : NULL;
  }
  return EL_OK;
}
