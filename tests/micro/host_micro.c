/* The micro interpreter built for the workstation (tests/micro/test_micro_host.py):
 *   host_micro run MODEL ARENA_BYTES [INPUT.bin ...]   outputs in hex and the RAM stats
 *   host_micro stream MODEL ARENA_BYTES (INPUT.bin|reset) ...  one invoke per input of a one-input
 *                                                  model (EL_ROUND lines), "reset": el_micro_reset
 *   host_micro fuzz MODEL CASES SEED                    mutated copies of MODEL, none may crash
 * The fuzz mode flips bytes, writes random words and truncates; every case must either fail
 * cleanly at create or create and invoke, and the sanitizers of the build catch any stray read. */
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "edgelite/edgelite_micro.h"

static void quiet(void* user, const char* fmt, va_list args) {
  (void)fmt;
  (void)args;
  ++*(long*)user;
}

static void loud(void* user, const char* fmt, va_list args) {
  (void)user;
  printf("EL_ERROR ");
  vprintf(fmt, args);
  printf("\n");
}

static unsigned char* read_file(const char* path, size_t* size) {
  FILE* f = fopen(path, "rb");
  if (f == NULL) return NULL;
  fseek(f, 0, SEEK_END);
  *size = (size_t)ftell(f);
  fseek(f, 0, SEEK_SET);
  unsigned char* p = aligned_alloc(16, (*size + 16) & ~(size_t)15);
  if (p != NULL && fread(p, 1, *size, f) != *size) {
    free(p);
    p = NULL;
  }
  fclose(f);
  return p;
}

/* Copies the input files into the graph inputs; 0 when all fit. */
static int set_inputs(el_micro_interpreter* mi, int argc, char** argv) {
  for (int i = 4; i < argc; ++i) {
    size_t n = 0;
    unsigned char* x = read_file(argv[i], &n);
    TfLiteTensor* t = el_micro_input(mi, (size_t)(i - 4));
    if (x == NULL || t == NULL || n != t->bytes) return 2;
    memcpy(t->data.raw, x, n);
    free(x);
  }
  return 0;
}

static void print_outputs(const el_micro_interpreter* mi, const char* label) {
  for (size_t o = 0; o < el_micro_num_outputs(mi); ++o) {
    const TfLiteTensor* t = el_micro_output(mi, o);
    printf("%s %u ", label, (unsigned)o);
    for (size_t k = 0; k < t->bytes; ++k) printf("%02x", (unsigned)(uint8_t)t->data.raw_const[k]);
    printf("\n");
  }
}

static el_micro_interpreter* create(int argc, char** argv) {
  size_t model_size = 0;
  unsigned char* model = read_file(argv[2], &model_size);
  const size_t arena_bytes = (size_t)strtoull(argv[3], NULL, 10);
  unsigned char* arena = aligned_alloc(16, (arena_bytes + 16) & ~(size_t)15);
  if (model == NULL || arena == NULL) exit(2);
  el_micro_interpreter* mi = el_micro_interpreter_create(model, model_size, arena, arena_bytes, loud, NULL);
  if (mi == NULL) exit(1);
  if (set_inputs(mi, argc, argv) != 0) exit(2);
  return mi;
}

static int run(int argc, char** argv) {
  el_micro_interpreter* mi = create(argc, argv);
  const long before = el_micro_get_stats(mi).alloc_calls;
  if (el_micro_invoke(mi) != kTfLiteOk) return 1;
  const el_micro_stats s = el_micro_get_stats(mi);
  print_outputs(mi, "EL_OUTPUT");
  printf("EL_STATS ram_used=%zu activations=%zu persistent=%zu alloc_calls_in_invoke=%ld tensor_bytes=%zu\n",
         s.used, s.activations, s.persistent, s.alloc_calls - before, s.tensor_bytes);
  printf("EL_DONE\n");
  return 0;
}

/* One invoke per input file of a one-input model, the state carried from each to the next; the
 * word "reset" in place of a file calls el_micro_reset. */
static int stream(int argc, char** argv) {
  el_micro_interpreter* mi = create(4, argv);
  const long before = el_micro_get_stats(mi).alloc_calls;
  char label[32];
  int round = 0;
  for (int i = 4; i < argc; ++i) {
    if (strcmp(argv[i], "reset") == 0) {
      if (el_micro_reset(mi) != kTfLiteOk) return 1;
      continue;
    }
    char* one[5] = {argv[0], argv[1], argv[2], argv[3], argv[i]};
    if (set_inputs(mi, 5, one) != 0) return 2;
    if (el_micro_invoke(mi) != kTfLiteOk) return 1;
    snprintf(label, sizeof label, "EL_ROUND %d", round++);
    print_outputs(mi, label);
  }
  printf("EL_STATS alloc_calls_after_create=%ld\n", el_micro_get_stats(mi).alloc_calls - before);
  return 0;
}

static uint64_t g_state;
static uint32_t next_random(void) {
  g_state = g_state * 6364136223846793005ull + 1442695040888963407ull;
  return (uint32_t)(g_state >> 33);
}

static int fuzz(char** argv) {
  size_t size = 0;
  unsigned char* model = read_file(argv[2], &size);
  const long cases = strtol(argv[3], NULL, 10);
  g_state = (uint64_t)strtoull(argv[4], NULL, 10);
  const size_t arena_bytes = 256 * 1024;
  unsigned char* arena = aligned_alloc(16, arena_bytes);
  unsigned char* copy = aligned_alloc(16, (size + 16) & ~(size_t)15);
  if (model == NULL || arena == NULL || copy == NULL) return 2;
  long created = 0, reports = 0;
  for (long c = 0; c < cases; ++c) {
    memcpy(copy, model, size);
    size_t n = size;
    const int edits = 1 + (int)(next_random() % 4);
    for (int e = 0; e < edits; ++e) {
      const size_t at = next_random() % size;
      switch (next_random() % 4) {
        case 0: copy[at] ^= (unsigned char)(1u << (next_random() % 8)); break;
        case 1: copy[at] = (unsigned char)next_random(); break;
        case 2: {
          const uint32_t w = next_random() % 3 == 0 ? 0xffffffffu : next_random() % 4096;
          if (at + 4 <= n) memcpy(copy + at, &w, 4);
          break;
        }
        default: n = at > 8 ? at : n; break;
      }
    }
    el_micro_interpreter* mi = el_micro_interpreter_create(copy, n, arena, arena_bytes, quiet, &reports);
    if (mi == NULL) continue;
    ++created;
    for (size_t i = 0; i < el_micro_num_inputs(mi); ++i) {
      TfLiteTensor* t = el_micro_input(mi, i);
      memset(t->data.raw, (int)(next_random() & 0xff), t->bytes);
    }
    (void)el_micro_invoke(mi);
    if (el_micro_reset(mi) == kTfLiteOk) (void)el_micro_invoke(mi);
  }
  printf("EL_FUZZ cases=%ld created=%ld reports=%ld\n", cases, created, reports);
  return 0;
}

int main(int argc, char** argv) {
  if (argc >= 4 && strcmp(argv[1], "run") == 0) return run(argc, argv);
  if (argc >= 4 && strcmp(argv[1], "stream") == 0) return stream(argc, argv);
  if (argc == 5 && strcmp(argv[1], "fuzz") == 0) return fuzz(argv);
  fprintf(stderr, "usage: host_micro run|stream MODEL ARENA [INPUT.bin ...] | fuzz MODEL CASES SEED\n");
  return 2;
}
