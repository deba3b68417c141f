"""tf.lookup (TF1 names): static hash and vocabulary tables and their initializers."""
from edgelite.ops.lookup_ops import (  # noqa: F401
    KeyValueTensorInitializer, StaticHashTable, StaticVocabularyTable, TextFileIndex, TextFileInitializer)
