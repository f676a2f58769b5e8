"""Strategy files shipped with the package (``--strategy NAME`` finds them without a path)."""
