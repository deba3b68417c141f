/* The public interpreter API (edgelite.h): creation and destruction, the call-order rules,
 * and read-only views of tensors, ops and signatures. */
#define _POSIX_C_SOURCE 200809L
#include <stdlib.h>
#include <string.h>

#include "interp.h"
#include "cpu_backend.h"
#include "op_names.h"

static const el_interpreter_options kDefaults = {1, EL_RESOLVER_AUTO, 0, NULL, 0, NULL, NULL};

static el_subgraph* get_sg(const el_interpreter* it, int subgraph) {
  if (it == NULL || subgraph < 0 || subgraph >= it->num_subgraphs) return NULL;
  return &it->subgraphs[subgraph];
}

/* Getters take a const interpreter but still leave their reason in the error text. */
static el_status fail(const el_interpreter* it, el_status st, const char* fmt, ...)
    __attribute__((format(printf, 3, 4)));
static el_status fail(const el_interpreter* it, el_status st, const char* fmt, ...) {
  if (it == NULL) return st;
  el_errbuf* e = (el_errbuf*)&it->err;
  el_err_clear(e);
  va_list ap;
  va_start(ap, fmt);
  el_err_vappend(e, fmt, ap);
  va_end(ap);
  return st;
}
#ifdef EDGELITE_STRIP_ERROR_TEXT
#define fail(it, st, ...) fail(it, st, "edgelite error at %s:%d", EL_ERR_WHERE) /* error.h */
#endif

static el_status bad_subgraph(const el_interpreter* it, int subgraph) {
  return fail(it, EL_VALUE_ERROR, "Invalid subgraph index %d exceeds max subgraph index %d", subgraph,
              it ? it->num_subgraphs - 1 : -1);
}

static el_status build_signatures(el_interpreter* it) {
  const el_model* m = it->model;
  it->num_signatures = m->num_signatures;
  it->signatures = el_pool_alloc(&it->pool, (size_t)m->num_signatures, sizeof(el_signature_info));
  if (it->signatures == NULL) return EL_NO_MEMORY;
  for (int32_t i = 0; i < m->num_signatures; ++i) {
    const el_signature_desc* d = &m->signatures[i];
    el_signature_info* s = &it->signatures[i];
    if (d->key == NULL) {
      el_err_append(&it->err, "Missing exported method name for SignatureDef");
      return EL_VALUE_ERROR;
    }
    if (d->subgraph_index >= (uint32_t)it->num_subgraphs) {
      el_err_append(&it->err, "SignatureDef '%s' refers to subgraph %u but the model has %d.", d->key,
                    (unsigned)d->subgraph_index, it->num_subgraphs);
      return EL_VALUE_ERROR;
    }
    int32_t nt = m->subgraphs[d->subgraph_index].num_tensors;
    for (int32_t k = 0; k < d->num_inputs + d->num_outputs; ++k) {
      int32_t t = k < d->num_inputs ? d->input_tensors[k] : d->output_tensors[k - d->num_inputs];
      if (t < 0 || t >= nt) {
        el_err_append(&it->err, "SignatureDef '%s' refers to tensor %d but its subgraph has %d.",
                      d->key, (int)t, (int)nt);
        return EL_VALUE_ERROR;
      }
    }
    s->key = d->key;
    s->subgraph_index = (int32_t)d->subgraph_index;
    s->num_inputs = d->num_inputs;
    s->input_names = d->input_names;
    s->input_tensors = d->input_tensors;
    s->num_outputs = d->num_outputs;
    s->output_names = d->output_names;
    s->output_tensors = d->output_tensors;
  }
  return EL_OK;
}

