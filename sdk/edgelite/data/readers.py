"""File datasets: TFRecordDataset, TextLineDataset, FixedLengthRecordDataset (one string per record) and
CsvDataset (parsed CSV columns)."""
from __future__ import annotations

from typing import Any, Iterator, Optional

import numpy as np

from edgelite.framework import dtypes, ops

from .dataset_ops import DatasetV1, Env, _Unary


def _text(x: Any) -> str:
    return x.decode("utf-8") if isinstance(x, bytes) else str(x)


class _FileDataset(DatasetV1):
    def __init__(self, filenames: Any, compression_type: Optional[str]) -> None:
        super().__init__(dtypes.string, [dtypes.string], [[]])
        if isinstance(filenames, DatasetV1):
            raise TypeError("edgelite's file datasets take a string tensor or list of file names, not a Dataset "
                            "(use dataset.interleave or flat_map to read from a dataset of names)")
        self._filenames = ops.convert_to_tensor(filenames, dtype=dtypes.string, name="filenames")
        if self._filenames.shape.ndims not in (None, 0, 1):
            raise ValueError("`filenames` must be a `tf.Tensor` of dtype `tf.string` and rank 0 or 1")
        self._compression = compression_type or ""

    def _inputs(self) -> list:
        return [self._filenames]

    def _gen(self, env: Env) -> Iterator[list]:
        for name in np.asarray(env.value(self._filenames), dtype=object).reshape(-1):
            for record in self._records(_text(name)):
                yield [np.asarray(record, dtype=object)]


class TFRecordDataset(_FileDataset):
    """A Dataset comprising the records of one or more TFRecord files (NONE, ZLIB or GZIP)."""

    def __init__(self, filenames: Any, compression_type: Optional[str] = None, buffer_size: Optional[int] = None,
                 num_parallel_reads: Optional[int] = None, name: Optional[str] = None) -> None:
        super().__init__(filenames, compression_type)

    def _records(self, path: str) -> Iterator[bytes]:
        from edgelite.io.tf_record import tf_record_iterator
        return tf_record_iterator(path, self._compression or None)

    def _chunks(self, env: Env) -> Iterator[list]:
        """The records of all files as lists of bytes (one per buffer read), for batching without a step per
        record."""
        from edgelite.io.tf_record import open_stream, record_chunks
        for name in np.asarray(env.value(self._filenames), dtype=object).reshape(-1):
            yield from record_chunks(open_stream(_text(name), self._compression or None))


class TextLineDataset(_FileDataset):
    """A Dataset comprising the lines (newline stripped) of one or more text files."""

    def __init__(self, filenames: Any, compression_type: Optional[str] = None, buffer_size: Optional[int] = None,
                 num_parallel_reads: Optional[int] = None, name: Optional[str] = None) -> None:
        super().__init__(filenames, compression_type)

    def _records(self, path: str) -> Iterator[bytes]:
        data = _read(path, self._compression)
        lines = data.split(b"\n")
        if lines and lines[-1] == b"":
            lines.pop()
        return (ln[:-1] if ln.endswith(b"\r") else ln for ln in lines)


class FixedLengthRecordDataset(_FileDataset):
    """A Dataset of fixed-length records from one or more binary files (header and footer skipped)."""

    def __init__(self, filenames: Any, record_bytes: int, header_bytes: Optional[int] = None,
                 footer_bytes: Optional[int] = None, buffer_size: Optional[int] = None,
                 compression_type: Optional[str] = None, num_parallel_reads: Optional[int] = None,
                 name: Optional[str] = None) -> None:
        super().__init__(filenames, compression_type)
        self._size, self._header, self._footer = int(record_bytes), int(header_bytes or 0), int(footer_bytes or 0)

    def _records(self, path: str) -> Iterator[bytes]:
        from edgelite.framework import errors
        data = _read(path, self._compression)
        body = data[self._header:len(data) - self._footer]
        if len(body) % self._size:
            raise errors.DataLossError(None, None, f"Excluding the header ({self._header} bytes) and footer "
                                                   f"({self._footer} bytes), input file \"{path}\" has body length "
                                                   f"{len(body)} bytes, which is not an exact multiple of the record "
                                                   f"length ({self._size} bytes).")
        return (body[i:i + self._size] for i in range(0, len(body), self._size))


def _read(path: str, compression: str) -> bytes:
    import zlib

    from edgelite.io._errors import from_os_error
    try:
        with open(path, "rb") as f:
            data = f.read()
    except OSError as e:
        raise from_os_error(e, path) from None
    if compression in ("ZLIB", "GZIP"):
        data = zlib.decompress(data, zlib.MAX_WBITS + (16 if compression == "GZIP" else 0))
    return data


class CsvDataset(_Unary):
    """tf.data.experimental.CsvDataset: one tuple of column values per CSV record of the files (the first line
    of each file skipped when header=True), parsed as decode_csv does; a dtype in record_defaults makes that
    column required."""

    def __init__(self, filenames: Any, record_defaults: list, compression_type: Optional[str] = None,
                 buffer_size: Optional[int] = None, header: bool = False, field_delim: str = ",",
                 use_quote_delim: bool = True, na_value: str = "", select_cols: Optional[list] = None) -> None:
        from edgelite.framework.constant_op import constant
        from edgelite.io.csv_ops import decode_csv
        from .dataset_ops import TensorSliceDataset
        defaults = [constant([], dtype=d) if isinstance(d, dtypes.DType) else d for d in record_defaults]
        names = TensorSliceDataset(ops.convert_to_tensor(filenames, dtype=dtypes.string, name="filenames"))
        lines = names.flat_map(lambda name: TextLineDataset(name, compression_type).skip(1 if header else 0))
        records = lines.map(lambda line: tuple(decode_csv(line, defaults, field_delim, use_quote_delim,
                                                          na_value=na_value, select_cols=select_cols)))
        super().__init__(records, records._structure, records._flat_types, records._flat_shapes)

    def _gen(self, env: Env) -> Iterator[list]:
        return self._input._gen(env)
