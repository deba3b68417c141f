"""Name lookup shared by the get() functions of activations, losses, metrics, optimizers, initializers: registered
custom objects first (see custom_objects), then the built-in table."""
from __future__ import annotations

from typing import Any, Dict

from .custom_objects import lookup


def by_name(table: Dict[str, Any], identifier: str, kind: str) -> Any:
    """The custom object or table entry named identifier, or Keras's ValueError naming the unknown object and the
    custom-object remedy."""
    custom = lookup(identifier)
    if custom is not None:
        return custom
    if identifier not in table:
        raise ValueError(f"Unknown {kind}: '{identifier}'. Please ensure you are using a "
                         "`keras.utils.custom_object_scope` and that this object is included in the scope. See "
                         "https://www.tensorflow.org/guide/keras/save_and_serialize#registering_the_custom_object "
                         "for details.")
    return table[identifier]
