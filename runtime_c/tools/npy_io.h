/* Reading and writing NumPy .npy files (format versions 1-3, little-endian, C order) for
 * edgelite-run. */
#ifndef EDGELITE_TOOLS_NPY_IO_H_
#define EDGELITE_TOOLS_NPY_IO_H_

#include <stddef.h>

#include "tensorflow/lite/c/c_api.h"

enum { NPY_MAX_DIMS = 16 };

typedef struct npy_array {
  TfLiteType type;
  int ndims;
  int dims[NPY_MAX_DIMS];
  void* data; /* malloc'd; free with npy_free */
  size_t bytes;
} npy_array;

/* Non-zero (with a message in err) when the file is not an .npy array of a TFLite type. */
int npy_read(const char* path, npy_array* out, char* err, size_t err_cap);
/* Writes `bytes` bytes of `type` with the given shape; non-zero on an I/O error or a type .npy
 * cannot hold. */
int npy_write(const char* path, TfLiteType type, const int* dims, int ndims, const void* data, size_t bytes);
void npy_free(npy_array* a);

#endif /* EDGELITE_TOOLS_NPY_IO_H_ */
