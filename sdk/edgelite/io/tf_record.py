"""TFRecord files: TFRecordWriter, tf_record_iterator and their options (no compression, GZIP or ZLIB).

A file is a sequence of framed records (length, masked CRC32C of the length, data, masked CRC32C of the
data; the framing is shared with the summary event files); with GZIP or ZLIB the whole framed stream is
one deflate stream.
"""
from __future__ import annotations

import re
import struct
import zlib
from typing import Any, BinaryIO, Iterator, List, Optional, Union

from edgelite._codec.crc import masked_crc32c
from edgelite.framework import errors
from edgelite.summary.record import encode_record

from ._errors import from_os_error
from .record_framing import FOOTER, HEADER, cut_frames

_READ_CHUNK = 256 * 1024


class TFRecordCompressionType:
    """The type of compression for the record."""

    NONE = 0
    ZLIB = 1
    GZIP = 2


class TFRecordOptions:
    """Options used for manipulating TFRecord files (compression type and zlib settings)."""

    compression_type_map = {
        TFRecordCompressionType.ZLIB: "ZLIB",
        TFRecordCompressionType.GZIP: "GZIP",
        TFRecordCompressionType.NONE: "",
    }

    def __init__(self, compression_type: Any = None, flush_mode: Optional[int] = None,
                 input_buffer_size: Optional[int] = None, output_buffer_size: Optional[int] = None,
                 window_bits: Optional[int] = None, compression_level: Optional[int] = None,
                 compression_method: Optional[int] = None, mem_level: Optional[int] = None,
                 compression_strategy: Optional[int] = None) -> None:
        if isinstance(compression_type, int) and not isinstance(compression_type, bool):
            self.get_compression_type_string(compression_type)
            compression_type = self.compression_type_map[compression_type]
        self.get_compression_type_string(compression_type)
        self.compression_type = compression_type
        self.flush_mode = flush_mode
        self.input_buffer_size = input_buffer_size
        self.output_buffer_size = output_buffer_size
        self.window_bits = window_bits
        self.compression_level = compression_level
        self.compression_method = compression_method
        self.mem_level = mem_level
        self.compression_strategy = compression_strategy

    @classmethod
    def get_compression_type_string(cls, options: Any) -> str:
        """'ZLIB', 'GZIP' or '' for a TFRecordOptions, a TFRecordCompressionType or a string."""
        if not options:
            return ""
        if isinstance(options, TFRecordOptions):
            return cls.get_compression_type_string(options.compression_type)
        if isinstance(options, int) and not isinstance(options, bool) and options in cls.compression_type_map:
            return cls.compression_type_map[options]
        if isinstance(options, str) and options in cls.compression_type_map.values():
            return options
        raise ValueError(f'Not a valid compression_type: "{options}"')


def _as_options(options: Union[None, str, int, TFRecordOptions]) -> TFRecordOptions:
    if isinstance(options, TFRecordOptions):
        return options
    return TFRecordOptions(TFRecordOptions.get_compression_type_string(options))


def _wbits(opts: TFRecordOptions, kind: str) -> int:
    """zlib's wbits: the window size, plus 16 for a gzip wrapper."""
    bits = zlib.MAX_WBITS if opts.window_bits is None else int(opts.window_bits)
    return bits + 16 if kind == "GZIP" else bits


def _open(path: str, mode: str) -> BinaryIO:
    try:
        return open(path, mode)
    except OSError as e:
        raise from_os_error(e, path) from None


class TFRecordWriter:
    """A class to write records to a TFRecords file (a context manager that closes the file on exit).

    A non-default flush_mode is applied after each record; TensorFlow applies it whenever its input
    buffer fills, so only files written with the default Z_NO_FLUSH are byte-identical to TensorFlow's.
    """

    def __init__(self, path: str, options: Union[None, str, int, TFRecordOptions] = None) -> None:
        opts = _as_options(options)
        self._kind = TFRecordOptions.get_compression_type_string(opts)
        self._deflate: Any = None
        self._flush_mode = zlib.Z_NO_FLUSH if opts.flush_mode is None else int(opts.flush_mode)
        if self._kind:
            try:
                self._deflate = zlib.compressobj(
                    zlib.Z_DEFAULT_COMPRESSION if opts.compression_level is None else int(opts.compression_level),
                    zlib.DEFLATED if opts.compression_method is None else int(opts.compression_method),
                    _wbits(opts, self._kind),
                    9 if opts.mem_level is None else int(opts.mem_level),
                    zlib.Z_DEFAULT_STRATEGY if opts.compression_strategy is None else int(opts.compression_strategy))
            except (ValueError, zlib.error) as e:
                raise ValueError(f"Invalid zlib options for TFRecordWriter: {e}") from None
        self._path = path
        self._file: Optional[BinaryIO] = _open(path, "wb")

    def __enter__(self) -> "TFRecordWriter":
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()

    def _check_open(self) -> BinaryIO:
        if self._file is None:
            raise errors.FailedPreconditionError(None, None, "Writer is closed.")
        return self._file

    def write(self, record: Union[bytes, str]) -> None:
        """Write a string record to the file."""
        f = self._check_open()
        if isinstance(record, str):
            record = record.encode("utf-8")
        elif not isinstance(record, (bytes, bytearray, memoryview)):
            raise TypeError(f"write(): a record must be bytes or str, got {type(record).__name__}")
        framed = encode_record(bytes(record))
        if self._deflate is None:
            f.write(framed)
            return
        f.write(self._deflate.compress(framed))
        if self._flush_mode != zlib.Z_NO_FLUSH:
            f.write(self._deflate.flush(self._flush_mode))

    def flush(self) -> None:
        """Flush the file (compressed data is flushed to a byte boundary first, as TensorFlow does)."""
        f = self._check_open()
        if self._deflate is not None:
            f.write(self._deflate.flush(zlib.Z_PARTIAL_FLUSH))
        f.flush()

    def close(self) -> None:
        """Close the file (again is a no-op)."""
        if self._file is None:
            return
        f, self._file = self._file, None
        try:
            if self._deflate is not None:
                f.write(self._deflate.flush(zlib.Z_FINISH))
        finally:
            f.close()


