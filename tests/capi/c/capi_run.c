/* A program written only against TensorFlow Lite's C API (tensorflow/lite/c/c_api.h).
 *
 *   capi_run run <model> <out_dir> [--resize d0,d1,...] [--signature] <input.raw>...
 *     loads the model from a buffer (deleting the model handle right after creating the
 *     interpreter, as TFLite allows), prints every input and output tensor's details, feeds the
 *     raw inputs, invokes, and writes output i to <out_dir>/output_<i>.raw. With --signature it
 *     runs the first signature instead, feeding inputs and writing outputs in signature order.
 *   capi_run errors <model>
 *     exercises the error paths and prints one `name=value` line per check. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tensorflow/lite/c/c_api.h"

static int read_file(const char* path, void** data, size_t* size) {
  FILE* f = fopen(path, "rb");
  if (f == NULL) return 1;
  int rc = fseek(f, 0, SEEK_END);
  long n = rc == 0 ? ftell(f) : -1;
  if (n < 0 || fseek(f, 0, SEEK_SET) != 0) {
    fclose(f);
    return 1;
  }
  *data = malloc(n > 0 ? (size_t)n : 1);
  *size = (size_t)n;
  rc = *data == NULL || fread(*data, 1, (size_t)n, f) != (size_t)n;
  fclose(f);
  return rc;
}

static void print_tensor(const char* role, int index, const TfLiteTensor* t) {
  TfLiteQuantizationParams q = TfLiteTensorQuantizationParams(t);
  printf("%s %d name=%s type=%s bytes=%zu scale=%.9g zero_point=%d dims=", role, index, TfLiteTensorName(t),
         TfLiteTypeGetName(TfLiteTensorType(t)), TfLiteTensorByteSize(t), (double)q.scale, (int)q.zero_point);
  for (int d = 0; d < TfLiteTensorNumDims(t); ++d) printf(d ? ",%d" : "%d", (int)TfLiteTensorDim(t, d));
  printf("\n");
}

static int feed(TfLiteTensor* t, const char* path) {
  void* data = NULL;
  size_t size = 0;
  if (read_file(path, &data, &size) != 0) {
    fprintf(stderr, "cannot read %s\n", path);
    free(data);
    return 1;
  }
  TfLiteStatus st = TfLiteTensorCopyFromBuffer(t, data, size);
  free(data);
  if (st != kTfLiteOk) fprintf(stderr, "CopyFromBuffer failed for %s (%zu bytes)\n", path, size);
  return st != kTfLiteOk;
}

static int dump(const TfLiteTensor* t, const char* out_dir, int index) {
  char path[4096];
  snprintf(path, sizeof path, "%s/output_%d.raw", out_dir, index);
  size_t n = TfLiteTensorByteSize(t);
  void* buf = malloc(n ? n : 1);
  if (buf == NULL || TfLiteTensorCopyToBuffer(t, buf, n) != kTfLiteOk) {
    free(buf);
    return 1;
  }
  FILE* f = fopen(path, "wb");
  int rc = f == NULL || fwrite(buf, 1, n, f) != n;
  if (f != NULL) rc |= fclose(f) != 0;
  free(buf);
  return rc;
}

static int parse_dims(const char* text, int* dims, int cap) {
  int n = 0;
  for (const char* p = text; *p && n < cap; ++n) {
    char* end = NULL;
    dims[n] = (int)strtol(p, &end, 10);
    p = *end == ',' ? end + 1 : end;
  }
  return n;
}

static int run_signature(TfLiteInterpreter* interp, const char* out_dir, int argc, char** argv) {
  const char* key = TfLiteInterpreterGetSignatureKey(interp, 0);
  TfLiteSignatureRunner* runner = key ? TfLiteInterpreterGetSignatureRunner(interp, key) : NULL;
  if (runner == NULL) return 1;
  printf("signature key=%s inputs=%zu outputs=%zu\n", key, TfLiteSignatureRunnerGetInputCount(runner),
         TfLiteSignatureRunnerGetOutputCount(runner));
  int rc = TfLiteSignatureRunnerAllocateTensors(runner) != kTfLiteOk;
  for (int i = 0; rc == 0 && i < (int)TfLiteSignatureRunnerGetInputCount(runner) && i < argc; ++i) {
    const char* name = TfLiteSignatureRunnerGetInputName(runner, i);
    printf("signature_input %d %s\n", i, name);
    rc = feed(TfLiteSignatureRunnerGetInputTensor(runner, name), argv[i]);
  }
  if (rc == 0) rc = TfLiteSignatureRunnerInvoke(runner) != kTfLiteOk;
  for (int i = 0; rc == 0 && i < (int)TfLiteSignatureRunnerGetOutputCount(runner); ++i) {
    const char* name = TfLiteSignatureRunnerGetOutputName(runner, i);
    printf("signature_output %d %s\n", i, name);
    rc = dump(TfLiteSignatureRunnerGetOutputTensor(runner, name), out_dir, i);
  }
  TfLiteSignatureRunnerDelete(runner);
  return rc;
}

static int run(const char* model_path, const char* out_dir, int argc, char** argv) {
  void* bytes = NULL;
  size_t size = 0;
  if (read_file(model_path, &bytes, &size) != 0) return 1;
  TfLiteModel* model = TfLiteModelCreate(bytes, size);
  TfLiteInterpreterOptions* options = TfLiteInterpreterOptionsCreate();
  TfLiteInterpreterOptionsSetNumThreads(options, 1);
  TfLiteInterpreter* interp = model ? TfLiteInterpreterCreate(model, options) : NULL;
  TfLiteInterpreterOptionsDelete(options);
  TfLiteModelDelete(model);
  if (interp == NULL) {
    free(bytes);
    return 1;
  }
  int rc = 0;
  if (argc > 0 && strcmp(argv[0], "--resize") == 0 && argc > 1) {
    int dims[16];
    int n = parse_dims(argv[1], dims, 16);
    rc = TfLiteInterpreterResizeInputTensor(interp, 0, dims, n) != kTfLiteOk;
    argc -= 2;
    argv += 2;
  }
  if (rc == 0 && argc > 0 && strcmp(argv[0], "--signature") == 0) {
    rc = run_signature(interp, out_dir, argc - 1, argv + 1);
  } else if (rc == 0) {
    rc = TfLiteInterpreterAllocateTensors(interp) != kTfLiteOk;
    int n_in = TfLiteInterpreterGetInputTensorCount(interp);
    int n_out = TfLiteInterpreterGetOutputTensorCount(interp);
    for (int i = 0; rc == 0 && i < n_in; ++i) print_tensor("input", i, TfLiteInterpreterGetInputTensor(interp, i));
    for (int i = 0; rc == 0 && i < n_in && i < argc; ++i) rc = feed(TfLiteInterpreterGetInputTensor(interp, i), argv[i]);
    if (rc == 0) rc = TfLiteInterpreterInvoke(interp) != kTfLiteOk;
    for (int i = 0; rc == 0 && i < n_out; ++i) {
      const TfLiteTensor* t = TfLiteInterpreterGetOutputTensor(interp, i);
      print_tensor("output", i, t);
      rc = dump(t, out_dir, i);
    }
  }
  TfLiteInterpreterDelete(interp);
  free(bytes);
  return rc;
}

static void count_reports(void* user_data, const char* format, va_list args) {
  char text[1024];
  vsnprintf(text, sizeof text, format, args);
  *(int*)user_data += text[0] != '\0';
}

static TfLiteStatus failing_prepare(TfLiteContext* context, TfLiteDelegate* delegate) {
  (void)context;
  (void)delegate;
  return kTfLiteDelegateError;
}

static TfLiteStatus counting_prepare(TfLiteContext* context, TfLiteDelegate* delegate) {
  (void)context;
  ++*(int*)delegate->data_;
  return kTfLiteOk;
}

/* A delegate whose Prepare fails makes creation fail; one that claims nothing leaves a working
 * interpreter. Both are TfLiteDelegate structs, as TFLite's non-stable-ABI build takes them. */
