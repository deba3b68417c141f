/* Delegates: partitioning the nodes a delegate claims into subsets, replacing each subset by
 * one delegate kernel node, and undoing a failed application.
 *
 * Partitioning follows TFLite's greedy rule (graph_info.cc) so delegates see the same subsets
 * they would get there: the plan is swept in epochs; an epoch takes the type (claimed or not)
 * of the first node whose inputs are all computed, then every further such node of that type,
 * sweeping again until nothing more fits. Nodes with side effects keep their relative order.
 * So claimed nodes on independent branches join one subset, and the new plan lists the
 * epochs in order. A subset's input and output tensors are sorted and unique, as in TFLite. */
#include <stdlib.h>
#include <string.h>

#include "interp.h"
#include "op_names.h"

enum { EPOCH_NOT_READY = -1, EPOCH_ALWAYS_READY = -2 };

typedef struct partition {
  int num_subsets;
  int* claimed_subset; /* per subset: 1 when its nodes are claimed by the delegate */
  int* first;          /* per subset: its first entry in order[]; first[num_subsets] = plan size */
  int* order;          /* plan positions, grouped by subset */
  int* node_epoch;     /* per plan position: its subset */
  int* tensor_epoch;   /* per tensor: the subset computing it, EPOCH_ALWAYS_READY if none does */
} partition;

static TfLiteIntArray* pool_int_array(el_pool* pool, int n) {
  TfLiteIntArray* a = el_pool_alloc(pool, 1, (size_t)TfLiteIntArrayGetSizeInBytes(n));
  if (a != NULL) a->size = n;
  return a;
}

static void partition_free(partition* pt) {
  free(pt->claimed_subset);
  free(pt->first);
  free(pt->order);
  free(pt->node_epoch);
  free(pt->tensor_epoch);
  memset(pt, 0, sizeof *pt);
}

static const TfLiteNode* plan_node(const el_subgraph* sg, int position) {
  return &sg->nodes[sg->plan->data[position]]->node;
}

static int inputs_ready(const el_subgraph* sg, const TfLiteNode* nd, const int* tensor_epoch) {
  for (int k = 0; k < nd->inputs->size; ++k) {
    int t = nd->inputs->data[k];
    if (t >= 0 && (size_t)t < sg->ctx.tensors_size && tensor_epoch[t] == EPOCH_NOT_READY) return 0;
  }
  return 1;
}

/* The first plan position at or after `from` whose node has side effects; plan size if none. */
static int next_side_effect(const el_subgraph* sg, int from) {
  while (from < sg->plan->size && !plan_node(sg, from)->might_have_side_effect) ++from;
  return from;
}

