#include "kernels/optimized/requant.h"

#include <string.h>

/* Vector code loads every field of every block of an array with aligned 64-byte loads. */
_Static_assert(sizeof(el_rq_block) % 64 == 0, "el_rq_block must be a whole number of 64-byte lines");

void el_rq_blocks_build(const el_requant* rq, int n, el_rq_block* blocks) {
  const int count = (n + 15) / 16;
  memset(blocks, 0, sizeof(el_rq_block) * (size_t)count);
  for (int b = 0; b < count; ++b) {
    el_rq_block* k = &blocks[b];
    int fast = 1;
    for (int j = 0; j < 16; ++j) {
      const int c = b * 16 + j;
      const int32_t e = rq->rshift[c];
      k->bias[j] = rq->bias[c];
      k->mult[j] = rq->mult[c];
      k->lshift[j] = rq->lshift[c];
      const int64_t round = ((int64_t)1 << 30) + (e > 0 ? (int64_t)1 << (30 + e) : 0);
      const int64_t shift = 31 + e;
      const int64_t neg = e > 0 ? (int64_t)1 << 31 : 0;
      if (j % 2 == 0) {
        k->round_even[j / 2] = round;
        k->shift_even[j / 2] = shift;
        k->neg_even[j / 2] = neg;
      } else {
        k->round_odd[j / 2] = round;
        k->shift_odd[j / 2] = shift;
        k->neg_odd[j / 2] = neg;
        k->mult_odd[j - 1] = rq->mult[c];
        k->shift_odd_high[j / 2] = e - 1;
      }
      if (c < n && (e < 1 || rq->lshift[c] != 0)) fast = 0;
    }
    k->flags[0] = fast;
  }
}
