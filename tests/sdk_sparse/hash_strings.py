"""The strings the hash fixtures cover: empty, every length 1..300 of a byte pattern, and non-ASCII text."""
from __future__ import annotations

import numpy as np


def hash_strings() -> list:
    """Deterministic byte strings exercising every FarmHash length branch (0-16, 17-32, 33-64, >64, tails)."""
    rng = np.random.default_rng(1234)
    out = [b""]
    for n in range(1, 301):
        out.append(rng.integers(0, 256, size=n, dtype=np.uint8).tobytes())
    out += ["héllo wörld".encode(), "日本語のテキスト".encode(), "🙂" .encode() * 20, b"a" * 64, b"b" * 65, b"c" * 128]
    return out
