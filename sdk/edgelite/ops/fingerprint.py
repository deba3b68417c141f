"""The string hashes TensorFlow's hashing ops use, bit-exact: FarmHash Fingerprint64, FingerprintCat64,
TF's legacy Hash64 (a MurmurHash64A variant with a fixed seed) and SipHash-2-4.

Every function works on Python ints kept in uint64 range with explicit masking, so results do not depend on
numpy overflow behaviour; string lengths vary, so the loop over strings is inherent.
"""
from __future__ import annotations

import struct
from typing import Iterable, Sequence

import numpy as np

M64 = (1 << 64) - 1
_K0 = 0xC3A5C85C97CB3127
_K1 = 0xB492B66FBE98F273
_K2 = 0x9AE16A3B2F90404F
_KMUL = 0xC6A4A7935BD1E995
# The seed TensorFlow's Hash64 and its hashed crosses start from.
TF_HASH_SEED = 0xDECAFCAFFE


def _f64(s: bytes, i: int) -> int:
    return struct.unpack_from("<Q", s, i)[0]


def _f32(s: bytes, i: int) -> int:
    return struct.unpack_from("<I", s, i)[0]


def _rot(v: int, shift: int) -> int:
    return v if shift == 0 else ((v >> shift) | (v << (64 - shift))) & M64


def _shift_mix(v: int) -> int:
    return v ^ (v >> 47)


def _len16(u: int, v: int, mul: int) -> int:
    a = ((u ^ v) * mul) & M64
    a ^= a >> 47
    b = ((v ^ a) * mul) & M64
    b ^= b >> 47
    return (b * mul) & M64


def _len0to16(s: bytes) -> int:
    n = len(s)
    if n >= 8:
        mul = _K2 + n * 2
        a = (_f64(s, 0) + _K2) & M64
        b = _f64(s, n - 8)
        c = (_rot(b, 37) * mul + a) & M64
        d = ((_rot(a, 25) + b) * mul) & M64
        return _len16(c, d, mul)
    if n >= 4:
        mul = _K2 + n * 2
        return _len16(n + (_f32(s, 0) << 3), _f32(s, n - 4), mul)
    if n > 0:
        y = (s[0] + (s[n >> 1] << 8)) & 0xFFFFFFFF
        z = (n + (s[n - 1] << 2)) & 0xFFFFFFFF
        return (_shift_mix(((y * _K2) ^ (z * _K0)) & M64) * _K2) & M64
    return _K2


def _head_tail(s: bytes, a_mul: int) -> tuple:
    """The first two and last two words of s, mixed as both the 17-32 and 33-64 byte paths start."""
    n = len(s)
    mul = _K2 + n * 2
    a = (_f64(s, 0) * a_mul) & M64
    b = _f64(s, 8)
    c = (_f64(s, n - 8) * mul) & M64
    d = (_f64(s, n - 16) * _K2) & M64
    return mul, a, b, c, (_rot((a + b) & M64, 43) + _rot(c, 30) + d) & M64


def _len17to32(s: bytes) -> int:
    mul, a, b, c, y = _head_tail(s, _K1)
    return _len16(y, (a + _rot((b + _K2) & M64, 18) + c) & M64, mul)


def _len33to64(s: bytes) -> int:
    n = len(s)
    mul, a, b, c, y = _head_tail(s, _K2)
    z = _len16(y, (a + _rot((b + _K2) & M64, 18) + c) & M64, mul)
    e = (_f64(s, 16) * mul) & M64
    f = _f64(s, 24)
    g = ((y + _f64(s, n - 32)) * mul) & M64
    h = ((z + _f64(s, n - 24)) * mul) & M64
    return _len16((_rot((e + f) & M64, 43) + _rot(g, 30) + h) & M64,
                  (e + _rot((f + a) & M64, 18) + g) & M64, mul)


def _weak32(s: bytes, i: int, a: int, b: int) -> tuple:
    w, x, y, z = _f64(s, i), _f64(s, i + 8), _f64(s, i + 16), _f64(s, i + 24)
    a = (a + w) & M64
    b = _rot((b + a + z) & M64, 21)
    c = a
    a = (a + x + y) & M64
    b = (b + _rot(a, 44)) & M64
    return (a + z) & M64, (b + c) & M64


