"""The bundled word lists, shipped inside the package as ``evo_wordle.wordlists``."""
