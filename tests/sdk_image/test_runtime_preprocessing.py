"""edgelite_runtime.preprocessing on its own (no SDK): the recorded TensorFlow numbers, HWC inputs, and the
gradients of the SDK ops built on it (adjoint identities)."""
from __future__ import annotations

import json
import subprocess
import sys
import zlib
from pathlib import Path

import numpy as np
import pytest

from edgelite_runtime import preprocessing as pp

from . import cases

FIXTURES = Path(__file__).resolve().parent / "fixtures"


@pytest.fixture(scope="module")
def arrays():
    with np.load(FIXTURES / "cases.npz") as z:
        return dict(z)


def test_importing_it_does_not_import_the_sdk():
    code = "import sys, edgelite_runtime.preprocessing; print('edgelite' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


@pytest.mark.parametrize("case,fn", [
    ("bicubic_half_pixel_up", lambda x: pp.resize_bicubic(x, (9, 11), half_pixel_centers=True)),
    ("area_uint8_odd", lambda x: pp.resize_area(x, (5, 3))),
    ("crop_bbox_3d", lambda x: pp.crop(x, 1, 2, 3, 4)),
])
def test_matches_tensorflow_without_the_sdk(case, fn, arrays):
    got = fn(arrays[f"{case}/in0"])
    np.testing.assert_allclose(got, arrays[f"{case}/out0"], rtol=1e-5, atol=2e-6)


def test_single_image_equals_batch_of_one(arrays):
    x = arrays["bicubic_up/in0"][0]
    for fn in (pp.resize_bilinear, pp.resize_nearest, pp.resize_bicubic, pp.resize_area):
        np.testing.assert_array_equal(fn(x, (6, 3)), fn(x[None], (6, 3))[0])


def test_nms_matches_tensorflow(arrays):
    idx, _ = pp.non_max_suppression(arrays["nms_basic/in0"], arrays["nms_basic/in1"], 6)
    np.testing.assert_array_equal(idx, arrays["nms_basic/out0"])


def test_normalize_and_standardization():
    rng = np.random.default_rng(1)
    x = rng.integers(0, 256, (4, 5, 3)).astype(np.uint8)
    np.testing.assert_allclose(pp.normalize(x, [127.5] * 3, [127.5] * 3), x / 127.5 - 1, rtol=1e-6)
    z = pp.per_image_standardization(x)
    np.testing.assert_allclose([z.mean(), z.std()], [0, 1], atol=1e-5)


def test_bad_size_is_a_value_error():
    with pytest.raises(ValueError, match="output dimensions must be positive"):
        pp.resize_bilinear(np.zeros((1, 2, 2, 1)), (0, 3))


def _adjoint_check(build, x_shape, rng):
    import edgelite as tf
    with tf.Graph().as_default():
        x = tf.placeholder(tf.float32, x_shape)
        y = build(tf, x)
        v = rng.standard_normal(x_shape).astype(np.float32)
        with tf.Session() as sess:
            fv = sess.run(y, {x: v})
            dy = rng.standard_normal(fv.shape).astype(np.float32)
            g = sess.run(tf.gradients(y, x, grad_ys=dy)[0], {x: v})
    np.testing.assert_allclose(np.sum(dy * fv, dtype=np.float64), np.sum(g * v, dtype=np.float64), rtol=1e-4)


@pytest.mark.parametrize("build", [
    lambda tf, x: tf.image.resize_bicubic(x, [7, 3]),
    lambda tf, x: tf.image.resize_bicubic(x, [2, 9], half_pixel_centers=True),
    lambda tf, x: tf.image.resize_bicubic(x, [6, 6], align_corners=True),
    lambda tf, x: tf.image.rot90(x, 1),
    lambda tf, x: tf.image.rot90(x, 3),
    lambda tf, x: tf.image.resize_image_with_pad(x, 7, 3),
], ids=["bicubic", "bicubic_half_pixel", "bicubic_align", "rot90_1", "rot90_3", "with_pad"])
def test_gradients_are_adjoint(build):
    rng = np.random.default_rng(zlib.crc32(json.dumps(str(build.__code__.co_consts)).encode()))
    _adjoint_check(build, (2, 4, 5, 3), rng)


@pytest.mark.parametrize("name,method,antialias,spec,size", cases.RESIZE_V2, ids=[c[0] for c in cases.RESIZE_V2])
def test_tf2_resize_matches_tensorflow(name, method, antialias, spec, size, arrays):
    want = arrays[f"v2/{name}/out"]
    got = pp.resize(arrays[f"v2/{name}/in"], size, method=method, antialias=antialias)
    assert got.dtype == want.dtype and got.shape == want.shape
    np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-5 * max(1.0, float(np.abs(want).max())))