/* Splits the current plan into epochs; 0 on success, -1 with a report on failure. */
static int partition_plan(el_subgraph* sg, const TfLiteIntArray* nodes, partition* pt) {
  const int n = sg->plan->size;
  const size_t nt = sg->ctx.tensors_size;
  memset(pt, 0, sizeof *pt);
  unsigned char* claimed = calloc((size_t)sg->num_nodes + 1, 1);
  pt->claimed_subset = malloc(sizeof(int) * (size_t)(n + 1));
  pt->first = malloc(sizeof(int) * (size_t)(n + 2));
  pt->order = malloc(sizeof(int) * (size_t)(n + 1));
  pt->node_epoch = malloc(sizeof(int) * (size_t)(n + 1));
  pt->tensor_epoch = malloc(sizeof(int) * (nt + 1));
  int rc = -1;
  if (!claimed || !pt->claimed_subset || !pt->first || !pt->order || !pt->node_epoch || !pt->tensor_epoch) {
    el_report(sg, "Out of memory partitioning the graph for a delegate.");
    goto done;
  }
  for (int i = 0; i < nodes->size; ++i) {
    int node = nodes->data[i];
    if (node < 0 || node >= sg->num_nodes) {
      el_report(sg, "Invalid node index %d in nodes_to_replace (the subgraph has %d nodes).", node,
                sg->num_nodes);
      goto done;
    }
    claimed[node] = 1;
  }
  for (size_t t = 0; t < nt; ++t) pt->tensor_epoch[t] = EPOCH_ALWAYS_READY;
  for (int p = 0; p < n; ++p) {
    const TfLiteNode* nd = plan_node(sg, p);
    pt->node_epoch[p] = EPOCH_NOT_READY;
    for (int k = 0; k < nd->outputs->size; ++k) {
      int t = nd->outputs->data[k];
      if (t >= 0 && (size_t)t < nt) pt->tensor_epoch[t] = EPOCH_NOT_READY;
    }
  }
  int assigned = 0, effect = next_side_effect(sg, 0);
  while (assigned < n) {
    const int epoch = pt->num_subsets;
    int type = -1;
    pt->first[epoch] = assigned;
    for (int progress = 1; progress;) {
      progress = 0;
      for (int p = 0; p < n; ++p) {
        const TfLiteNode* nd = plan_node(sg, p);
        if (pt->node_epoch[p] != EPOCH_NOT_READY || !inputs_ready(sg, nd, pt->tensor_epoch)) continue;
        if (nd->might_have_side_effect && p != effect) continue;
        int c = claimed[sg->plan->data[p]];
        if (type < 0) type = c;
        if (c != type) continue;
        pt->node_epoch[p] = epoch;
        pt->order[assigned++] = p;
        for (int k = 0; k < nd->outputs->size; ++k) {
          int t = nd->outputs->data[k];
          if (t >= 0 && (size_t)t < nt) pt->tensor_epoch[t] = epoch;
        }
        if (nd->might_have_side_effect) effect = next_side_effect(sg, p + 1);
        progress = 1;
      }
    }
    if (type < 0) {
      el_report(sg, "The execution plan has nodes whose inputs are never computed; cannot partition it.");
      goto done;
    }
    pt->claimed_subset[pt->num_subsets++] = type;
  }
  pt->first[pt->num_subsets] = assigned;
  rc = 0;
done:
  free(claimed);
  if (rc != 0) partition_free(pt);
  return rc;
}

static int cmp_int(const void* a, const void* b) {
  int x = *(const int*)a, y = *(const int*)b;
  return (x > y) - (x < y);
}

/* Sorts v[0..n) and drops repeats; returns the new count. */
static int sort_unique(int* v, int n) {
  if (n == 0) return 0;
  qsort(v, (size_t)n, sizeof *v, cmp_int);
  int m = 1;
  for (int i = 1; i < n; ++i) {
    if (v[i] != v[m - 1]) v[m++] = v[i];
  }
  return m;
}

static int is_graph_output(const el_subgraph* sg, int t) {
  for (int32_t k = 0; k < sg->desc->outputs.n; ++k) {
    if (sg->desc->outputs.v[k] == t) return 1;
  }
  return 0;
}

/* Whether tensor t (computed by subset s) is read by a node of another subset. */
static int read_outside(const el_subgraph* sg, const partition* pt, int s, int t) {
  for (int p = 0; p < sg->plan->size; ++p) {
    if (pt->node_epoch[p] == s) continue;
    const TfLiteIntArray* in = plan_node(sg, p)->inputs;
    for (int k = 0; k < in->size; ++k) {
      if (in->data[k] == t) return 1;
    }
  }
  return 0;
}