static el_status create(el_interpreter* it, const el_interpreter_options* o) {
  const el_model* m = it->model;
  if (m->version != EL_SCHEMA_VERSION) {
    el_err_append(&it->err, "Model provided is schema version %u not equal to supported version %d.\n",
                  (unsigned)m->version, EL_SCHEMA_VERSION);
    return EL_VALUE_ERROR;
  }
  el_status st = el_resolve_opcodes(it, o);
  if (st != EL_OK) {
    el_err_append(&it->err, "Registration failed.\n");
    return st;
  }
  if (!m->has_subgraphs || m->num_subgraphs == 0) {
    el_err_append(&it->err, "No subgraph in the model.\n");
    return EL_VALUE_ERROR;
  }
  if (!m->has_buffers) {
    el_err_append(&it->err, "No buffers in the model.\n");
    return EL_VALUE_ERROR;
  }
  it->subgraphs = calloc((size_t)m->num_subgraphs, sizeof(el_subgraph));
  if (it->subgraphs == NULL) return EL_NO_MEMORY;
  it->num_subgraphs = m->num_subgraphs;
  for (int i = 0; i < it->num_subgraphs; ++i) {
    st = el_build_subgraph(it, i);
    if (st != EL_OK) return st;
  }
  return build_signatures(it);
}

el_status el_interpreter_create(const el_model* model, const el_interpreter_options* options,
                                el_interpreter** out, char* err, size_t err_cap) {
  if (out == NULL || model == NULL) {
    el_set_error(err, err_cap, "No model or output pointer for the interpreter");
    return EL_VALUE_ERROR;
  }
  *out = NULL;
  const el_interpreter_options* o = options ? options : &kDefaults;
  if (o->num_threads < 1) {
    el_set_error(err, err_cap, "num_threads should >= 1");
    return EL_VALUE_ERROR;
  }
  if (o->resolver < EL_RESOLVER_AUTO || o->resolver > EL_RESOLVER_BUILTIN_WITHOUT_DEFAULT_DELEGATES) {
    el_set_error(err, err_cap, "Unknown op resolver type %d", o->resolver);
    return EL_VALUE_ERROR;
  }
  if (o->num_custom_ops < 0 || (o->num_custom_ops > 0 && o->custom_ops == NULL)) {
    el_set_error(err, err_cap, "Invalid custom op list");
    return EL_VALUE_ERROR;
  }
  el_interpreter* it = calloc(1, sizeof *it);
  if (it == NULL) {
    el_set_error(err, err_cap, "Out of memory creating the interpreter");
    return EL_NO_MEMORY;
  }
  it->model = model;
  it->num_threads = o->num_threads;
  it->resolver = o->resolver;
  it->preserve_all_tensors = o->preserve_all_tensors != 0;
  el_status st = el_cpu_backend_create(o->kernel_tier, o->isa, o->num_threads, &it->backend, err,
                                       err_cap);
  if (st != EL_OK) {
    el_interpreter_destroy(it);
    return st;
  }
  st = create(it, o);
  if (st != EL_OK) {
    if (st == EL_NO_MEMORY && it->err.len == 0) el_err_append(&it->err, "Out of memory");
    el_err_copy_out(&it->err, err, err_cap);
    el_interpreter_destroy(it);
    return st;
  }
  el_err_clear(&it->err);
  *out = it;
  return EL_OK;
}

void el_interpreter_destroy(el_interpreter* it) {
  if (it == NULL) return;
  for (int i = 0; i < it->num_subgraphs; ++i) {
    if (it->subgraphs[i].interp != NULL) el_subgraph_release(&it->subgraphs[i]);
    el_profile_release(&it->subgraphs[i]);
  }
  free(it->subgraphs);
  if (it->free_resources != NULL) it->free_resources(it->resources);
  el_cpu_backend_destroy(it->backend);
  el_pool_free(&it->pool);
  free(it);
}

const char* el_interpreter_error(const el_interpreter* it) { return it ? it->err.text : ""; }

el_status el_interpreter_modify_graph_with_delegate(el_interpreter* it, void* delegate) {
  if (it == NULL) return EL_VALUE_ERROR;
  el_err_clear(&it->err);
  if (delegate == NULL) return fail(it, EL_VALUE_ERROR, "Null delegate.");
  for (int i = 0; i < it->num_subgraphs; ++i) {
    el_subgraph* sg = &it->subgraphs[i];
    el_status st = el_subgraph_check_consistent(sg);
    if (st == EL_OK) st = el_apply_delegate(sg, (TfLiteDelegate*)delegate);
    if (st != EL_OK) return st;
  }
  return EL_OK;
}

el_status el_interpreter_allocate_tensors(el_interpreter* it, int subgraph) {
  el_subgraph* sg = get_sg(it, subgraph);
  if (sg == NULL) return bad_subgraph(it, subgraph);
  el_err_clear(&it->err);
  return el_subgraph_allocate(sg);
}

