/* edgelite-run: load a .tflite model through TensorFlow Lite's C API on libedgelite, print its
 * inputs and outputs, run it on .npy or raw inputs (zeros where none is given) and time invoke.
 *
 *   edgelite-run MODEL [-i PATH]... [-n RUNS] [-t THREADS] [-o DIR]
 *
 * The k-th -i feeds input k: a .npy file (its dtype must be the tensor's; a different shape
 * resizes the input first) or raw bytes (exactly the tensor's byte size). -o writes output k to
 * DIR/output_<k>.npy. Exit status: 0 on success, 1 on a failure, 2 on bad usage. */
#define _POSIX_C_SOURCE 200809L

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "npy_io.h"
#include "tensorflow/lite/c/c_api.h"

enum { kMaxInputs = 64 };

typedef struct run_args {
  const char* model;
  const char* inputs[kMaxInputs];
  int num_inputs;
  int runs;
  int threads;
  const char* out_dir;
} run_args;

static int usage(void) {
  fprintf(stderr, "usage: edgelite-run MODEL [-i PATH]... [-n RUNS] [-t THREADS] [-o DIR]\n");
  return 2;
}

static int parse_args(int argc, char** argv, run_args* a) {
  memset(a, 0, sizeof *a);
  a->runs = 1;
  a->threads = 1;
  for (int i = 1; i < argc; ++i) {
    const char* arg = argv[i];
    int has_value = i + 1 < argc;
    if (strcmp(arg, "-i") == 0 && has_value && a->num_inputs < kMaxInputs) {
      a->inputs[a->num_inputs++] = argv[++i];
    } else if (strcmp(arg, "-n") == 0 && has_value) {
      a->runs = atoi(argv[++i]);
    } else if (strcmp(arg, "-t") == 0 && has_value) {
      a->threads = atoi(argv[++i]);
    } else if (strcmp(arg, "-o") == 0 && has_value) {
      a->out_dir = argv[++i];
    } else if (arg[0] != '-' && a->model == NULL) {
      a->model = arg;
    } else {
      return 1;
    }
  }
  return a->model == NULL || a->runs < 1 || a->threads < 1;
}

static void print_tensor(const char* role, int index, const TfLiteTensor* t) {
  TfLiteQuantizationParams q = TfLiteTensorQuantizationParams(t);
  printf("%s %d: name=%s type=%s shape=[", role, index, TfLiteTensorName(t), TfLiteTypeGetName(TfLiteTensorType(t)));
  for (int d = 0; d < TfLiteTensorNumDims(t); ++d) printf(d ? ",%d" : "%d", (int)TfLiteTensorDim(t, d));
  printf("] bytes=%zu", TfLiteTensorByteSize(t));
  if (q.scale != 0.0f) printf(" scale=%.9g zero_point=%d", (double)q.scale, (int)q.zero_point);
  printf("\n");
}

static int ends_with(const char* s, const char* suffix) {
  size_t n = strlen(s), m = strlen(suffix);
  return n >= m && strcmp(s + n - m, suffix) == 0;
}

static int same_shape(const TfLiteTensor* t, const npy_array* a) {
  if (TfLiteTensorNumDims(t) != a->ndims) return 0;
  for (int d = 0; d < a->ndims; ++d) {
    if (TfLiteTensorDim(t, d) != a->dims[d]) return 0;
  }
  return 1;
}

/* Reads every given input; an .npy whose shape differs from the tensor's resizes that input. */
static int load_inputs(TfLiteInterpreter* interp, const run_args* a, npy_array* arrays) {
  char err[256];
  for (int k = 0; k < a->num_inputs; ++k) {
    const TfLiteTensor* t = TfLiteInterpreterGetInputTensor(interp, k);
    if (t == NULL) {
      fprintf(stderr, "edgelite-run: the model has %d inputs, %d given\n",
              (int)TfLiteInterpreterGetInputTensorCount(interp), a->num_inputs);
      return 1;
    }
    if (!ends_with(a->inputs[k], ".npy")) continue;
    if (npy_read(a->inputs[k], &arrays[k], err, sizeof err) != 0) {
      fprintf(stderr, "edgelite-run: %s\n", err);
      return 1;
    }
    if (arrays[k].type != TfLiteTensorType(t)) {
      fprintf(stderr, "edgelite-run: %s holds %s but input %d is %s\n", a->inputs[k],
              TfLiteTypeGetName(arrays[k].type), k, TfLiteTypeGetName(TfLiteTensorType(t)));
      return 1;
    }
    if (!same_shape(t, &arrays[k]) &&
        TfLiteInterpreterResizeInputTensor(interp, k, arrays[k].dims, arrays[k].ndims) != kTfLiteOk) {
      return 1;
    }
  }
  return 0;
}

