"""Evolved strategies: strategy-genome meta-GA and look-ahead search evolution (ga-search)."""
