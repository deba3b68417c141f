"""Loading the TensorFlow recordings of tests/sdk_nn2/fixtures."""
from __future__ import annotations

import json
from pathlib import Path

FIXTURES = Path(__file__).resolve().parent / "fixtures"


def load_json(stem: str) -> dict:
    """The recorded json fixture `stem`.json."""
    return json.loads((FIXTURES / f"{stem}.json").read_text())
