"""tf.keras.preprocessing.text: word splitting, hashing and the Tokenizer (vocabulary by frequency, texts to index
sequences or to bag-of-words matrices), with Keras's orderings so that word indices agree with tf.keras."""
from __future__ import annotations

import collections
import hashlib
import json
import warnings
from typing import Any, Callable, Dict, Iterable, Iterator, List, Optional

import numpy as np

DEFAULT_FILTERS = '!"#$%&()*+,-./:;<=>?@[\\]^_`{|}~\t\n'


def text_to_word_sequence(input_text: str, filters: str = DEFAULT_FILTERS, lower: bool = True,
                          split: str = " ") -> List[str]:
    """The words of a text: optionally lower-cased, every filter character turned into a separator."""
    if lower:
        input_text = input_text.lower()
    input_text = input_text.translate(str.maketrans({c: split for c in filters}))
    return [word for word in input_text.split(split) if word]


def hashing_trick(text: str, n: int, hash_function: Any = None, filters: str = DEFAULT_FILTERS, lower: bool = True,
                  split: str = " ", analyzer: Optional[Callable] = None) -> List[int]:
    """Each word hashed into 1 .. n-1 (0 stays free for padding); 'md5' gives a hash stable across runs."""
    if hash_function is None:
        hash_function = hash
    elif hash_function == "md5":
        hash_function = _md5
    words = analyzer(text) if analyzer is not None else text_to_word_sequence(text, filters, lower, split)
    return [hash_function(w) % (n - 1) + 1 for w in words]


def _md5(word: str) -> int:
    return int(hashlib.md5(word.encode()).hexdigest(), 16)


def one_hot(input_text: str, n: int, filters: str = DEFAULT_FILTERS, lower: bool = True, split: str = " ",
            analyzer: Optional[Callable] = None) -> List[int]:
    """hashing_trick with Python's hash: word ids in 1 .. n-1 (not a one-hot matrix, despite the name)."""
    return hashing_trick(input_text, n, hash, filters, lower, split, analyzer)


