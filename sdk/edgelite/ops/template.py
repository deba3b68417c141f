"""make_template: wrap a graph-building function so every call after the first reuses its variables."""
from __future__ import annotations

import functools
import logging
from typing import Any, Callable, Optional

from edgelite.framework import ops
from edgelite.ops import variable_scope as vs


class Template:
    """A function whose variables live in one variable scope, created on the first call and reused after."""

    def __init__(self, name: str, func: Callable, create_scope_now: bool = False, unique_name: Optional[str] = None,
                 custom_getter: Any = None) -> None:
        if name is None:
            raise ValueError("name cannot be None.")
        self._func = func
        self._name = name
        self._unique_name = unique_name
        self._custom_getter = custom_getter
        self._variable_scope: Optional[vs.VariableScope] = None
        if create_scope_now:
            scope_name = unique_name or vs._get_unique_variable_scope(name)
            with vs._pure_variable_scope(scope_name, custom_getter=custom_getter) as scope:
                self._variable_scope = scope
        self._variables_created = False

    def _call_func(self, args: tuple, kwargs: dict) -> Any:
        trainable_at_start = len(ops.get_collection(ops.GraphKeys.TRAINABLE_VARIABLES))
        vars_at_start = len(ops.get_collection(ops.GraphKeys.GLOBAL_VARIABLES))
        result = self._func(*args, **kwargs)
        if self._variables_created:
            trainable = ops.get_collection(ops.GraphKeys.TRAINABLE_VARIABLES)
            if trainable_at_start != len(trainable):
                raise ValueError("Trainable variable created when calling a template after the first time, perhaps "
                                 "you used tf.Variable when you meant tf.get_variable: "
                                 f"{trainable[trainable_at_start:]}")
            created = ops.get_collection(ops.GraphKeys.GLOBAL_VARIABLES)[vars_at_start:]
            if created:
                # TF only logs these (non-trainable variables made on a later call); so does edgelite
                logging.getLogger("tensorflow").info(
                    "New variables created when calling a template after the first time, perhaps you used "
                    "tf.Variable when you meant tf.get_variable: %s", created)
        else:
            self._variables_created = True
        return result

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        if self._variable_scope is not None:
            # reuse only once the first call has created the variables
            with vs.variable_scope(self._variable_scope, reuse=self._variables_created or None):
                return self._call_func(args, kwargs)
        with vs.variable_scope(self._unique_name, self._name, custom_getter=self._custom_getter) as scope:
            self._variable_scope = scope
            return self._call_func(args, kwargs)

    @property
    def name(self) -> str:
        """The name given to make_template."""
        return self._name

    @property
    def func(self) -> Callable:
        """The wrapped function (with make_template's keyword arguments bound)."""
        return self._func

    @property
    def variable_scope(self) -> Optional[vs.VariableScope]:
        """The template's variable scope (None before the first call unless create_scope_now_)."""
        return self._variable_scope

    @property
    def variable_scope_name(self) -> Optional[str]:
        """The variable scope's name, with a trailing '/' as TF gives it."""
        if self._variable_scope is None:
            return None
        name = self._variable_scope.name
        return name if not name or name.endswith("/") else name + "/"

    def _scoped(self, key: str) -> list:
        if self._variable_scope is None:
            return []
        return ops.get_collection(key, self.variable_scope_name)

    @property
    def variables(self) -> list:
        """Global and local variables created in the template's scope."""
        return self.global_variables + self.local_variables

    @property
    def trainable_variables(self) -> list:
        """Trainable variables created in the template's scope."""
        return self._scoped(ops.GraphKeys.TRAINABLE_VARIABLES) if self._variables_created else []

    @property
    def non_trainable_variables(self) -> list:
        """Global variables of the scope that are not trainable."""
        trainable = set(id(v) for v in self.trainable_variables)
        return [v for v in self.global_variables if id(v) not in trainable]

    @property
    def global_variables(self) -> list:
        """Global variables created in the template's scope."""
        return self._scoped(ops.GraphKeys.GLOBAL_VARIABLES) if self._variables_created else []

    @property
    def local_variables(self) -> list:
        """Local variables created in the template's scope."""
        return self._scoped(ops.GraphKeys.LOCAL_VARIABLES) if self._variables_created else []


def make_template(name_: str, func_: Callable, create_scope_now_: bool = False, unique_name_: Optional[str] = None,
                  custom_getter_: Any = None, **kwargs: Any) -> Template:
    """A Template calling func_(*args, **kwargs, **call_kwargs) in a variable scope named after name_."""
    if kwargs:
        func_ = functools.partial(func_, **kwargs)
    return Template(name_, func_, create_scope_now=create_scope_now_, unique_name=unique_name_,
                    custom_getter=custom_getter_)
