"""tf.logging: TensorFlow 1's logging functions over a Python `logging` logger ("edgelite").

Levels are Python's (DEBUG 10 ... FATAL 50); the default verbosity is WARN, as in TensorFlow, and records are
written to stderr as '%(levelname)s:%(name)s:%(message)s' unless the application configured logging itself.
"""
from __future__ import annotations

import logging as _logging
import sys as _sys
import threading as _threading
from typing import Any, Dict, Tuple

DEBUG = _logging.DEBUG
INFO = _logging.INFO
WARN = _logging.WARN
ERROR = _logging.ERROR
FATAL = _logging.FATAL

_logger_lock = _threading.Lock()
_logger: _logging.Logger | None = None
_log_counts: Dict[Tuple[str, int], int] = {}


def get_logger() -> _logging.Logger:
    """The "edgelite" logger; on first use it gets a stderr handler when the root logger has none."""
    global _logger
    with _logger_lock:
        if _logger is None:
            logger = _logging.getLogger("edgelite")
            if not _logging.getLogger().handlers:
                handler = _logging.StreamHandler(_sys.stderr)
                handler.setFormatter(_logging.Formatter(_logging.BASIC_FORMAT))
                logger.addHandler(handler)
            _logger = logger
        return _logger


def _log(level: int, msg: Any, args: tuple, kwargs: dict, depth: int) -> None:
    """Log through the logger, attributing the record to the caller `depth` frames above the public function."""
    kwargs.setdefault("stacklevel", depth + 2)
    get_logger().log(level, msg, *args, **kwargs)


def log(level: int, msg: Any, *args: Any, **kwargs: Any) -> None:
    """Log msg % args at an integer level."""
    _log(level, msg, args, kwargs, 1)


def debug(msg: Any, *args: Any, **kwargs: Any) -> None:
    """Log at DEBUG."""
    _log(DEBUG, msg, args, kwargs, 1)


def info(msg: Any, *args: Any, **kwargs: Any) -> None:
    """Log at INFO."""
    _log(INFO, msg, args, kwargs, 1)


def warning(msg: Any, *args: Any, **kwargs: Any) -> None:
    """Log at WARN."""
    _log(WARN, msg, args, kwargs, 1)


warn = warning


def error(msg: Any, *args: Any, **kwargs: Any) -> None:
    """Log at ERROR."""
    _log(ERROR, msg, args, kwargs, 1)


def fatal(msg: Any, *args: Any, **kwargs: Any) -> None:
    """Log at FATAL; like TensorFlow's, this only logs and does not stop the program."""
    _log(FATAL, msg, args, kwargs, 1)


def vlog(level: int, msg: Any, *args: Any, **kwargs: Any) -> None:
    """Verbose log at an integer level (TensorFlow passes the level straight to the logger)."""
    _log(level, msg, args, kwargs, 1)


def log_if(level: int, msg: Any, condition: Any, *args: Any) -> None:
    """Log msg % args at level only when condition holds."""
    if condition:
        _log(level, msg, args, {}, 1)


def _call_site() -> Tuple[str, int]:
    """(file, line) of the code that called log_every_n / log_first_n: the counter of that call site."""
    frame = _sys._getframe(2)
    return frame.f_code.co_filename, frame.f_lineno


def _next_count(site: Tuple[str, int]) -> int:
    with _logger_lock:
        count = _log_counts.get(site, 0)
        _log_counts[site] = count + 1
    return count


def log_every_n(level: int, msg: Any, n: int, *args: Any) -> None:
    """Log on the 1st, (n+1)th, (2n+1)th ... call from the same source line."""
    count = _next_count(_call_site())
    if not count % n:
        _log(level, msg, args, {}, 1)


def log_first_n(level: int, msg: Any, n: int, *args: Any) -> None:
    """Log only the first n calls from the same source line."""
    count = _next_count(_call_site())
    if count < n:
        _log(level, msg, args, {}, 1)


def flush() -> None:
    """Flush every handler of the logger."""
    for handler in get_logger().handlers:
        handler.flush()


def get_verbosity() -> int:
    """The effective threshold level of the logger."""
    return get_logger().getEffectiveLevel()


def set_verbosity(v: int) -> None:
    """Set the threshold: records below level v are dropped."""
    get_logger().setLevel(v)


def TaskLevelStatusMessage(msg: Any) -> None:  # noqa: N802 - TensorFlow's name
    """Report a task-level status message (logged at ERROR, as TensorFlow does)."""
    _log(ERROR, msg, (), {}, 1)
