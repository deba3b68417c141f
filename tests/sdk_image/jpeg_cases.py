"""JPEG decode/encode cases against TensorFlow's libjpeg-turbo settings, shared by
fixtures/generate_jpeg_fixtures.py (run by hand under TensorFlow) and test_jpeg_tf.py.

Files are made by the generator (TensorFlow's encoder; Pillow for the CMYK file) and stored in the fixture.
Decode cases: (name, fn(tf, contents) -> uint8 tensor, file); with simplejpeg every one is TensorFlow's output
exactly, except the rows TRUNCATED_EXACT_ROWS leaves out.
"""
from __future__ import annotations

_FAST = {"dct_method": "INTEGER_FAST"}
_ACCURATE = {"dct_method": "INTEGER_ACCURATE"}


def _dec(**kw):
    return lambda tf, c: tf.image.decode_jpeg(c, **kw)


def _crop(window, **kw):
    return lambda tf, c: tf.image.decode_and_crop_jpeg(c, window, **kw)


DECODE_CASES = [
    ("default", _dec(), "photo.jpg"),
    ("integer_fast", _dec(**_FAST), "photo.jpg"),
    ("integer_accurate", _dec(**_ACCURATE), "photo.jpg"),
    ("no_fancy", _dec(fancy_upscaling=False), "photo.jpg"),
    ("no_fancy_accurate", _dec(fancy_upscaling=False, **_ACCURATE), "photo.jpg"),
    ("gray_out", _dec(channels=1), "photo.jpg"),
    ("rgb_out", _dec(channels=3), "photo.jpg"),
    ("gray_file", _dec(), "gray.jpg"),
    ("gray_file_rgb_out", _dec(channels=3), "gray.jpg"),
    ("ratio_2", _dec(ratio=2), "photo.jpg"),
    ("ratio_4", _dec(ratio=4), "photo.jpg"),
    ("ratio_8", _dec(ratio=8), "photo.jpg"),
    ("ratio_2_no_fancy", _dec(ratio=2, fancy_upscaling=False), "photo.jpg"),
    ("ratio_4_gray_out", _dec(ratio=4, channels=1), "photo.jpg"),
    ("odd_ratio_4", _dec(ratio=4), "odd.jpg"),
    # 3x3 at ratio 2: TurboJPEG's 3/8 scale gives the same 2x2 size as 1/2, so Pillow decodes it
    ("tiny_ratio_2", _dec(ratio=2), "tiny.jpg"),
    ("tiny_ratio_2_accurate", _dec(ratio=2, **_ACCURATE), "tiny.jpg"),
    ("tiny", _dec(), "tiny.jpg"),
    ("progressive", _dec(), "progressive.jpg"),
    ("no_subsampling", _dec(), "full_chroma.jpg"),
    ("cmyk_adobe", _dec(), "cmyk.jpg"),
    ("crop", _crop([5, 7, 20, 30]), "photo.jpg"),
    ("crop_ratio_2", _crop([1, 2, 10, 12], ratio=2), "photo.jpg"),
    ("crop_no_fancy", _crop([9, 3, 17, 40], fancy_upscaling=False), "photo.jpg"),
    ("image_op", lambda tf, c: tf.image.decode_image(c), "photo.jpg"),
    # EncodeJpegVariableQuality, then DecodeJpeg with the default DCT
    ("adjust_quality", lambda tf, c: tf.image.adjust_jpeg_quality(tf.image.decode_png(c), 33), "photo.png"),
    ("recover_truncated", _dec(try_recover_truncated=True), "truncated_80.jpg"),
    ("recover_truncated_fraction", _dec(try_recover_truncated=True, acceptable_fraction=0.25),
     "truncated_80.jpg"),
    # without try_recover_truncated, libjpeg stops in the iMCU row where the data ends: TF keeps the rows before
    # it (less the rows fancy upsampling still needs the next row for) and zeroes the rest, if they are at least
    # acceptable_fraction of the image
    ("fraction_80", _dec(acceptable_fraction=0.25), "truncated_80.jpg"),
    ("fraction_80_no_fancy", _dec(acceptable_fraction=0.25, fancy_upscaling=False), "truncated_80.jpg"),
    ("fraction_80_ratio_2", _dec(acceptable_fraction=0.25, ratio=2), "truncated_80.jpg"),
    ("fraction_80_gray_out", _dec(acceptable_fraction=0.25, channels=1), "truncated_80.jpg"),
    ("fraction_93", _dec(acceptable_fraction=0.5), "truncated_93.jpg"),
    ("fraction_444", _dec(acceptable_fraction=0.1), "full_chroma_truncated.jpg"),
    ("fraction_gray", _dec(acceptable_fraction=0.1), "gray_truncated.jpg"),
    # cut inside the first iMCU row: no row read, which acceptable_fraction=0 accepts (an all-black image)
    ("fraction_50_zero", _dec(acceptable_fraction=0.0), "truncated_50.jpg"),
    # a crop window counts its own rows: those above the cut kept, the fraction taken of the window. (A window
    # starting lower in the last iMCU row read, e.g. [10, 0, 20, 30], gets other pixels from TF: libjpeg's skip to
    # it reads ahead into the cut data; not reproduced.)
    ("crop_fraction", _crop([2, 3, 20, 30], acceptable_fraction=0.25), "truncated_80.jpg"),
    ("crop_fraction_at_cut", _crop([14, 0, 5, 5], acceptable_fraction=0.0), "truncated_80.jpg"),
    ("crop_above_cut", _crop([0, 0, 12, 61]), "truncated_80.jpg"),
]

