"""Lookup-table programs shared by the TensorFlow fixture generator and the edgelite test: each case builds its
tables with the module `tf` it is given and returns {name: fetch}; a vocabulary file is written to `path`."""
from __future__ import annotations

from typing import Any

VOCAB_LINES = ["apple\t3\tred", "banana\t5\tyellow", "cherry\t7\tred", "date\t11\tbrown"]
WORDS = ["apple", "kiwi", "banana", "", "date", "zucchini", "cherry", "Apple", "fig", "banana split", "x" * 40]


def write_vocab(path: str) -> None:
    """The vocabulary file the text-file cases read."""
    with open(path, "w") as f:
        f.write("\n".join(VOCAB_LINES) + "\n")


def hash_table_strings(tf: Any, path: str) -> dict:
    t = tf.lookup.StaticHashTable(tf.lookup.KeyValueTensorInitializer(["apple", "banana", "cherry"], [10, 20, 30]),
                                  default_value=-7)
    keys = tf.constant([WORDS[:4], WORDS[4:8]])
    return {"values": t.lookup(keys), "size": t.size()}


def hash_table_int_to_float(tf: Any, path: str) -> dict:
    init = tf.lookup.KeyValueTensorInitializer(tf.constant([3, -1, 42], tf.int64), [0.5, 1.5, 2.5])
    t = tf.compat.v1.lookup.StaticHashTable(init, -1.0)
    return {"values": t.lookup(tf.constant([42, 0, 3, -1, 7], tf.int64))}


def vocabulary_strings(tf: Any, path: str) -> dict:
    init = tf.lookup.KeyValueTensorInitializer(["apple", "banana", "cherry"], tf.constant([0, 1, 2], tf.int64))
    t = tf.lookup.StaticVocabularyTable(init, num_oov_buckets=5)
    return {"ids": t.lookup(tf.constant(WORDS)), "size": t.size()}


def vocabulary_int_keys(tf: Any, path: str) -> dict:
    init = tf.lookup.KeyValueTensorInitializer(tf.constant([100, 200], tf.int64), tf.constant([0, 1], tf.int64))
    t = tf.lookup.StaticVocabularyTable(init, num_oov_buckets=7, lookup_key_dtype=tf.int32)
    return {"ids": t.lookup(tf.constant([200, 5, 100, -3, 123456789, 0])), "size": t.size()}


def vocabulary_no_initializer(tf: Any, path: str) -> dict:
    t = tf.lookup.StaticVocabularyTable(None, num_oov_buckets=1000)
    return {"ids": t.lookup(tf.constant(WORDS)), "size": t.size()}


def text_file_columns(tf: Any, path: str) -> dict:
    write_vocab(path)
    init = tf.lookup.TextFileInitializer(path, tf.string, 0, tf.int64, 1)
    t = tf.lookup.StaticHashTable(init, -1)
    colour = tf.lookup.StaticHashTable(tf.lookup.TextFileInitializer(path, tf.int64, 1, tf.string, 2), "none")
    return {"values": t.lookup(tf.constant(WORDS)), "colour": colour.lookup(tf.constant([5, 6, 11], tf.int64))}


def text_file_whole_line(tf: Any, path: str) -> dict:
    write_vocab(path)
    index = tf.lookup.TextFileIndex
    init = tf.lookup.TextFileInitializer(path, tf.string, index.WHOLE_LINE, tf.int64, index.LINE_NUMBER,
                                         vocab_size=3)
    t = tf.lookup.StaticHashTable(init, -1)
    by_line = tf.lookup.StaticHashTable(
        tf.lookup.TextFileInitializer(path, tf.int64, index.LINE_NUMBER, tf.string, index.WHOLE_LINE), "")
    keys, values = by_line.export()
    return {"ids": t.lookup(tf.constant(VOCAB_LINES)), "size": t.size(), "line_keys": keys, "lines": values}


def text_file_delimiter_vocab(tf: Any, path: str) -> dict:
    with open(path, "w") as f:
        f.write("a,1\nb,2\nc,3\n")
    init = tf.lookup.TextFileInitializer(path, tf.string, 0, tf.int64, tf.lookup.TextFileIndex.LINE_NUMBER,
                                         delimiter=",")
    t = tf.lookup.StaticVocabularyTable(init, num_oov_buckets=2)
    return {"ids": t.lookup(tf.constant(["c", "a", "q", "b", "zz"])), "size": t.size()}


CASES = {f.__name__: f for f in [hash_table_strings, hash_table_int_to_float, vocabulary_strings,
                                 vocabulary_int_keys, vocabulary_no_initializer, text_file_columns,
                                 text_file_whole_line, text_file_delimiter_vocab]}


def _kv_table(tf: Any, keys: list, values: list) -> Any:
    return tf.lookup.StaticHashTable(tf.lookup.KeyValueTensorInitializer(keys, values), -1)


def error_lookup_before_init(tf: Any, path: str) -> tuple:
    return None, _kv_table(tf, ["a", "b"], [1, 2]).lookup(tf.constant(["a"]))


def error_duplicate_key(tf: Any, path: str) -> tuple:
    return _kv_table(tf, ["a", "b", "a"], [1, 2, 3]).initializer, None


def error_empty_line(tf: Any, path: str) -> tuple:
    with open(path, "w") as f:
        f.write("apple\t3\nbanana\t5\n\ncherry\t7\n")
    init = tf.lookup.TextFileInitializer(path, tf.string, 0, tf.int64, 1)
    return tf.lookup.StaticHashTable(init, -1).initializer, None


def error_vocab_size_too_large(tf: Any, path: str) -> tuple:
    write_vocab(path)
    init = tf.lookup.TextFileInitializer(path, tf.string, 0, tf.int64, 1, vocab_size=9)
    return tf.lookup.StaticHashTable(init, -1).initializer, None


def error_too_few_columns(tf: Any, path: str) -> tuple:
    write_vocab(path)
    init = tf.lookup.TextFileInitializer(path, tf.string, 0, tf.int64, 5)
    return tf.lookup.StaticHashTable(init, -1).initializer, None


def error_key_dtype(tf: Any, path: str) -> tuple:
    return _kv_table(tf, ["a"], [1]).lookup(tf.constant([1], tf.int64)), None


def error_no_oov_buckets(tf: Any, path: str) -> tuple:
    return tf.lookup.StaticVocabularyTable(None, 0), None


def error_vocabulary_value_dtype(tf: Any, path: str) -> tuple:
    return tf.lookup.StaticVocabularyTable(tf.lookup.KeyValueTensorInitializer(["a"], [0]), 3), None


# Each returns (op to run first, tensor to fetch next); the error is raised while building or by one of the runs.
ERROR_CASES = {f.__name__: f for f in [error_lookup_before_init, error_duplicate_key, error_empty_line,
                                       error_vocab_size_too_large, error_too_few_columns, error_key_dtype,
                                       error_no_oov_buckets, error_vocabulary_value_dtype]}