static int read_raw(const char* path, TfLiteTensor* t) {
  FILE* f = fopen(path, "rb");
  size_t bytes = TfLiteTensorByteSize(t);
  void* buf = malloc(bytes + 1);
  size_t got = f && buf ? fread(buf, 1, bytes + 1, f) : 0;
  int rc = f == NULL || buf == NULL || got != bytes || TfLiteTensorCopyFromBuffer(t, buf, got) != kTfLiteOk;
  if (rc) fprintf(stderr, "edgelite-run: %s must hold exactly %zu bytes\n", path, bytes);
  if (f != NULL) fclose(f);
  free(buf);
  return rc;
}

static int feed_inputs(TfLiteInterpreter* interp, const run_args* a, const npy_array* arrays) {
  for (int k = 0; k < TfLiteInterpreterGetInputTensorCount(interp); ++k) {
    TfLiteTensor* t = TfLiteInterpreterGetInputTensor(interp, k);
    if (k >= a->num_inputs) {
      memset(TfLiteTensorData(t), 0, TfLiteTensorByteSize(t));
    } else if (arrays[k].data != NULL) {
      if (TfLiteTensorCopyFromBuffer(t, arrays[k].data, arrays[k].bytes) != kTfLiteOk) return 1;
    } else if (read_raw(a->inputs[k], t) != 0) {
      return 1;
    }
  }
  return 0;
}

static double now_ms(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

static int invoke_timed(TfLiteInterpreter* interp, int runs) {
  double first = 0, best = 0, total = 0;
  for (int r = 0; r < runs; ++r) {
    double start = now_ms();
    if (TfLiteInterpreterInvoke(interp) != kTfLiteOk) return 1;
    double ms = now_ms() - start;
    if (r == 0) first = best = ms;
    best = ms < best ? ms : best;
    total += ms;
  }
  printf("invoke: runs=%d first=%.3f ms min=%.3f ms mean=%.3f ms\n", runs, first, best, total / runs);
  return 0;
}

static int write_outputs(TfLiteInterpreter* interp, const char* dir) {
  for (int k = 0; k < TfLiteInterpreterGetOutputTensorCount(interp); ++k) {
    const TfLiteTensor* t = TfLiteInterpreterGetOutputTensor(interp, k);
    int dims[NPY_MAX_DIMS];
    int nd = TfLiteTensorNumDims(t);
    for (int d = 0; d < nd && d < NPY_MAX_DIMS; ++d) dims[d] = TfLiteTensorDim(t, d);
    char path[4096];
    snprintf(path, sizeof path, "%s/output_%d.npy", dir, k);
    if (nd > NPY_MAX_DIMS ||
        npy_write(path, TfLiteTensorType(t), dims, nd, TfLiteTensorData(t), TfLiteTensorByteSize(t)) != 0) {
      fprintf(stderr, "edgelite-run: cannot write %s\n", path);
      return 1;
    }
  }
  return 0;
}

static int run(const run_args* a, TfLiteInterpreter* interp) {
  npy_array arrays[kMaxInputs];
  memset(arrays, 0, sizeof arrays);
  int rc = load_inputs(interp, a, arrays) || TfLiteInterpreterAllocateTensors(interp) != kTfLiteOk;
  for (int k = 0; rc == 0 && k < TfLiteInterpreterGetInputTensorCount(interp); ++k) {
    print_tensor("input", k, TfLiteInterpreterGetInputTensor(interp, k));
  }
  rc = rc || feed_inputs(interp, a, arrays) || invoke_timed(interp, a->runs);
  for (int k = 0; rc == 0 && k < TfLiteInterpreterGetOutputTensorCount(interp); ++k) {
    print_tensor("output", k, TfLiteInterpreterGetOutputTensor(interp, k));
  }
  if (rc == 0 && a->out_dir != NULL) rc = write_outputs(interp, a->out_dir);
  for (int k = 0; k < a->num_inputs; ++k) npy_free(&arrays[k]);
  return rc;
}

int main(int argc, char** argv) {
  run_args a;
  if (parse_args(argc, argv, &a) != 0) return usage();
  TfLiteModel* model = TfLiteModelCreateFromFile(a.model);
  if (model == NULL) return 1;
  TfLiteInterpreterOptions* options = TfLiteInterpreterOptionsCreate();
  if (options == NULL) {
    TfLiteModelDelete(model);
    return 1;
  }
  TfLiteInterpreterOptionsSetNumThreads(options, a.threads);
  TfLiteInterpreter* interp = TfLiteInterpreterCreate(model, options);
  TfLiteInterpreterOptionsDelete(options);
  TfLiteModelDelete(model);
  if (interp == NULL) return 1;
  printf("model: %s (TensorFlow Lite C API %s)\n", a.model, TfLiteVersion());
  int rc = run(&a, interp);
  TfLiteInterpreterDelete(interp);
  return rc;
}
