/* User kernels through TensorFlow Lite's C API, written only against its headers:
 *   capi_user_ops external MODEL x0 x1 ...  custom op "Scale" via TfLiteRegistrationExternal (opaque API)
 *   capi_user_ops classic MODEL x0 x1 ...   the same op via TfLiteInterpreterOptionsAddCustomOp
 *   capi_user_ops builtin MODEL a0 a1 ...   ADD replaced via TfLiteInterpreterOptionsAddBuiltinOp
 *   capi_user_ops reset MODEL x0 ...        two invokes, ResetVariableTensors, a third invoke
 *   capi_user_ops none MODEL x0 ...         no user kernel
 * Prints the first output's floats on one line (per invoke), then what the kernels counted. The
 * model input gets the numbers given (ADD's two inputs both get them). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tensorflow/lite/c/c_api.h"
#include "tensorflow/lite/c/c_api_experimental.h"
#include "tensorflow/lite/c/c_api_opaque.h"

typedef struct counts {
  int init, prepare, invoke, freed;
} counts;

static counts g_counts; /* what the kernels were asked to do, printed at the end */

/* "Scale": y = x * k, k the first byte of the op's custom options. */
static void* scale_init(TfLiteOpaqueContext* context, const char* buffer, size_t length) {
  (void)context;
  g_counts.init += 1;
  float* k = malloc(sizeof *k);
  if (k != NULL) *k = length > 0 ? (float)(unsigned char)buffer[0] : 1.0f;
  return k;
}

static void scale_free(TfLiteOpaqueContext* context, void* data) {
  (void)context;
  g_counts.freed += 1;
  free(data);
}

static TfLiteStatus scale_prepare(TfLiteOpaqueContext* context, TfLiteOpaqueNode* node) {
  g_counts.prepare += 1;
  if (TfLiteOpaqueNodeNumberOfInputs(node) != 1 || TfLiteOpaqueNodeNumberOfOutputs(node) != 1) return kTfLiteError;
  const TfLiteOpaqueTensor* in = TfLiteOpaqueNodeGetInput(context, node, 0);
  TfLiteOpaqueTensor* out = TfLiteOpaqueNodeGetOutput(context, node, 0);
  if (TfLiteOpaqueTensorType(in) != kTfLiteFloat32) {
    TfLiteOpaqueContextReportError(context, "Scale takes float32, got type %d", (int)TfLiteOpaqueTensorType(in));
    return kTfLiteError;
  }
  const int32_t rank = TfLiteOpaqueTensorNumDims(in);
  TfLiteIntArray* shape = TfLiteIntArrayCreate(rank);
  if (shape == NULL) return kTfLiteError;
  for (int32_t d = 0; d < rank; ++d) shape->data[d] = TfLiteOpaqueTensorDim(in, d);
  return TfLiteOpaqueContextResizeTensor(context, out, shape);
}

static TfLiteStatus scale_invoke(TfLiteOpaqueContext* context, TfLiteOpaqueNode* node) {
  g_counts.invoke += 1;
  const float k = *(const float*)TfLiteOpaqueNodeGetUserData(node);
  const TfLiteOpaqueTensor* in = TfLiteOpaqueNodeGetInput(context, node, 0);
  TfLiteOpaqueTensor* out = TfLiteOpaqueNodeGetOutput(context, node, 0);
  const float* x = TfLiteOpaqueTensorData(in);
  float* y = TfLiteOpaqueTensorData(out);
  const size_t n = TfLiteOpaqueTensorByteSize(in) / sizeof(float);
  for (size_t i = 0; i < n; ++i) y[i] = x[i] * k;
  return kTfLiteOk;
}

/* The same op on the classic TfLiteRegistration ABI, offset by one so the two paths differ. */
static void* classic_init(TfLiteContext* context, const char* buffer, size_t length) {
  return scale_init((TfLiteOpaqueContext*)context, buffer, length);
}
static void classic_free(TfLiteContext* context, void* data) { scale_free((TfLiteOpaqueContext*)context, data); }
static TfLiteStatus classic_prepare(TfLiteContext* context, TfLiteNode* node) {
  g_counts.prepare += 1;
  TfLiteTensor* in = &context->tensors[node->inputs->data[0]];
  TfLiteTensor* out = &context->tensors[node->outputs->data[0]];
  return context->ResizeTensor(context, out, TfLiteIntArrayCopy(in->dims));
}
static TfLiteStatus classic_invoke(TfLiteContext* context, TfLiteNode* node) {
  g_counts.invoke += 1;
  const float k = *(const float*)node->user_data;
  const TfLiteTensor* in = &context->tensors[node->inputs->data[0]];
  TfLiteTensor* out = &context->tensors[node->outputs->data[0]];
  for (size_t i = 0; i < in->bytes / sizeof(float); ++i) out->data.f[i] = in->data.f[i] * k + 1.0f;
  return kTfLiteOk;
}

