"""What the engine and the verifier may import, read from their source.

The rules engine (``games.engine``) is the standard library and itself only,
with no way to reach anything else at run time (no ``importlib``,
``__import__``, ``exec``...): import-linter (pyproject.toml) sees only the
imports written, so this reads every module of the package, a new one included.
Its one exception is ``games/engine/verify.py``, the published command
``python -m games.engine.verify``: it imports the verifier (``games.verifier``)
and nothing of the engine imports it. The verifier is plain Python above the
engine and the computer players: the standard library, ``games.engine``,
``games.ai``, ``cryptography`` and itself.
"""

from __future__ import annotations

import ast
import json
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]
ENGINE = ROOT / "games" / "engine"
VERIFIER = ROOT / "games" / "verifier"
ENTRY_POINT = ENGINE / "verify.py"

# Ways to import what the source does not name, or to run code it does not hold.
DYNAMIC_MODULES = {"importlib", "runpy", "pkgutil", "zipimport", "imp"}
DYNAMIC_NAMES = {"__import__", "exec", "eval", "compile", "__loader__", "__spec__", "globals", "vars"}


def modules(package: Path) -> list[Path]:
    found = sorted(package.rglob("*.py"))
    assert found
    return found


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def imported(path: Path) -> Iterator[tuple[int, str]]:
    """(line, absolute module name) of every import written in ``path``."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    package = module_name(path).split(".") if path.name == "__init__.py" else module_name(path).split(".")[:-1]
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield node.lineno, alias.name
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package[: len(package) - node.level + 1]
                target = ".".join([*base, node.module] if node.module else base)
                names = [target] if node.module else [f"{target}.{alias.name}" for alias in node.names]
            else:
                names = [node.module or ""]
            for name in names:
                yield node.lineno, name


def dynamic_uses(path: Path) -> list[str]:
    """Where ``path`` could import or run what it does not name."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Name) and node.id in DYNAMIC_NAMES:
            found.append(f"{path.name}:{node.lineno}: {node.id}")
        elif (
            isinstance(node, ast.Attribute)
            and node.attr in ("modules", "meta_path", "path_hooks")
            and isinstance(node.value, ast.Name)
            and node.value.id == "sys"
        ):
            found.append(f"{path.name}:{node.lineno}: sys.{node.attr}")
    for line, name in imported(path):
        if name.split(".")[0] in DYNAMIC_MODULES:
            found.append(f"{path.name}:{line}: import {name}")
    return found


def is_standard(name: str) -> bool:
    return name.split(".")[0] in sys.stdlib_module_names


def within(name: str, package: str) -> bool:
    return name == package or name.startswith(package + ".")


def test_the_engine_imports_only_the_standard_library_and_itself() -> None:
    outside = [
        f"{path.relative_to(ROOT)}:{line}: {name}"
        for path in modules(ENGINE)
        if path != ENTRY_POINT
        for line, name in imported(path)
        if not (is_standard(name) or within(name, "games.engine"))
    ]
    assert outside == []


def test_the_engine_has_no_way_around_its_imports() -> None:
    assert [use for path in modules(ENGINE) for use in dynamic_uses(path)] == []


def test_the_published_command_is_the_one_module_of_the_engine_that_imports_the_verifier() -> None:
    names = {name for _line, name in imported(ENTRY_POINT)}
    assert {name for name in names if not is_standard(name)} == {"games.verifier"}
    importers = [
        path.relative_to(ROOT)
        for path in modules(ENGINE)
        for _line, name in imported(path)
        if within(name, "games.engine.verify") or within(name, "games.verifier")
    ]
    assert importers == [ENTRY_POINT.relative_to(ROOT)]


def test_the_verifier_is_plain_python_above_the_engine_and_the_computer_players() -> None:
    allowed = ("games.engine", "games.ai", "games.verifier", "cryptography")
    outside = [
        f"{path.relative_to(ROOT)}:{line}: {name}"
        for path in modules(VERIFIER)
        for line, name in imported(path)
        if not (is_standard(name) or any(within(name, package) for package in allowed))
    ]
    assert outside == []
    assert [use for path in modules(VERIFIER) for use in dynamic_uses(path)] == []


def test_importing_every_module_of_the_engine_loads_nothing_else() -> None:
    """At run time too: the engine's modules, imported in a fresh interpreter,
    load the standard library and the engine alone."""
    names = [module_name(path) for path in modules(ENGINE) if path != ENTRY_POINT]
    probe = (
        "import importlib, json, sys\n"
        f"sys.path.insert(0, {str(ROOT)!r})\n"
        f"for name in {names!r}: importlib.import_module(name)\n"
        "print(json.dumps(sorted(sys.modules)))\n"
    )
    done = subprocess.run(
        [sys.executable, "-I", "-c", probe], capture_output=True, text=True, cwd=ROOT, check=True
    )
    loaded = json.loads(done.stdout)
    others = [
        name for name in loaded
        if not (is_standard(name) or within(name, "games.engine") or name == "games" or name.startswith("_"))
    ]
    assert others == []
