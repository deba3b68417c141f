"""Progbar and get_file scenarios shared by the TensorFlow fixture generator and the edgelite test.

Each runner takes the implementation under test (tf.keras.utils.Progbar / get_file or edgelite's) and returns
json-ready results: Progbar's exact stdout under a scripted clock, get_file's paths, cached files, full stdout (download bar included) and errors.
"""
from __future__ import annotations

import contextlib
import gzip
import hashlib
import io
import os
import tarfile
import zipfile
from pathlib import Path
from typing import Any, Callable, Dict, List
from unittest import mock

# (constructor kwargs, steps); a step is ["update", clock, current, values, finalize] or ["add", clock, n, values].
PROGBAR_CASES: Dict[str, List[Any]] = {
    "v1_target": [{"target": 10}, [["update", 0.5, 1, [["loss", 0.9]], None], ["update", 2.0, 4, [["loss", 0.5]], None],
                                   ["update", 3.0, 7, [["loss", 0.25]], None], ["update", 4.5, 10, [["loss", 0.1]], None]]],
    "v1_metrics": [{"target": 5, "width": 10, "stateful_metrics": ["acc"]},
                   [["add", 1.0, 1, [["loss", 2.0], ["acc", 0.5]]], ["add", 3.0, 2, [["loss", 1.0], ["acc", 0.6]]],
                    ["add", 70.0, 2, [["loss", 0.0001], ["acc", 0.7]]]]],
    "v1_long_eta": [{"target": 1000}, [["update", 1.0, 1, None, None], ["update", 9.0, 2, None, None],
                                       ["update", 9.5, 3, None, None], ["update", 4000.0, 1000, None, None]]],
    "v1_unknown": [{"target": None, "unit_name": "sample"},
                   [["update", 0.002, 32, [["loss", -0.5]], None], ["update", 0.004, 64, [["loss", -0.25]], None],
                    ["update", 0.006, 96, None, True]]],
    "v1_interval": [{"target": 4, "interval": 1.0}, [["update", 0.1, 1, None, None], ["update", 0.5, 2, None, None],
                                                     ["update", 1.6, 3, None, None], ["update", 1.7, 4, None, None]]],
    "v1_shrinking": [{"target": 3}, [["update", 0.1, 1, [["a_long_metric_name", 123.456]], None],
                                     ["update", 0.2, 2, None, None], ["update", 0.3, 3, None, None]]],
    "v2_epoch": [{"target": 4, "verbose": 2}, [["update", 0.5, 1, [["loss", 1.0]], None],
                                               ["update", 1.0, 2, [["loss", 0.5]], None],
                                               ["update", 2.0, 4, [["loss", 0.0005], ["mae", 0.2]], None]]],
    "v2_two_epochs": [{"target": 2, "verbose": 2, "unit_name": "sample"},
                      [["update", 0.003, 1, [["loss", 4.0]], None], ["update", 0.006, 2, [["loss", 2.0]], None],
                       ["update", 2.5, 2, [["loss", 1.0]], True]]],
    "v0_silent": [{"target": 3, "verbose": 0}, [["update", 0.5, 3, [["loss", 1.0]], None]]],
}


def run_progbar_case(progbar_cls: Callable, kwargs: dict, steps: list) -> str:
    """Everything the bar prints when the clock reads each step's time (time starts at 0 in the constructor)."""
    clock = [0.0]
    out = io.StringIO()
    with mock.patch("time.time", lambda: clock[0]), contextlib.redirect_stdout(out):
        bar = progbar_cls(**kwargs)
        for step in steps:
            clock[0] = step[1]
            values = [tuple(v) for v in step[3]] if step[3] else None
            if step[0] == "add":
                bar.add(step[2], values)
            else:
                bar.update(step[2], values, finalize=step[4])
    return out.getvalue()


def _sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def _md5(path: Path) -> str:
    return hashlib.md5(path.read_bytes()).hexdigest()


