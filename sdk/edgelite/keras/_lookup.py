"""Name lookup shared by the get() functions of activations, losses, metrics, optimizers, initializers."""
from __future__ import annotations

from typing import Any, Dict


def by_name(table: Dict[str, Any], identifier: str, kind: str) -> Any:
    """table[identifier], or Keras's ValueError naming the unknown object and the custom-object remedy."""
    if identifier not in table:
        raise ValueError(f"Unknown {kind}: '{identifier}'. Please ensure you are using a "
                         "`keras.utils.custom_object_scope` and that this object is included in the scope. See "
                         "https://www.tensorflow.org/guide/keras/save_and_serialize#registering_the_custom_object "
                         "for details.")
    return table[identifier]