/* Fills a TfLiteDelegateParams for subset s; arrays come from `pool`. */
static int fill_params(el_subgraph* sg, el_pool* pool, const partition* pt, int s,
                       TfLiteDelegate* delegate, TfLiteDelegateParams* out) {
  const size_t nt = sg->ctx.tensors_size;
  int max_in = 0, max_out = 0;
  for (int i = pt->first[s]; i < pt->first[s + 1]; ++i) {
    const TfLiteNode* nd = plan_node(sg, pt->order[i]);
    max_in += nd->inputs->size;
    max_out += nd->outputs->size;
  }
  int* ins = malloc(sizeof(int) * (size_t)(max_in + 1));
  int* outs = malloc(sizeof(int) * (size_t)(max_out + 1));
  int ni = 0, no = 0, rc = -1;
  if (!ins || !outs) goto done;
  for (int i = pt->first[s]; i < pt->first[s + 1]; ++i) {
    const TfLiteNode* nd = plan_node(sg, pt->order[i]);
    for (int k = 0; k < nd->inputs->size; ++k) {
      int t = nd->inputs->data[k];
      if (t >= 0 && (size_t)t < nt && pt->tensor_epoch[t] != s) ins[ni++] = t;
    }
    for (int k = 0; k < nd->outputs->size; ++k) {
      int t = nd->outputs->data[k];
      if (t >= 0 && (size_t)t < nt && (is_graph_output(sg, t) || read_outside(sg, pt, s, t))) outs[no++] = t;
    }
  }
  ni = sort_unique(ins, ni);
  no = sort_unique(outs, no);
  const int count = pt->first[s + 1] - pt->first[s];
  out->delegate = delegate;
  out->nodes_to_replace = pool_int_array(pool, count);
  out->input_tensors = pool_int_array(pool, ni);
  out->output_tensors = pool_int_array(pool, no);
  if (!out->nodes_to_replace || !out->input_tensors || !out->output_tensors) goto done;
  for (int k = 0; k < count; ++k) out->nodes_to_replace->data[k] = sg->plan->data[pt->order[pt->first[s] + k]];
  if (ni) memcpy(out->input_tensors->data, ins, sizeof(int) * (size_t)ni);
  if (no) memcpy(out->output_tensors->data, outs, sizeof(int) * (size_t)no);
  rc = 0;
done:
  free(ins);
  free(outs);
  return rc;
}

void el_free_preview(el_subgraph* sg) {
  if (sg->preview_pool == NULL) return;
  el_pool_free(sg->preview_pool);
  free(sg->preview_pool);
  sg->preview_pool = NULL;
}

TfLiteStatus el_preview_partitioning(TfLiteContext* ctx, const TfLiteIntArray* nodes,
                                     TfLiteDelegateParams** params, int* num) {
  el_subgraph* sg = ctx->impl_;
  if (nodes == NULL || params == NULL || num == NULL) return kTfLiteError;
  el_free_preview(sg);
  partition pt;
  if (partition_plan(sg, nodes, &pt) != 0) return kTfLiteError;
  el_pool* pool = calloc(1, sizeof *pool);
  TfLiteStatus st = kTfLiteError;
  TfLiteDelegateParams* out = pool ? el_pool_alloc(pool, (size_t)pt.num_subsets + 1, sizeof *out) : NULL;
  if (out == NULL) goto done;
  int count = 0;
  for (int s = 0; s < pt.num_subsets; ++s) {
    if (!pt.claimed_subset[s]) continue;
    if (fill_params(sg, pool, &pt, s, NULL, &out[count++]) != 0) goto done;
  }
  sg->preview_pool = pool;
  pool = NULL;
  *params = out;
  *num = count;
  st = kTfLiteOk;
done:
  if (pool != NULL) {
    el_pool_free(pool);
    free(pool);
  }
  partition_free(&pt);
  return st;
}

