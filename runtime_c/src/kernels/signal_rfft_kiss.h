/* KISS FFT's forward real transform written once for the three sample types of SignalRfft
 * (int16 Q15, int32 Q31, float), included by signal_rfft.c once per type. Before including,
 * define KF(name) (a per-type suffix), KF_S (the scalar), KF_CPX (its complex pair) and the
 * per-type arithmetic, each as KISS FFT's macros behave for that type (FIXED_POINT=16, 32 or
 * none): kf_mul (S_MUL), kf_cmul (C_MUL), kf_fixdiv (C_FIXDIV), kf_add / kf_sub / kf_neg (a
 * store of the sum, wrapping for integers), kf_half (HALF_OF), kf_half_sum / kf_half_diff
 * (HALF_OF(a + b), HALF_OF(a - b)) and kf_twiddle (the table value of cos or sin). The
 * operations keep KISS FFT's order, so float results round the same way too. The parameters
 * are undefined at the end, ready for the next type. */

static inline KF_CPX KF(cadd)(KF_CPX a, KF_CPX b) {
  KF_CPX s = {kf_add(a.r, b.r), kf_add(a.i, b.i)};
  return s;
}

static inline KF_CPX KF(csub)(KF_CPX a, KF_CPX b) {
  KF_CPX s = {kf_sub(a.r, b.r), kf_sub(a.i, b.i)};
  return s;
}

static void KF(bfly2)(KF_CPX* out, int fstride, const KF_CPX* tw, int m) {
  for (int k = 0; k < m; ++k) {
    KF_CPX* a = &out[k];
    KF_CPX* b = &out[k + m];
    kf_fixdiv(a, 2);
    kf_fixdiv(b, 2);
    const KF_CPX t = kf_cmul(*b, tw[(size_t)k * fstride]);
    *b = KF(csub)(*a, t);
    *a = KF(cadd)(*a, t);
  }
}

static void KF(bfly4)(KF_CPX* out, int fstride, const KF_CPX* tw, int m) {
  for (int k = 0; k < m; ++k) {
    KF_CPX* f = &out[k];
    kf_fixdiv(&f[0], 4);
    kf_fixdiv(&f[m], 4);
    kf_fixdiv(&f[2 * m], 4);
    kf_fixdiv(&f[3 * m], 4);
    const KF_CPX s0 = kf_cmul(f[m], tw[(size_t)k * fstride]);
    const KF_CPX s1 = kf_cmul(f[2 * m], tw[(size_t)k * fstride * 2]);
    const KF_CPX s2 = kf_cmul(f[3 * m], tw[(size_t)k * fstride * 3]);
    const KF_CPX s5 = KF(csub)(f[0], s1);
    f[0] = KF(cadd)(f[0], s1);
    const KF_CPX s3 = KF(cadd)(s0, s2);
    const KF_CPX s4 = KF(csub)(s0, s2);
    f[2 * m] = KF(csub)(f[0], s3);
    f[0] = KF(cadd)(f[0], s3);
    f[m].r = kf_add(s5.r, s4.i);
    f[m].i = kf_sub(s5.i, s4.r);
    f[3 * m].r = kf_sub(s5.r, s4.i);
    f[3 * m].i = kf_add(s5.i, s4.r);
  }
}

static void KF(bfly3)(KF_CPX* out, int fstride, const KF_CPX* tw, int m) {
  const KF_S epi3_i = tw[(size_t)fstride * m].i;
  for (int k = 0; k < m; ++k) {
    KF_CPX* f = &out[k];
    kf_fixdiv(&f[0], 3);
    kf_fixdiv(&f[m], 3);
    kf_fixdiv(&f[2 * m], 3);
    const KF_CPX s1 = kf_cmul(f[m], tw[(size_t)k * fstride]);
    const KF_CPX s2 = kf_cmul(f[2 * m], tw[(size_t)k * fstride * 2]);
    const KF_CPX s3 = KF(cadd)(s1, s2);
    KF_CPX s0 = KF(csub)(s1, s2);
    f[m].r = kf_sub(f[0].r, kf_half(s3.r));
    f[m].i = kf_sub(f[0].i, kf_half(s3.i));
    s0.r = kf_mul(s0.r, epi3_i);
    s0.i = kf_mul(s0.i, epi3_i);
    f[0] = KF(cadd)(f[0], s3);
    f[2 * m].r = kf_add(f[m].r, s0.i);
    f[2 * m].i = kf_sub(f[m].i, s0.r);
    f[m].r = kf_sub(f[m].r, s0.i);
    f[m].i = kf_add(f[m].i, s0.r);
  }
}