static int check_delegates(const TfLiteModel* model) {
  int prepared = 0;
  TfLiteDelegate failing = TfLiteDelegateCreate();
  failing.Prepare = failing_prepare;
  TfLiteDelegate counting = TfLiteDelegateCreate();
  counting.Prepare = counting_prepare;
  counting.data_ = &prepared;
  TfLiteInterpreterOptions* options = TfLiteInterpreterOptionsCreate();
  if (options == NULL) return 1;
  TfLiteInterpreterOptionsAddDelegate(options, &counting);
  TfLiteInterpreter* interp = TfLiteInterpreterCreate(model, options);
  printf("delegate_prepared=%d\n", prepared);
  printf("delegated_allocate_status=%d\n", interp ? (int)TfLiteInterpreterAllocateTensors(interp) : -1);
  printf("delegated_invoke_status=%d\n", interp ? (int)TfLiteInterpreterInvoke(interp) : -1);
  TfLiteInterpreterDelete(interp);
  TfLiteInterpreterOptionsAddDelegate(options, &failing);
  printf("failing_delegate_null=%d\n", TfLiteInterpreterCreate(model, options) == NULL);
  TfLiteInterpreterOptionsDelete(options);
  return 0;
}

static int errors(const char* model_path) {
  static const unsigned char garbage[64] = {1, 2, 3, 4, 'T', 'F', 'L', '3'};
  printf("version=%s\n", TfLiteVersion());
  printf("schema_version=%d\n", TfLiteSchemaVersion());
  printf("garbage_model_null=%d\n", TfLiteModelCreate(garbage, sizeof garbage) == NULL);
  printf("missing_file_null=%d\n", TfLiteModelCreateFromFile("/nonexistent/model.tflite") == NULL);
  TfLiteModel* model = TfLiteModelCreateFromFile(model_path);
  if (model == NULL) return 1;
  int reports = 0;
  TfLiteInterpreterOptions* options = TfLiteInterpreterOptionsCreate();
  TfLiteInterpreterOptionsSetErrorReporter(options, count_reports, &reports);
  TfLiteInterpreter* interp = TfLiteInterpreterCreate(model, options);
  TfLiteInterpreterOptionsSetNumThreads(options, -2);
  int reports_before = reports;
  TfLiteInterpreter* bad_threads = TfLiteInterpreterCreate(model, options);
  printf("bad_threads_created=%d reported=%d\n", bad_threads != NULL, reports - reports_before);
  TfLiteInterpreterDelete(bad_threads);
  TfLiteInterpreterOptionsDelete(options);
  printf("null_model_null=%d\n", TfLiteInterpreterCreate(NULL, NULL) == NULL);
  if (check_delegates(model) != 0) return 1;
  if (interp == NULL) return 1;
  int n_in = TfLiteInterpreterGetInputTensorCount(interp);
  int n_out = TfLiteInterpreterGetOutputTensorCount(interp);
  printf("input_past_end_null=%d\n", TfLiteInterpreterGetInputTensor(interp, n_in) == NULL);
  printf("input_negative_null=%d\n", TfLiteInterpreterGetInputTensor(interp, -1) == NULL);
  printf("output_past_end_null=%d\n", TfLiteInterpreterGetOutputTensor(interp, n_out) == NULL);
  printf("signature_key_past_end_null=%d\n",
         TfLiteInterpreterGetSignatureKey(interp, TfLiteInterpreterGetSignatureCount(interp)) == NULL);
  printf("unknown_signature_null=%d\n", TfLiteInterpreterGetSignatureRunner(interp, "no such key") == NULL);
  int dims[1] = {1};
  printf("resize_bad_index_status=%d\n", (int)TfLiteInterpreterResizeInputTensor(interp, n_in, dims, 1));
  TfLiteTensor* in = TfLiteInterpreterGetInputTensor(interp, 0);
  printf("unallocated_data_null=%d\n", TfLiteTensorData(in) == NULL);
  printf("invoke_before_allocate_status=%d\n", (int)TfLiteInterpreterInvoke(interp));
  printf("allocate_status=%d\n", (int)TfLiteInterpreterAllocateTensors(interp));
  in = TfLiteInterpreterGetInputTensor(interp, 0);
  size_t bytes = TfLiteTensorByteSize(in);
  unsigned char* buf = calloc(bytes + 1, 1);
  if (buf == NULL) return 1;
  printf("copy_from_short_status=%d\n", (int)TfLiteTensorCopyFromBuffer(in, buf, bytes - 1));
  printf("copy_from_long_status=%d\n", (int)TfLiteTensorCopyFromBuffer(in, buf, bytes + 1));
  printf("copy_from_exact_status=%d\n", (int)TfLiteTensorCopyFromBuffer(in, buf, bytes));
  printf("invoke_status=%d\n", (int)TfLiteInterpreterInvoke(interp));
  const TfLiteTensor* out = TfLiteInterpreterGetOutputTensor(interp, 0);
  printf("copy_to_wrong_size_status=%d\n", (int)TfLiteTensorCopyToBuffer(out, buf, TfLiteTensorByteSize(out) + 1));
  int bigger[8];
  for (int d = 0; d < TfLiteTensorNumDims(in) && d < 8; ++d) bigger[d] = TfLiteTensorDim(in, d) + 1;
  int resize_ok = TfLiteInterpreterResizeInputTensor(interp, 0, bigger, TfLiteTensorNumDims(in)) == kTfLiteOk;
  printf("invoke_after_resize_status=%d\n", resize_ok ? (int)TfLiteInterpreterInvoke(interp) : -1);
  printf("reports=%d\n", reports);
  printf("type_name=%s\n", TfLiteTypeGetName(kTfLiteInt8));
  free(buf);
  TfLiteInterpreterDelete(interp);
  TfLiteModelDelete(model);
  return 0;
}

int main(int argc, char** argv) {
  if (argc >= 4 && strcmp(argv[1], "run") == 0) return run(argv[2], argv[3], argc - 4, argv + 4);
  if (argc == 3 && strcmp(argv[1], "errors") == 0) return errors(argv[2]);
  fprintf(stderr, "usage: capi_run run <model> <out_dir> [--resize d,..] [--signature] <inputs>... | errors <model>\n");
  return 2;
}
