/* The signal ops' name table and their shared option reader. */
#include <string.h>

#include "kernels/kernels.h"
#include "kernels/signal_ops.h"

#ifdef EDGELITE_OP_SELECTION
#include EDGELITE_OP_SELECTION
#endif

typedef struct signal_entry {
  const char* name;
  const TfLiteRegistration* registration;
} signal_entry;

/* A firmware build keeps a signal op only when its model uses it (EL_KEEP_<name>). */
#if !defined(EDGELITE_OP_SELECTION) || defined(EL_KEEP_SignalWindow) || defined(EL_KEEP_SignalFftAutoScale) || \
    defined(EL_KEEP_SignalRfft) || defined(EL_KEEP_SignalEnergy) || defined(EL_KEEP_SignalFilterBank) ||       \
    defined(EL_KEEP_SignalFilterBankSquareRoot) || defined(EL_KEEP_SignalFilterBankSpectralSubtraction) ||      \
    defined(EL_KEEP_SignalPCAN) || defined(EL_KEEP_SignalFilterBankLog)
#define EL_SIGNAL_ANY 1
#endif

#ifdef EL_SIGNAL_ANY
static const signal_entry kSignalOps[] = {
#if !defined(EDGELITE_OP_SELECTION) || defined(EL_KEEP_SignalWindow)
    {"SignalWindow", &el_signal_window},
#endif
#if !defined(EDGELITE_OP_SELECTION) || defined(EL_KEEP_SignalFftAutoScale)
    {"SignalFftAutoScale", &el_signal_fft_auto_scale},
#endif
#if !defined(EDGELITE_OP_SELECTION) || defined(EL_KEEP_SignalRfft)
    {"SignalRfft", &el_signal_rfft},
#endif
#if !defined(EDGELITE_OP_SELECTION) || defined(EL_KEEP_SignalEnergy)
    {"SignalEnergy", &el_signal_energy},
#endif
#if !defined(EDGELITE_OP_SELECTION) || defined(EL_KEEP_SignalFilterBank)
    {"SignalFilterBank", &el_signal_filter_bank},
#endif
#if !defined(EDGELITE_OP_SELECTION) || defined(EL_KEEP_SignalFilterBankSquareRoot)
    {"SignalFilterBankSquareRoot", &el_signal_filter_bank_square_root},
#endif
#if !defined(EDGELITE_OP_SELECTION) || defined(EL_KEEP_SignalFilterBankSpectralSubtraction)
    {"SignalFilterBankSpectralSubtraction", &el_signal_filter_bank_spectral_subtraction},
#endif
#if !defined(EDGELITE_OP_SELECTION) || defined(EL_KEEP_SignalPCAN)
    {"SignalPCAN", &el_signal_pcan},
#endif
#if !defined(EDGELITE_OP_SELECTION) || defined(EL_KEEP_SignalFilterBankLog)
    {"SignalFilterBankLog", &el_signal_filter_bank_log},
#endif
};
#endif

const TfLiteRegistration* el_signal_lookup(const char* name, int version) {
#ifdef EL_SIGNAL_ANY
  if (name == NULL || version > 1) return NULL;
  for (size_t i = 0; i < sizeof kSignalOps / sizeof kSignalOps[0]; ++i) {
    if (strcmp(name, kSignalOps[i].name) == 0) return kSignalOps[i].registration;
  }
#else
  (void)name;
  (void)version;
#endif
  return NULL;
}

void el_signal_reset(const TfLiteRegistration* reg, void* user_data) {
#if !defined(EDGELITE_OP_SELECTION) || defined(EL_KEEP_SignalFilterBankSpectralSubtraction)
  if (reg == &el_signal_filter_bank_spectral_subtraction) el_signal_spectral_subtraction_reset(user_data);
#else
  (void)reg;
  (void)user_data;
#endif
}

bool el_signal_int_option(const el_flex_map* map, const char* key, int64_t lo, int64_t hi, int64_t* out) {
  el_flex_value v;
  int64_t x = 0;
  if (!el_flex_map_get(map, key, &v) || v.type == 0 || !el_flex_as_int(map, &v, &x)) return false;
  if (x < lo || x > hi) return false;
  *out = x;
  return true;
}

void* el_signal_init_one_option(const char* buf, size_t len, const char* key, int64_t lo, int64_t hi) {
  el_signal_one_option* d = el_kernel_alloc(sizeof(el_signal_one_option));
  if (d == NULL) return NULL;
  el_flex_map m;
  int64_t v = 0;
  d->options_ok = el_flex_root_map((const uint8_t*)buf, len, &m) && el_signal_int_option(&m, key, lo, hi, &v);
  d->value = (int)v;
  return d;
}
