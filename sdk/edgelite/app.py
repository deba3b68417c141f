"""tf.app: run a program's main after parsing the command-line flags (absl-py's app.run, as in TensorFlow 1)."""
from __future__ import annotations

import sys as _sys
from typing import Any, Callable, List, Optional

from absl import app as _absl_app

from edgelite import flags  # noqa: F401 - tf.app.flags


def _parse_flags_tolerate_undef(argv: List[str]) -> List[str]:
    """Parse the flags defined so far and leave unknown ones in argv, as TensorFlow's app.run does."""
    return flags.FLAGS(_sys.argv if argv is None else argv, known_only=True)


def run(main: Optional[Callable[[List[str]], Any]] = None, argv: Optional[List[str]] = None) -> None:
    """Parse flags, call main(argv) (default: __main__.main) and exit with its return value."""
    main = main or _sys.modules["__main__"].main
    _absl_app.run(main=main, argv=argv, flags_parser=_parse_flags_tolerate_undef)