TfLiteStatus el_replace_with_delegate(TfLiteContext* ctx, TfLiteRegistration reg,
                                      const TfLiteIntArray* nodes, TfLiteDelegate* delegate) {
  el_subgraph* sg = ctx->impl_;
  el_pool* pool = &sg->interp->pool;
  if (nodes == NULL) return kTfLiteError;
  if (nodes->size == 0) return kTfLiteOk;
  partition pt;
  if (partition_plan(sg, nodes, &pt) != 0) return kTfLiteError;
  TfLiteStatus st = kTfLiteError;
  TfLiteIntArray* plan = pool_int_array(pool, sg->plan->size);
  TfLiteDelegateParams* params = el_pool_alloc(pool, (size_t)pt.num_subsets + 1, sizeof *params);
  if (plan == NULL || params == NULL) goto done;
  for (int s = 0; s < pt.num_subsets; ++s) {
    if (pt.claimed_subset[s] && fill_params(sg, pool, &pt, s, delegate, &params[s]) != 0) goto done;
  }
  reg.builtin_code = EL_BUILTIN_DELEGATE;
  int size = 0;
  for (int s = 0; s < pt.num_subsets; ++s) {
    if (!pt.claimed_subset[s]) {
      for (int i = pt.first[s]; i < pt.first[s + 1]; ++i) plan->data[size++] = sg->plan->data[pt.order[i]];
      continue;
    }
    el_node* n = NULL;
    int index = 0;
    if (el_add_node(sg, &n, &index) != kTfLiteOk) goto done;
    n->reg = reg;
    n->node.inputs = TfLiteIntArrayCopy(params[s].input_tensors);
    n->node.outputs = TfLiteIntArrayCopy(params[s].output_tensors);
    n->node.intermediates = TfLiteIntArrayCreate(0);
    n->node.temporaries = TfLiteIntArrayCreate(0);
    n->node.builtin_data = &params[s];
    n->node.delegate = delegate;
    if (!n->node.inputs || !n->node.outputs || !n->node.intermediates || !n->node.temporaries) goto done;
    for (int k = 0; k < params[s].output_tensors->size; ++k) {
      sg->ctx.tensors[params[s].output_tensors->data[k]].delegate = delegate;
    }
    for (int i = pt.first[s]; i < pt.first[s + 1]; ++i) sg->nodes[sg->plan->data[pt.order[i]]]->delegated = 1;
    /* The kernel's init sees the original nodes still in place (libedgetpu reads them). */
    if (n->reg.init != NULL) n->node.user_data = n->reg.init(ctx, (const char*)&params[s], 0);
    if (n->node.user_data == TfLiteKernelInitFailed()) {
      /* Left uninitialized, so the rollback never hands the sentinel to the kernel's free. */
      el_report(sg, "Failed to initialize kernel.");
      goto done;
    }
    n->initialized = 1;
    plan->data[size++] = index;
  }
  plan->size = size;
  sg->plan = plan;
  sg->state = EL_STATE_UNPREPARED;
  st = kTfLiteOk;
done:
  partition_free(&pt);
  return st;
}

/* Drops delegate nodes added after `num_nodes` and restores the plan and tensor ownership. */
static void undo(el_subgraph* sg, TfLiteIntArray* plan, int num_nodes, TfLiteDelegate* delegate) {
  for (int i = num_nodes; i < sg->num_nodes; ++i) {
    el_node* n = sg->nodes[i];
    if (n->initialized && n->reg.free != NULL) n->reg.free(&sg->ctx, n->node.user_data);
    TfLiteIntArrayFree(n->node.inputs);
    TfLiteIntArrayFree(n->node.outputs);
    TfLiteIntArrayFree(n->node.intermediates);
    TfLiteIntArrayFree(n->node.temporaries);
  }
  sg->num_nodes = num_nodes;
  sg->plan = plan;
  /* Nodes an earlier delegate replaced are exactly those missing from the restored plan. */
  for (int i = 0; i < num_nodes; ++i) sg->nodes[i]->delegated = 1;
  for (int p = 0; p < plan->size; ++p) sg->nodes[plan->data[p]]->delegated = 0;
  for (size_t t = 0; t < sg->ctx.tensors_size; ++t) {
    if (sg->ctx.tensors[t].delegate == delegate) sg->ctx.tensors[t].delegate = NULL;
  }
}

el_status el_apply_delegate(el_subgraph* sg, TfLiteDelegate* delegate) {
  if (delegate->Prepare == NULL) {
    el_report(sg, "The delegate has no Prepare function.");
    return EL_VALUE_ERROR;
  }
  TfLiteIntArray* plan = sg->plan;
  int num_nodes = sg->num_nodes;
  int failed = delegate->Prepare(&sg->ctx, delegate) != kTfLiteOk;
  sg->state = EL_STATE_UNPREPARED;
  /* As TFLite: a delegate that cannot take dynamic tensors gets the graph prepared at once, so
   * its kernels' prepare errors surface here and roll the delegation back. */
  if (!failed && !(delegate->flags & kTfLiteDelegateFlagsAllowDynamicTensors)) {
    failed = el_subgraph_allocate(sg) != EL_OK;
  }
  if (failed) {
    undo(sg, plan, num_nodes, delegate);
    sg->state = EL_STATE_UNPREPARED;
    el_report(sg, "Restored original execution plan after delegate application failure.");
    return EL_RUNTIME_ERROR;
  }
  return EL_OK;
}
