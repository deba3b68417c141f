"""`edgelite convert CHECKPOINT|MODEL`: a trained recipe's checkpoint, a SavedModel directory, a frozen .pb/.pbtxt or a
Keras .h5 file to a .tflite model (float, float16, dynamic, int8)."""
from __future__ import annotations

import argparse
import collections
from pathlib import Path
from typing import Any, Tuple

from edgelite.cli import convert_files, formatting, recipes
from edgelite.cli.errors import UserError

HELP = "convert a recipe's checkpoint to a .tflite model"
DESCRIPTION = """Convert a checkpoint written by `edgelite train` or `edgelite quickstart`, or a model file written by
TensorFlow or edgelite (a SavedModel directory, a frozen GraphDef .pb/.pbtxt, a Keras .h5), to a .tflite model.

modes: float (float32), float16 (float16 weights), dynamic (int8 weights, float activations),
int8 (full integer, calibrated on the recipe's training data; int8 inputs/outputs unless --io says otherwise).
"""


def register(subparsers: Any, common: argparse.ArgumentParser) -> None:
    """Add the `convert` subcommand."""
    from edgelite.models.export import IO_TYPES, MODES

    p = subparsers.add_parser("convert", parents=[common], help=HELP, description=DESCRIPTION,
                              epilog=recipes.recipe_help(), formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("checkpoint", help="work directory, checkpoint directory or checkpoint prefix; or a SavedModel "
                   "directory, a frozen .pb/.pbtxt or a Keras .h5 file")
    p.add_argument("--recipe", help="the recipe that wrote the checkpoint (default: read from recipe.json)")
    p.add_argument("--set", action="append", metavar="KEY=VALUE", help="a recipe parameter, e.g. alpha=0.5")
    p.add_argument("--mode", choices=MODES, default="float", help="quantization mode (default float)")
    p.add_argument("--io", choices=IO_TYPES, help="model input/output type (int8 and uint8 need --mode int8)")
    p.add_argument("--calibration", type=int, default=200, help="int8 calibration samples (default 200)")
    p.add_argument("--seed", type=int, default=0, help="data seed used in training (for calibration data)")
    p.add_argument("--out", "-o", help="output .tflite path (default: next to the checkpoints or the model file)")
    convert_files.register_arguments(p)
    p.set_defaults(run=run)


def _recipe_and_workdir(args: argparse.Namespace, prefix: str) -> Tuple[Any, Path]:
    from edgelite.models.training import read_recipe_file

    ckpt_dir = Path(prefix).parent
    workdir = ckpt_dir.parent if ckpt_dir.name == "checkpoints" else ckpt_dir
    settings = recipes.parse_settings(args.set)
    if args.recipe:
        return recipes.make_recipe(args.recipe, settings), workdir
    record = read_recipe_file(ckpt_dir)
    if record is None:
        raise UserError(f"{ckpt_dir} has no recipe.json saying which recipe wrote it; pass --recipe NAME")
    return recipes.make_recipe(record["recipe"], {**record.get("params", {}), **settings}), workdir


def run(args: argparse.Namespace) -> int:
    """Convert a model file (or a checkpoint restored into its recipe's inference graph); write and summarise it."""
    from edgelite.framework.errors import OpError
    from edgelite.models.export import convert, resolve_checkpoint

    if args.calibration < 1:
        raise UserError("--calibration must be at least 1")
    if args.io and args.io != "float32" and args.mode != "int8":
        raise UserError(f"--io {args.io} needs --mode int8 (full-integer quantization)")
    kind = convert_files.model_file_kind(args.checkpoint)
    if kind is not None:
        source = Path(args.checkpoint)
        out = Path(args.out) if args.out else source.with_name(f"{source.stem or source.name}_{args.mode}.tflite")
        content = convert_files.convert_model_file(args, kind)
        _write_and_summarise(out, content, source)
        return 0
    try:
        prefix = resolve_checkpoint(args.checkpoint)
    except FileNotFoundError as e:
        raise UserError(str(e)) from None
    recipe, workdir = _recipe_and_workdir(args, prefix)
    calibration = recipe.data(args.seed).x_train[:args.calibration] if args.mode == "int8" else None
    suffix = f"_{args.io}io" if args.io and args.io != ("int8" if args.mode == "int8" else "float32") else ""
    out = Path(args.out) if args.out else workdir / f"{recipe.name}_{args.mode}{suffix}.tflite"
    try:
        content = convert(recipe, prefix, args.mode, args.io, calibration)
    except (KeyError, ValueError, OpError) as e:
        raise UserError(f"cannot convert {prefix} as recipe {recipe.name}: {' '.join(str(e).split())}") from None
    _write_and_summarise(out, content, prefix)
    return 0


def _write_and_summarise(out: Path, content: bytes, source: Any) -> None:
    """Writes the model and prints its size, operators and Edge TPU readiness."""
    from edgelite.lite import edgetpu_compatibility
    from edgelite.lite.schema import OPERATOR_NAMES
    from edgelite.lite.schema_reader import builtin_code, read_model

    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_bytes(content)
    print(f"wrote {out} ({formatting.size(len(content))}) from {source}")
    model = read_model(content)
    codes = model["operator_codes"]
    counts = collections.Counter(OPERATOR_NAMES.get(builtin_code(codes[op["opcode_index"]]), "?")
                                 for op in model["subgraphs"][0]["operators"])
    print("operators: " + ", ".join(f"{name} x{n}" for name, n in sorted(counts.items())))
    reasons = edgetpu_compatibility(content)
    print("Edge TPU: ready" if not reasons else f"Edge TPU: not fully mappable ({reasons[0]})")
    print(f"\nnext: edgelite inspect {out}\n      edgelite bench {out} --vs litert")
