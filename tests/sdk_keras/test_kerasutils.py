"""keras.utils.Progbar and get_file against tf.keras's recorded output (tests/sdk_keras/fixtures/tf_kerasutils.json)."""
from __future__ import annotations

import hashlib
import json
import warnings
from pathlib import Path

import pytest

import edgelite as tf
from edgelite.keras import data_utils

from . import kerasutils_cases as cases

FIXTURE = json.loads((Path(__file__).parent / "fixtures" / "tf_kerasutils.json").read_text())


@pytest.mark.parametrize("name", sorted(cases.PROGBAR_CASES))
def test_progbar_prints_as_keras(name: str) -> None:
    kwargs, steps = cases.PROGBAR_CASES[name]
    assert cases.run_progbar_case(tf.keras.utils.Progbar, kwargs, steps) == FIXTURE["progbar"][name]


def test_get_file_matches_keras(tmp_path: Path) -> None:
    got = cases.run_get_file_cases(tf.keras.utils.get_file, tmp_path)
    assert sorted(got) == sorted(FIXTURE["get_file"])
    for name, expected in FIXTURE["get_file"].items():
        assert got[name] == expected, name


def test_get_file_cached_copy_is_not_fetched_again(tmp_path: Path) -> None:
    """A cached file whose sha256 matches is returned even when the origin no longer exists."""
    (tmp_path / "datasets").mkdir()
    cached = tmp_path / "datasets" / "w.bin"
    cached.write_bytes(b"\x00\x01" * 50)
    digest = hashlib.sha256(cached.read_bytes()).hexdigest()
    path = tf.keras.utils.get_file("w.bin", (tmp_path / "nowhere.bin").as_uri(), file_hash=digest,
                                   cache_dir=str(tmp_path))
    assert path == str(cached)


def test_get_file_reachable_under_tf1_names() -> None:
    assert tf.contrib.keras.utils.get_file is tf.keras.utils.get_file
    assert tf.keras.utils.data_utils.get_file is tf.keras.utils.get_file
    assert tf.contrib.keras.utils.Progbar is tf.keras.utils.Progbar


def test_tar_members_escaping_the_target_are_skipped(tmp_path: Path) -> None:
    import io
    import tarfile
    archive = tmp_path / "evil.tar"
    with tarfile.open(archive, "w") as tar:
        for name in ("ok.txt", "../escape.txt"):
            info = tarfile.TarInfo(name)
            info.size = 2
            tar.addfile(info, io.BytesIO(b"hi"))
    out = tmp_path / "out"
    out.mkdir()
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        assert data_utils._extract_archive(str(archive), str(out), "tar")
    assert (out / "ok.txt").exists() and not (tmp_path / "escape.txt").exists()
    assert any("../escape.txt" in str(w.message) for w in caught)