static void KF(bfly5)(KF_CPX* out, int fstride, const KF_CPX* tw, int m) {
  const KF_CPX ya = tw[(size_t)fstride * m], yb = tw[(size_t)fstride * 2 * m];
  for (int u = 0; u < m; ++u) {
    KF_CPX* f0 = &out[u];
    KF_CPX* f1 = f0 + m;
    KF_CPX* f2 = f0 + 2 * m;
    KF_CPX* f3 = f0 + 3 * m;
    KF_CPX* f4 = f0 + 4 * m;
    kf_fixdiv(f0, 5);
    kf_fixdiv(f1, 5);
    kf_fixdiv(f2, 5);
    kf_fixdiv(f3, 5);
    kf_fixdiv(f4, 5);
    const KF_CPX s0 = *f0;
    const KF_CPX s1 = kf_cmul(*f1, tw[(size_t)u * fstride]);
    const KF_CPX s2 = kf_cmul(*f2, tw[(size_t)2 * u * fstride]);
    const KF_CPX s3 = kf_cmul(*f3, tw[(size_t)3 * u * fstride]);
    const KF_CPX s4 = kf_cmul(*f4, tw[(size_t)4 * u * fstride]);
    const KF_CPX s7 = KF(cadd)(s1, s4), s10 = KF(csub)(s1, s4), s8 = KF(cadd)(s2, s3), s9 = KF(csub)(s2, s3);
    f0->r = kf_add(f0->r, kf_add(s7.r, s8.r));
    f0->i = kf_add(f0->i, kf_add(s7.i, s8.i));
    KF_CPX s5, s6, s11, s12;
    s5.r = kf_add(kf_add(s0.r, kf_mul(s7.r, ya.r)), kf_mul(s8.r, yb.r));
    s5.i = kf_add(kf_add(s0.i, kf_mul(s7.i, ya.r)), kf_mul(s8.i, yb.r));
    s6.r = kf_add(kf_mul(s10.i, ya.i), kf_mul(s9.i, yb.i));
    s6.i = kf_sub(kf_neg(kf_mul(s10.r, ya.i)), kf_mul(s9.r, yb.i));
    *f1 = KF(csub)(s5, s6);
    *f4 = KF(cadd)(s5, s6);
    s11.r = kf_add(kf_add(s0.r, kf_mul(s7.r, yb.r)), kf_mul(s8.r, ya.r));
    s11.i = kf_add(kf_add(s0.i, kf_mul(s7.i, yb.r)), kf_mul(s8.i, ya.r));
    s12.r = kf_add(kf_neg(kf_mul(s10.i, yb.i)), kf_mul(s9.i, ya.i));
    s12.i = kf_sub(kf_mul(s10.r, yb.i), kf_mul(s9.r, ya.i));
    *f2 = KF(cadd)(s11, s12);
    *f3 = KF(csub)(s11, s12);
  }
}

static void KF(bfly_generic)(KF_CPX* out, int fstride, const KF_CPX* tw, int n, KF_CPX* scratch, int m, int p) {
  for (int u = 0; u < m; ++u) {
    for (int q = 0, k = u; q < p; ++q, k += m) {
      scratch[q] = out[k];
      kf_fixdiv(&scratch[q], p);
    }
    for (int q1 = 0, k = u; q1 < p; ++q1, k += m) {
      int64_t twidx = 0;
      out[k] = scratch[0];
      for (int q = 1; q < p; ++q) {
        twidx += (int64_t)fstride * k;
        if (twidx >= n) twidx -= n;
        out[k] = KF(cadd)(out[k], kf_cmul(scratch[q], tw[twidx]));
      }
    }
  }
}