def make_sources(root: Path) -> Dict[str, Path]:
    """A text file, a .tar.gz holding a directory and a .zip, all under root/src."""
    src = root / "src"
    src.mkdir()
    (src / "data.txt").write_text("hello edgelite\n" * 20)
    # Fixed times and owners keep the archive sizes (shown by the download bar) identical on every run.
    with gzip.GzipFile(src / "arch.tar.gz", "wb", mtime=0) as gz, tarfile.open(fileobj=gz, mode="w") as tar:
        for name, data in (("tree/a.txt", b"a"), ("tree/sub/b.txt", b"bb")):
            info = tarfile.TarInfo(name)
            info.size = len(data)
            tar.addfile(info, io.BytesIO(data))
    with zipfile.ZipFile(src / "pack.zip", "w") as zf:
        zf.writestr(zipfile.ZipInfo("zipped/c.txt", date_time=(2020, 1, 1, 0, 0, 0)), "ccc")
    return {"txt": src / "data.txt", "tgz": src / "arch.tar.gz", "zip": src / "pack.zip"}


def _listing(directory: Path) -> List[str]:
    return sorted(str(p.relative_to(directory)) for p in directory.rglob("*") if p.is_file())


def get_file_cases(srcs: Dict[str, Path], cache: Path) -> Dict[str, Callable]:
    """Named calls of get_file(fn) over the sources; each returns the call's result."""
    url = {k: v.as_uri() for k, v in srcs.items()}
    missing = srcs["txt"].with_name("missing.txt").as_uri()
    c = str(cache)
    return {
        "plain": lambda fn: fn("data.txt", url["txt"], cache_dir=c),
        "cached_sha256": lambda fn: fn("data.txt", missing, file_hash=_sha256(srcs["txt"]), cache_dir=c),
        "cached_md5_kw": lambda fn: fn("data.txt", missing, md5_hash=_md5(srcs["txt"]), cache_dir=c),
        "stale_redownload": lambda fn: fn("data.txt", url["txt"], file_hash="0" * 32, cache_dir=c),
        "bad_hash_sha256": lambda fn: fn("other.txt", url["txt"], file_hash="f" * 64, cache_dir=c),
        "bad_hash_explicit_md5": lambda fn: fn("third.txt", url["txt"], file_hash="ab" * 32, hash_algorithm="md5",
                                               cache_dir=c),
        "name_from_origin": lambda fn: fn(origin=url["txt"], cache_dir=c, cache_subdir="sub"),
        "extract_tar": lambda fn: fn("arch.tar.gz", url["tgz"], extract=True, cache_dir=c, cache_subdir="x"),
        "extract_zip": lambda fn: fn("pack.zip", url["zip"], extract=True, cache_dir=c, cache_subdir="z"),
        "extract_zip_as_tar": lambda fn: fn("pack.zip", url["zip"], extract=True, archive_format="tar",
                                            cache_dir=c, cache_subdir="zt"),
        "untar": lambda fn: fn("arch.tar.gz", url["tgz"], untar=True, cache_dir=c, cache_subdir="u"),
        "untar_plain_name": lambda fn: fn("arch", url["tgz"], untar=True, cache_dir=c, cache_subdir="u2"),
        "absolute_subdir": lambda fn: fn("data.txt", url["txt"], cache_dir=c, cache_subdir=str(cache / "abs")),
        "no_origin": lambda fn: fn("data.txt", cache_dir=c),
        "no_name": lambda fn: fn(origin="file:///", cache_dir=c),
        "missing_source": lambda fn: fn("gone.txt", missing, cache_dir=c),
    }


def run_get_file_cases(get_file: Callable, root: Path) -> Dict[str, dict]:
    """Run every case in order (later ones rely on the cache earlier ones filled); paths are relative to root."""
    srcs = make_sources(root)
    cache = root / "cache"
    # Keras falls back to /tmp/.keras when cache_dir is not a writable directory, so it must exist beforehand.
    cache.mkdir()
    results = {}
    for name, call in get_file_cases(srcs, cache).items():
        out = io.StringIO()
        entry: Dict[str, Any] = {}
        try:
            # A still clock makes the download bar's timings (0s, 0us/step) reproducible.
            with mock.patch("time.time", lambda: 0.0), contextlib.redirect_stdout(out):
                path = call(get_file)
            entry["path"] = os.path.relpath(path, root)
        except Exception as e:  # the error type and text are what the fixture records
            entry["error"] = [type(e).__name__, str(e).replace(str(root), "<root>")]
        entry["stdout"] = out.getvalue().replace(str(root), "<root>")
        entry["cache"] = _listing(cache) if cache.exists() else []
        results[name] = entry
    return results
