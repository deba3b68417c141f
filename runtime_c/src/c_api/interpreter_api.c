/* TFLite C API: interpreters over el_interpreter (subgraph 0 is the primary graph). */
#include <stdio.h>
#include <stdlib.h>

#include "capi_internal.h"

void el_capi_report(const TfLiteInterpreter* interpreter, const char* format, ...) {
  va_list ap;
  va_start(ap, format);
  if (interpreter != NULL && interpreter->reporter != NULL) {
    interpreter->reporter(interpreter->reporter_data, format, ap);
  } else {
    fputs("ERROR: ", stderr);
    vfprintf(stderr, format, ap);
    fputc('\n', stderr);
  }
  va_end(ap);
}

TfLiteStatus el_capi_status(const TfLiteInterpreter* interpreter, el_status st) {
  if (st == EL_OK) return kTfLiteOk;
  const char* text = interpreter ? el_interpreter_error(interpreter->interp) : "";
  if (text[0] != '\0') el_capi_report(interpreter, "%s", text);
  return kTfLiteError;
}

TfLiteTensor* el_capi_tensor(const TfLiteInterpreter* interpreter, int subgraph, int tensor_index) {
  if (interpreter == NULL) return NULL;
  const TfLiteContext* ctx = el_interpreter_context(interpreter->interp, subgraph);
  if (ctx == NULL || tensor_index < 0 || (size_t)tensor_index >= ctx->tensors_size) return NULL;
  return &ctx->tensors[tensor_index];
}

/* A creation failure: reported where the options say, then everything built so far released. */
static TfLiteInterpreter* create_failed(TfLiteInterpreter* partial, const char* message) {
  el_capi_report(partial, "%s", message);
  el_interpreter_destroy(partial->interp);
  TfLiteModelDelete(partial->model);
  el_capi_ops_free(&partial->ops);
  free(partial);
  return NULL;
}

TfLiteInterpreter* TfLiteInterpreterCreate(const TfLiteModel* model,
                                           const TfLiteInterpreterOptions* optional_options) {
  const TfLiteInterpreterOptions defaults = {-1, NULL, 0, 0, 0, NULL, NULL, {NULL, 0, 0}};
  const TfLiteInterpreterOptions* o = optional_options ? optional_options : &defaults;
  TfLiteInterpreter* out = calloc(1, sizeof *out);
  if (out == NULL) return NULL;
  out->reporter = o->reporter;
  out->reporter_data = o->reporter_data;
  if (model == NULL) {
    free(out);
    return NULL;
  }
  /* The interpreter shares the model, so the caller may delete its handle right away. */
  TfLiteModel* shared = (TfLiteModel*)model;
  atomic_fetch_add(&shared->refs, 1);
  out->model = shared;
  if (o->out_of_memory) return create_failed(out, "Out of memory adding a delegate to the options.");
  /* TFLite reports a bad thread count but still builds the interpreter, on its default threads. */
  if (o->num_threads < -1) {
    el_capi_report(out, "num_threads should be >= 0 or just -1 to let TFLite runtime set the value.");
  }
  el_interpreter_options eo = {o->num_threads > 1 ? o->num_threads : 1, EL_RESOLVER_AUTO, 0, NULL, 0,
                               NULL, NULL};
  /* The interpreter keeps its own copy of the user kernels: the options may be deleted first. */
  if (!el_capi_ops_copy(&out->ops, &o->ops)) return create_failed(out, "Out of memory copying the op registrations.");
  el_custom_op* table = NULL;
  if (out->ops.n > 0) {
    table = calloc((size_t)out->ops.n, sizeof *table);
    if (table == NULL) return create_failed(out, "Out of memory copying the op registrations.");
    for (int i = 0; i < out->ops.n; ++i) {
      const el_capi_op* op = &out->ops.v[i];
      table[i] = (el_custom_op){op->name, op->version, &op->reg, op->builtin_code};
    }
    eo.custom_ops = table;
    eo.num_custom_ops = out->ops.n;
  }
  char err[512] = "";
  const el_status created = el_interpreter_create(shared->model, &eo, &out->interp, err, sizeof err);
  free(table);
  if (created != EL_OK) return create_failed(out, err);
  for (int i = 0; i < o->num_delegates; ++i) {
    if (el_interpreter_modify_graph_with_delegate(out->interp, o->delegates[i]) != EL_OK) {
      snprintf(err, sizeof err, "%s", el_interpreter_error(out->interp));
      return create_failed(out, err);
    }
  }
  return out;
}

