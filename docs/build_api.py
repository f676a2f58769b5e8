"""Build the API reference (HTML, with pdoc) from the docstrings, and check it.

Usage: python docs/build_api.py [--out site] [--check-only]

Every module of the package is documented except the command line's own (``evo_wordle.cli``,
documented by ``evo-wordle --help`` and docs/*.md).  The check fails (exit 1, one line per
problem) when a public module, class, function or method has no docstring, or when a
docstring's cross-reference (``:func:`x```, ``:class:`x```, ``:meth:``, ``:attr:``, ``:data:``,
``:mod:``) names nothing that exists.  tests/test_api_docs.py runs it.
"""

from __future__ import annotations

import argparse
import importlib
import inspect
import pkgutil
import re
import sys
import warnings
from pathlib import Path

from evo_wordle.errors import EvoWordleError

EXCLUDED = ("evo_wordle.cli", "evo_wordle.__main__")
ROLE = re.compile(r":(func|class|meth|attr|data|mod|obj):`~?([^`<>]+?)`")


def modules() -> list[str]:
    """The documented modules: the package and every submodule outside :data:`EXCLUDED`."""
    import evo_wordle

    for name in evo_wordle.__all__:  # load the lazy public names: pdoc reads the module's dict, not __getattr__
        getattr(evo_wordle, name)
    names = ["evo_wordle"]
    for info in pkgutil.walk_packages(evo_wordle.__path__, "evo_wordle."):
        if not info.name.startswith(EXCLUDED) and not info.name.rsplit(".", 1)[-1].startswith("_"):
            names.append(info.name)
    return names


def _public_docs(mod_doc):
    """(doc object, owner) for every public module member, class member included."""
    import pdoc.doc

    stack = [mod_doc]
    while stack:
        ns = stack.pop()
        for member in ns.own_members:
            if member.name.startswith("_"):
                continue
            yield member, ns
            if isinstance(member, pdoc.doc.Class):
                stack.append(member)


def _resolves(target: str, module, owner_obj) -> bool:
    """True if ``target`` names an object: absolute, or relative to the docstring's class or module."""
    target = target.strip().rstrip("()")
    parts = target.split(".")
    for i in range(len(parts), 0, -1):  # absolute: the longest importable module prefix, then attributes
        try:
            obj = importlib.import_module(".".join(parts[:i]))
        except ImportError:
            continue
        try:
            for name in parts[i:]:
                obj = getattr(obj, name)
            return True
        except AttributeError:
            break
    for base in (owner_obj, module):
        obj = base
        try:
            for name in parts:
                obj = getattr(obj, name)
            return True
        except AttributeError:
            pass
        # instance attributes: dataclass fields, or ``self.name`` assigned in a method
        if base is not None and isinstance(base, type) and len(parts) == 1:
            ann = {k for klass in base.__mro__ for k in getattr(klass, "__annotations__", {})}
            if parts[0] in ann or any(_assigns(klass, parts[0]) for klass in base.__mro__[:-1]):
                return True
    # a builtin or a well-known library name (e.g. :class:`deap.tools.HallOfFame`)
    return parts[0] in ("deap", "numpy", "np", "concurrent") and _importable_attr(parts)


def _assigns(klass: type, name: str) -> bool:
    try:
        source = inspect.getsource(klass)
    except (OSError, TypeError):
        return False
    return re.search(rf"self\.{re.escape(name)}\s*(:[^=]+)?=", source) is not None


def _importable_attr(parts: list[str]) -> bool:
    root = {"np": "numpy"}.get(parts[0], parts[0])
    try:
        obj = importlib.import_module(root)
        for name in parts[1:]:
            try:
                obj = getattr(obj, name)
            except AttributeError:
                obj = importlib.import_module(f"{obj.__name__}.{name}")
        return True
    except (ImportError, AttributeError):
        return False


def check(names: list[str]) -> list[str]:
    """Problems of the reference: public names without a docstring, references to nothing."""
    import pdoc.doc

    problems = []
    for name in names:
        module = importlib.import_module(name)
        mod_doc = pdoc.doc.Module(module)
        texts = [(mod_doc.docstring, None, name)]
        if not mod_doc.docstring.strip():
            problems.append(f"{name}: module without a docstring")
        for member, owner in _public_docs(mod_doc):
            doc = member.docstring or ""
            if isinstance(member, pdoc.doc.Function | pdoc.doc.Class) and not doc.strip():
                problems.append(f"{member.fullname}: no docstring")
            owner_obj = owner.obj if isinstance(owner, pdoc.doc.Class) else None
            texts.append((doc, member.obj if isinstance(member, pdoc.doc.Class) else owner_obj, member.fullname))
        for text, owner_obj, where in texts:
            for _role, target in ROLE.findall(text or ""):
                if not _resolves(target, module, owner_obj):
                    problems.append(f"{where}: broken reference {target!r}")
    return sorted(set(problems))


def build(out: Path) -> None:
    """Write the HTML reference of :func:`modules` into ``out``."""
    import pdoc

    pdoc.render.configure(docformat="restructuredtext", search=True)
    with warnings.catch_warnings():  # a sub-package's modules come with it; naming them again is harmless
        warnings.filterwarnings("ignore", message="The module specification")
        pdoc.pdoc(*modules(), output_directory=Path(out))


def check_out(text: str) -> Path:
    """The output folder, checked before any work: not empty (``--out ''`` wrote 65 pages into
    the current folder), not a file (a traceback), not a folder holding the package's sources."""
    from evo_wordle.outputs import check_folder

    out = check_folder(text, "--out", files=("index.html", "search.js"))
    if (out / "evo_wordle" / "__init__.py").exists():
        raise EvoWordleError(f"--out {text} holds the evo_wordle sources; the pages would land among them "
                             "(give a folder of its own, e.g. site)")
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--out", default="site", help="output folder (default: site)")
    parser.add_argument("--check-only", action="store_true", help="check the docstrings, write nothing")
    args = parser.parse_args(argv)
    try:
        import pdoc  # noqa: F401
    except ImportError:
        print("build_api: pdoc is missing: pip install -e '.[docs]'", file=sys.stderr)
        return 2
    if not args.check_only:
        try:
            out = check_out(args.out)
        except EvoWordleError as exc:
            print(f"build_api: {exc}", file=sys.stderr)
            return 2
    problems = check(modules())
    for line in problems:
        print(line, file=sys.stderr)
    if not args.check_only:
        build(out)
        print(f"wrote {out / 'index.html'} ({len(modules())} modules)")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
