/* Public arena options and the read-out of the arena plan (edgelite.h). */
#include "interp.h"

static el_subgraph* subgraph_of(const el_interpreter* it, int subgraph) {
  if (it == NULL || subgraph < 0 || subgraph >= it->num_subgraphs) return NULL;
  return &it->subgraphs[subgraph];
}

el_status el_interpreter_set_arena_options(el_interpreter* it, size_t limit, int reuse_inputs) {
  if (it == NULL) return EL_VALUE_ERROR;
  if (it->arena_limit == limit && it->reuse_inputs == (reuse_inputs != 0)) return EL_OK;
  it->arena_limit = limit;
  it->reuse_inputs = reuse_inputs != 0;
  /* The plan changes: the next allocate_tensors prepares and plans again. */
  for (int i = 0; i < it->num_subgraphs; ++i) it->subgraphs[i].state = EL_STATE_UNPREPARED;
  return EL_OK;
}

el_status el_interpreter_arena_tensor(const el_interpreter* it, int subgraph, int tensor,
                                      int64_t* offset, size_t* bytes) {
  const el_subgraph* sg = subgraph_of(it, subgraph);
  if (sg == NULL || offset == NULL || bytes == NULL || tensor < 0 ||
      (size_t)tensor >= sg->ctx.tensors_size) {
    return EL_VALUE_ERROR;
  }
  const el_tensor_extra* x = &sg->extra[tensor];
  const int planned = sg->arena != NULL && x->arena_offset >= 0 &&
                      sg->ctx.tensors[tensor].allocation_type == kTfLiteArenaRw;
  *offset = planned ? x->arena_offset : -1;
  *bytes = planned ? x->arena_bytes : 0;
  return EL_OK;
}

el_status el_interpreter_arena_scratch(const el_interpreter* it, int subgraph, int k, int* node,
                                       int64_t* offset, size_t* bytes) {
  const el_subgraph* sg = subgraph_of(it, subgraph);
  if (sg == NULL || node == NULL || offset == NULL || bytes == NULL || k < 0 || k >= sg->num_scratch) {
    return EL_VALUE_ERROR;
  }
  const el_scratch* s = &sg->scratch[k];
  *node = sg->plan != NULL && s->node >= 0 && s->node < sg->plan->size ? sg->plan->data[s->node] : -1;
  *offset = s->arena_offset;
  *bytes = s->bytes;
  return EL_OK;
}

el_status el_interpreter_node_small_scratch(const el_interpreter* it, int subgraph, int node,
                                            int* small) {
  const el_subgraph* sg = subgraph_of(it, subgraph);
  if (sg == NULL || small == NULL || node < 0 || node >= sg->num_nodes) return EL_VALUE_ERROR;
  *small = sg->nodes[node]->small_scratch;
  return EL_OK;
}