class Tokenizer:
    """Vocabulary of the fitted texts, most frequent word first (index 1; the oov_token, if any, takes 1 and
    pushes the words down), ties in order of first appearance; num_words keeps indices below num_words."""

    def __init__(self, num_words: Optional[int] = None, filters: str = DEFAULT_FILTERS, lower: bool = True,
                 split: str = " ", char_level: bool = False, oov_token: Optional[str] = None,
                 analyzer: Optional[Callable] = None, **kwargs: Any) -> None:
        if "nb_words" in kwargs:
            warnings.warn("The `nb_words` argument in `Tokenizer` has been renamed `num_words`.")
            num_words = kwargs.pop("nb_words")
        document_count = kwargs.pop("document_count", 0)
        if kwargs:
            raise TypeError("Unrecognized keyword arguments: " + str(kwargs))
        self.word_counts: Dict[str, int] = collections.OrderedDict()
        self.word_docs: Dict[str, int] = collections.defaultdict(int)
        self.index_docs: Dict[int, int] = collections.defaultdict(int)
        self.word_index: Dict[str, int] = {}
        self.index_word: Dict[int, str] = {}
        self.filters, self.split, self.lower = filters, split, lower
        self.num_words, self.document_count = num_words, document_count
        self.char_level, self.oov_token, self.analyzer = char_level, oov_token, analyzer

    def _tokens(self, text: Any) -> Any:
        """A text's tokens: its characters (char_level) or the items of a list as given, otherwise its words."""
        if self.char_level or isinstance(text, list):
            if not self.lower:
                return text
            return [t.lower() for t in text] if isinstance(text, list) else text.lower()
        if self.analyzer is not None:
            return self.analyzer(text)
        return text_to_word_sequence(text, self.filters, self.lower, self.split)

    def fit_on_texts(self, texts: Iterable[Any]) -> None:
        """Counts words and documents per word, then numbers the vocabulary by descending count."""
        for text in texts:
            self.document_count += 1
            tokens = self._tokens(text)
            for token in tokens:
                self.word_counts[token] = self.word_counts.get(token, 0) + 1
            for token in set(tokens):
                self.word_docs[token] += 1
        # sorted() is stable: equal counts keep the order in which the words first appeared
        by_count = sorted(self.word_counts.items(), key=lambda item: item[1], reverse=True)
        vocabulary = ([] if self.oov_token is None else [self.oov_token]) + [word for word, _ in by_count]
        self.word_index = dict(zip(vocabulary, range(1, len(vocabulary) + 1)))
        self.index_word = {index: word for word, index in self.word_index.items()}
        for word, docs in list(self.word_docs.items()):
            self.index_docs[self.word_index[word]] = docs

    def fit_on_sequences(self, sequences: Any) -> None:
        """Document counts per index from already-indexed sequences (what tfidf needs)."""
        self.document_count += len(sequences)
        for seq in sequences:
            for index in set(seq):
                self.index_docs[index] += 1

    def texts_to_sequences_generator(self, texts: Iterable[Any]) -> Iterator[List[int]]:
        """Each text as word indices; unknown or beyond-num_words words become the oov index or are dropped."""
        oov_index = self.word_index.get(self.oov_token)
        for text in texts:
            indices = []
            for token in self._tokens(text):
                index = self.word_index.get(token)
                if index is not None and not (self.num_words and index >= self.num_words):
                    indices.append(index)
                elif self.oov_token is not None:
                    indices.append(oov_index)
            yield indices

    def texts_to_sequences(self, texts: Iterable[Any]) -> List[List[int]]:
        """List form of texts_to_sequences_generator."""
        return list(self.texts_to_sequences_generator(texts))

    def sequences_to_texts_generator(self, sequences: Iterable[Any]) -> Iterator[str]:
        """Each index sequence as space-joined words, with the same num_words/oov rule as the forward mapping."""
        oov_index = self.word_index.get(self.oov_token)
        for seq in sequences:
            words = []
            for index in seq:
                word = self.index_word.get(index)
                if word is not None and not (self.num_words and index >= self.num_words):
                    words.append(word)
                elif self.oov_token is not None:
                    words.append(self.index_word[oov_index])
            yield " ".join(words)

    def sequences_to_texts(self, sequences: Iterable[Any]) -> List[str]:
        """List form of sequences_to_texts_generator."""
        return list(self.sequences_to_texts_generator(sequences))

    def texts_to_matrix(self, texts: Iterable[Any], mode: str = "binary") -> np.ndarray:
        """Bag-of-words rows of the texts: see sequences_to_matrix."""
        return self.sequences_to_matrix(self.texts_to_sequences(texts), mode=mode)

    def sequences_to_matrix(self, sequences: Any, mode: str = "binary") -> np.ndarray:
        """[n, num_words] float64 rows per sequence: 'binary' presence, 'count', 'freq' (count / length) or
        'tfidf' ((1 + log count) * log(1 + docs / (1 + docs with the word))); indices >= num_words ignored."""
        if self.num_words:
            width = self.num_words
        elif self.word_index:
            width = len(self.word_index) + 1
        else:
            raise ValueError("Specify a dimension (`num_words` argument), or fit on some text data first.")
        if mode == "tfidf" and not self.document_count:
            raise ValueError("Fit the Tokenizer on some data before using tfidf mode.")
        matrix = np.zeros((len(sequences), width))
        for row, seq in enumerate(sequences):
            if not seq:
                continue
            counts = collections.Counter(index for index in seq if index < width)
            for index, count in counts.items():
                matrix[row][index] = self._weight(mode, count, len(seq), index)
        return matrix

    def _weight(self, mode: str, count: int, length: int, index: int) -> float:
        if mode == "binary":
            return 1
        if mode == "count":
            return count
        if mode == "freq":
            return count / length
        if mode == "tfidf":
            return (1 + np.log(count)) * np.log(1 + self.document_count / (1 + self.index_docs.get(index, 0)))
        raise ValueError("Unknown vectorization mode:", mode)

    def get_config(self) -> dict:
        """Settings and the fitted tables (tables as JSON text, as Keras stores them)."""
        return {"num_words": self.num_words, "filters": self.filters, "lower": self.lower, "split": self.split,
                "char_level": self.char_level, "oov_token": self.oov_token, "document_count": self.document_count,
                "word_counts": json.dumps(self.word_counts), "word_docs": json.dumps(self.word_docs),
                "index_docs": json.dumps(self.index_docs), "index_word": json.dumps(self.index_word),
                "word_index": json.dumps(self.word_index)}

    def to_json(self, **kwargs: Any) -> str:
        """{'class_name': 'Tokenizer', 'config': get_config()} as JSON (json.dumps keyword arguments apply)."""
        return json.dumps({"class_name": type(self).__name__, "config": self.get_config()}, **kwargs)


def tokenizer_from_json(json_string: str) -> Tokenizer:
    """The Tokenizer a to_json() string describes, fitted tables included."""
    config = dict(json.loads(json_string).get("config"))
    tables = {name: json.loads(config.pop(name))
              for name in ("word_counts", "word_docs", "index_docs", "index_word", "word_index")}
    tokenizer = Tokenizer(**config)
    tokenizer.word_counts = tables["word_counts"]
    tokenizer.word_docs = tables["word_docs"]
    tokenizer.index_docs = {int(k): v for k, v in tables["index_docs"].items()}
    tokenizer.index_word = {int(k): v for k, v in tables["index_word"].items()}
    tokenizer.word_index = tables["word_index"]
    return tokenizer