el_status el_interpreter_invoke(el_interpreter* it, int subgraph) {
  el_subgraph* sg = get_sg(it, subgraph);
  if (sg == NULL) return bad_subgraph(it, subgraph);
  el_err_clear(&it->err);
  return el_subgraph_invoke(sg);
}

/* Appends to the error text (kernels call this mid-run) and returns `st`. */
static el_status report_status(el_subgraph* sg, el_status st, const char* fmt, ...)
    __attribute__((format(printf, 3, 4)));
static el_status report_status(el_subgraph* sg, el_status st, const char* fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  el_err_vappend(&sg->interp->err, fmt, ap);
  va_end(ap);
  return st;
}
#ifdef EDGELITE_STRIP_ERROR_TEXT
#define report_status(sg, st, ...) report_status(sg, st, "edgelite error at %s:%d", EL_ERR_WHERE)
#endif

el_status el_subgraph_resize_input(el_subgraph* sg, int tensor_index, const int* dims, int ndims,
                                   int strict) {
  if (ndims < 0 || (ndims > 0 && dims == NULL)) return report_status(sg, EL_VALUE_ERROR, "Invalid shape");
  int is_input = 0;
  for (int32_t k = 0; k < sg->desc->inputs.n; ++k) is_input |= sg->desc->inputs.v[k] == tensor_index;
  if (!is_input || tensor_index < 0 || (size_t)tensor_index >= sg->ctx.tensors_size) {
    return report_status(sg, EL_VALUE_ERROR, "ResizeInputTensor is disallowed on tensor %d: it is not an input",
                tensor_index);
  }
  TfLiteTensor* t = &sg->ctx.tensors[tensor_index];
  if (strict) {
    const TfLiteIntArray* sig = t->dims_signature;
    if (sig == NULL || sig->size == 0) sig = t->dims;
    if (sig->size != ndims) {
      return report_status(sg, EL_RUNTIME_ERROR,
                  "Attempting to resize tensor %d of rank %d to rank %d. "
                  "ResizeInputTensorStrict only allows mutating unknown dimensions identified by -1.",
                  tensor_index, sig->size, ndims);
    }
    for (int i = 0; i < ndims; ++i) {
      if (sig->data[i] != -1 && sig->data[i] != dims[i]) {
        return report_status(sg, EL_RUNTIME_ERROR,
                    "Attempting to resize dimension %d of tensor %d with value %d to %d. "
                    "ResizeInputTensorStrict only allows mutating unknown dimensions identified by -1.",
                    i, tensor_index, sig->data[i], dims[i]);
      }
    }
  }
  for (int i = 0; i < ndims; ++i) {
    if (dims[i] < 0) return report_status(sg, EL_VALUE_ERROR, "Dimension %d of the new shape is negative", i);
  }
  size_t count = 0;
  if (el_element_count(dims, ndims, &count) != kTfLiteOk) {
    return report_status(sg, EL_RUNTIME_ERROR, "BytesRequired number of elements overflowed.\n");
  }
  if (t->allocation_type == kTfLiteMmapRo) {
    return report_status(sg, EL_VALUE_ERROR, "Attempting to resize a fixed-size tensor.");
  }
  TfLiteIntArray* pending = sg->extra[tensor_index].pending_dims;
  const TfLiteIntArray* current = pending ? pending : t->dims;
  if (TfLiteIntArrayEqualsArray(current, ndims, dims)) return EL_OK;
  TfLiteIntArray* a = TfLiteIntArrayCreate(ndims);
  if (a == NULL) return report_status(sg, EL_NO_MEMORY, "Out of memory");
  if (ndims > 0) memcpy(a->data, dims, sizeof(int) * (size_t)ndims);
  TfLiteIntArrayFree(pending);
  sg->extra[tensor_index].pending_dims = a;
  sg->has_pending_resize = 1;
  /* As in TFLite, the graph cannot run again until allocate_tensors has re-planned it. */
  sg->state = EL_STATE_UNPREPARED;
  /* A resize back to the allocated shape needs no new plan. */
  if (TfLiteIntArrayEqual(a, t->dims)) {
    TfLiteIntArrayFree(a);
    sg->extra[tensor_index].pending_dims = NULL;
    int any = 0;
    for (size_t i = 0; i < sg->ctx.tensors_size; ++i) any |= sg->extra[i].pending_dims != NULL;
    sg->has_pending_resize = any;
  }
  return EL_OK;
}

