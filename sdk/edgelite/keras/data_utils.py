"""tf.keras.utils.get_file: fetch a URL into the Keras cache (~/.keras/datasets), verify its hash, unpack archives.

TF1 example scripts start with get_file for MNIST, IMDB or flower archives; a cached file whose hash matches is
returned without touching the network.
"""
from __future__ import annotations

import hashlib
import os
import pathlib
import shutil
import tarfile
import urllib.error
import warnings
import zipfile
from typing import Any, Callable, Iterable, Optional, Union
from urllib.parse import urlsplit
from urllib.request import urlretrieve

from .progbar import Progbar

_CHUNK = 65535


def _hasher(algorithm: str, file_hash: Optional[str] = None) -> "hashlib._Hash":
    """sha256 when asked, or for 'auto' with a 64-character hash; md5 otherwise (Keras's legacy default)."""
    if algorithm == "sha256" or (algorithm == "auto" and file_hash is not None and len(file_hash) == 64):
        return hashlib.sha256()
    return hashlib.md5()


def _hash_file(fpath: str, algorithm: Any = "sha256", chunk_size: int = _CHUNK) -> str:
    """Hex digest of a file, read in chunks so large archives do not sit in memory."""
    hasher = _hasher(algorithm) if isinstance(algorithm, str) else algorithm
    with open(fpath, "rb") as handle:
        for chunk in iter(lambda: handle.read(chunk_size), b""):
            hasher.update(chunk)
    return hasher.hexdigest()


def validate_file(fpath: str, file_hash: str, algorithm: str = "auto", chunk_size: int = _CHUNK) -> bool:
    """Whether the file's sha256/md5 digest equals `file_hash`."""
    return str(_hash_file(fpath, _hasher(algorithm, file_hash), chunk_size)) == str(file_hash)


def _safe_tar_members(archive: tarfile.TarFile, base: str) -> Iterable[tarfile.TarInfo]:
    """Members whose path, or link target, stays inside the extraction directory; others are skipped with a warning."""
    root = os.path.realpath(os.path.abspath(base))

    def inside(path: str, start: str) -> bool:
        return os.path.commonpath([root, os.path.realpath(os.path.abspath(os.path.join(start, path)))]) == root

    for member in archive.getmembers():
        if inside(member.name, root) or ((member.issym() or member.islnk())
                                         and inside(member.linkname, os.path.join(root, os.path.dirname(member.name)))):
            yield member
        else:
            warnings.warn(f"Skipping invalid path during archive extraction: '{member.name}'.")


def _extract_archive(file_path: str, path: str = ".", archive_format: Union[str, list, None] = "auto") -> bool:
    """Unpack a tar(.gz/.bz2) or zip file into `path`; False when it is none of the formats asked for."""
    if archive_format is None:
        return False
    formats = ["tar", "zip"] if archive_format == "auto" else archive_format
    if isinstance(formats, str):
        formats = [formats]
    file_path, path = os.fspath(file_path), os.fspath(path)
    checks: dict = {"tar": tarfile.is_tarfile, "zip": zipfile.is_zipfile}
    for kind in formats:
        if not checks[kind](file_path):
            continue
        opener: Callable = tarfile.open if kind == "tar" else zipfile.ZipFile
        with opener(file_path) as archive:
            try:
                if kind == "zip":
                    archive.extractall(path)
                else:
                    archive.extractall(path, members=_safe_tar_members(archive, path))
            except (tarfile.TarError, RuntimeError, KeyboardInterrupt):
                # A half-written tree would pass for a finished extraction next time.
                if os.path.exists(path):
                    if os.path.isfile(path):
                        os.remove(path)
                    else:
                        shutil.rmtree(path)
                raise
        return True
    return False


class _DownloadProgress:
    """urlretrieve's report hook: drives a Progbar over the byte count (unknown totals run without a target)."""

    def __init__(self) -> None:
        self.progbar: Optional[Progbar] = None
        self.finished = False

    def __call__(self, block_num: int, block_size: int, total_size: int) -> None:
        if self.progbar is None:
            self.progbar = Progbar(None if total_size == -1 else total_size)
        current = block_num * block_size
        if self.progbar.target is None:
            self.progbar.update(current)
        elif current < self.progbar.target:
            self.progbar.update(current)
        elif not self.finished:
            self.progbar.update(self.progbar.target)
            self.finished = True


def _download(origin: str, fpath: str) -> None:
    """urlretrieve with Keras's 'URL fetch failure' errors; a partial file is removed on any failure."""
    template = "URL fetch failure on {}: {} -- {}"
    try:
        try:
            urlretrieve(origin, fpath, _DownloadProgress())
        except urllib.error.HTTPError as e:
            raise Exception(template.format(origin, e.code, e.msg))
        except urllib.error.URLError as e:
            raise Exception(template.format(origin, e.errno, e.reason))
    except (Exception, KeyboardInterrupt):
        if os.path.exists(fpath):
            os.remove(fpath)
        raise


def get_file(fname: Optional[str] = None, origin: Optional[str] = None, untar: bool = False,
             md5_hash: Optional[str] = None, file_hash: Optional[str] = None, cache_subdir: str = "datasets",
             hash_algorithm: str = "auto", extract: bool = False, archive_format: Union[str, list, None] = "auto",
             cache_dir: Optional[str] = None) -> str:
    """Path of `origin` in the cache, downloading it when missing or when its hash does not match."""
    if origin is None:
        raise ValueError('Please specify the "origin" argument (URL of the file to download).')
    if cache_dir is None:
        cache_dir = os.path.join(os.path.expanduser("~"), ".keras")
    if md5_hash is not None and file_hash is None:
        file_hash, hash_algorithm = md5_hash, "md5"
    base = os.path.expanduser(cache_dir)
    if not os.access(base, os.W_OK):
        base = os.path.join("/tmp", ".keras")
    datadir = os.path.join(base, cache_subdir)
    os.makedirs(datadir, exist_ok=True)

    fname = os.fspath(fname) if isinstance(fname, os.PathLike) else fname
    if not fname:
        fname = os.path.basename(urlsplit(origin).path)
        if not fname:
            raise ValueError(f"Can't parse the file name from the origin provided: '{origin}'."
                             "Please specify the `fname` as the input param.")
    if untar:
        if fname.endswith(".tar.gz"):
            fname = str(pathlib.Path(fname).with_suffix("").with_suffix(""))
        untar_fpath = os.path.join(datadir, fname)
        fpath = untar_fpath + ".tar.gz"
    else:
        fpath = os.path.join(datadir, fname)

    download = not os.path.exists(fpath)
    if not download and file_hash is not None and not validate_file(fpath, file_hash, algorithm=hash_algorithm):
        print(f"A local file was found, but it seems to be incomplete or outdated because the {hash_algorithm} "
              f"file hash does not match the original value of {file_hash} so we will re-download the data.")
        download = True
    if download:
        print(f"Downloading data from {origin}")
        _download(origin, fpath)
        if os.path.exists(fpath) and file_hash is not None and not validate_file(fpath, file_hash,
                                                                                 algorithm=hash_algorithm):
            raise ValueError(f"Incomplete or corrupted file detected. The {hash_algorithm} file hash does not "
                             f"match the provided value of {file_hash}.")

    if untar:
        if not os.path.exists(untar_fpath):
            _extract_archive(fpath, datadir, archive_format="tar")
        return untar_fpath
    if extract:
        _extract_archive(fpath, datadir, archive_format)
    return fpath
