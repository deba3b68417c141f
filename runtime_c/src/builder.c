/* Interpreter construction: resolve every operator code, build each subgraph's tensors and
 * nodes, and collect the signatures. Checks and messages follow TFLite's InterpreterBuilder. */
#define _POSIX_C_SOURCE 200809L
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "interp.h"
#include "cpu_backend.h"
#include "kernels/registry.h"
#include "op_names.h"

void* el_options_alloc(el_subgraph* sg, size_t bytes) { return el_pool_alloc(&sg->interp->pool, 1, bytes); }

/* The user's kernel for a custom op (name) or a builtin one (name NULL, code), if any. */
static const TfLiteRegistration* find_user_op(const el_interpreter_options* o, const char* name,
                                              int32_t code, int version) {
  for (int i = 0; i < o->num_custom_ops; ++i) {
    const el_custom_op* c = &o->custom_ops[i];
    if (c->registration == NULL) continue;
    if (name != NULL ? (c->name == NULL || strcmp(c->name, name) != 0)
                     : (c->name != NULL || c->builtin_code != code)) {
      continue;
    }
    if (c->version <= 0 || c->version == version) return c->registration;
  }
  return NULL;
}

/* One registration per operator code; custom codes nobody registered get a placeholder that
 * fails at prepare, because a delegate may still claim them. */
el_status el_resolve_opcodes(el_interpreter* it, const el_interpreter_options* o) {
  const el_model* m = it->model;
  it->opcode_regs = el_pool_alloc(&it->pool, (size_t)m->num_opcodes, sizeof(TfLiteRegistration*));
  it->unresolved_regs = el_pool_alloc(&it->pool, (size_t)m->num_opcodes, sizeof(TfLiteRegistration));
  if (it->opcode_regs == NULL || it->unresolved_regs == NULL) return EL_NO_MEMORY;
  el_kernel_tier tier = it->resolver == EL_RESOLVER_BUILTIN_REF ? EL_TIER_REFERENCE : it->backend->tier;
  for (int32_t i = 0; i < m->num_opcodes; ++i) {
    const el_opcode_desc* oc = &m->opcodes[i];
    int32_t code = oc->builtin_code;
    if (code < 0 || code >= EL_BUILTIN_COUNT) {
      el_err_append(&it->err,
                    "Op builtin_code out of range: %d. Are you using old TFLite binary with newer "
                    "model?",
                    (int)code);
      return EL_VALUE_ERROR;
    }
    if (code == EL_BUILTIN_CUSTOM) {
      if (oc->custom_code == NULL) {
        el_err_append(&it->err, "Operator with CUSTOM builtin_code has no custom_code.\n");
        el_err_append(&it->err, "Operator with CUSTOM builtin_code has no custom_code.\n");
        return EL_VALUE_ERROR;
      }
      const TfLiteRegistration* r = find_user_op(o, oc->custom_code, code, oc->version);
      /* The user's kernels win over the built-in ones of the same name, as in TFLite. */
      if (r == NULL) r = el_kernels_lookup_custom(oc->custom_code, oc->version, tier);
      if (r == NULL) {
        TfLiteRegistration* u = &it->unresolved_regs[i];
        u->builtin_code = EL_BUILTIN_CUSTOM;
        u->custom_name = oc->custom_code;
        u->version = 1;
        r = u;
      }
      it->opcode_regs[i] = r;
      continue;
    }
    /* As with custom ops, a kernel the user registered for a builtin op wins over ours. */
    const TfLiteRegistration* r = find_user_op(o, NULL, code, oc->version);
    if (r == NULL) r = el_kernels_lookup(code, oc->version, tier);
    if (r == NULL && el_builtin_name(code) == NULL) {
      /* A firmware build names only the ops of its selection (op_names.c). */
      el_err_append(&it->err,
                    "Didn't find op for builtin opcode %d version '%d': not in this build's op "
                    "selection.\n",
                    (int)code, (int)oc->version);
      return EL_VALUE_ERROR;
    }
    if (r == NULL) {
      el_err_append(&it->err,
                    "Didn't find op for builtin opcode '%s' version '%d'. An older version of "
                    "this builtin might be supported. Are you using an old TFLite binary with a "
                    "newer model?\n",
                    el_builtin_name(code), (int)oc->version);
      return EL_VALUE_ERROR;
    }
    it->opcode_regs[i] = r;
  }
  return EL_OK;
}

static TfLiteIntArray* int_array(const el_model* m, const el_int_list* l) {
#ifdef EDGELITE_FREESTANDING
  /* Firmware RAM: an index vector read in place is the TfLiteIntArray (never freed or written). */
  if (l->n > 0 && el_model_holds(m, l->v)) return (TfLiteIntArray*)(uintptr_t)(l->v - 1);
#else
  (void)m;
#endif
  TfLiteIntArray* a = TfLiteIntArrayCreate(l->n);
  if (a != NULL && l->n > 0) memcpy(a->data, l->v, sizeof(int) * (size_t)l->n);
  return a;
}

