"""Fixtures shared by the feature-column tests."""
from __future__ import annotations

import pytest

from tests.sdk_fc import fc_cases


@pytest.fixture(scope="module")
def vocab_path(tmp_path_factory) -> str:
    """The vocabulary file fc_cases' "VOCAB" columns read (the generator writes the same lines)."""
    path = tmp_path_factory.mktemp("vocab") / "vocab.txt"
    path.write_text("\n".join(fc_cases.VOCAB_FILE_LINES) + "\n")
    return str(path)
