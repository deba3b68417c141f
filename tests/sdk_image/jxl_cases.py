"""JPEG XL cases (TF's DecodeJxl, and JXL data through the other decode ops), shared by
fixtures/generate_jxl_fixtures.py (run by hand under TensorFlow, files written by imagecodecs' libjxl) and
test_jxl_tf.py: (name, fn(tf, contents) -> tensor, file)."""
from __future__ import annotations


def _jxl(**kw):
    return lambda tf, c: tf.image.decode_jxl(c, **kw)


DECODE_CASES = [
    ("rgb", _jxl(), "rgb.jxl"),
    ("rgb_channels_3", _jxl(channels=3), "rgb.jxl"),
    ("rgba", _jxl(), "rgba.jxl"),
    ("rgba_channels_4", _jxl(channels=4), "rgba.jxl"),
    ("gray", _jxl(), "gray.jxl"),
    ("gray_channels_1", _jxl(channels=1), "gray.jxl"),
    ("sixteen_bit", _jxl(), "rgb16.jxl"),
    ("lossy", _jxl(), "lossy.jxl"),
    ("container", _jxl(), "container.jxl"),
    ("io_name", lambda tf, c: tf.io.decode_jxl(c), "rgb.jxl"),
    ("image_op", lambda tf, c: tf.image.decode_image(c), "rgba.jxl"),
    ("image_op_first_frame", lambda tf, c: tf.image.decode_image(c, expand_animations=False), "rgb.jxl"),
    ("jpeg_op", lambda tf, c: tf.image.decode_jpeg(c), "rgb.jxl"),
    ("png_op", lambda tf, c: tf.image.decode_png(c), "gray.jxl"),
    ("jxl_op_on_png", _jxl(), "rgb.png"),
]

RUN_ERRORS = [
    ("channels_mismatch_rgb_1", _jxl(channels=1), "rgb.jxl"),
    ("channels_mismatch_rgb_4", _jxl(channels=4), "rgb.jxl"),
    ("channels_mismatch_gray_3", _jxl(channels=3), "gray.jxl"),
    ("truncated", _jxl(), "truncated.jxl"),
    ("truncated_header", _jxl(), "truncated_header.jxl"),
    ("channels_2", _jxl(channels=2), "rgb.jxl"),
    ("image_op_float", lambda tf, c: tf.image.decode_image(c, dtype=tf.float32), "rgb.jxl"),
    ("png_op_uint16", lambda tf, c: tf.image.decode_png(c, dtype=tf.uint16), "rgb.jxl"),
]

BUILD_ERRORS = [
    ("vector_input", lambda tf: tf.image.decode_jxl(tf.placeholder(tf.string, [2]))),
]

STATIC_SHAPES = [
    ("unknown_channels", lambda tf: tf.image.decode_jxl(tf.placeholder(tf.string, []))),
    ("channels_3", lambda tf: tf.image.decode_jxl(tf.placeholder(tf.string, []), channels=3)),
]
