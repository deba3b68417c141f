"""Raw features and columns for feature_column.HostTransform, shared by the TensorFlow fixture generator
(fixtures/generate_fc_fixtures.py records each categorical column's ids and weights, densified with -1 / 0) and
test_host_transform.py."""
from __future__ import annotations

import numpy as np

RAW = {
    "city": np.array([["paris", "oslo"], ["rome", ""], ["", ""], ["lima", "paris"]], object),
    "color": np.array([["red"], ["purple"], ["blue"], [""]], object),
    "slot": np.array([[1, 7], [3, -1], [4, 4], [-1, -1]], np.int64),
    "zone": np.array([[12], [905], [-1], [12]], np.int64),
    "word": np.array([["beta"], ["omega"], ["delta"], ["alpha"]], object),
    "item": np.array([[0, 5, 2], [1, -1, -1], [-1, -1, -1], [3, 3, 4]], np.int64),
    "item_w": np.array([[0.5, 2.0, 1.0], [1.5, 0.0, 0.0], [0.0, 0.0, 0.0], [0.25, 0.75, 3.0]], np.float32),
    "tag": np.array([["a", "d"], ["zz", "b"], ["c", ""], ["", ""]], object),
    "tag_w": np.array([[1.0, 3.0], [2.0, -1.0], [0.5, 0.0], [0.0, 0.0]], np.float32),
    "age": np.array([[25.0], [61.0], [40.0], [3.0]], np.float32),
}


def categorical(fc) -> list:
    """One column of each categorical kind (fc: the module's feature_column, vocabulary files as "VOCAB")."""
    color = fc.categorical_column_with_vocabulary_list("color", ["red", "green", "blue"], num_oov_buckets=2)
    return [
        fc.categorical_column_with_hash_bucket("city", 7),
        color,
        fc.categorical_column_with_identity("slot", 5, default_value=0),
        fc.categorical_column_with_hash_bucket("zone", 13, dtype="int64"),
        fc.categorical_column_with_vocabulary_file("word", "VOCAB", num_oov_buckets=3),
        fc.crossed_column(["city", color], 11),
        fc.crossed_column(["slot", "word"], 17, hash_key=5),
        fc.weighted_categorical_column(fc.categorical_column_with_identity("item", 6), "item_w"),
        fc.weighted_categorical_column(fc.categorical_column_with_vocabulary_list("tag", ["a", "b", "c", "d"]),
                                       "tag_w"),
    ]


def model_columns(fc) -> list:
    """A model's input_layer columns over them: indicators, embeddings of every combiner, numeric, bucketized."""
    city, color, slot, zone, word, cross, cross2, item, tag = categorical(fc)
    return [fc.indicator_column(city), fc.embedding_column(color, 3), fc.indicator_column(slot),
            fc.embedding_column(zone, 2, combiner="sum"), fc.indicator_column(word),
            fc.embedding_column(cross, 2, combiner="sqrtn", max_norm=0.5), fc.indicator_column(cross2),
            fc.indicator_column(item), fc.embedding_column(tag, 4, combiner="mean"),
            fc.numeric_column("age", normalizer_fn=lambda x: (x - 30.0) / 10.0),
            fc.bucketized_column(fc.numeric_column("age"), [20.0, 40.0, 60.0])]


def linear_columns(fc) -> list:
    """A linear_model's columns: the categorical ones themselves, a bucketized (looked up by bucket id) and a
    numeric column."""
    return categorical(fc) + [fc.numeric_column("age"), fc.bucketized_column(fc.numeric_column("age"), [20.0, 50.0])]


def shared_columns(fc) -> list:
    """Shared embeddings over two vocabulary columns of 5 buckets each, beside a numeric column."""
    color = fc.categorical_column_with_vocabulary_list("color", ["red", "green", "blue"], num_oov_buckets=2)
    tag = fc.categorical_column_with_vocabulary_list("tag", ["a", "b", "c", "d", "e"])
    shared = fc.shared_embedding_columns([color, tag], 3, combiner="sqrtn")
    return shared + [fc.numeric_column("age")]
