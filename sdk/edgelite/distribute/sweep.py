"""Hyperparameter sweeps over a model recipe on Ray Tune: one single-process training run per grid point, a
results table, and the best checkpoint converted to a full-integer (int8) .tflite model."""
from __future__ import annotations

import dataclasses
import itertools
from pathlib import Path
from typing import Any, Dict, List, Optional

from ._ray import init_cluster, require_ray

LEARNING_RATE_KEYS = ("lr", "learning_rate")


@dataclasses.dataclass
class SweepResult:
    """One row per trial (its settings, metric and work directory), the best row and the int8 model's path."""

    metric: str
    rows: List[Dict[str, Any]]
    best: Dict[str, Any]
    int8_model: Optional[str]

    def table(self) -> str:
        """The rows as a fixed-width text table, best first."""
        keys = [k for k in self.rows[0] if k not in ("workdir", self.metric)]
        header = keys + [self.metric, "workdir"]
        cells = [[_fmt(r[k]) for k in keys] + [_fmt(r[self.metric]), r["workdir"]] for r in self.rows]
        widths = [max(len(h), *(len(c[i]) for c in cells)) for i, h in enumerate(header)]
        lines = ["  ".join(h.ljust(w) for h, w in zip(header, widths))]
        lines += ["  ".join(c.ljust(w) for c, w in zip(row, widths)) for row in cells]
        return "\n".join(lines)


def _fmt(value: Any) -> str:
    return f"{value:.4g}" if isinstance(value, float) else str(value)


def _trial_name(point: Dict[str, Any]) -> str:
    return ",".join(f"{k}={v}" for k, v in point.items())


def _run_trial(config: Dict[str, Any]) -> None:
    """Ray Tune trainable: train the recipe with this grid point in its own work directory, report the metric."""
    from ray import tune

    from edgelite import models
    from edgelite.models.training import train
    point = config["point"]
    params = dict(config["params"])
    lr = None
    for key, value in point.items():
        if key in LEARNING_RATE_KEYS:
            lr = float(value)
        else:
            params[key] = value
    recipe = models.get(config["recipe"], **params)
    if lr is not None:
        recipe.config = dataclasses.replace(recipe.config, learning_rate=lr)
    workdir = Path(config["workdir"]) / _trial_name(point)
    result = train(recipe, workdir, epochs=config["epochs"], seed=config["seed"], progress=False,
                   log=lambda line: None)
    metric = recipe.metric_name()
    tune.report({metric: float(result.history[-1][f"test_{metric}"]), "workdir": str(workdir)})


def sweep(recipe: str, grid: Dict[str, List[Any]], workdir: Any, params: Optional[Dict[str, Any]] = None,
          epochs: Optional[int] = None, seed: int = 0, address: Optional[str] = None,
          convert_best: bool = True) -> SweepResult:
    """Train `recipe` at every point of `grid` (keys: lr/learning_rate or recipe parameters) as Ray Tune trials.

    The trials run one per CPU of the cluster. The best trial's checkpoint is converted to int8 (calibrated on
    its training data) next to its work directory, unless `convert_best` is False.
    """
    require_ray()
    from ray import tune

    from edgelite import models
    workdir = Path(workdir).resolve()
    base = models.get(recipe, **(params or {}))
    metric = base.metric_name()
    mode = "max" if metric == "accuracy" else "min"
    points = [dict(zip(grid, values)) for values in itertools.product(*grid.values())]
    started = init_cluster(2, address)
    try:
        tuner = tune.Tuner(
            tune.with_resources(_run_trial, {"cpu": 1}),
            param_space={"point": tune.grid_search(points), "recipe": recipe, "params": dict(params or {}),
                         "workdir": str(workdir), "epochs": int(epochs or base.config.epochs), "seed": seed},
            tune_config=tune.TuneConfig(metric=metric, mode=mode),
            run_config=tune.RunConfig(name="sweep", storage_path=str(workdir / "tune"), verbose=0))
        grid_results = tuner.fit()
    finally:
        if started:
            require_ray().shutdown()
    rows = []
    for result in grid_results:
        if result.error is not None:
            point = (result.config or {}).get("point", "?")
            raise RuntimeError(f"sweep trial {point} failed: {result.error}")
        rows.append({**result.config["point"], metric: result.metrics[metric],
                     "workdir": result.metrics["workdir"]})
    rows.sort(key=lambda r: r[metric], reverse=(mode == "max"))
    best = rows[0]
    int8 = _convert_best(recipe, params or {}, best, seed) if convert_best else None
    return SweepResult(metric, rows, best, int8)


def _convert_best(recipe: str, params: Dict[str, Any], best: Dict[str, Any], seed: int) -> str:
    """The best trial's checkpoint as a full-integer .tflite model, calibrated on 200 training samples."""
    from edgelite import models
    from edgelite.models.export import convert
    point_params = {k: v for k, v in best.items() if k not in LEARNING_RATE_KEYS and k not in ("workdir",)}
    point_params.pop(models.get(recipe, **params).metric_name(), None)
    chosen = models.get(recipe, **{**params, **point_params})
    workdir = Path(best["workdir"])
    content = convert(chosen, workdir, "int8", calibration=chosen.data(seed).x_train[:200])
    out = workdir / f"{chosen.name}_int8.tflite"
    out.write_bytes(content)
    return str(out)
