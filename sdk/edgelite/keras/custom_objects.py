"""Keras's registry of user objects for deserialization: get_custom_objects() (the global table) and
CustomObjectScope / custom_object_scope (entries visible only inside a `with` block). Name lookups of layers,
activations, losses, metrics, optimizers, initializers and regularizers consult them before the built-in names."""
from __future__ import annotations

from typing import Any, Dict, List, Optional

_GLOBAL_CUSTOM_OBJECTS: Dict[str, Any] = {}
_SCOPES: List[Dict[str, Any]] = []


def get_custom_objects() -> Dict[str, Any]:
    """The global name -> object table (update it to register objects everywhere)."""
    return _GLOBAL_CUSTOM_OBJECTS


def lookup(name: str) -> Optional[Any]:
    """The object registered under `name` by the innermost scope, else globally; None when unknown."""
    for scope in reversed(_SCOPES):
        if name in scope:
            return scope[name]
    return _GLOBAL_CUSTOM_OBJECTS.get(name)


class CustomObjectScope:
    """`with CustomObjectScope({'name': obj}, ...):` makes the objects known by name inside the block."""

    def __init__(self, *args: Dict[str, Any]) -> None:
        self.custom_objects = args

    def __enter__(self) -> "CustomObjectScope":
        merged: Dict[str, Any] = {}
        for objects in self.custom_objects:
            merged.update(objects or {})
        _SCOPES.append(merged)
        return self

    def __exit__(self, *exc_info: Any) -> None:
        _SCOPES.pop()


def custom_object_scope(*args: Dict[str, Any]) -> CustomObjectScope:
    """A CustomObjectScope over the given dicts."""
    return CustomObjectScope(*args)
