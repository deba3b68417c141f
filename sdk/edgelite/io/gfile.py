"""tf.io.gfile on the local file system: GFile and the path helpers, failing with TensorFlow's tf.errors."""
from __future__ import annotations

import collections
import glob as _glob
import os
import shutil
from typing import Any, Iterator, List, Optional, Union

from edgelite.framework import errors

from ._errors import from_os_error

_MODES = ("r", "w", "a", "r+", "w+", "a+")

FileStatistics = collections.namedtuple("FileStatistics", ["length", "mtime_nsec", "is_directory"])


class GFile:
    """File I/O wrappers without thread locking; the file is opened on first use, as in TensorFlow."""

    def __init__(self, name: str, mode: str = "r") -> None:
        if mode.replace("b", "") not in _MODES:
            raise errors.InvalidArgumentError(None, None, "mode is not 'r' or 'w' or 'a' or 'r+' or 'w+' or 'a+'")
        self._name = os.fspath(name)
        self._mode = mode
        self._binary = "b" in mode
        self._file: Any = None

    @property
    def name(self) -> str:
        """The file name."""
        return self._name

    @property
    def mode(self) -> str:
        """The mode the file was opened with."""
        return self._mode

    def _open(self) -> Any:
        if self._file is None:
            base = self._mode.replace("b", "")
            try:
                self._file = open(self._name, base + "b")
            except OSError as e:
                raise from_os_error(e, self._name) from None
        return self._file

    def _readable(self) -> Any:
        if self._mode.replace("b", "") in ("w", "a"):
            raise errors.PermissionDeniedError(None, None, "File isn't open for reading")
        return self._open()

    def _writable(self) -> Any:
        if self._mode.replace("b", "") == "r":
            raise errors.PermissionDeniedError(None, None, "File isn't open for writing")
        return self._open()

    def _out(self, data: bytes) -> Union[bytes, str]:
        return data if self._binary else data.decode("utf-8")

    def size(self) -> int:
        """The size of the file in bytes."""
        return stat(self._name).length

    def write(self, file_content: Union[bytes, str]) -> None:
        """Write bytes or a string (UTF-8) to the file."""
        f = self._writable()
        f.write(file_content.encode("utf-8") if isinstance(file_content, str) else bytes(file_content))

    def read(self, n: int = -1) -> Union[bytes, str]:
        """n bytes (all if n is -1) from the current position; str unless the mode has 'b'."""
        return self._out(self._readable().read(n))

    def readline(self) -> Union[bytes, str]:
        """The next line, with its newline."""
        return self._out(self._readable().readline())

    def readlines(self) -> list:
        """All remaining lines."""
        return [self._out(line) for line in self._readable().readlines()]

    def __iter__(self) -> Iterator[Union[bytes, str]]:
        return self

    def __next__(self) -> Union[bytes, str]:
        line = self.readline()
        if not line:
            raise StopIteration
        return line

    def seek(self, offset: Optional[int] = None, whence: int = 0, position: Optional[int] = None) -> None:
        """Move to a byte position (position is the older name of offset)."""
        if position is not None:
            offset = position
        self._open().seek(offset or 0, whence)

    def tell(self) -> int:
        """The current byte position."""
        return self._open().tell()

    def flush(self) -> None:
        """Push written data to the operating system."""
        if self._file is not None:
            self._file.flush()

    def close(self) -> None:
        """Close the file (if it was opened)."""
        if self._file is not None:
            self._file.close()
            self._file = None

    def __enter__(self) -> "GFile":
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()


def join(path: str, *paths: str) -> str:
    """Path components joined as os.path.join does (TensorFlow's gfile.join, scheme prefixes included)."""
    return os.path.join(path, *paths)


def exists(path: str) -> bool:
    """Determines whether a path exists or not."""
    return os.path.exists(path)


def isdir(path: str) -> bool:
    """Returns whether the path is a directory or not."""
    return os.path.isdir(path)


def mkdir(path: str) -> None:
    """Creates a directory with the name given by 'path' (an existing directory is fine)."""
    try:
        os.mkdir(path)
    except FileExistsError:
        if not os.path.isdir(path):
            raise errors.AlreadyExistsError(None, None, f"{path}; File exists") from None
    except OSError as e:
        raise from_os_error(e, path) from None


def makedirs(path: str) -> None:
    """Creates a directory and all parent/intermediate directories."""
    try:
        os.makedirs(path, exist_ok=True)
    except OSError as e:
        raise from_os_error(e, path) from None


def listdir(path: str) -> List[str]:
    """Returns a list of entries contained within a directory."""
    if not os.path.isdir(path):
        raise errors.NotFoundError(None, None, f"Could not find directory {path}")
    return os.listdir(path)


def glob(pattern: Union[str, list]) -> List[str]:
    """Returns a list of files that match the given pattern(s)."""
    patterns = [pattern] if isinstance(pattern, (str, bytes, os.PathLike)) else list(pattern)
    out: list = []
    for p in patterns:
        out.extend(m for m in sorted(_glob.glob(os.fspath(p))) if m not in out)
    return out


def remove(path: str) -> None:
    """Deletes the file at 'path'."""
    try:
        os.remove(path)
    except OSError as e:
        raise from_os_error(e, path) from None


def rmtree(path: str) -> None:
    """Deletes everything under path recursively."""
    if not os.path.exists(path):
        raise errors.NotFoundError(None, None, f"{path} not found")
    shutil.rmtree(path)


def rename(src: str, dst: str, overwrite: bool = False) -> None:
    """Rename or move a file / directory (AlreadyExistsError if dst exists and overwrite is False)."""
    if not overwrite and os.path.exists(dst):
        raise errors.AlreadyExistsError(None, None, "file already exists")
    try:
        os.replace(src, dst)
    except OSError as e:
        raise from_os_error(e, src) from None


def copy(src: str, dst: str, overwrite: bool = False) -> None:
    """Copies data from src to dst (AlreadyExistsError if dst exists and overwrite is False)."""
    if not overwrite and os.path.exists(dst):
        raise errors.AlreadyExistsError(None, None, "file already exists")
    try:
        shutil.copyfile(src, dst)
    except OSError as e:
        raise from_os_error(e, src if not os.path.exists(src) else dst) from None


def stat(path: str) -> FileStatistics:
    """Returns file statistics (length, mtime_nsec, is_directory) for a given path."""
    try:
        st = os.stat(path)
    except OSError as e:
        raise from_os_error(e, path) from None
    return FileStatistics(st.st_size, st.st_mtime_ns, os.path.isdir(path))


def walk(top: str, topdown: bool = True, onerror: Any = None) -> Iterator[tuple]:
    """Recursive directory tree generator: (dirname, subdirectories, files) per directory."""
    yield from os.walk(top, topdown=topdown, onerror=onerror)


# TF1 tf.gfile names.
Copy = copy
DeleteRecursively = rmtree
Exists = exists
FastGFile = GFile
Glob = glob
IsDirectory = isdir
ListDirectory = listdir
MakeDirs = makedirs
MkDir = mkdir
Open = GFile
Remove = remove
Rename = rename
Stat = stat
Walk = walk
