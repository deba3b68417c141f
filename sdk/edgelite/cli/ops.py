"""`edgelite ops MODEL.tflite ...`: the operators a set of models needs, for a firmware build.

A freestanding build of the core (`-DEDGELITE_FREESTANDING=ON`, docs/micro.md) links only the kernels named
in the header this command writes with `--header`, so a device carries the code its models run and no more.
"""
from __future__ import annotations

import argparse
import sys
from typing import Any, List, Tuple

from edgelite.cli.errors import UserError

HELP = "list the operators models use; --header writes the op selection for a firmware build"


def register(subparsers: Any, common: argparse.ArgumentParser) -> None:
    """Add the `ops` subcommand."""
    p = subparsers.add_parser("ops", parents=[common], help=HELP, description=__doc__,
                              formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("models", nargs="+", help="paths to .tflite files")
    p.add_argument("--header", metavar="FILE",
                   help="write the C header for -DEDGELITE_OP_SELECTION=FILE ('-' for standard output)")
    p.set_defaults(run=run)


def model_ops(paths: List[str]) -> Tuple[List[str], List[str]]:
    """The builtin operator names and the custom op names the models' operator tables list, sorted.

    Every entry counts, used by an operator or not: the interpreter resolves the whole table, as TFLite does."""
    from edgelite.lite import schema, schema_reader

    builtins, customs = set(), set()
    for path in paths:
        try:
            with open(path, "rb") as f:
                model = schema_reader.read_model(f.read())
        except OSError as e:
            raise UserError(f"{path}: {e.strerror or e}") from None
        except ValueError as e:
            raise UserError(f"{path}: {e}") from None
        for code in model.get("operator_codes") or []:
            number = schema_reader.builtin_code(code)
            name = schema.OPERATOR_NAMES.get(number)
            if name is None:
                raise UserError(f"{path}: unknown builtin operator code {number}")
            if name == "CUSTOM":
                custom = code.get("custom_code")
                customs.add(custom.decode() if isinstance(custom, bytes) else str(custom))
            else:
                builtins.add(name)
    return sorted(builtins), sorted(customs)


def selection_header(builtins: List[str], customs: List[str], sources: List[str]) -> str:
    """The header runtime_c/src/kernels/registry.c includes to keep exactly these ops' kernels."""
    lines = ["/* Op selection for a freestanding edgelite build, written by `edgelite ops --header` from:"]
    lines += [f" *   {s}" for s in sources]
    lines += [" */"]
    lines += [f"#define EL_KEEP_EL_OP_{name} EL_KEPT_PROBE" for name in builtins]
    lines += [f"#define EL_KEEP_{name} 1" for name in customs if name.isidentifier()]
    return "\n".join(lines) + "\n"


def run(args: argparse.Namespace) -> int:
    """Print the op list, or write the selection header."""
    builtins, customs = model_ops(args.models)
    if args.header:
        text = selection_header(builtins, customs, args.models)
        if args.header == "-":
            sys.stdout.write(text)
        else:
            with open(args.header, "w") as f:
                f.write(text)
            print(f"wrote {args.header}: {len(builtins)} builtin op(s), {len(customs)} custom op(s)")
        return 0
    for name in builtins:
        print(name)
    for name in customs:
        print(f"CUSTOM {name}")
    return 0
