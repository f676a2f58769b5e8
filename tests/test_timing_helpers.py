"""experiments/_timing.py: the load average reported beside the reference's times."""

from __future__ import annotations

from .experiment_scripts import load_experiment


def test_the_reference_reports_the_load_around_its_runs_not_after_everything(monkeypatch):
    """Every timed row reports the highest load average seen around its runs, but the reference
    reported the load when its summary was made, after all the other timings: a reference run at
    load 6 was printed "load 0.5" once the machine had calmed down."""
    timing = load_experiment("_timing")
    machine = {"load": 6.0}  # busy while the reference runs
    monkeypatch.setattr(timing, "load_average", lambda: machine["load"])
    monkeypatch.setattr(timing, "run_bench", lambda *a, **k: None)
    ref = timing.Reference(ctx=None)
    ref.once()
    ref.once()
    machine["load"] = 0.5  # calm by the time the summary is made
    summary = ref.summary()
    assert summary["load"] == 6.0 and summary["repeats"] == 2
