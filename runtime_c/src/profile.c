/* Op profiling (like TFLite's benchmark_model --enable_op_profiling): the wall time of every
 * execution-plan step, summed over the invokes since profiling was enabled. The records are
 * allocated when profiling is enabled, so timed invokes allocate nothing. */
#include <stdlib.h>
#include <string.h>

#include "interp.h"
#include "cpu_backend.h"

void el_profile_record(el_subgraph* sg, int step, int64_t start_ns) {
  if (step < 0 || step >= sg->profile_cap) return;
  const int64_t ns = el_now_ns() - start_ns;
  el_step_profile* p = &sg->profile[step];
  p->invocations += 1;
  p->total_ns += ns;
  p->last_ns = ns;
}

void el_profile_release(el_subgraph* sg) {
  free(sg->profile);
  sg->profile = NULL;
  sg->profile_cap = 0;
}

el_status el_interpreter_set_profiling(el_interpreter* it, int enabled) {
  if (it == NULL) return EL_VALUE_ERROR;
  it->profiling = 0;
  for (int i = 0; i < it->num_subgraphs; ++i) el_profile_release(&it->subgraphs[i]);
  if (!enabled) return EL_OK;
  for (int i = 0; i < it->num_subgraphs; ++i) {
    el_subgraph* sg = &it->subgraphs[i];
    /* A plan never has more steps than the subgraph has nodes. */
    const int cap = sg->num_nodes > 0 ? sg->num_nodes : 1;
    sg->profile = calloc((size_t)cap, sizeof *sg->profile);
    if (sg->profile == NULL) {
      for (int j = 0; j <= i; ++j) el_profile_release(&it->subgraphs[j]);
      return EL_NO_MEMORY;
    }
    sg->profile_cap = cap;
  }
  it->profiling = 1;
  return EL_OK;
}

el_status el_interpreter_profile_steps(const el_interpreter* it, int subgraph, int* steps) {
  if (it == NULL || steps == NULL || subgraph < 0 || subgraph >= it->num_subgraphs) {
    return EL_VALUE_ERROR;
  }
  const el_subgraph* sg = &it->subgraphs[subgraph];
  *steps = sg->plan ? sg->plan->size : 0;
  if (*steps > sg->profile_cap) *steps = sg->profile_cap;
  return EL_OK;
}

el_status el_interpreter_profile_entry(const el_interpreter* it, int subgraph, int step,
                                       el_op_profile* out) {
  int steps = 0;
  if (out == NULL || el_interpreter_profile_steps(it, subgraph, &steps) != EL_OK) {
    return EL_VALUE_ERROR;
  }
  if (step < 0 || step >= steps) return EL_VALUE_ERROR;
  const el_subgraph* sg = &it->subgraphs[subgraph];
  const int index = sg->plan->data[step];
  const el_node* n = sg->nodes[index];
  memset(out, 0, sizeof *out);
  out->op_name = el_node_info_name(n);
  out->node_index = index;
  out->delegated = n->op_index < 0;
  out->invocations = sg->profile[step].invocations;
  out->total_ns = sg->profile[step].total_ns;
  out->last_ns = sg->profile[step].last_ns;
  return EL_OK;
}

const char* el_cpu_isa_levels(void) { return el_cpu_isas(); }

int el_cpu_amx_int8(void) { return el_isa_amx_int8_ready() ? 1 : 0; }

el_status el_interpreter_kernel_config(const el_interpreter* it, const char** tier,
                                       const char** isa) {
  if (it == NULL || it->backend == NULL) return EL_VALUE_ERROR;
  const int reference =
      it->resolver == EL_RESOLVER_BUILTIN_REF || it->backend->tier == EL_TIER_REFERENCE;
  if (tier != NULL) *tier = reference ? "reference" : "optimized";
  if (isa != NULL) *isa = el_isa_name(it->backend->isa);
  return EL_OK;
}
