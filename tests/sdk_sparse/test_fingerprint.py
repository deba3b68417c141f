"""The hash module against TF-recorded values (tf.fingerprint and the three hash-bucket ops) for 307 strings."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from edgelite.ops import fingerprint

HASHES = json.loads((Path(__file__).resolve().parent / "fixtures" / "hashes.json").read_text())
STRINGS = [bytes.fromhex(s) for s in HASHES["strings"]]
BIG = 2 ** 63 - 1


def test_fingerprint64_is_bit_exact() -> None:
    got = [fingerprint.fingerprint64(s).to_bytes(8, "little").hex() for s in STRINGS]
    assert got == HASHES["fingerprint"]


@pytest.mark.parametrize("key,fn,buckets", [
    ("fast_big", fingerprint.fingerprint64, BIG),
    ("fast_1000", fingerprint.fingerprint64, 1000),
    ("legacy_big", fingerprint.tf_hash64, BIG),
])
def test_bucket_ids(key, fn, buckets) -> None:
    assert [fn(s) % buckets for s in STRINGS] == HASHES[key]


def test_siphash_bucket_ids() -> None:
    assert [fingerprint.siphash24(HASHES["key"], s) % BIG for s in STRINGS] == HASHES["strong_big"]
    assert [fingerprint.siphash24([1, 2], s) % 7 for s in STRINGS] == HASHES["strong_7"]
