"""`edgelite train RECIPE --workers N` and `--sweep KEY=V1,V2`: training on Ray (the `distributed` extra)."""
from __future__ import annotations

import argparse
import itertools
import json
from pathlib import Path
from typing import Any, Dict, List

from edgelite.cli import recipes
from edgelite.cli.errors import UserError


def _ray_or_user_error() -> None:
    from edgelite.distribute import require_ray
    try:
        require_ray()
    except ImportError as e:
        raise UserError(str(e)) from None


def parse_sweep(items: List[str]) -> Dict[str, List[Any]]:
    """KEY=V1,V2 items as {KEY: [V1, V2]}; values are read as JSON where they parse, else kept as text."""
    grid: Dict[str, List[Any]] = {}
    for item in items:
        key, sep, values = item.partition("=")
        if not sep or not key or not values:
            raise UserError(f"--sweep expects KEY=V1,V2,..., got {item!r}")
        parsed = []
        for text in values.split(","):
            try:
                parsed.append(json.loads(text))
            except ValueError:
                parsed.append(text)
        grid[key] = parsed
    return grid


def run_workers(args: argparse.Namespace, recipe: Any, settings: Dict[str, Any], out: Path) -> int:
    """Train on N Ray replicas; print the chief's checkpoint and test metric."""
    if args.workers < 1:
        raise UserError("--workers must be at least 1")
    _ray_or_user_error()
    from edgelite.distribute.recipe_training import RecipeRun, train_recipe
    if recipe.config.batch_size < args.workers:
        raise UserError(f"batch size {recipe.config.batch_size} cannot be split over {args.workers} workers")
    spec = RecipeRun(recipe.name, settings, str(out.resolve()), num_workers=args.workers,
                     epochs=int(args.epochs or recipe.config.epochs), seed=args.seed)
    where = f"Ray cluster at {args.address}" if args.address else "a local Ray cluster"
    print(f"training {recipe.description} on {args.workers} workers ({where})", flush=True)
    job = train_recipe(spec, address=args.address)
    chief = job.results[0]
    shown = f"{chief['test']:.2%}" if chief["metric"] == "accuracy" else f"{chief['test']:.4g}"
    print(f"global step {chief['global_step']}, test {chief['metric']} {shown}, worker restarts {job.restarts}")
    print(f"checkpoint: {chief['checkpoint']}")
    print(f"\nnext: edgelite convert {out} --mode int8")
    return 0


def run_sweep(args: argparse.Namespace, settings: Dict[str, Any], out: Path) -> int:
    """Run a Ray Tune sweep over the recipe; print the table and the best model converted to int8."""
    _ray_or_user_error()
    from edgelite.distribute.sweep import LEARNING_RATE_KEYS, sweep
    grid = parse_sweep(args.sweep)
    clash = sorted(set(grid) & set(settings))
    if clash:
        raise UserError(f"{clash} given both in --set and --sweep")
    # Every grid point must build: check recipe parameters here rather than inside a failing trial.
    for values in itertools.product(*grid.values()):
        point = {k: v for k, v in zip(grid, values) if k not in LEARNING_RATE_KEYS}
        recipes.make_recipe(args.recipe, {**settings, **point})
    try:
        result = sweep(args.recipe, grid, out, params=settings, epochs=args.epochs, seed=args.seed,
                       address=args.address)
    except (TypeError, ValueError) as e:
        raise UserError(f"sweep of {args.recipe}: {e}") from None
    print(result.table())
    best = ", ".join(f"{k}={v}" for k, v in result.best.items() if k not in ("workdir", result.metric))
    print(f"\nbest: {best} ({result.metric} {result.best[result.metric]:.4g})")
    print(f"int8 model: {result.int8_model}")
    return 0
