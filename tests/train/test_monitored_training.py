"""MonitoredTrainingSession writes what TensorFlow writes, when TensorFlow writes it, and resumes like it."""
from __future__ import annotations

import os

import numpy as np
import pytest

import edgelite.train as train

from _monitored import MONITORED, event_timeline, run_monitored
from _tf_fixtures import assert_close_free_running


def _comparable(timeline: list) -> list:
    """Summaries and session logs (TensorFlow's graph/meta-graph events are compared separately)."""
    return [e for e in timeline if e[1] in ("summary", "session_log")]


def _expected_timeline(ref: dict, last_step: int) -> list:
    # TensorFlow leaves the CHECKPOINT event of the final save unflushed in its writer cache when the
    # directory is read; edgelite flushes it at once.
    return _comparable(ref["events"]) + [[last_step, "session_log", ["CHECKPOINT"]]]


@pytest.mark.parametrize("key", sorted(MONITORED))
def test_events_checkpoints_and_values_match_tensorflow(tmp_path, key):
    ref = MONITORED[key]
    cfg = ref["config"]
    runs, final = run_monitored(tmp_path, cfg, cfg["last_step"])
    assert runs == ref["runs"]
    for name, value in ref["final"].items():
        assert_close_free_running(final[name], np.asarray(value), "float32", name)
    last = cfg["last_step"]
    if "resume_last_step" in cfg:
        runs, final = run_monitored(tmp_path, cfg, cfg["resume_last_step"])
        assert runs == ref["resume_runs"]
        for name, value in ref["resume_final"].items():
            assert_close_free_running(final[name], np.asarray(value), "float32", name)
        last = cfg["resume_last_step"]
    assert _comparable(event_timeline(tmp_path)) == _expected_timeline(ref, last)
    graph_events = [e[:2] for e in event_timeline(tmp_path) if e[1] in ("graph_def", "meta_graph_def")]
    assert graph_events == [e[:2] for e in ref["events"] if e[1] in ("graph_def", "meta_graph_def")]
    state = train.get_checkpoint_state(str(tmp_path))
    assert [os.path.basename(p) for p in state.all_model_checkpoint_paths] == ref["checkpoints"]
    assert sorted(f for f in os.listdir(tmp_path) if not f.startswith("events")) == ref["files"]


def test_no_checkpoint_dir_means_no_files_and_no_saver_hooks(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    cfg = MONITORED["steps4_summaries3"]["config"]
    runs, final = run_monitored(None, cfg, cfg["last_step"])
    assert runs == cfg["last_step"] and int(final["global_step"]) == cfg["last_step"]
    assert os.listdir(tmp_path) == []


def test_save_checkpoint_secs_is_used_when_both_are_given(tmp_path):
    cfg = dict(MONITORED["steps4_summaries3"]["config"])
    run_monitored(tmp_path, cfg, 6, save_checkpoint_secs=3600)
    # Only the session-start and end checkpoints: the hour never passes, the step setting is ignored.
    state = train.get_checkpoint_state(str(tmp_path))
    assert [os.path.basename(p) for p in state.all_model_checkpoint_paths] == ["model.ckpt-0", "model.ckpt-6"]
