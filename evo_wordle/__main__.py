from .console import run

raise SystemExit(run())
