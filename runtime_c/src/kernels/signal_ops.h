/* TensorFlow Lite Micro's signal library ops (audio front ends), built in as custom ops found by
 * name: SignalWindow, SignalFftAutoScale, SignalRfft, SignalEnergy, SignalFilterBank,
 * SignalFilterBankSquareRoot, SignalFilterBankSpectralSubtraction, SignalPCAN and
 * SignalFilterBankLog. Their integer arithmetic follows TFLM's (the same wrap-arounds, shifts
 * and roundings), so their outputs are TFLM's bits. Options come from a flexbuffer map. */
#ifndef EDGELITE_KERNELS_SIGNAL_OPS_H_
#define EDGELITE_KERNELS_SIGNAL_OPS_H_

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "edgelite/common.h"
#include "kernels/flexbuffer.h"

#ifdef __cplusplus
extern "C" {
#endif

extern const TfLiteRegistration el_signal_window;
extern const TfLiteRegistration el_signal_fft_auto_scale;
extern const TfLiteRegistration el_signal_rfft;
extern const TfLiteRegistration el_signal_energy;
extern const TfLiteRegistration el_signal_filter_bank;
extern const TfLiteRegistration el_signal_filter_bank_square_root;
extern const TfLiteRegistration el_signal_filter_bank_spectral_subtraction;
extern const TfLiteRegistration el_signal_pcan;
extern const TfLiteRegistration el_signal_filter_bank_log;

/* The signal op called `name` (version 1), or NULL. */
const TfLiteRegistration* el_signal_lookup(const char* name, int version);

/* Starts a new stream for a node of `reg` with kernel data `user_data`: the state a signal op
 * keeps across invokes back to its value after prepare (TFLM's registration reset; only
 * SignalFilterBankSpectralSubtraction has such state here). Other registrations: nothing. */
void el_signal_reset(const TfLiteRegistration* reg, void* user_data);
void el_signal_spectral_subtraction_reset(void* user_data);

/* Reads the integer (or bool) option `key` of a custom op's flexbuffer map into *out; false
 * when the map is malformed, the key is absent, or the value is not a number in [lo, hi]. */
bool el_signal_int_option(const el_flex_map* map, const char* key, int64_t lo, int64_t hi, int64_t* out);

/* The state of an op whose options are one integer. */
typedef struct el_signal_one_option {
  bool options_ok;
  int value;
} el_signal_one_option;

/* An el_signal_one_option (allocated with el_kernel_alloc) holding option `key` of the
 * flexbuffer map in buf[0..len), or options_ok false when it is absent or outside [lo, hi]. */
void* el_signal_init_one_option(const char* buf, size_t len, const char* key, int64_t lo, int64_t hi);

/* The index of the most significant set bit counted from 1, as TFLM's MostSignificantBit32/64
 * built with GCC/Clang: 32 (64) for zero. */
static inline uint32_t el_signal_msb32(uint32_t x) { return x ? 32u - (uint32_t)__builtin_clz(x) : 32u; }
static inline uint32_t el_signal_msb64(uint64_t x) { return x ? 64u - (uint32_t)__builtin_clzll(x) : 64u; }

#ifdef __cplusplus
}
#endif
#endif /* EDGELITE_KERNELS_SIGNAL_OPS_H_ */
