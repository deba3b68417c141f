/* The arena planner: exact answers on small cases, and on random lifetimes the invariants any
 * valid plan must satisfy (no two co-alive buffers overlap, aligned offsets, size between the
 * lower bound and the no-reuse sum). */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "planner.h"

static int overlap_free(const el_plan_item* it, int n, size_t align) {
  for (int i = 0; i < n; ++i) {
    if (it[i].offset % (it[i].align ? it[i].align : align) != 0) return 0;
    for (int j = i + 1; j < n; ++j) {
      if (it[i].last < it[j].first || it[j].last < it[i].first) continue;
      if (it[i].size == 0 || it[j].size == 0) continue;
      if (it[i].offset < it[j].offset + it[j].size && it[j].offset < it[i].offset + it[i].size) return 0;
    }
  }
  return 1;
}

void test_planner(void) {
  size_t total = 0, bound = 0;
  /* A chain a→b→c: a and c never meet, so c reuses a's bytes. */
  el_plan_item chain[3] = {{96, 0, 0, 0, 0}, {64, 0, 1, 0, 0}, {96, 1, 1, 0, 0}};
  CHECK_EQ_INT(el_plan_arena(chain, 3, 16, &total, &bound), 0);
  CHECK_EQ_INT(bound, 160);
  CHECK_EQ_INT(total, 160);
  CHECK(overlap_free(chain, 3, 16));

  /* Offsets are aligned, sizes are not rounded: the last buffer ends the arena exactly. */
  el_plan_item odd[2] = {{10, 0, 0, 0, 0}, {10, 0, 0, 0, 0}};
  CHECK_EQ_INT(el_plan_arena(odd, 2, 16, &total, &bound), 0);
  CHECK_EQ_INT(bound, 20);
  CHECK_EQ_INT(total, 26);

  /* Each item's own alignment: int8 bytes pack with no padding, an int32 buffer waits for 4. */
  el_plan_item mixed[3] = {{3, 0, 0, 0, 1}, {5, 0, 0, 0, 1}, {8, 0, 0, 0, 4}};
  CHECK_EQ_INT(el_plan_arena(mixed, 3, 16, &total, &bound), 0);
  CHECK(overlap_free(mixed, 3, 1));
  CHECK_EQ_INT(mixed[2].offset % 4, 0);
  CHECK_EQ_INT(total, 16);

  /* An alignment that is not a power of two is refused. */
  el_plan_item bad_align = {8, 0, 0, 0, 3};
  CHECK_EQ_INT(el_plan_arena(&bad_align, 1, 16, &total, &bound), -1);

  /* A small buffer must slot into the gap a freed one leaves. */
  el_plan_item gap[4] = {{100, 0, 2, 0, 0}, {48, 0, 0, 0, 0}, {48, 1, 2, 0, 0}, {32, 1, 1, 0, 0}};
  CHECK_EQ_INT(el_plan_arena(gap, 4, 16, &total, &bound), 0);
  CHECK(overlap_free(gap, 4, 16));
  CHECK_EQ_INT(total, 112 + 48 + 32);

  CHECK_EQ_INT(el_plan_arena(NULL, 0, 16, &total, &bound), 0);
  CHECK_EQ_INT(total, 0);

  el_plan_item bad = {16, 3, 1, 0, 0};
  CHECK_EQ_INT(el_plan_arena(&bad, 1, 16, &total, &bound), -1);

  srand(1234);
  for (int round = 0; round < 50; ++round) {
    int n = 1 + rand() % 120;
    el_plan_item* it = calloc((size_t)n, sizeof *it);
    size_t sum = 0;
    for (int i = 0; i < n; ++i) {
      it[i].size = (size_t)(rand() % 5000);
      it[i].first = rand() % 40;
      it[i].last = it[i].first + rand() % 8;
      it[i].align = (size_t)1 << (rand() % 7);
      sum += it[i].size + it[i].align - 1;
    }
    CHECK_EQ_INT(el_plan_arena(it, n, 16, &total, &bound), 0);
    CHECK(overlap_free(it, n, 16));
    CHECK(total >= bound);
    CHECK(total <= sum);
    free(it);
  }
}
