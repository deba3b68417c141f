#define _GNU_SOURCE
#include "cpu_isa.h"

#include <string.h>

#if defined(__x86_64__)
#include <cpuid.h>
#if defined(__linux__)
#include <sys/syscall.h>
#include <unistd.h>
#endif
#endif

#if defined(__aarch64__) && defined(__linux__)
#include <sys/auxv.h>
#ifndef HWCAP_ASIMDDP
#define HWCAP_ASIMDDP (1 << 20)
#endif
#endif

static const char* const kNames[EL_ISA_COUNT] = {"scalar", "avx2", "avx512", "avx512_vnni", "neon",
                                                 "neon_dot"};

const char* el_isa_name(el_isa isa) {
  return ((unsigned)isa < (unsigned)EL_ISA_COUNT) ? kNames[isa] : "unknown";
}

bool el_isa_parse(const char* name, el_isa* out, bool* is_auto) {
  *is_auto = false;
  if (name == NULL || name[0] == '\0' || strcmp(name, "auto") == 0) {
    *is_auto = true;
    *out = el_isa_best();
    return true;
  }
  for (int i = 0; i < EL_ISA_COUNT; ++i) {
    if (strcmp(name, kNames[i]) == 0) {
      *out = (el_isa)i;
      return true;
    }
  }
  return false;
}

bool el_isa_supported(el_isa isa) {
  switch (isa) {
    case EL_ISA_SCALAR:
      return true;
#if defined(__x86_64__)
    case EL_ISA_AVX2:
      return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
    case EL_ISA_AVX512:
      return el_isa_supported(EL_ISA_AVX2) && __builtin_cpu_supports("avx512f") &&
             __builtin_cpu_supports("avx512bw") && __builtin_cpu_supports("avx512dq") &&
             __builtin_cpu_supports("avx512vl");
    case EL_ISA_AVX512_VNNI:
      return el_isa_supported(EL_ISA_AVX512) && __builtin_cpu_supports("avx512vnni");
#endif
#if defined(__aarch64__)
    case EL_ISA_NEON:
      return true;
    case EL_ISA_NEON_DOT:
#if defined(__linux__)
      return (getauxval(AT_HWCAP) & HWCAP_ASIMDDP) != 0;
#else
      return false;
#endif
#endif
    default:
      return false;
  }
}

el_isa el_isa_best(void) {
  el_isa best = EL_ISA_SCALAR;
  for (int i = 1; i < EL_ISA_COUNT; ++i) {
    if (el_isa_supported((el_isa)i)) best = (el_isa)i;
  }
  return best;
}

bool el_isa_at_least(el_isa have, el_isa need) {
  if (need == EL_ISA_SCALAR) return true;
  const bool have_x86 = have >= EL_ISA_AVX2 && have <= EL_ISA_AVX512_VNNI;
  const bool need_x86 = need >= EL_ISA_AVX2 && need <= EL_ISA_AVX512_VNNI;
  if (have_x86 != need_x86) return false;
  return have >= need;
}

#if defined(__x86_64__) && defined(__linux__)
/* Linux's arch_prctl codes for dynamically enabled XSAVE features, and AMX's tile data. */
enum { ARCH_GET_XCOMP_PERM = 0x1022, ARCH_REQ_XCOMP_PERM = 0x1023, XFEATURE_XTILEDATA = 18 };
#endif

bool el_isa_amx_int8_ready(void) {
#if defined(__x86_64__) && defined(__linux__)
  if (!el_isa_supported(EL_ISA_AVX512_VNNI)) return false;
  unsigned eax = 0, ebx = 0, ecx = 0, edx = 0;
  if (!__get_cpuid_count(7, 0, &eax, &ebx, &ecx, &edx)) return false;
  const unsigned amx_tile = 1u << 24, amx_int8 = 1u << 25;
  if ((edx & (amx_tile | amx_int8)) != (amx_tile | amx_int8)) return false;
  /* Granted once for the process; asking again returns 0 without changing anything. */
  if (syscall(SYS_arch_prctl, ARCH_REQ_XCOMP_PERM, XFEATURE_XTILEDATA) != 0) return false;
  unsigned long long granted = 0;
  if (syscall(SYS_arch_prctl, ARCH_GET_XCOMP_PERM, &granted) != 0) return false;
  return (granted & (1ull << XFEATURE_XTILEDATA)) != 0;
#else
  return false;
#endif
}
