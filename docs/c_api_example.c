/* The smallest complete use of TensorFlow Lite's C API on libedgelite: run a model once on zeros
 * and print its first output as floats (or raw bytes for other types). Built as in docs/c_api.md:
 *
 *   cc -std=c11 $(python -m edgelite_runtime.config --cflags) docs/c_api_example.c \
 *      $(python -m edgelite_runtime.config --libs) -o c_api_example
 *   ./c_api_example model.tflite */
#include <stdio.h>
#include <string.h>

#include "tensorflow/lite/c/c_api.h"

int main(int argc, char** argv) {
  if (argc != 2) {
    fprintf(stderr, "usage: %s MODEL\n", argv[0]);
    return 2;
  }
  TfLiteModel* model = TfLiteModelCreateFromFile(argv[1]);
  if (model == NULL) return 1;
  TfLiteInterpreter* interpreter = TfLiteInterpreterCreate(model, NULL);
  TfLiteModelDelete(model); /* the interpreter keeps what it needs */
  if (interpreter == NULL || TfLiteInterpreterAllocateTensors(interpreter) != kTfLiteOk) {
    TfLiteInterpreterDelete(interpreter);
    return 1;
  }
  for (int i = 0; i < TfLiteInterpreterGetInputTensorCount(interpreter); ++i) {
    TfLiteTensor* input = TfLiteInterpreterGetInputTensor(interpreter, i);
    memset(TfLiteTensorData(input), 0, TfLiteTensorByteSize(input));
  }
  int status = TfLiteInterpreterInvoke(interpreter) != kTfLiteOk;
  const TfLiteTensor* output = TfLiteInterpreterGetOutputTensor(interpreter, 0);
  if (status == 0 && TfLiteTensorType(output) == kTfLiteFloat32) {
    const float* values = TfLiteTensorData(output);
    for (size_t k = 0; k < TfLiteTensorByteSize(output) / sizeof(float); ++k) printf("%.9g\n", (double)values[k]);
  } else if (status == 0) {
    const unsigned char* bytes = TfLiteTensorData(output);
    for (size_t k = 0; k < TfLiteTensorByteSize(output); ++k) printf("%u\n", bytes[k]);
  }
  TfLiteInterpreterDelete(interpreter);
  return status;
}
