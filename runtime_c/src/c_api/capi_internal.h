/* The objects behind TFLite's C API handles, shared by the files of runtime_c/src/c_api. */
#ifndef EDGELITE_CAPI_INTERNAL_H_
#define EDGELITE_CAPI_INTERNAL_H_

#include <stdarg.h>
#include <stdatomic.h>

#include "edgelite/edgelite.h"
#include "tensorflow/lite/c/c_api.h"

typedef void (*el_capi_reporter)(void* user_data, const char* format, va_list args);

/* Shared between the caller and every interpreter built from it, as TFLite's shared_ptr is:
 * the el_model goes when the last holder lets go. */
struct TfLiteModel {
  el_model* model;
  atomic_int refs;
};

/* A user kernel for one op version: a custom op (name) or a builtin one (name NULL). */
typedef struct el_capi_op {
  char* name; /* owned */
  int32_t builtin_code;
  int version;
  TfLiteRegistration reg;
} el_capi_op;

/* The user kernels added to options, copied into each interpreter so the options may go first. */
typedef struct el_capi_ops {
  el_capi_op* v;
  int n;
  int cap;
} el_capi_ops;

struct TfLiteInterpreterOptions {
  int32_t num_threads;
  TfLiteOpaqueDelegate** delegates;
  int num_delegates;
  int delegate_cap;
  int out_of_memory; /* AddDelegate or an op registration could not grow a list: creation fails */
  el_capi_reporter reporter;
  void* reporter_data;
  el_capi_ops ops;
};

struct TfLiteInterpreter {
  TfLiteModel* model;
  el_interpreter* interp;
  el_capi_reporter reporter; /* NULL: stderr */
  void* reporter_data;
  el_capi_ops ops;
};

struct TfLiteSignatureRunner {
  TfLiteInterpreter* owner;
  el_signature_info sig;
};

/* Adds `reg` for versions min..max of an op to `options` (name NULL: builtin `code`); sets
 * out_of_memory when the list cannot grow. */
void el_capi_add_op(TfLiteInterpreterOptions* options, const char* name, int32_t code,
                    const TfLiteRegistration* reg, int min_version, int max_version);
/* A deep copy of `src` into `dst` (names included); 0 when out of memory. */
int el_capi_ops_copy(el_capi_ops* dst, const el_capi_ops* src);
void el_capi_ops_free(el_capi_ops* ops);

/* Sends a message to the interpreter's reporter (stderr when none was set). */
void el_capi_report(const TfLiteInterpreter* interpreter, const char* format, ...)
    __attribute__((format(printf, 2, 3)));
/* Maps an edgelite status to TFLite's, reporting the interpreter's error text on failure. */
TfLiteStatus el_capi_status(const TfLiteInterpreter* interpreter, el_status st);
/* The TfLiteTensor `tensor_index` of `subgraph`; NULL when out of range. */
TfLiteTensor* el_capi_tensor(const TfLiteInterpreter* interpreter, int subgraph, int tensor_index);

#endif /* EDGELITE_CAPI_INTERNAL_H_ */
