"""The package's layers: no import runs up them (docs/architecture.md draws the table this test keeps true).

Every ``import`` in every module counts, including the lazy ones inside functions.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[1] / "chatbot"

# layer -> the layers its modules may import (a layer may always import itself). Each folder of the package is a
# room with one job; only the command line opens the screen.
ALLOWED: dict[str, set[str]] = {
    "ground": set(),
    "engine": {"ground"},
    "providers": {"ground", "engine"},
    "storage": {"ground", "engine"},
    "tools": {"ground", "engine"},
    "attachments": {"ground", "engine", "providers", "storage"},  # files, folders and pages attached to a message
    "core": {"ground", "engine", "providers", "storage", "tools", "attachments"},  # one turn, the session in use
    # slash commands, no screen code
    "commands": {"ground", "engine", "providers", "storage", "tools", "attachments", "core"},
    "terminal": {"ground", "engine", "providers", "storage", "tools", "attachments", "core", "commands"},  # the screen
    # the entry point
    "cli": {"ground", "engine", "providers", "storage", "tools", "attachments", "core", "commands", "terminal"},
    "face": {"ground", "engine", "providers", "storage", "tools", "attachments", "core", "cli"},  # the face, python -m
}
#: the modules directly in ``chatbot/`` and their layer: everything else lives in a room. The ground floor holds
#: what every room needs and which imports nothing: the error tree and text made safe to show (``text.py``)
TOP = {"__init__": "face", "__main__": "face", "tokens": "face", "errors": "ground", "text": "ground"}


def layer_of(module: str) -> str:
    """The layer of a dotted module name inside the package (``chatbot.engine.memory`` -> ``engine``)."""
    parts = module.split(".")
    assert parts[0] == "chatbot", module
    if len(parts) == 1:
        return "face"
    head = parts[1]
    if head in TOP:
        return TOP[head]
    assert head in ALLOWED, f"{module} is in no layer: add it to tests/test_layers.py and docs/architecture.md"
    return head


def module_name(path: Path) -> str:
    rel = path.relative_to(PACKAGE.parent).with_suffix("")
    parts = list(rel.parts)
    if parts[-1] == "__init__" and len(parts) > 1:
        parts.pop()
    return ".".join(parts)


def imports(path: Path) -> list[tuple[int, str]]:
    """(line, dotted module) of every import of a chatbot module in the file."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found += [(node.lineno, a.name) for a in node.names if a.name.split(".")[0] == "chatbot"]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module == "chatbot":
            # ``from chatbot import commands`` imports the room ``chatbot.commands``; ``__version__`` is the face
            found += [(node.lineno, f"chatbot.{a.name}" if a.name in ROOMS else "chatbot") for a in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and (node.module or "").split(".")[0] == "chatbot":
            found.append((node.lineno, str(node.module)))
    return found


MODULES = sorted(PACKAGE.rglob("*.py"))
ROOMS = {p.name for p in PACKAGE.iterdir() if p.is_dir() and (p / "__init__.py").exists()} | {
    p.stem for p in PACKAGE.glob("*.py")
}


@pytest.mark.parametrize("path", MODULES, ids=lambda p: module_name(p))
def test_no_import_runs_up_the_layers(path: Path) -> None:
    here = layer_of(module_name(path))
    wrong = []
    for line, target in imports(path):
        if target == "chatbot":
            continue  # the package face imports nothing at import time (``from chatbot import __version__``)
        there = layer_of(target)
        if there != here and there not in ALLOWED[here]:
            wrong.append(f"line {line}: {here} imports {target} ({there})")
    assert not wrong, f"{module_name(path)}:\n" + "\n".join(wrong)


def test_the_walk_sees_every_layer() -> None:
    seen = {layer_of(module_name(p)) for p in MODULES}
    assert set(ALLOWED) <= seen


def test_at_most_three_modules_live_directly_in_the_package() -> None:
    flat = sorted(p.stem for p in PACKAGE.glob("*.py") if p.stem not in ("__init__", "__main__"))
    assert len(flat) <= 3, flat


def test_only_the_command_line_imports_the_terminal() -> None:
    importers = {
        module_name(p)
        for p in MODULES
        if layer_of(module_name(p)) != "terminal"
        and any(layer_of(t) == "terminal" for _, t in imports(p) if t != "chatbot")
    }
    assert importers and all(layer_of(m) == "cli" for m in importers), importers


# Declarative tables may run long: they read as a list, not as logic.
LONG_TABLES = {("chatbot.cli.flags", "build_parser")}


def test_a_function_stays_under_60_lines() -> None:
    long = []
    for path in MODULES:
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                lines = (node.end_lineno or node.lineno) - node.lineno + 1
                if lines > 60 and (module_name(path), node.name) not in LONG_TABLES:
                    long.append(f"{module_name(path)}.{node.name}: {lines} lines")
    assert not long, long
