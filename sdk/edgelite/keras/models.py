"""tf.keras.models: Model, Sequential, HDF5 save/load and rebuilding from configs."""
from __future__ import annotations

import json
from typing import Any, Optional

from .engine.model_config import model_from_config as _from_config
from .engine.network import Model, Sequential  # noqa: F401
from .saving import load_model, save_model  # noqa: F401


def model_from_config(config: dict, custom_objects: Optional[dict] = None) -> Any:
    """A model from {'class_name', 'config'} (what get_config and .h5 files hold)."""
    return _from_config(config, custom_objects=custom_objects)


def model_from_json(json_string: str, custom_objects: Optional[dict] = None) -> Any:
    """A model from Model.to_json() text."""
    return _from_config(json.loads(json_string), custom_objects=custom_objects)
