"""experiments/_timing.py and cache_load.py: the load and the ratios reported beside the times."""

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


def test_cache_load_ratios_pair_each_process_with_its_own_reference():
    """cache_load's ratio was the median load time over the median reference time, taken in
    different processes under different loads; it is now the median of each process's own ratio,
    as its docstring promises ("whatever the machine's load")."""
    ratios = load_experiment("cache_load").paired_ratios
    runs = [{"seconds": 2.0, "full": 8.0, "reference": 1.0},   # a calm process
            {"seconds": 9.0, "full": 36.0, "reference": 9.0},  # a busy one: everything 9x slower but the load
            {"seconds": 6.0, "full": 30.0, "reference": 3.0}]
    assert ratios(runs) == (2.0, 8.0)  # medians of 2, 1, 2 and 8, 4, 10; medians' ratio: 6 / 3 = 2 and 30 / 3 = 10
