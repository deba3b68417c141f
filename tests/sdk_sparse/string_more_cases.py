"""Cases for strings.format, strings.ngrams (dense input), strings.unicode_encode and unicode_transcode."""
from __future__ import annotations

import numpy as np


def _format(tf):
    return [tf.strings.format("x={} y={}", [tf.constant(3), tf.constant([1.5, 2.0, -0.25])]),
            tf.strings.format("{}", tf.constant(np.arange(12).reshape(3, 4))),
            tf.strings.format("v: {}", tf.constant(np.arange(10)), summarize=2),
            tf.strings.format("<{}>", tf.constant(["ab", "c"])),
            tf.strings.format("a %s b %s", [tf.constant(True), tf.constant(7.0)], placeholder="%s"),
            tf.strings.format("{}", tf.constant(np.arange(8.0).reshape(2, 2, 2)), summarize=-1),
            tf.strings.format("{}", tf.constant([[1e-5, 123456.789], [0.1, 2.0]])),
            tf.strings.format("{}", tf.constant(np.arange(100).reshape(10, 10)))], {}


def _format_count(tf):
    return [tf.strings.format("{} {}", [tf.constant(1)])], {}


def _ngrams(tf):
    d = tf.constant([["a", "b", "c", "d"], ["e", "f", "g", "h"]])
    return [tf.strings.ngrams(d, 2), tf.strings.ngrams(d, [1, 3], separator="|"),
            tf.strings.ngrams(d, 3, pad_values="#"), tf.strings.ngrams(d, 2, pad_values=("<", ">"), padding_width=1),
            tf.strings.ngrams(tf.constant(["x", "y", "z"]), 2),
            tf.strings.ngrams(tf.constant(["x", "y"]), 4, preserve_short_sequences=True),
            tf.strings.ngrams(tf.constant(["x", "y"]), 5, pad_values="_", padding_width=1,
                              preserve_short_sequences=True)], {}


def _ngrams_bad_pad(tf):
    return [tf.strings.ngrams(tf.constant(["a"]), 2, padding_width=1)], {}


def _unicode_encode(tf):
    cps = tf.constant([[104, 233, 108, 0x1F642], [0x65E5, 0x672C, 97, 98]])
    return [tf.strings.unicode_encode(cps, "UTF-8"), tf.strings.unicode_encode(cps, "UTF-16-BE"),
            tf.strings.unicode_encode(cps, "UTF-32-BE"), tf.strings.unicode_encode(tf.constant([65, 66]), "UTF-8"),
            tf.strings.unicode_encode(tf.constant([[65, -1, 0xD800, 0x110000]]), "UTF-8"),
            tf.strings.unicode_encode(tf.constant([[65, -1, 66]]), "UTF-8", errors="ignore"),
            tf.strings.unicode_encode(tf.constant([[65, -1]]), "UTF-8", replacement_char=63)], {}


def _unicode_encode_strict(tf):
    return [tf.strings.unicode_encode(tf.constant([[65, 0x110000]]), "UTF-8", errors="strict")], {}


def _transcode(tf):
    s = tf.constant([b"h\xc3\xa9llo", b"abc", b"bad\xff\xfeend", b"\xe6\x97\xa5\xe6", "\x01ctl".encode()])
    return [tf.strings.unicode_transcode(s, "UTF-8", "UTF-16-BE"),
            tf.strings.unicode_transcode(s, "UTF-8", "UTF-8"),
            tf.strings.unicode_transcode(s, "UTF-8", "UTF-8", errors="ignore"),
            tf.strings.unicode_transcode(s, "UTF-8", "UTF-8", replacement_char=63, replace_control_characters=True),
            tf.strings.unicode_transcode(tf.constant([b"caf\xe9"]), "ISO-8859-1", "UTF-8"),
            tf.strings.unicode_transcode(tf.constant([b"\x00h\x00i"]), "UTF-16-BE", "UTF-32-BE")], {}


def _transcode_strict(tf):
    return [tf.strings.unicode_transcode(tf.constant([b"a\xff"]), "UTF-8", "UTF-8", errors="strict")], {}


CASES = [("format", _format), ("format_count", _format_count), ("ngrams", _ngrams),
         ("ngrams_bad_pad", _ngrams_bad_pad), ("unicode_encode", _unicode_encode),
         ("unicode_encode_strict", _unicode_encode_strict), ("transcode", _transcode),
         ("transcode_strict", _transcode_strict)]
