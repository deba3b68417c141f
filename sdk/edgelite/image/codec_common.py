"""What every image codec kernel shares: TF's InvalidArgumentError and the optional Pillow import."""
from __future__ import annotations

from typing import Any

from edgelite.framework import errors


def invalid(message: str) -> errors.InvalidArgumentError:
    """The run-time error a TF codec kernel raises for bad bytes or attributes."""
    return errors.InvalidArgumentError(None, None, message)


def pil() -> Any:
    """PIL.Image, or ImportError saying how to get it."""
    try:
        from PIL import Image
    except ImportError:
        raise ImportError("edgelite.image's JPEG/GIF/BMP codecs need Pillow: pip install 'edgelite[image]' "
                          "(or pip install pillow)") from None
    return Image