class _Plain:
    """A read-only stream of a file's bytes."""

    short_read = "Read less bytes than requested"

    def __init__(self, raw: BinaryIO) -> None:
        self.read = raw.read
        self.close = raw.close


class _Inflating:
    """A read-only stream of the decompressed bytes of a deflate (zlib or gzip) file."""

    short_read = "EOF reached"

    def __init__(self, raw: BinaryIO, wbits: int) -> None:
        self._raw = raw
        self._inflate = zlib.decompressobj(wbits)
        self._buf = bytearray()
        self._done = False

    def read(self, n: int) -> bytes:
        while len(self._buf) < n and not self._done:
            chunk = self._raw.read(_READ_CHUNK)
            try:
                if chunk:
                    self._buf += self._inflate.decompress(chunk)
                else:
                    self._buf += self._inflate.flush()
                    self._done = True
            except zlib.error as e:
                raise errors.DataLossError(None, None, _inflate_message(e)) from None
        out = bytes(self._buf[:n])
        del self._buf[:n]
        return out

    def close(self) -> None:
        self._raw.close()


def _inflate_message(e: zlib.error) -> str:
    """zlib's complaint in TensorFlow's words ('inflate() failed with error -3: incorrect header check')."""
    m = re.match(r"Error (-?\d+) while decompressing data: (.*)", str(e))
    return f"inflate() failed with error {m.group(1)}: {m.group(2)}" if m else f"inflate() failed: {e}"


def record_chunks(stream: Any) -> Iterator[List[bytes]]:
    """The records of a framed stream, a list per buffer read; a partial header ends the file, a partial
    record or a bad checksum is DataLossError (raised after the good records before it are yielded)."""
    offset = 0  # file offset of buf[0]
    buf = b""
    ended = False
    try:
        while True:
            want = _READ_CHUNK
            if len(buf) >= HEADER and masked_crc32c(buf[:8]) == struct.unpack_from("<I", buf, 8)[0]:
                # A frame longer than a chunk is read in one go instead of growing the buffer chunk by chunk.
                want = max(want, HEADER + struct.unpack_from("<Q", buf)[0] + FOOTER - len(buf))
            chunk = stream.read(want)
            if chunk:
                buf = buf + chunk if buf else chunk
            else:
                ended = True
            cut = cut_frames(buf, ended)
            if cut.records:
                yield cut.records
            if cut.error is not None:
                kind, at = cut.error
                at += offset
                if kind == "length":
                    hint = " (Is this even a TFRecord file?)" if at == 0 else ""
                    raise errors.DataLossError(None, None, f"corrupted record at {at}{hint}")
                if kind == "data":
                    raise errors.DataLossError(None, None, f"corrupted record at {at}")
                raise errors.DataLossError(None, None, f"truncated record at {at}' failed with {stream.short_read}")
            if ended:
                return
            buf = buf[cut.consumed:]
            offset += cut.consumed
    finally:
        stream.close()


def open_stream(path: str, options: Union[None, str, int, TFRecordOptions] = None) -> Any:
    """The decompressed byte stream of a TFRecord file (NotFoundError at once if it is missing)."""
    opts = _as_options(options)
    kind = TFRecordOptions.get_compression_type_string(opts)
    raw = _open(path, "rb")
    return _Plain(raw) if not kind else _Inflating(raw, _wbits(opts, kind))


def tf_record_iterator(path: str, options: Union[None, str, int, TFRecordOptions] = None) -> Iterator[bytes]:
    """An iterator that reads the records from a TFRecords file (NotFoundError at once if it is missing)."""
    chunks = record_chunks(open_stream(path, options))
    return (record for chunk in chunks for record in chunk)
