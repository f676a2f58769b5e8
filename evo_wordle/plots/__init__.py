"""Matplotlib figures: histograms, sweep heatmaps, convergence against the greedy baseline."""
