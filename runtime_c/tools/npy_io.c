/* .npy files: a magic string, a version, a Python-dict header naming dtype, order and shape, then
 * the raw elements. */
#include "npy_io.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct dtype_name {
  TfLiteType type;
  const char* descr;
} dtype_name;

static const dtype_name kDtypes[] = {
    {kTfLiteFloat32, "<f4"}, {kTfLiteFloat16, "<f2"}, {kTfLiteFloat64, "<f8"}, {kTfLiteInt8, "|i1"},
    {kTfLiteUInt8, "|u1"},   {kTfLiteInt16, "<i2"},   {kTfLiteUInt16, "<u2"},  {kTfLiteInt32, "<i4"},
    {kTfLiteUInt32, "<u4"},  {kTfLiteInt64, "<i8"},   {kTfLiteUInt64, "<u8"},  {kTfLiteBool, "|b1"},
    {kTfLiteComplex64, "<c8"}, {kTfLiteComplex128, "<c16"},
};

static const char* descr_of(TfLiteType type) {
  for (size_t i = 0; i < sizeof kDtypes / sizeof kDtypes[0]; ++i) {
    if (kDtypes[i].type == type) return kDtypes[i].descr;
  }
  return NULL;
}

/* The value text after 'key': in the header dict, or NULL. */
static const char* field(const char* header, const char* key) {
  const char* p = strstr(header, key);
  if (p == NULL) return NULL;
  p = strchr(p + strlen(key), ':');
  if (p == NULL) return NULL;
  for (++p; *p == ' '; ++p) continue;
  return p;
}

static int parse_header(const char* header, npy_array* out, char* err, size_t err_cap) {
  const char* descr = field(header, "'descr'");
  const char* order = field(header, "'fortran_order'");
  const char* shape = field(header, "'shape'");
  if (descr == NULL || order == NULL || shape == NULL || *descr != '\'' || *shape != '(') {
    snprintf(err, err_cap, "malformed .npy header: %s", header);
    return 1;
  }
  if (strncmp(order, "False", 5) != 0) {
    snprintf(err, err_cap, "Fortran-ordered .npy arrays are not supported");
    return 1;
  }
  int found = 0;
  for (size_t i = 0; i < sizeof kDtypes / sizeof kDtypes[0] && !found; ++i) {
    size_t n = strlen(kDtypes[i].descr);
    /* NumPy writes '|' or '=' for single-byte types and '<' for little-endian ones. */
    int same = strncmp(descr + 1, kDtypes[i].descr, n) == 0 ||
               (n > 1 && descr[1] == '=' && strncmp(descr + 2, kDtypes[i].descr + 1, n - 1) == 0);
    if (same && descr[1 + n] == '\'') {
      out->type = kDtypes[i].type;
      found = 1;
    }
  }
  if (!found) {
    snprintf(err, err_cap, "unsupported .npy dtype %.16s", descr);
    return 1;
  }
  out->ndims = 0;
  for (const char* p = shape + 1; *p != ')';) {
    char* end = NULL;
    long v = strtol(p, &end, 10);
    if (end == p || v < 0 || v > INT32_MAX || out->ndims == NPY_MAX_DIMS) {
      snprintf(err, err_cap, "unsupported .npy shape %.64s", shape);
      return 1;
    }
    out->dims[out->ndims++] = (int)v;
    for (p = end; *p == ',' || *p == ' '; ++p) continue;
  }
  return 0;
}

int npy_read(const char* path, npy_array* out, char* err, size_t err_cap) {
  memset(out, 0, sizeof *out);
  FILE* f = fopen(path, "rb");
  if (f == NULL) {
    snprintf(err, err_cap, "cannot open %s", path);
    return 1;
  }
  unsigned char pre[12];
  int rc = 1;
  char* header = NULL;
  if (fread(pre, 1, 10, f) != 10 || memcmp(pre, "\x93NUMPY", 6) != 0) {
    snprintf(err, err_cap, "%s is not an .npy file", path);
    goto done;
  }
  size_t header_len = pre[8] | (size_t)pre[9] << 8;
  if (pre[6] >= 2) {
    if (fread(pre + 10, 1, 2, f) != 2) goto truncated;
    header_len |= (size_t)pre[10] << 16 | (size_t)pre[11] << 24;
  }
  header = malloc(header_len + 1);
  if (header == NULL || fread(header, 1, header_len, f) != header_len) goto truncated;
  header[header_len] = '\0';
  if (parse_header(header, out, err, err_cap) != 0) goto done;
  size_t count = 1;
  for (int i = 0; i < out->ndims; ++i) count *= (size_t)out->dims[i];
  size_t item = strtoul(descr_of(out->type) + 2, NULL, 10);
  out->bytes = count * item;
  out->data = malloc(out->bytes ? out->bytes : 1);
  if (out->data == NULL || fread(out->data, 1, out->bytes, f) != out->bytes) goto truncated;
  rc = 0;
  goto done;
truncated:
  snprintf(err, err_cap, "%s is truncated or too large", path);
done:
  free(header);
  fclose(f);
  if (rc != 0) npy_free(out);
  return rc;
}

int npy_write(const char* path, TfLiteType type, const int* dims, int ndims, const void* data, size_t bytes) {
  const char* descr = descr_of(type);
  if (descr == NULL) return 1;
  char header[512];
  int n = snprintf(header, sizeof header, "{'descr': '%s', 'fortran_order': False, 'shape': (", descr);
  for (int i = 0; i < ndims && n < (int)sizeof header; ++i) {
    n += snprintf(header + n, sizeof header - (size_t)n, ndims == 1 ? "%d," : (i ? ", %d" : "%d"), dims[i]);
  }
  if (n >= (int)sizeof header - 64) return 1;
  n += snprintf(header + n, sizeof header - (size_t)n, "), }");
  /* Version 1.0: the magic, version and length (10 bytes) plus the header, padded with spaces
   * and ended by a newline, fill a multiple of 64 bytes. */
  int total = (10 + n + 1 + 63) / 64 * 64;
  while (10 + n + 1 < total) header[n++] = ' ';
  header[n++] = '\n';
  unsigned char pre[10] = {0x93, 'N', 'U', 'M', 'P', 'Y', 1, 0, (unsigned char)(n & 0xff), (unsigned char)(n >> 8)};
  FILE* f = fopen(path, "wb");
  if (f == NULL) return 1;
  int rc = fwrite(pre, 1, sizeof pre, f) != sizeof pre || fwrite(header, 1, (size_t)n, f) != (size_t)n ||
           (bytes > 0 && fwrite(data, 1, bytes, f) != bytes);
  rc |= fclose(f) != 0;
  return rc;
}

void npy_free(npy_array* a) {
  free(a->data);
  a->data = NULL;
}