static el_status build_node(el_subgraph* sg, int op_index) {
  el_interpreter* it = sg->interp;
  const el_model* m = it->model;
  const el_operator_desc* op = &sg->desc->operators[op_index];
  if (op->opcode_index >= (uint32_t)m->num_opcodes) {
    el_report(sg, "Missing registration for opcode_index %u\n", (unsigned)op->opcode_index);
    return EL_VALUE_ERROR;
  }
  const TfLiteRegistration* reg = it->opcode_regs[op->opcode_index];
  const el_opcode_desc* oc = &m->opcodes[op->opcode_index];
  int32_t code = oc->builtin_code;
  el_node* n = NULL;
  int index = 0;
  if (el_add_node(sg, &n, &index) != kTfLiteOk) return EL_NO_MEMORY;
  n->op_index = op_index;
  n->reg = *reg;
  n->reg.builtin_code = code;
  n->reg.version = oc->version;
  n->unresolved = reg == &it->unresolved_regs[op->opcode_index];
  if (code == EL_BUILTIN_CUSTOM) n->reg.custom_name = oc->custom_code;
  n->node.inputs = int_array(m, &op->inputs);
  n->node.outputs = int_array(m, &op->outputs);
  n->node.intermediates = int_array(m, &op->intermediates);
  n->node.temporaries = TfLiteIntArrayCreate(0);
  if (!n->node.inputs || !n->node.outputs || !n->node.intermediates || !n->node.temporaries) {
    return EL_NO_MEMORY;
  }

  const char* init_data = NULL;
  size_t init_size = 0;
  if (code == EL_BUILTIN_CUSTOM) {
    if (op->has_custom_options) {
      init_data = (const char*)op->custom_options;
      init_size = op->custom_options_size;
    } else if (op->large_custom_options_offset > 1) {
      uint64_t off = op->large_custom_options_offset, size = op->large_custom_options_size;
      if (off > m->fb.size || size > m->fb.size - off) {
        el_report(sg, "Custom Option Offset for opcode_index %u is out of bound\n", (unsigned)op->opcode_index);
        return EL_VALUE_ERROR;
      }
      init_data = (const char*)m->fb.base + off;
      init_size = (size_t)size;
    }
    if (init_size > (size_t)INT32_MAX) {
      el_report(sg, "Custom options of operator %d are larger than 2 GB.", op_index);
      return EL_VALUE_ERROR;
    }
    n->node.custom_initial_data = init_data;
    n->node.custom_initial_data_size = (int)init_size;
  } else {
    if (op->has_custom_options) {
      el_report(sg, "Found builtin operator %s with custom options.\n", el_builtin_name(code));
    }
    if (el_parse_builtin_options(sg, code, op, &n->owned_builtin) != kTfLiteOk) return EL_VALUE_ERROR;
    n->node.builtin_data = n->owned_builtin;
    init_data = (const char*)n->owned_builtin;
    init_size = 0;
  }
  n->node.user_data = el_kernel_call_init(&n->reg, &sg->ctx, init_data, init_size);
  n->initialized = 1;
  return EL_OK;
}

el_status el_build_subgraph(el_interpreter* it, int index) {
  el_subgraph* sg = &it->subgraphs[index];
  const el_subgraph_desc* d = &it->model->subgraphs[index];
  sg->interp = it;
  sg->index = index;
  sg->desc = d;
  sg->deferred_from = -1;
  el_context_init(sg);
  if (!d->has_tensors) {
    el_report(sg, "Did not get tensors in subgraph %d.\n", index);
    return EL_VALUE_ERROR;
  }
  if (el_add_tensors(sg, d->num_tensors, NULL) != kTfLiteOk) return EL_NO_MEMORY;
  sg->num_model_tensors = d->num_tensors;
  el_status st = EL_OK;
  for (int32_t i = 0; i < d->num_tensors; ++i) {
    if (el_setup_model_tensor(sg, i) != kTfLiteOk) st = EL_VALUE_ERROR;
  }
  if (st != EL_OK) return st;
  for (int32_t i = 0; i < d->num_operators; ++i) {
    el_status s = build_node(sg, i);
    if (s == EL_NO_MEMORY) return s;
    if (s != EL_OK) st = s;
  }
  if (st != EL_OK) return st;
  sg->plan = el_pool_alloc(&it->pool, 1, (size_t)TfLiteIntArrayGetSizeInBytes(sg->num_nodes));
  if (sg->plan == NULL) return EL_NO_MEMORY;
  sg->plan->size = sg->num_nodes;
  for (int i = 0; i < sg->num_nodes; ++i) sg->plan->data[i] = i;
  return EL_OK;
}
