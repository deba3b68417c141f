"""tf.estimator.Exporter, LatestExporter and FinalExporter: SavedModel exports that train_and_evaluate makes
after an evaluation, under <model_dir>/export/<exporter name>/<timestamp>."""
from __future__ import annotations

import os
import shutil
from typing import Any, Callable, Optional

from edgelite import tf_logging

logger = tf_logging.get_logger()


class Exporter:
    """Base class: `name` (the export subdirectory) and export(...) returning the export path or None."""

    @property
    def name(self) -> Optional[str]:
        raise TypeError("use LatestExporter or FinalExporter, or subclass Exporter with a name")

    def export(self, estimator: Any, export_path: str, checkpoint_path: str, eval_result: dict,
               is_the_final_export: bool) -> Any:
        raise TypeError("use LatestExporter or FinalExporter, or subclass Exporter with an export method")


class _SavedModelExport:
    """The export_saved_model call both exporters make."""

    def __init__(self, name: str, serving_input_receiver_fn: Callable, assets_extra: Optional[dict],
                 as_text: bool) -> None:
        self.name = name
        self._serving_input_receiver_fn = serving_input_receiver_fn
        self._assets_extra = assets_extra
        self._as_text = as_text

    def __call__(self, estimator: Any, export_path: str, checkpoint_path: str) -> bytes:
        return estimator.export_saved_model(export_path, self._serving_input_receiver_fn,
                                            assets_extra=self._assets_extra, as_text=self._as_text,
                                            checkpoint_path=checkpoint_path)


class FinalExporter(Exporter):
    """Exports once, after the evaluation that ends training (global step >= TrainSpec.max_steps)."""

    def __init__(self, name: str, serving_input_receiver_fn: Callable, assets_extra: Optional[dict] = None,
                 as_text: bool = False) -> None:
        self._export = _SavedModelExport(name, serving_input_receiver_fn, assets_extra, as_text)

    @property
    def name(self) -> str:
        return self._export.name

    def export(self, estimator: Any, export_path: str, checkpoint_path: str, eval_result: dict,
               is_the_final_export: bool) -> Optional[bytes]:
        """The export directory, or None before the final evaluation."""
        if not is_the_final_export:
            return None
        logger.info("Performing the final export in the end of training.")
        return self._export(estimator, export_path, checkpoint_path)


class LatestExporter(Exporter):
    """Exports after every evaluation and keeps the newest `exports_to_keep` exports (None keeps all)."""

    def __init__(self, name: str, serving_input_receiver_fn: Callable, assets_extra: Optional[dict] = None,
                 as_text: bool = False, exports_to_keep: Optional[int] = 5) -> None:
        self._export = _SavedModelExport(name, serving_input_receiver_fn, assets_extra, as_text)
        self._exports_to_keep = exports_to_keep
        if exports_to_keep is not None and exports_to_keep <= 0:
            raise ValueError("`exports_to_keep`, if provided, must be positive number")

    @property
    def name(self) -> str:
        return self._export.name

    def export(self, estimator: Any, export_path: str, checkpoint_path: str, eval_result: dict,
               is_the_final_export: bool) -> bytes:
        """Exports, then deletes all but the newest `exports_to_keep` timestamped exports in export_path."""
        result = self._export(estimator, export_path, checkpoint_path)
        if self._exports_to_keep is not None:
            stamps = sorted(int(entry) for entry in os.listdir(export_path) if entry.isdigit())
            for stamp in stamps[:-self._exports_to_keep]:
                shutil.rmtree(os.path.join(export_path, str(stamp)), ignore_errors=True)
        return result
