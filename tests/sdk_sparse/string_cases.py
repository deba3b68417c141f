"""Cases for the tf.strings / string_* ops: values, static shapes and errors."""
from __future__ import annotations

import numpy as np

WORDS = ["Hello", "wörld", "", "  tab\tbed  ", "MiXeD Case", "日本"]


def _words(tf):
    return tf.constant(np.array([w.encode() for w in WORDS], dtype=object))


def _join(tf):
    w = _words(tf)
    return [tf.strings.join([w, "-", w], separator="|"), tf.string_join(["a", "b"]),
            tf.strings.join([tf.constant([["a", "b"]]), tf.constant([["c", "d"]])])], {}


def _join_mismatch(tf):
    return [tf.strings.join([tf.constant(["a", "b"]), tf.placeholder_with_default(["c", "d", "e"], [None])])], {}


def _length(tf):
    w = _words(tf)
    return [tf.strings.length(w), tf.strings.length(w, unit="UTF8_CHAR")], {}


def _case(tf):
    w = _words(tf)
    return [tf.strings.lower(w), tf.strings.upper(w), tf.strings.lower(w, encoding="utf-8"),
            tf.strings.upper(tf.constant(["straße", "éa"]), encoding="utf-8")], {}


def _strip(tf):
    return [tf.strings.strip(_words(tf)), tf.string_strip(tf.constant([[" a ", "\n\tb\r"]]))], {}


def _substr(tf):
    w = tf.constant(["Hello", "wörld", "abc"])
    return [tf.strings.substr(w, 1, 3), tf.substr(w, -2, 5), tf.strings.substr(w, [0, 1, 2], [1, 2, 3]),
            tf.strings.substr(w, 1, 2, unit="UTF8_CHAR"), tf.strings.substr(w, 0, -1)], {}


def _substr_oob(tf):
    return [tf.strings.substr(tf.constant(["abc", "d"]), 2, 1)], {}


def _regex(tf):
    w = tf.constant(["abc123", "ABC", "a1b2", ""])
    return [tf.strings.regex_full_match(w, "[a-z]+[0-9]*"), tf.strings.regex_replace(w, "[0-9]", "#"),
            tf.regex_replace(w, "([a-z])([0-9])", r"\2\1", replace_global=False),
            tf.strings.regex_replace(w, "b", r"<\0>")], {}


def _to_number(tf):
    return [tf.strings.to_number(tf.constant(["1.5", "-2e3", " 7 ", "inf", "-.5", "1e400"])),
            tf.string_to_number(tf.constant(["12", "-7", "+3"]), out_type=tf.int32),
            tf.strings.to_number(tf.constant(["9007199254740993"]), out_type=tf.int64),
            tf.strings.to_number(tf.constant(["0.1"]), out_type=tf.float64)], {}


def _to_number_bad(tf):
    return [tf.strings.to_number(tf.constant(["1.5", "abc"]))], {}


def _to_number_int_bad(tf):
    return [tf.strings.to_number(tf.constant(["1.5"]), out_type=tf.int32)], {}


def _to_number_overflow(tf):
    return [tf.strings.to_number(tf.constant(["3000000000"]), out_type=tf.int32)], {}


def _as_string(tf):
    f = tf.constant([1.5, -0.25, 1234567.0, 1e-7])
    return [tf.strings.as_string(f), tf.as_string(f, precision=2), tf.as_string(f, scientific=True),
            tf.as_string(f, shortest=True), tf.as_string(f, width=12, fill="0", precision=3),
            tf.as_string(tf.constant([3, -42], tf.int64), width=5), tf.as_string(tf.constant([True, False])),
            tf.as_string(tf.constant([7], tf.int32), fill="0", width=4)], {}


def _as_string_bad_fill(tf):
    return [tf.as_string(tf.constant([1.0]), fill="ab")], {}


def _as_string_int_precision(tf):
    return [tf.as_string(tf.constant([1]), precision=2)], {}


def _hash(tf):
    w = _words(tf)
    return [tf.strings.to_hash_bucket_fast(w, 10), tf.string_to_hash_bucket_fast(w, 1000),
            tf.strings.to_hash_bucket(w, 77), tf.string_to_hash_bucket(w, 5),
            tf.strings.to_hash_bucket_strong(w, 100, [3, 9]), tf.string_to_hash_bucket_strong(w, 9, [0, 1])], {}


def _hash_bad_key(tf):
    return [tf.strings.to_hash_bucket_strong(_words(tf), 10, [1, 2, 3])], {}


def _string_split(tf):
    s = tf.constant(["a b  c", "", "d,e f", "  g  "])
    return [tf.string_split(s), tf.string_split(s, skip_empty=False), tf.string_split(s, delimiter=", "),
            tf.string_split(tf.constant(["héllo"]), delimiter="")], {}


def _string_split_bad(tf):
    return [tf.string_split(tf.constant([["a b"]]))], {}


def _strings_split(tf):
    s = tf.constant(["a b  c", "", "d<>e<>f", "  g  "])
    return [tf.strings.split(s), tf.strings.split(s, sep="<>"), tf.strings.split(s, maxsplit=1),
            tf.strings.split(tf.constant("x y")), tf.strings.split(source=s, sep=" ")], {}


def _reduce_join(tf):
    x = tf.constant([["a", "b", "c"], ["d", "e", "f"]])
    return [tf.strings.reduce_join(x), tf.reduce_join(x, 0), tf.strings.reduce_join(x, axis=1, separator=","),
            tf.strings.reduce_join(x, [1, 0], separator="."), tf.strings.reduce_join(x, [0, 1], separator="."),
            tf.strings.reduce_join(x, -1, keep_dims=True), tf.reduce_join(x, [], separator="?")], {}


def _reduce_join_bad(tf):
    x = tf.placeholder_with_default(tf.constant([["a"]]), [None, None])
    return [tf.strings.reduce_join(x, tf.placeholder_with_default(2, []))], {}


def _segment_join(tf):
    x = tf.constant([["a", "b"], ["c", "d"], ["e", "f"]])
    return [tf.strings.unsorted_segment_join(x, [1, 0, 1], 3, separator=":"),
            tf.strings.unsorted_segment_join(tf.constant(["p", "q", "r"]), tf.constant([0, 0, 0], tf.int64), 2)], {}


def _segment_join_bad(tf):
    return [tf.strings.unsorted_segment_join(tf.constant(["p", "q"]), [0, 5], 2)], {}


CASES = [
    ("join", _join), ("join_mismatch", _join_mismatch), ("length", _length), ("case", _case), ("strip", _strip),
    ("substr", _substr), ("substr_oob", _substr_oob), ("regex", _regex), ("to_number", _to_number),
    ("to_number_bad", _to_number_bad), ("to_number_int_bad", _to_number_int_bad),
    ("to_number_overflow", _to_number_overflow), ("as_string", _as_string),
    ("as_string_bad_fill", _as_string_bad_fill), ("as_string_int_precision", _as_string_int_precision),
    ("hash", _hash), ("hash_bad_key", _hash_bad_key), ("string_split", _string_split),
    ("string_split_bad", _string_split_bad), ("strings_split", _strings_split), ("reduce_join", _reduce_join),
    ("reduce_join_bad", _reduce_join_bad), ("segment_join", _segment_join), ("segment_join_bad", _segment_join_bad),
]
