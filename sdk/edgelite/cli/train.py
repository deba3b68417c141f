"""`edgelite train RECIPE`: train a model recipe with per-epoch checkpoints that resume if interrupted."""
from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from edgelite.cli import recipes, train_distributed as distributed
from edgelite.cli.errors import UserError

HELP = "train a model recipe (checkpoints every epoch; run again to resume)"


def register(subparsers: Any, common: argparse.ArgumentParser) -> None:
    """Add the `train` subcommand."""
    from edgelite.models import RECIPES

    p = subparsers.add_parser("train", parents=[common], help=HELP, description=HELP + ".",
                              epilog=recipes.recipe_help(), formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("recipe", choices=list(RECIPES), metavar="RECIPE", help="one of: " + ", ".join(RECIPES))
    p.add_argument("--out", help="work directory (default runs/RECIPE)")
    p.add_argument("--epochs", type=int, help="train up to this many epochs in total (default: the recipe's)")
    p.add_argument("--set", action="append", metavar="KEY=VALUE", help="a recipe parameter, e.g. alpha=0.5")
    p.add_argument("--seed", type=int, default=0, help="seed for initial weights, data and shuffling")
    p.add_argument("--no-progress", action="store_true", help="no progress bar")
    p.add_argument("--workers", type=int, metavar="N",
                   help="train data-parallel on N Ray workers (a local Ray cluster unless --address); each step "
                        "splits the recipe's batch over the workers (needs edgelite[distributed])")
    p.add_argument("--address", help="attach to this running Ray cluster instead of starting a local one")
    p.add_argument("--sweep", action="append", metavar="KEY=V1,V2",
                   help="a Ray Tune sweep: train once per combination of values (KEY: lr or a recipe parameter), "
                        "print a results table and convert the best checkpoint to int8 (needs "
                        "edgelite[distributed])")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """Train, then say where the checkpoints are and how to convert them."""
    from edgelite.models.training import WorkdirMismatch, train

    if args.epochs is not None and args.epochs < 1:
        raise UserError("--epochs must be at least 1")
    settings = recipes.parse_settings(args.set)
    recipe = recipes.make_recipe(args.recipe, settings)
    out = Path(args.out or Path("runs") / recipe.name)
    if args.sweep:
        return distributed.run_sweep(args, settings, out)
    if args.workers is not None:
        return distributed.run_workers(args, recipe, settings, out)
    if args.address:
        raise UserError("--address needs --workers N or --sweep")
    print(f"training {recipe.description}")
    try:
        result = train(recipe, out, epochs=args.epochs, seed=args.seed, progress=not args.no_progress,
                       log=lambda line: print(line, flush=True))
    except WorkdirMismatch as e:
        raise UserError(str(e)) from None
    print(f"data: {result.dataset.source}")
    if not result.history or result.start_epoch >= result.epochs:
        print(f"already trained to epoch {result.start_epoch} (raise --epochs, or delete {out} to start over)")
    print(f"checkpoint: {result.checkpoint}")
    print(f"TensorBoard logs: {result.logdir}")
    print(f"\nnext: edgelite convert {out} --mode int8")
    return 0
