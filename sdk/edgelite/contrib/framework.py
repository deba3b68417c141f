"""tf.contrib.framework's arg_scope: default keyword arguments for the functions decorated with add_arg_scope."""
from __future__ import annotations

import contextlib
import functools
from typing import Any, Callable, Iterator

# TF 1.15's contrib.framework re-exported the global-step helpers of tf.train.
from edgelite.train.training_util import (  # noqa: F401
    assert_global_step, create_global_step, get_global_step, get_or_create_global_step)

# The innermost scope last: each entry maps a function key to the keyword defaults in force for it.
_ARG_STACK: list[dict] = [{}]
_DECORATED: set[str] = set()


def _key(func: Callable) -> str:
    return getattr(func, "_key_op", f"{func.__module__}.{func.__name__}")


def current_arg_scope() -> dict:
    """The innermost arg_scope: function key -> keyword defaults."""
    return _ARG_STACK[-1]


def has_arg_scope(func: Callable) -> bool:
    """True when func was decorated with add_arg_scope."""
    return _key(func) in _DECORATED


def arg_scoped_arguments(func: Callable) -> list:
    """The keyword arguments the innermost arg_scope sets for func."""
    return list(current_arg_scope().get(_key(func), {}))


@contextlib.contextmanager
def arg_scope(list_ops_or_scope: Any, **kwargs: Any) -> Iterator[dict]:
    """Within the block, every listed function gets kwargs as defaults (explicit arguments still win); a dict
    yielded by an earlier arg_scope re-enters that scope."""
    if isinstance(list_ops_or_scope, dict):
        if kwargs:
            raise ValueError("When attempting to re-use a scope by suppling a dictionary, kwargs must be empty.")
        scope = list_ops_or_scope.copy()
    else:
        if not isinstance(list_ops_or_scope, (list, tuple)):
            raise TypeError("list_ops_or_scope must either be a list/tuple or reused scope (i.e. dict)")
        scope = current_arg_scope().copy()
        for func in list_ops_or_scope:
            if not has_arg_scope(func):
                raise ValueError(f"{_key(func)} is not decorated with @add_arg_scope")
            scope[_key(func)] = {**scope.get(_key(func), {}), **kwargs}
    _ARG_STACK.append(scope)
    try:
        yield scope
    finally:
        _ARG_STACK.pop()


def add_arg_scope(func: Callable) -> Callable:
    """Let arg_scope supply defaults to func's keyword arguments."""
    key = _key(func)

    @functools.wraps(func)
    def func_with_args(*args: Any, **kwargs: Any) -> Any:
        return func(*args, **{**current_arg_scope().get(key, {}), **kwargs})
    _DECORATED.add(key)
    func_with_args._key_op = key  # type: ignore[attr-defined]
    return func_with_args


# TF 1.15's contrib.framework re-exported the global-step helpers of tf.train.
from edgelite.train.training_util import get_global_step, get_or_create_global_step  # noqa: E402,F401
