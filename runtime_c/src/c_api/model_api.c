/* TFLite C API: version, models and interpreter options. */
#include <stdio.h>
#include <stdlib.h>

#include "capi_internal.h"

/* The TFLite release whose C API libedgelite implements, and the .tflite schema it reads. */
static const char kTfLiteApiVersion[] = "2.16.1";
enum { kSchemaVersion = 3 };

const char* TfLiteVersion(void) { return kTfLiteApiVersion; }

int TfLiteSchemaVersion(void) { return kSchemaVersion; }

static TfLiteModel* wrap_model(el_status st, el_model* model, const char* err) {
  if (st != EL_OK) {
    fprintf(stderr, "ERROR: %s\n", err);
    return NULL;
  }
  TfLiteModel* m = malloc(sizeof *m);
  if (m == NULL) {
    el_model_destroy(model);
    fprintf(stderr, "ERROR: Out of memory creating the model\n");
    return NULL;
  }
  m->model = model;
  atomic_init(&m->refs, 1);
  return m;
}

TfLiteModel* TfLiteModelCreate(const void* model_data, size_t model_size) {
  char err[512] = "";
  el_model* model = NULL;
  el_status st = el_model_create_from_buffer(model_data, model_size, &model, err, sizeof err);
  return wrap_model(st, model, err);
}

TfLiteModel* TfLiteModelCreateFromFile(const char* model_path) {
  char err[512] = "";
  el_model* model = NULL;
  el_status st = el_model_create_from_file(model_path, &model, err, sizeof err);
  return wrap_model(st, model, err);
}

void TfLiteModelDelete(TfLiteModel* model) {
  if (model == NULL) return;
  if (atomic_fetch_sub(&model->refs, 1) == 1) {
    el_model_destroy(model->model);
    free(model);
  }
}

TfLiteInterpreterOptions* TfLiteInterpreterOptionsCreate(void) {
  TfLiteInterpreterOptions* o = calloc(1, sizeof *o);
  if (o != NULL) o->num_threads = -1;
  return o;
}

void TfLiteInterpreterOptionsDelete(TfLiteInterpreterOptions* options) {
  if (options == NULL) return;
  free(options->delegates);
  el_capi_ops_free(&options->ops);
  free(options);
}

void TfLiteInterpreterOptionsSetNumThreads(TfLiteInterpreterOptions* options, int32_t num_threads) {
  if (options != NULL) options->num_threads = num_threads;
}

void TfLiteInterpreterOptionsAddDelegate(TfLiteInterpreterOptions* options,
                                         TfLiteOpaqueDelegate* delegate) {
  if (options == NULL) return;
  if (options->num_delegates == options->delegate_cap) {
    int cap = options->delegate_cap ? 2 * options->delegate_cap : 4;
    TfLiteOpaqueDelegate** grown = realloc(options->delegates, sizeof *grown * (size_t)cap);
    if (grown == NULL) {
      /* The function returns nothing, so the failure surfaces at TfLiteInterpreterCreate. */
      options->out_of_memory = 1;
      return;
    }
    options->delegates = grown;
    options->delegate_cap = cap;
  }
  options->delegates[options->num_delegates++] = delegate;
}

void TfLiteInterpreterOptionsSetErrorReporter(TfLiteInterpreterOptions* options,
                                              el_capi_reporter reporter, void* user_data) {
  if (options == NULL) return;
  options->reporter = reporter;
  options->reporter_data = user_data;
}