el_status el_interpreter_resize_input(el_interpreter* it, int subgraph, int tensor_index,
                                      const int32_t* dims, int ndims, int strict) {
  el_subgraph* sg = get_sg(it, subgraph);
  if (sg == NULL) return bad_subgraph(it, subgraph);
  el_err_clear(&it->err);
  /* The public API speaks int32_t, the TfLite ABI int: the same 32-bit integer (static-asserted in interp.h). */
  return el_subgraph_resize_input(sg, tensor_index, (const int*)dims, ndims, strict);
}

el_status el_interpreter_reset_variables(el_interpreter* it) {
  if (it == NULL) return EL_VALUE_ERROR;
  el_err_clear(&it->err);
  for (int i = 0; i < it->num_subgraphs; ++i) el_subgraph_reset_variables(&it->subgraphs[i]);
  return EL_OK;
}

el_status el_interpreter_set_num_threads(el_interpreter* it, int num_threads) {
  if (it == NULL) return EL_VALUE_ERROR;
  if (num_threads < 1) return fail(it, EL_VALUE_ERROR, "num_threads should >= 1");
  if (el_cpu_backend_set_threads(it->backend, num_threads) != EL_OK) {
    return fail(it, EL_NO_MEMORY, "Could not start %d threads", num_threads);
  }
  it->num_threads = num_threads;
  /* External contexts are left alone: libedgetpu's never sets Refresh. */
  for (int i = 0; i < it->num_subgraphs; ++i) it->subgraphs[i].ctx.recommended_num_threads = num_threads;
  return EL_OK;
}

int el_interpreter_num_subgraphs(const el_interpreter* it) { return it ? it->num_subgraphs : 0; }

el_status el_subgraph_io(const el_interpreter* it, int subgraph, const int32_t** inputs, int* num_inputs,
                         const int32_t** outputs, int* num_outputs) {
  el_subgraph* sg = get_sg(it, subgraph);
  if (sg == NULL) return bad_subgraph(it, subgraph);
  if (inputs) *inputs = (const int32_t*)sg->desc->inputs.v;
  if (num_inputs) *num_inputs = sg->desc->inputs.n;
  if (outputs) *outputs = (const int32_t*)sg->desc->outputs.v;
  if (num_outputs) *num_outputs = sg->desc->outputs.n;
  return EL_OK;
}

el_status el_subgraph_counts(const el_interpreter* it, int subgraph, int* num_tensors, int* num_ops) {
  el_subgraph* sg = get_sg(it, subgraph);
  if (sg == NULL) return bad_subgraph(it, subgraph);
  if (num_tensors) *num_tensors = (int)sg->ctx.tensors_size;
  if (num_ops) *num_ops = sg->num_nodes;
  return EL_OK;
}

static el_status bad_tensor(const el_interpreter* it, const el_subgraph* sg, int index) {
  return fail(it, EL_VALUE_ERROR, "Invalid tensor index %d exceeds max tensor index %d", index,
              (int)sg->ctx.tensors_size - 1);
}