# Exact except these, in levels: images under 8x8 pixels at ratio > 1 go to Pillow (see jpeg_codec).
LEVELS = {"tiny_ratio_2": 2}

# With try_recover_truncated, libjpeg decodes the blocks after the end of the data from whatever its Huffman
# decoder had left; TensorFlow's bundled libjpeg-turbo and simplejpeg's newer one differ there. The rows before
# the iMCU row holding the cut are equal: test_jpeg_tf takes their number from the case named here (the rows TF
# keeps without recovery).
TRUNCATED_EXACT_ROWS = {"recover_truncated": "fraction_80", "recover_truncated_fraction": "fraction_80"}

# Pillow (no simplejpeg): islow DCT with fancy upsampling always, so the bound in levels, measured (0 if not
# listed); None where Pillow cannot decode like TF at all (fancy upsampling off: up to 86 levels; truncated
# files fail).
PILLOW_LEVELS = {
    "default": 4, "integer_fast": 4, "gray_out": 2, "rgb_out": 4, "gray_file": 3, "gray_file_rgb_out": 3,
    "ratio_2": 3, "tiny_ratio_2": 2, "tiny": 4, "progressive": 3, "no_subsampling": 3, "cmyk_adobe": 4, "crop": 3,
    "crop_ratio_2": 2, "image_op": 4, "adjust_quality": 3,
    "no_fancy": None, "no_fancy_accurate": None, "ratio_2_no_fancy": None, "crop_no_fancy": None,
    "recover_truncated": None, "recover_truncated_fraction": None, "fraction_50_zero": None,
    "fraction_80": None, "fraction_80_no_fancy": None, "fraction_80_ratio_2": None, "fraction_80_gray_out": None,
    "fraction_93": None, "fraction_444": None, "fraction_gray": None, "crop_fraction": None,
    "crop_fraction_at_cut": None, "crop_above_cut": None,
}


def _png_then(encode):
    return lambda tf, c: encode(tf, tf.image.decode_png(c))


ENCODE_CASES = [
    ("encode_default", _png_then(lambda tf, x: tf.image.encode_jpeg(x)), "photo.png"),
    ("encode_q50_444", _png_then(lambda tf, x: tf.image.encode_jpeg(x, quality=50, chroma_downsampling=False)),
     "photo.png"),
    ("encode_q0", _png_then(lambda tf, x: tf.image.encode_jpeg(x, quality=0)), "photo.png"),
    ("encode_q100", _png_then(lambda tf, x: tf.image.encode_jpeg(x, quality=100)), "photo.png"),
    ("encode_progressive", _png_then(lambda tf, x: tf.image.encode_jpeg(x, progressive=True)), "photo.png"),
    ("encode_optimize", _png_then(lambda tf, x: tf.image.encode_jpeg(x, optimize_size=True)), "photo.png"),
    ("encode_density_cm", _png_then(lambda tf, x: tf.image.encode_jpeg(x, density_unit="cm", x_density=20,
                                                                       y_density=31)), "photo.png"),
    ("encode_xmp", _png_then(lambda tf, x: tf.image.encode_jpeg(x, xmp_metadata="<x:xmpmeta>edge</x:xmpmeta>")),
     "photo.png"),
    ("encode_gray", _png_then(lambda tf, x: tf.image.encode_jpeg(x[..., :1], quality=80)), "photo.png"),
]

RUN_ERRORS = [
    ("truncated", _dec(), "truncated_80.jpg"),
    ("truncated_fraction_too_high", _dec(acceptable_fraction=0.5), "truncated_80.jpg"),
    ("truncated_header_recover", _dec(try_recover_truncated=True), "truncated_header.jpg"),
    ("bad_dct_method", _dec(dct_method="FAST"), "photo.jpg"),
    ("cmyk_gray_out", _dec(channels=1), "cmyk.jpg"),
    ("crop_outside_ratio_2", _crop([20, 0, 10, 10], ratio=2), "photo.jpg"),
    ("crop_fraction_too_high", _crop([10, 0, 20, 30], acceptable_fraction=0.5), "truncated_80.jpg"),
    ("crop_below_cut", _crop([15, 0, 5, 5], acceptable_fraction=0.0), "truncated_80.jpg"),
]