/* ADD replaced by a subtraction. */
static TfLiteStatus sub_invoke(TfLiteContext* context, TfLiteNode* node) {
  g_counts.invoke += 1;
  const TfLiteTensor* a = &context->tensors[node->inputs->data[0]];
  const TfLiteTensor* b = &context->tensors[node->inputs->data[1]];
  TfLiteTensor* out = &context->tensors[node->outputs->data[0]];
  for (size_t i = 0; i < out->bytes / sizeof(float); ++i) out->data.f[i] = a->data.f[i] - 2.0f * b->data.f[i];
  return kTfLiteOk;
}

static void print_output(const TfLiteInterpreter* interp) {
  const TfLiteTensor* out = TfLiteInterpreterGetOutputTensor(interp, 0);
  const size_t n = TfLiteTensorByteSize(out) / sizeof(float);
  float* y = malloc(n * sizeof *y + 1);
  if (y == NULL || TfLiteTensorCopyToBuffer(out, y, n * sizeof *y) != kTfLiteOk) {
    printf("copy failed\n");
    free(y);
    return;
  }
  for (size_t i = 0; i < n; ++i) printf("%s%.6g", i ? " " : "", (double)y[i]);
  printf("\n");
  free(y);
}

static int fill_inputs(TfLiteInterpreter* interp, int argc, char** argv) {
  float values[64];
  int n = argc < 64 ? argc : 64;
  for (int i = 0; i < n; ++i) values[i] = strtof(argv[i], NULL);
  for (int k = 0; k < TfLiteInterpreterGetInputTensorCount(interp); ++k) {
    TfLiteTensor* t = TfLiteInterpreterGetInputTensor(interp, k);
    size_t bytes = TfLiteTensorByteSize(t);
    if (bytes > sizeof values) return 1;
    if (TfLiteTensorCopyFromBuffer(t, values, bytes) != kTfLiteOk) return 1;
  }
  return 0;
}

int main(int argc, char** argv) {
  if (argc < 3) {
    fprintf(stderr, "usage: %s external|classic|builtin|reset|none MODEL [values...]\n", argv[0]);
    return 2;
  }
  const char* mode = argv[1];
  TfLiteModel* model = TfLiteModelCreateFromFile(argv[2]);
  if (model == NULL) return 3;
  TfLiteInterpreterOptions* options = TfLiteInterpreterOptionsCreate();
  TfLiteRegistrationExternal* external = NULL;
  TfLiteRegistration classic;
  memset(&classic, 0, sizeof classic);
  if (strcmp(mode, "external") == 0) {
    external = TfLiteRegistrationExternalCreate(kTfLiteBuiltinCustom, "Scale", 1);
    TfLiteRegistrationExternalSetInit(external, scale_init);
    TfLiteRegistrationExternalSetFree(external, scale_free);
    TfLiteRegistrationExternalSetPrepare(external, scale_prepare);
    TfLiteRegistrationExternalSetInvoke(external, scale_invoke);
    printf("registration %d %s %d\n", (int)TfLiteRegistrationExternalGetBuiltInCode(external),
           TfLiteRegistrationExternalGetCustomName(external), TfLiteRegistrationExternalGetVersion(external));
    TfLiteInterpreterOptionsAddRegistrationExternal(options, external);
  } else if (strcmp(mode, "classic") == 0) {
    classic.init = classic_init;
    classic.free = classic_free;
    classic.prepare = classic_prepare;
    classic.invoke = classic_invoke;
    TfLiteInterpreterOptionsAddCustomOp(options, "Scale", &classic, 1, 3);
  } else if (strcmp(mode, "builtin") == 0) {
    classic.invoke = sub_invoke;
    TfLiteInterpreterOptionsAddBuiltinOp(options, kTfLiteBuiltinAdd, &classic, 1, 6);
  }
  TfLiteInterpreter* interp = TfLiteInterpreterCreate(model, options);
  /* The interpreter keeps what it needs of the options and the model. */
  TfLiteInterpreterOptionsDelete(options);
  TfLiteModelDelete(model);
  if (interp == NULL) {
    printf("create failed\n");
    TfLiteRegistrationExternalDelete(external);
    return 4;
  }
  int rc = TfLiteInterpreterAllocateTensors(interp) != kTfLiteOk || fill_inputs(interp, argc - 3, argv + 3);
  const int runs = strcmp(mode, "reset") == 0 ? 2 : 1;
  for (int r = 0; !rc && r < runs; ++r) {
    rc = TfLiteInterpreterInvoke(interp) != kTfLiteOk;
    if (!rc) print_output(interp);
  }
  if (!rc && strcmp(mode, "reset") == 0) {
    rc = TfLiteInterpreterResetVariableTensors(interp) != kTfLiteOk || fill_inputs(interp, argc - 3, argv + 3) ||
         TfLiteInterpreterInvoke(interp) != kTfLiteOk;
    if (!rc) print_output(interp);
  }
  TfLiteInterpreterDelete(interp);
  TfLiteRegistrationExternalDelete(external);
  printf("counts init=%d prepare=%d invoke=%d freed=%d\n", g_counts.init, g_counts.prepare, g_counts.invoke,
         g_counts.freed);
  return rc ? 5 : 0;
}