void TfLiteInterpreterDelete(TfLiteInterpreter* interpreter) {
  if (interpreter == NULL) return;
  el_interpreter_destroy(interpreter->interp);
  TfLiteModelDelete(interpreter->model);
  el_capi_ops_free(&interpreter->ops);
  free(interpreter);
}

/* The primary subgraph's input or output tensor indices. */
static int io_indices(const TfLiteInterpreter* interpreter, int outputs, const int32_t** indices) {
  int n_in = 0, n_out = 0;
  const int32_t *in = NULL, *out = NULL;
  if (interpreter == NULL || el_subgraph_io(interpreter->interp, 0, &in, &n_in, &out, &n_out) != EL_OK) {
    *indices = NULL;
    return 0;
  }
  *indices = outputs ? out : in;
  return outputs ? n_out : n_in;
}

static TfLiteTensor* io_tensor(const TfLiteInterpreter* interpreter, int outputs, int32_t index) {
  const int32_t* indices = NULL;
  int n = io_indices(interpreter, outputs, &indices);
  if (index < 0 || index >= n) return NULL;
  return el_capi_tensor(interpreter, 0, indices[index]);
}

int32_t TfLiteInterpreterGetInputTensorCount(const TfLiteInterpreter* interpreter) {
  const int32_t* indices = NULL;
  return io_indices(interpreter, 0, &indices);
}

TfLiteTensor* TfLiteInterpreterGetInputTensor(const TfLiteInterpreter* interpreter, int32_t input_index) {
  return io_tensor(interpreter, 0, input_index);
}

int32_t TfLiteInterpreterGetOutputTensorCount(const TfLiteInterpreter* interpreter) {
  const int32_t* indices = NULL;
  return io_indices(interpreter, 1, &indices);
}

const TfLiteTensor* TfLiteInterpreterGetOutputTensor(const TfLiteInterpreter* interpreter,
                                                     int32_t output_index) {
  return io_tensor(interpreter, 1, output_index);
}

TfLiteStatus TfLiteInterpreterResizeInputTensor(TfLiteInterpreter* interpreter, int32_t input_index,
                                                const int* input_dims, int32_t input_dims_size) {
  if (interpreter == NULL) return kTfLiteError;
  const int32_t* indices = NULL;
  int n = io_indices(interpreter, 0, &indices);
  if (input_index < 0 || input_index >= n) {
    el_capi_report(interpreter, "Input index %d is out of range (the model has %d inputs).",
                   (int)input_index, n);
    return kTfLiteError;
  }
  return el_capi_status(interpreter, el_interpreter_resize_input(interpreter->interp, 0, indices[input_index],
                                                                 (const int32_t*)input_dims, input_dims_size, 0));
}

TfLiteStatus TfLiteInterpreterAllocateTensors(TfLiteInterpreter* interpreter) {
  if (interpreter == NULL) return kTfLiteError;
  return el_capi_status(interpreter, el_interpreter_allocate_tensors(interpreter->interp, 0));
}

TfLiteStatus TfLiteInterpreterInvoke(TfLiteInterpreter* interpreter) {
  if (interpreter == NULL) return kTfLiteError;
  return el_capi_status(interpreter, el_interpreter_invoke(interpreter->interp, 0));
}
