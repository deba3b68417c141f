"""tf.strings: string tensor ops (tf.compat.v1 names)."""
from edgelite.ops.string_convert_ops import (  # noqa: F401
    as_string, string_to_hash_bucket as to_hash_bucket, string_to_hash_bucket_fast as to_hash_bucket_fast,
    string_to_hash_bucket_strong as to_hash_bucket_strong, string_to_number as to_number,
)
from edgelite.ops.string_ops import (  # noqa: F401
    lower, regex_full_match, regex_replace, string_join as join, string_length as length, string_strip as strip,
    substr, upper,
)
from edgelite.ops.string_split_ops import reduce_join, strings_split as split, unsorted_segment_join  # noqa: F401
from edgelite.ops.string_format_ops import string_format as format  # noqa: F401,A004
from edgelite.ops.string_ngrams_ops import ngrams  # noqa: F401
from edgelite.ops.string_unicode_ops import unicode_encode, unicode_transcode  # noqa: F401
