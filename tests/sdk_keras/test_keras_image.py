"""keras.preprocessing.image (load_img, img_to_array, array_to_img, save_img) against tf.keras 2.21's recorded
results (tests/sdk_keras/fixtures/tf_image.json)."""
from __future__ import annotations

import base64
import json
import sys
from pathlib import Path

import numpy as np
import pytest

import edgelite as tf

from . import image_cases as cases

FIXTURE = json.loads((Path(__file__).parent / "fixtures" / "tf_image.json").read_text())
NAMES = ("load_img", "img_to_array", "array_to_img", "save_img")


@pytest.fixture(scope="module")
def results(tmp_path_factory: pytest.TempPathFactory) -> dict:
    directory = tmp_path_factory.mktemp("images")
    return cases.run_cases(tf.keras.preprocessing.image, directory, base64.b64decode(FIXTURE["jpeg_source"]))


def test_same_cases_as_recorded(results: dict) -> None:
    assert sorted(results) == sorted(FIXTURE["cases"])


@pytest.mark.parametrize("name", sorted(FIXTURE["cases"]))
def test_case_matches_keras(results: dict, name: str) -> None:
    expected, got = dict(FIXTURE["cases"][name]), dict(results[name])
    if "values" in expected:
        # A JPEG written by save_img goes through the local encoder: pixels agree to within codec rounding.
        want, have = np.array(expected.pop("values")), np.array(got.pop("values"))
        assert want.shape == have.shape and np.max(np.abs(want - have)) <= 3, name
    assert got == expected, name


def test_exported_where_tf_keras_exports_them() -> None:
    for module, names in FIXTURE["exports"].items():
        owner = tf.keras.utils if module == "utils" else tf.keras.preprocessing.image
        assert sorted(n for n in NAMES if hasattr(owner, n)) == names
        assert all(getattr(owner, n) is getattr(tf.keras.preprocessing.image, n) for n in names)


def test_channels_first_default_follows_backend() -> None:
    """data_format=None reads keras.backend.image_data_format(), as Keras does."""
    x = np.arange(2 * 3 * 4, dtype="float32").reshape(3, 2, 4)
    tf.keras.backend.set_image_data_format("channels_first")
    try:
        img = tf.keras.utils.array_to_img(x)
        back = tf.keras.utils.img_to_array(img)
    finally:
        tf.keras.backend.set_image_data_format("channels_last")
    assert img.size == (4, 2) and back.shape == (3, 2, 4)


def test_missing_pillow_raises_keras_import_error(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setitem(sys.modules, "PIL", None)
    with pytest.raises(ImportError, match=r"^Could not import PIL.Image. The use of `load_img` requires PIL.$"):
        tf.keras.utils.load_img(str(tmp_path / "x.png"))
    with pytest.raises(ImportError, match="The use of `array_to_img` requires PIL"):
        tf.keras.utils.save_img(str(tmp_path / "x.png"), np.zeros((2, 2, 3)))
