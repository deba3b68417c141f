/* AMX-INT8 body of the 1x1 int8 convolution's indirect GEMM (Intel AMX: TDPBSSD on 16-row tiles).
 *
 * The QUAD packing is already AMX's B layout: a 16-channel block holds 4 consecutive k of each
 * channel per 4-byte column, so 16 rows of it (64 k) are one B tile. A rows are the input pixels
 * themselves, loaded in place with the input's row stride; TDPBSSD multiplies signed bytes by
 * signed bytes, so A is not XORed (a_xor 0) and the bias carries the whole input offset's term.
 * The int32 sums equal the VNNI kernel's modulo 2^32 (both are the exact products' sums), and the
 * requantization is the AVX-512 one: the same output bits. Compiled for AMX through a target
 * attribute and reached only when el_isa_amx_int8_ready() said yes. */
#if defined(__x86_64__)
#include <immintrin.h>
#include <string.h>

#include "kernels/optimized/qgemm.h"

#define EL_TARGET_AMX \
  __attribute__((target("avx2,fma,avx512f,avx512bw,avx512dq,avx512vl,amx-tile,amx-int8")))

/* A call covers up to 32 rows (two row tiles) and runs 32 channels (two column tiles) at a time:
 * tiles 0-3 the sums, 4-5 A, 6-7 B. Weights are packed with k padded to 64 (kstep), zeros. */
enum { AMX_TILE_ROWS = 16, AMX_MR = 32, AMX_KBYTES = 64 };

/* LDTILECFG's 64-byte operand (palette 1). */
typedef struct amx_config {
  uint8_t palette;
  uint8_t start_row;
  uint8_t reserved[14];
  uint16_t colsb[16];
  uint8_t rows[16];
} amx_config;

extern const el_qgemm_kernels el_qgemm_avx512_vnni;

/* Row tile i of A and C holds rows_i rows (the second may be empty); B tiles are 16 rows of 64. */
static void configure(int rows0, int rows1, amx_config* cfg) {
  memset(cfg, 0, sizeof *cfg);
  cfg->palette = 1;
  const int tile_rows[8] = {rows0, rows0, rows1, rows1, rows0, rows1, AMX_KBYTES / 4, AMX_KBYTES / 4};
  for (int t = 0; t < 8; ++t) {
    cfg->rows[t] = (uint8_t)tile_rows[t];
    cfg->colsb[t] = tile_rows[t] > 0 ? 64 : 0;
  }
}

/* el_qgemm_kernels.igemm for one tap whose rows lie cin bytes apart from in + off[0] (1x1,
 * stride 1, no padding: conv_opt.c takes this body only then), rows <= 32, cin % 4 == 0. The
 * last cin % 64 bytes of each row are copied, zero-padded, to a 64-byte-wide tail, so no load
 * reads past a row's end (nor past the input's last byte); the padded weights there are 0. */
EL_TARGET_AMX static void igemm_amx(int taps, int cin, const int32_t* off, const int8_t* in,
                                    const int8_t* aux, const void* b, size_t b_block,
                                    const el_requant* rq, int c0, int rows, int8_t* out,
                                    ptrdiff_t out_stride, int n) {
  (void)taps;
  (void)aux;
  const int rows0 = rows < AMX_TILE_ROWS ? rows : AMX_TILE_ROWS;
  const int rows1 = rows - rows0;
  amx_config cfg;
  configure(rows0, rows1, &cfg);
  _tile_loadconfig(&cfg);
  const int8_t* a = in + off[0];
  const long lda = cin;
  const int kfull = cin / AMX_KBYTES;
  const int tail = cin % AMX_KBYTES;
  int8_t tail_rows[AMX_MR * AMX_KBYTES] __attribute__((aligned(64)));
  if (tail != 0) {
    memset(tail_rows, 0, sizeof tail_rows);
    for (int r = 0; r < rows; ++r) {
      memcpy(tail_rows + r * AMX_KBYTES, a + (size_t)r * (size_t)cin + (size_t)kfull * AMX_KBYTES,
             (size_t)tail);
    }
  }
  const int ksteps = kfull + (tail != 0);
  const size_t bstep = (size_t)AMX_KBYTES * 16; /* bytes of one 64-k B tile */
  const int8_t* a1 = a + (size_t)AMX_TILE_ROWS * (size_t)cin;
  int32_t acc[AMX_MR * 64] __attribute__((aligned(64)));
  for (int j = 0; j < n; j += 32) {
    const int two = n - j > 16;
    const char* w0 = (const char*)b + (size_t)(j / 16) * b_block;
    const char* w1 = w0 + b_block;
    _tile_zero(0);
    _tile_zero(1);
    if (rows1 > 0) {
      _tile_zero(2);
      _tile_zero(3);
    }
    for (int kc = 0; kc < ksteps; ++kc) {
      const int in_tail = kc == kfull;
      if (in_tail) {
        _tile_loadd(4, tail_rows, AMX_KBYTES);
      } else {
        _tile_loadd(4, a + (size_t)kc * AMX_KBYTES, lda);
      }
      _tile_loadd(6, w0 + (size_t)kc * bstep, 64);
      _tile_dpbssd(0, 4, 6);
      if (two) {
        _tile_loadd(7, w1 + (size_t)kc * bstep, 64);
        _tile_dpbssd(1, 4, 7);
      }
      if (rows1 > 0) {
        if (in_tail) {
          _tile_loadd(5, tail_rows + AMX_TILE_ROWS * AMX_KBYTES, AMX_KBYTES);
        } else {
          _tile_loadd(5, a1 + (size_t)kc * AMX_KBYTES, lda);
        }
        _tile_dpbssd(2, 5, 6);
        if (two) _tile_dpbssd(3, 5, 7);
      }
    }
    /* acc[r * 64 + c]: the requant's layout. */
    const long cstride = 64 * sizeof(int32_t);
    _tile_stored(0, acc, cstride);
    if (two) _tile_stored(1, acc + 16, cstride);
    if (rows1 > 0) {
      _tile_stored(2, acc + AMX_TILE_ROWS * 64, cstride);
      if (two) _tile_stored(3, acc + AMX_TILE_ROWS * 64 + 16, cstride);
    }
    const int count = n - j < 32 ? n - j : 32;
    el_qgemm_avx512_vnni.requant(acc, rows, count, rq, c0 + j, out + j, out_stride);
  }
  _tile_release();
}

static const el_qgemm_kernels el_qgemm_amx = {
    .format = EL_QFORMAT_QUAD, .mr = AMX_MR, .igemm_mr = AMX_MR, .kstep = AMX_KBYTES, .a_xor = 0,
    .gemm = NULL, .gemv = NULL, .gemv_raw = NULL, .requant = NULL, .igemm = igemm_amx,
    .rescale = NULL};

const el_qgemm_kernels* el_qgemm_amx_pointwise(void) { return &el_qgemm_amx; }

#else

#include "kernels/optimized/qgemm.h"

const el_qgemm_kernels* el_qgemm_amx_pointwise(void) { return NULL; }

#endif /* __x86_64__ */
