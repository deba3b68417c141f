/* Reads convolution scales from stdin and prints what el_conv_requant_channels stores for them,
 * read back through the compact layout (int32 multipliers, then int8 shifts), and what
 * el_requant_block_fill gives the kernels that keep no channels, so the caller can compare every
 * channel with the multiplier formula.
 *
 * Input, one convolution a line: `<int8|int16> <input scale> <output scale> <n> <n filter scales>`
 * (scales as C hexadecimal floats, exact float32 values). Output, two lines each: the status, then
 * `<multiplier> <shift>` per stored channel; `block`, then the same pairs from blocks of
 * EL_REQUANT_BLOCK channels. Exit status 0 unless the input cannot be read. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kernels/conv_requant.h"

static void report(TfLiteContext* context, const char* format, ...) {
  (void)context;
  va_list args;
  va_start(args, format);
  vfprintf(stderr, format, args);
  va_end(args);
  fputc('\n', stderr);
}

/* Blocks live until exit, as persistent buffers live as long as their interpreter. */
static void* persistent(TfLiteContext* context, size_t bytes) {
  (void)context;
  return malloc(bytes);
}

static int read_scale(float* out) {
  char word[64];
  if (scanf("%63s", word) != 1) return 0;
  *out = (float)strtod(word, NULL);
  return 1;
}

int main(void) {
  TfLiteContext context;
  memset(&context, 0, sizeof context);
  context.ReportError = report;
  context.AllocatePersistentBuffer = persistent;
  char type_name[16];
  while (scanf("%15s", type_name) == 1) {
    const TfLiteType type = strcmp(type_name, "int16") == 0 ? kTfLiteInt16 : kTfLiteInt8;
    float in_scale = 0.0f;
    float out_scale = 0.0f;
    int n = 0;
    if (!read_scale(&in_scale) || !read_scale(&out_scale) || scanf("%d", &n) != 1 || n < 1) return 2;
    TfLiteFloatArray* scales = malloc(sizeof(TfLiteFloatArray) + (size_t)n * sizeof(float));
    if (scales == NULL) return 3;
    scales->size = n;
    for (int c = 0; c < n; ++c) {
      if (!read_scale(&scales->data[c])) return 2;
    }
    TfLiteAffineQuantization aq = {scales, NULL, 0};
    TfLiteTensor input, filter, output;
    memset(&input, 0, sizeof input);
    memset(&filter, 0, sizeof filter);
    memset(&output, 0, sizeof output);
    input.type = output.type = type;
    filter.type = kTfLiteInt8;
    input.params.scale = in_scale;
    output.params.scale = out_scale;
    filter.params.scale = scales->data[0];
    filter.quantization.type = kTfLiteAffineQuantization;
    filter.quantization.params = &aq;
    el_conv_requant r;
    memset(&r, 0, sizeof r);
    const TfLiteStatus status =
        el_conv_requant_channels(&context, &input, &filter, NULL, &output, n, kTfLiteActNone, &r);
    printf("%d", (int)status);
    if (status == kTfLiteOk) {
      const int8_t* shifts = el_conv_requant_shifts(&r);
      for (int c = 0; c < n; ++c) printf(" %ld %d", (long)r.multipliers[c], (int)shifts[c]);
    }
    printf("\nblock");
    for (int first = 0; first < n; first += EL_REQUANT_BLOCK) {
      const int count = n - first < EL_REQUANT_BLOCK ? n - first : EL_REQUANT_BLOCK;
      el_requant_block b;
      el_requant_block_fill(&input, &filter, &output, first, count, &b);
      for (int k = 0; k < count; ++k) printf(" %ld %d", (long)b.multipliers[k], (int)b.shifts[k]);
    }
    printf("\n");
    free(scales);
  }
  return 0;
}