def fingerprint64(s: bytes) -> int:
    """FarmHash Fingerprint64 (farmhashna::Hash64) of s, as an unsigned 64-bit int (TF's Fingerprint64)."""
    n = len(s)
    if n <= 16:
        return _len0to16(s)
    if n <= 32:
        return _len17to32(s)
    if n <= 64:
        return _len33to64(s)
    seed = 81
    x = seed
    y = (seed * _K1 + 113) & M64
    z = (_shift_mix((y * _K2 + 113) & M64) * _K2) & M64
    v0 = v1 = w0 = w1 = 0
    x = (x * _K2 + _f64(s, 0)) & M64
    end = ((n - 1) // 64) * 64
    last64 = end + ((n - 1) & 63) - 63
    i = 0
    while True:
        x = (_rot((x + y + v0 + _f64(s, i + 8)) & M64, 37) * _K1) & M64
        y = (_rot((y + v1 + _f64(s, i + 48)) & M64, 42) * _K1) & M64
        x ^= w1
        y = (y + v0 + _f64(s, i + 40)) & M64
        z = (_rot((z + w0) & M64, 33) * _K1) & M64
        v0, v1 = _weak32(s, i, (v1 * _K1) & M64, (x + w0) & M64)
        w0, w1 = _weak32(s, i + 32, (z + w1) & M64, (y + _f64(s, i + 16)) & M64)
        z, x = x, z
        i += 64
        if i == end:
            break
    mul = _K1 + ((z & 0xFF) << 1)
    i = last64
    w0 = (w0 + ((n - 1) & 63)) & M64
    v0 = (v0 + w0) & M64
    w0 = (w0 + v0) & M64
    x = (_rot((x + y + v0 + _f64(s, i + 8)) & M64, 37) * mul) & M64
    y = (_rot((y + v1 + _f64(s, i + 48)) & M64, 42) * mul) & M64
    x ^= (w1 * 9) & M64
    y = (y + v0 * 9 + _f64(s, i + 40)) & M64
    z = (_rot((z + w0) & M64, 33) * mul) & M64
    v0, v1 = _weak32(s, i, (v1 * mul) & M64, (x + w0) & M64)
    w0, w1 = _weak32(s, i + 32, (z + w1) & M64, (y + _f64(s, i + 16)) & M64)
    z, x = x, z
    return _len16((_len16(v0, w0, mul) + _shift_mix(y) * _K0 + z) & M64,
                  (_len16(v1, w1, mul) + x) & M64, mul)


def fingerprint_cat64(fp1: int, fp2: int) -> int:
    """TF's FingerprintCat64: combine two 64-bit fingerprints (order matters), as hashed crosses chain them."""
    result = (fp1 & M64) ^ _KMUL
    result ^= (_shift_mix(((fp2 & M64) * _KMUL) & M64) * _KMUL) & M64
    result = (result * _KMUL) & M64
    result = (_shift_mix(result) * _KMUL) & M64
    return _shift_mix(result)


def tf_hash64(s: bytes, seed: int = TF_HASH_SEED) -> int:
    """TensorFlow's Hash64 (MurmurHash64A over little-endian words), used by the legacy StringToHashBucket."""
    n = len(s)
    h = (seed ^ (n * _KMUL)) & M64
    whole = n - n % 8
    for i in range(0, whole, 8):
        k = (_f64(s, i) * _KMUL) & M64
        k ^= k >> 47
        h ^= (k * _KMUL) & M64
        h = (h * _KMUL) & M64
    tail = s[whole:]
    if tail:
        h ^= int.from_bytes(tail, "little")
        h = (h * _KMUL) & M64
    h ^= h >> 47
    h = (h * _KMUL) & M64
    return h ^ (h >> 47)


def _sip_round(v0: int, v1: int, v2: int, v3: int) -> tuple:
    v0 = (v0 + v1) & M64
    v1 = _rotl(v1, 13) ^ v0
    v0 = _rotl(v0, 32)
    v2 = (v2 + v3) & M64
    v3 = _rotl(v3, 16) ^ v2
    v0 = (v0 + v3) & M64
    v3 = _rotl(v3, 21) ^ v0
    v2 = (v2 + v1) & M64
    v1 = _rotl(v1, 17) ^ v2
    v2 = _rotl(v2, 32)
    return v0, v1, v2, v3


def _rotl(v: int, b: int) -> int:
    return ((v << b) | (v >> (64 - b))) & M64


def siphash24(key: Sequence[int], s: bytes) -> int:
    """SipHash-2-4 of s under the 128-bit key (key[0], key[1]), as TF's StringToHashBucketStrong computes it."""
    k0, k1 = int(key[0]) & M64, int(key[1]) & M64
    v0 = k0 ^ 0x736F6D6570736575
    v1 = k1 ^ 0x646F72616E646F6D
    v2 = k0 ^ 0x6C7967656E657261
    v3 = k1 ^ 0x7465646279746573
    n = len(s)
    whole = n - n % 8
    last = ((n & 0xFF) << 56) | int.from_bytes(s[whole:], "little")
    for m in [_f64(s, i) for i in range(0, whole, 8)] + [last]:
        v3 ^= m
        v0, v1, v2, v3 = _sip_round(*_sip_round(v0, v1, v2, v3))
        v0 ^= m
    v2 ^= 0xFF
    for _ in range(4):
        v0, v1, v2, v3 = _sip_round(v0, v1, v2, v3)
    return v0 ^ v1 ^ v2 ^ v3


def as_bytes_list(values: Iterable) -> list:
    """Strings of a tensor as bytes (str is UTF-8 encoded, as TF stores it)."""
    return [v.encode("utf-8") if isinstance(v, str) else bytes(v) for v in values]


def fingerprint64_array(values: np.ndarray) -> np.ndarray:
    """Fingerprint64 of every string of an object array, as uint64 of the same shape."""
    arr = np.asarray(values, dtype=object)
    out = np.fromiter((fingerprint64(b) for b in as_bytes_list(arr.ravel())), dtype=np.uint64, count=arr.size)
    return out.reshape(arr.shape)