el_status el_tensor_get_info(const el_interpreter* it, int subgraph, int tensor_index, el_tensor_info* out) {
  el_subgraph* sg = get_sg(it, subgraph);
  if (sg == NULL) return bad_subgraph(it, subgraph);
  if (tensor_index < 0 || (size_t)tensor_index >= sg->ctx.tensors_size) return bad_tensor(it, sg, tensor_index);
  if (out == NULL) return EL_VALUE_ERROR;
  const TfLiteTensor* t = &sg->ctx.tensors[tensor_index];
  const el_tensor_extra* x = &sg->extra[tensor_index];
  memset(out, 0, sizeof *out);
  out->name = t->name ? t->name : "";
  out->type = t->type;
  /* Tensors added by kernels may have no dims yet; callers still get a valid (empty) array. */
  static const int kNoDims[1] = {0};
  out->ndims = t->dims ? t->dims->size : 0;
  out->dims = (const int32_t*)(t->dims ? t->dims->data : kNoDims);
  const TfLiteIntArray* sig = t->dims_signature;
  if (sig == NULL || sig->size == 0) sig = t->dims;
  out->ndims_signature = sig ? sig->size : 0;
  out->dims_signature = (const int32_t*)(sig ? sig->data : kNoDims);
  out->scale = t->params.scale;
  out->zero_point = t->params.zero_point;
  if (t->quantization.type == kTfLiteAffineQuantization && x->desc != NULL) {
    out->num_quant = x->desc->quant.num_scales;
    out->scales = x->desc->quant.scales;
    out->zero_points = x->desc->quant.zero_points;
    out->quantized_dimension = ((const TfLiteAffineQuantization*)t->quantization.params)->quantized_dimension;
  }
  out->data = t->data.raw;
  out->bytes = t->bytes;
  out->is_variable = t->is_variable;
  out->is_constant = x->is_constant;
  out->has_sparsity = x->desc != NULL && x->desc->sparsity != NULL;
  return EL_OK;
}

el_status el_op_get_info(const el_interpreter* it, int subgraph, int op_index, el_op_info* out) {
  el_subgraph* sg = get_sg(it, subgraph);
  if (sg == NULL) return bad_subgraph(it, subgraph);
  if (op_index < 0 || op_index >= sg->num_nodes) return fail(it, EL_VALUE_ERROR, "Invalid node index");
  if (out == NULL) return EL_VALUE_ERROR;
  const el_node* n = sg->nodes[op_index];
  memset(out, 0, sizeof *out);
  out->op_name = el_node_info_name(n);
  out->custom_name = n->reg.builtin_code == EL_BUILTIN_CUSTOM ? n->reg.custom_name : NULL;
  out->builtin_code = n->reg.builtin_code;
  out->version = n->reg.version;
  out->num_inputs = n->node.inputs->size;
  out->inputs = (const int32_t*)n->node.inputs->data;
  out->num_outputs = n->node.outputs->size;
  out->outputs = (const int32_t*)n->node.outputs->data;
  out->delegated = n->delegated;
  return EL_OK;
}

int el_interpreter_num_signatures(const el_interpreter* it) { return it ? it->num_signatures : 0; }

el_status el_signature_get(const el_interpreter* it, int index, el_signature_info* out) {
  if (it == NULL || out == NULL) return EL_VALUE_ERROR;
  if (index < 0 || index >= it->num_signatures) {
    return fail(it, EL_VALUE_ERROR, "Invalid signature index %d", index);
  }
  *out = it->signatures[index];
  return EL_OK;
}

el_status el_tensor_copy_from(el_interpreter* it, int subgraph, int tensor_index, const void* src,
                              size_t bytes) {
  el_subgraph* sg = get_sg(it, subgraph);
  if (sg == NULL) return bad_subgraph(it, subgraph);
  if (tensor_index < 0 || (size_t)tensor_index >= sg->ctx.tensors_size) return bad_tensor(it, sg, tensor_index);
  TfLiteTensor* t = &sg->ctx.tensors[tensor_index];
  if (sg->extra[tensor_index].is_constant) {
    return fail(it, EL_VALUE_ERROR, "Cannot set tensor: tensor %d is a constant", tensor_index);
  }
  if (t->data.raw == NULL && t->bytes > 0) {
    return fail(it, EL_VALUE_ERROR,
                "Cannot set tensor: Tensor is unallocated. Try calling allocate_tensors() first");
  }
  if (bytes != t->bytes) {
    return fail(it, EL_VALUE_ERROR, "numpy array had %zu bytes but expected %zu bytes.", bytes, t->bytes);
  }
  if (bytes > 0) memcpy(t->data.raw, src, bytes);
  return EL_OK;
}

/* The layout's own header: a count that matches the shape, offsets that start after the header,
 * never go back and end exactly at the end of the buffer. */
static int string_buffer_ok(const char* p, size_t bytes, size_t count) {
  int32_t v;
  if (bytes < sizeof v || bytes > INT32_MAX) return 0;
  memcpy(&v, p, sizeof v);
  if (v < 0 || (size_t)v != count || ((size_t)v + 2) * sizeof v > bytes) return 0;
  int32_t prev = (int32_t)(((size_t)v + 2) * sizeof v);
  for (size_t i = 0; i <= count; ++i) {
    int32_t off;
    memcpy(&off, p + (i + 1) * sizeof off, sizeof off);
    if ((i == 0 && off != prev) || off < prev || (size_t)off > bytes) return 0;
    prev = off;
  }
  return (size_t)prev == bytes;
}