/* The complex sample `j` of a row read as (real, imaginary) pairs, zero past its end. */
static inline KF_CPX KF(load_pair)(const KF_S* row, int length, int64_t j) {
  const int64_t a = 2 * j, b = 2 * j + 1;
  KF_CPX c = {a < length ? row[a] : 0, b < length ? row[b] : 0};
  return c;
}

/* KISS FFT's recursive decimation in time: p sub-transforms of length m, then one butterfly
 * stage. `in` indexes the complex input, stepping by `fstride`. */
static void KF(stage)(KF_CPX* out, const KF_S* row, int length, int64_t in, int fstride, const int* factors,
                      const KF_CPX* tw, int n, KF_CPX* scratch) {
  const int p = factors[0], m = factors[1];
  if (m == 1) {
    for (int q = 0; q < p; ++q, in += fstride) out[q] = KF(load_pair)(row, length, in);
  } else {
    for (int q = 0; q < p; ++q, in += fstride) {
      KF(stage)(out + (size_t)q * m, row, length, in, fstride * p, factors + 2, tw, n, scratch);
    }
  }
  switch (p) {
    case 2: KF(bfly2)(out, fstride, tw, m); break;
    case 3: KF(bfly3)(out, fstride, tw, m); break;
    case 4: KF(bfly4)(out, fstride, tw, m); break;
    case 5: KF(bfly5)(out, fstride, tw, m); break;
    default: KF(bfly_generic)(out, fstride, tw, n, scratch, m, p); break;
  }
}

/* One row: the half-length complex transform into `bins`, then kiss_fftr's split into the
 * spectrum of the real signal, in place (pair k and n - k read before either is written). */
static void KF(rfft_row)(const int* factors, const KF_CPX* tw, const KF_CPX* super_tw, KF_CPX* scratch, int n,
                         const KF_S* row, int length, KF_CPX* bins) {
  KF(stage)(bins, row, length, 0, 1, factors, tw, n, scratch);
  KF_CPX dc = bins[0];
  kf_fixdiv(&dc, 2);
  bins[0].r = kf_add(dc.r, dc.i);
  bins[n].r = kf_sub(dc.r, dc.i);
  bins[0].i = bins[n].i = 0;
  for (int k = 1; k <= n / 2; ++k) {
    KF_CPX fpk = bins[k];
    KF_CPX fpnk = {bins[n - k].r, kf_neg(bins[n - k].i)};
    kf_fixdiv(&fpk, 2);
    kf_fixdiv(&fpnk, 2);
    const KF_CPX f1k = KF(cadd)(fpk, fpnk), f2k = KF(csub)(fpk, fpnk);
    const KF_CPX t = kf_cmul(f2k, super_tw[k - 1]);
    bins[k].r = kf_half_sum(f1k.r, t.r);
    bins[k].i = kf_half_sum(f1k.i, t.i);
    bins[n - k].r = kf_half_diff(f1k.r, t.r);
    bins[n - k].i = kf_half_diff(t.i, f1k.i);
  }
}

/* The twiddle tables of kiss_fft_alloc and kiss_fftr_alloc for a half length n. */
static void KF(tables)(int n, KF_CPX* tw, KF_CPX* super_tw) {
  const double pi = 3.14159265358979323846264338327;
  for (int i = 0; i < n; ++i) {
    const double phase = -2 * pi * i / n;
    tw[i].r = kf_twiddle(cos(phase));
    tw[i].i = kf_twiddle(sin(phase));
  }
  for (int i = 0; i < n / 2; ++i) {
    const double phase = -pi * ((double)(i + 1) / n + .5);
    super_tw[i].r = kf_twiddle(cos(phase));
    super_tw[i].i = kf_twiddle(sin(phase));
  }
}

#undef KF
#undef KF_S
#undef KF_CPX
#undef kf_mul
#undef kf_cmul
#undef kf_fixdiv
#undef kf_add
#undef kf_sub
#undef kf_neg
#undef kf_half
#undef kf_half_sum
#undef kf_half_diff
#undef kf_twiddle
