"""The `edgelite` console script: parse the command line, run one command, turn errors into one line."""
from __future__ import annotations

import argparse
import sys
from typing import List, Optional

from edgelite.cli import bench, convert, inspect, ops, quickstart, run, train
from edgelite.cli.errors import UserError

COMMANDS = (quickstart, train, convert, inspect, bench, run, ops)
DESCRIPTION = """edgelite: train, checkpoint and convert small networks, and run .tflite models on a C interpreter.

Start with `edgelite quickstart`: it trains a digits classifier, converts it to float and int8 .tflite
models and compares them on the C interpreter (and on LiteRT or tflite-runtime when installed)."""
EPILOG = """examples:
  edgelite quickstart --out runs/quickstart
  edgelite train ds_cnn --epochs 2
  edgelite convert runs/ds_cnn --mode int8
  edgelite inspect runs/ds_cnn/ds_cnn_int8.tflite
  edgelite bench runs/ds_cnn/ds_cnn_int8.tflite --vs litert
  edgelite run model.tflite --input x.npy

`edgelite COMMAND --help` describes each command."""


def _version() -> str:
    try:
        from importlib.metadata import version

        return version("edgelite")
    except Exception:  # not installed (running from a source tree)
        return "source tree"


def build_parser() -> argparse.ArgumentParser:
    """The top-level parser with one subparser per command."""
    common = argparse.ArgumentParser(add_help=False)
    common.add_argument("--debug", action="store_true", default=argparse.SUPPRESS,
                        help="show the full traceback when something fails")
    parser = argparse.ArgumentParser(prog="edgelite", description=DESCRIPTION, epilog=EPILOG,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--debug", action="store_true", help="show the full traceback when something fails")
    parser.add_argument("--version", action="version", version=f"edgelite {_version()}")
    subparsers = parser.add_subparsers(title="commands", metavar="COMMAND")
    for command in COMMANDS:
        command.register(subparsers, common)
    return parser


def _one_line(error: BaseException) -> str:
    text = " ".join(str(error).split())
    if isinstance(error, FileNotFoundError) and error.filename:
        return f"{error.filename}: no such file"
    return text or type(error).__name__


def main(argv: Optional[List[str]] = None) -> int:
    """Run the command in `argv` (default sys.argv[1:]); returns the exit status."""
    parser = build_parser()
    args = parser.parse_args(argv)
    if not hasattr(args, "run"):
        parser.print_help()
        return 2
    debug = bool(getattr(args, "debug", False))
    try:
        return int(args.run(args) or 0)
    except KeyboardInterrupt:
        if debug:
            raise
        print("\nedgelite: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return 0
    except (UserError, OSError) as e:
        if debug:
            raise
        print(f"edgelite: error: {_one_line(e)}", file=sys.stderr)
        return 1
    except Exception as e:  # an edgelite bug: still one line, with the way to the full story
        if debug:
            raise
        print(f"edgelite: error: {type(e).__name__}: {_one_line(e)} (run with --debug for the traceback)",
              file=sys.stderr)
        return 1