el_status el_tensor_set_string(el_interpreter* it, int subgraph, int tensor_index, const void* src,
                               size_t bytes) {
  el_subgraph* sg = get_sg(it, subgraph);
  if (sg == NULL) return bad_subgraph(it, subgraph);
  if (tensor_index < 0 || (size_t)tensor_index >= sg->ctx.tensors_size) return bad_tensor(it, sg, tensor_index);
  TfLiteTensor* t = &sg->ctx.tensors[tensor_index];
  if (t->type != kTfLiteString) {
    return fail(it, EL_VALUE_ERROR, "Cannot set tensor: tensor %d is not a STRING tensor", tensor_index);
  }
  if (sg->extra[tensor_index].is_constant || t->allocation_type != kTfLiteDynamic) {
    return fail(it, EL_VALUE_ERROR, "Cannot set tensor: tensor %d is a constant", tensor_index);
  }
  if (t->dims == NULL) {
    return fail(it, EL_VALUE_ERROR,
                "Cannot set tensor: Tensor is unallocated. Try calling allocate_tensors() first");
  }
  size_t count = 0;
  if (el_element_count(t->dims->data, t->dims->size, &count) != kTfLiteOk || src == NULL ||
      !string_buffer_ok(src, bytes, count)) {
    return fail(it, EL_VALUE_ERROR,
                "Cannot set tensor: the string buffer of %zu bytes is not a well-formed buffer of %zu "
                "strings",
                bytes, count);
  }
  if (el_tensor_realloc(sg, tensor_index, bytes) != kTfLiteOk) {
    return fail(it, EL_NO_MEMORY, "Out of memory setting string tensor %d to %zu bytes.", tensor_index, bytes);
  }
  t->bytes = bytes;
  memcpy(t->data.raw, src, bytes);
  return EL_OK;
}

el_status el_tensor_copy_to(const el_interpreter* it, int subgraph, int tensor_index, void* dst,
                            size_t bytes) {
  el_subgraph* sg = get_sg(it, subgraph);
  if (sg == NULL) return bad_subgraph(it, subgraph);
  if (tensor_index < 0 || (size_t)tensor_index >= sg->ctx.tensors_size) return bad_tensor(it, sg, tensor_index);
  TfLiteTensor* t = &sg->ctx.tensors[tensor_index];
  if (t->data.raw == NULL && t->bytes > 0) {
    return fail(it, EL_VALUE_ERROR, "Tensor data is null. Run allocate_tensors() first");
  }
  if (t->data_is_stale && t->delegate != NULL && t->delegate->CopyFromBufferHandle != NULL &&
      t->buffer_handle != kTfLiteNullBufferHandle) {
    if (t->delegate->CopyFromBufferHandle(&sg->ctx, t->delegate, t->buffer_handle, t) != kTfLiteOk) {
      return fail(it, EL_RUNTIME_ERROR, "Could not read tensor %d back from its delegate", tensor_index);
    }
    t->data_is_stale = false;
  }
  if (bytes != t->bytes) {
    return fail(it, EL_VALUE_ERROR, "numpy array had %zu bytes but expected %zu bytes.", bytes, t->bytes);
  }
  if (bytes > 0) memcpy(dst, t->data.raw, bytes);
  return EL_OK;
}

el_status el_interpreter_arena(const el_interpreter* it, size_t* planned, size_t* lower_bound) {
  if (it == NULL || planned == NULL || lower_bound == NULL) return EL_VALUE_ERROR;
  *planned = 0;
  *lower_bound = 0;
  for (int i = 0; i < it->num_subgraphs; ++i) {
    *planned += it->subgraphs[i].arena_size;
    *lower_bound += it->subgraphs[i].arena_lower_bound;
  }
  return EL_OK;
}

void* el_interpreter_context(el_interpreter* it, int subgraph) {
  el_subgraph* sg = get_sg(it, subgraph);
  return sg ? &sg->ctx : NULL;
}
