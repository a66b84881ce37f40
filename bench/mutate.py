"""Targeted mutation check of the core: do the tests notice when the code breaks?

Each mutant changes one thing in one module -- a comparison flipped (``<`` to ``<=``, ``==`` to ``!=``, ``in`` to
``not in``), ``and`` swapped with ``or``, a ``not`` dropped, ``+`` turned into ``-``, an integer constant moved by
one, ``True`` swapped with ``False``, a call statement deleted (an ``os.fsync``, a ``store.save``...) -- and the tests
that cover the module run against it. A mutant the tests fail on is *killed*; one they pass is a *survivor*: a
behaviour no test pins, or an equivalent change (see docs/testing.md for the known ones).

Strings are never mutated (the wording of messages is not what the check is about), nor docstrings, ``assert``
statements, type-checking-only code or the arguments of a ``raise``.

The work happens on a copy of the tree in a temporary directory, so an interrupted run never leaves a mutant behind.
Run by hand (it is not part of .ci/run: a full run takes tens of minutes on two cores)::

    python bench/mutate.py                        # every module, a table of killed/survived per module
    python bench/mutate.py chatbot/engine/memory.py --survivors   # one module, listing what survived
    python bench/mutate.py --list chatbot/storage/files.py        # the mutants, without running anything
"""

from __future__ import annotations

import argparse
import ast
import concurrent.futures
import functools
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

CHAT_TESTS = [
    "tests/core/test_chat.py",
    "tests/core/test_session_edits.py",
    "tests/core/test_chat_tools.py",
    "tests/core/test_summaries.py",
    "tests/core/test_cached_tokens.py",
    "tests/core/test_accounting.py",
    "tests/cli/test_resume.py",
    "tests/core/test_run_settings_on_the_wire.py",
    "tests/core/test_chat_notices.py",
    "tests/core/test_request_log.py",
    "tests/storage/test_session_rules.py",
    "tests/engine/test_tool_memory.py",
    "tests/commands/test_summary_now.py",
]
ENGINE_TESTS = [
    "tests/engine/test_memory.py",
    "tests/engine/test_memory_rules.py",
    "tests/engine/test_turn_rules.py",
    "tests/engine/test_summary_prompt.py",
    "tests/engine/test_conversation.py",
    "tests/engine/test_usage.py",
    "tests/engine/test_backoff.py",
    "tests/engine/test_calibration.py",
    "tests/engine/test_tokens.py",
    "tests/engine/test_tool_memory.py",
    *CHAT_TESTS,
]
STORAGE_TESTS = [
    "tests/storage/test_session.py",
    "tests/storage/test_session_options.py",
    "tests/storage/test_calibration_store.py",
    "tests/storage/test_session_rules.py",
    "tests/storage/test_session_ids.py",
    "tests/storage/test_json_store.py",
    "tests/storage/test_store_api.py",
    "tests/storage/test_store_behaviour.py",
    "tests/storage/test_store_housekeeping.py",
    "tests/storage/test_file_primitives.py",
    "tests/faults/test_data_loss.py",
    "tests/cli/test_resume.py",
]

#: the PostgreSQL store's tests (they need $CHATBOT_TEST_POSTGRES): only its side of the suites both stores run
POSTGRES_TESTS = [
    "tests/storage/test_postgres_store.py",
    "tests/storage/test_postgres_reconnect.py",
    "tests/storage/test_postgres_schema.py",
    "tests/storage/test_store_behaviour.py",
    "tests/cli/test_store.py",
    "-kpostgres",
]


def _first(own: str, rest: list[str]) -> list[str]:
    """The module's own tests first: most mutants fail there, and -x stops at the first failure."""
    return [own, *(t for t in rest if t != own)]


#: module -> the tests that cover it, fastest and most direct first (files that do not exist yet are skipped)
MODULES: dict[str, list[str]] = {
    "chatbot/engine/memory.py": ENGINE_TESTS,
    "chatbot/engine/conversation.py": _first("tests/engine/test_conversation.py", ENGINE_TESTS),
    "chatbot/engine/turn.py": _first("tests/engine/test_turn_rules.py", ENGINE_TESTS),
    # the token tests first (format constants are killed only there); the chat tests left out for time (each survivor
    # would cost their whole run): the score is a lower bound
    "chatbot/engine/tokens.py": [
        "tests/engine/test_image_tokens.py",
        "tests/engine/test_image_costs.py",
        "tests/engine/test_tokens.py",
        "tests/engine/test_chat_formats.py",
        "tests/engine/test_tool_call_overheads.py",
        "tests/engine/test_hub_tokenizer.py",
        *(t for t in ENGINE_TESTS if t not in CHAT_TESTS and t != "tests/engine/test_tokens.py"),
    ],
    "chatbot/engine/text.py": ["tests/engine/test_text.py", "tests/faults/test_security.py"],
    "chatbot/engine/calibration.py": [
        "tests/engine/test_calibration.py",
        "tests/engine/test_calibration.py",
        *_first("tests/engine/test_calibration.py", ENGINE_TESTS),
        "tests/cli/test_calibration.py",
    ],
    "chatbot/engine/usage.py": _first("tests/engine/test_usage.py", ENGINE_TESTS),
    "chatbot/engine/backoff.py": _first("tests/engine/test_backoff.py", ENGINE_TESTS),
    "chatbot/engine/summary_prompt.py": _first("tests/engine/test_summary_prompt.py", ENGINE_TESTS),
    "chatbot/storage/session.py": STORAGE_TESTS,
    "chatbot/storage/schema.py": STORAGE_TESTS,
    "chatbot/storage/json_store.py": _first("tests/storage/test_json_store.py", STORAGE_TESTS),
    "chatbot/storage/files.py": _first(
        "tests/storage/test_file_primitives.py", _first("tests/storage/test_json_store.py", STORAGE_TESTS)
    ),
    "chatbot/storage/rescue.py": [
        "tests/storage/test_rescue.py",
        "tests/storage/test_json_store.py",
        "tests/faults/test_data_loss.py",
    ],
    "chatbot/storage/export.py": [
        "tests/storage/test_export.py",
        "tests/storage/test_json_store.py",
        "tests/storage/test_store_api.py",
        "tests/storage/test_store_behaviour.py",
        "tests/commands/test_commands.py",
        "tests/faults/test_data_loss.py",
    ],
    "chatbot/storage/transfer.py": [
        "tests/storage/test_transfer.py",
        "tests/storage/test_store_behaviour.py",
        "tests/storage/test_json_store.py",
        "tests/storage/test_postgres_store.py",
        "tests/cli/test_store.py",
    ],
    "chatbot/core/chat.py": [
        *CHAT_TESTS,
        "tests/core/test_chat_tool_budget.py",
        "tests/core/test_chat_warnings.py",
        "tests/core/test_chat_store_away.py",
        "tests/core/test_chat_library.py",
        "tests/core/test_chat_interrupt.py",
    ],
    "chatbot/core/open_session.py": [
        *_first("tests/core/test_session_edits.py", CHAT_TESTS),
        "tests/faults/test_rescue.py",  # a failed save kept in a rescue file, a signal while the database is awaited
        "tests/faults/test_data_loss.py",
    ],
    "chatbot/core/rounds.py": _first("tests/core/test_rounds.py", CHAT_TESTS),
    "chatbot/core/retry.py": ["tests/core/test_announced_retries.py", *CHAT_TESTS],
    "chatbot/core/summaries.py": [
        "tests/core/test_summaries_ahead.py",
        *_first("tests/core/test_summaries.py", CHAT_TESTS),
        "tests/core/test_summaries_exit.py",
    ],
    "chatbot/storage/postgres_store.py": POSTGRES_TESTS,
    "chatbot/storage/pg_schema.py": _first("tests/storage/test_postgres_schema.py", POSTGRES_TESTS),
}

#: tests whose timing fails under the load of a mutation run (a real Ctrl-C 0.2 s later): a flaky failure would
#: count as a kill
DESELECT = [
    "tests/core/test_summaries.py::test_ctrl_c_while_waiting_falls_back_like_a_failed_summary_and_the_late_result_is_"
    "never_used",
]

COMPARE_SWAP = {
    ast.Lt: ast.LtE,
    ast.LtE: ast.Lt,
    ast.Gt: ast.GtE,
    ast.GtE: ast.Gt,
    ast.Eq: ast.NotEq,
    ast.NotEq: ast.Eq,
    ast.In: ast.NotIn,
    ast.NotIn: ast.In,
    ast.Is: ast.IsNot,
    ast.IsNot: ast.Is,
}
BINOP_SWAP = {ast.Add: ast.Sub, ast.Sub: ast.Add, ast.Mult: ast.FloorDiv, ast.FloorDiv: ast.Mult, ast.Div: ast.Mult}


@dataclass(frozen=True)
class Mutant:
    module: str
    index: int  # the n-th mutation point of the module, in walk order
    line: int
    what: str


def _skipped(node: ast.AST, parents: dict[ast.AST, ast.AST]) -> bool:
    """Whether ``node`` sits where a change is only cosmetic or not checkable (messages, asserts, type hints)."""
    p = parents.get(node)
    while p is not None:
        if isinstance(p, (ast.Raise, ast.Assert, ast.JoinedStr, ast.AnnAssign, ast.arg)):
            return True
        if isinstance(p, ast.If) and isinstance(p.test, ast.Name) and p.test.id == "TYPE_CHECKING":
            return True
        if isinstance(p, (ast.FunctionDef, ast.AsyncFunctionDef)) and node in (p.returns,):
            return True
        p = parents.get(p)
    return False


def _is_docstring(node: ast.Expr) -> bool:
    return isinstance(node.value, ast.Constant) and isinstance(node.value.value, str)


def mutation_points(tree: ast.Module) -> list[tuple[ast.AST, str]]:
    """Every (node, description) that can be mutated, in a stable order."""
    parents: dict[ast.AST, ast.AST] = {}
    for parent in ast.walk(tree):
        for child in ast.iter_child_nodes(parent):
            parents[child] = parent
    points: list[tuple[ast.AST, str]] = []
    for node in ast.walk(tree):
        if _skipped(node, parents):
            continue
        if isinstance(node, ast.Compare) and type(node.ops[0]) in COMPARE_SWAP:
            points.append((node, f"{type(node.ops[0]).__name__} -> {COMPARE_SWAP[type(node.ops[0])].__name__}"))
        elif isinstance(node, ast.BoolOp):
            points.append((node, "and -> or" if isinstance(node.op, ast.And) else "or -> and"))
        elif isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not):
            points.append((node, "drop not"))
        elif isinstance(node, (ast.BinOp, ast.AugAssign)) and type(node.op) in BINOP_SWAP:
            if isinstance(node, ast.BinOp) and isinstance(node.left, ast.Constant) and isinstance(node.left.value, str):
                continue  # string formatting with %
            points.append((node, f"{type(node.op).__name__} -> {BINOP_SWAP[type(node.op)].__name__}"))
        elif isinstance(node, ast.Constant) and type(node.value) is bool:
            points.append((node, f"{node.value} -> {not node.value}"))
        elif isinstance(node, ast.Constant) and type(node.value) is int:
            points.append((node, f"{node.value} -> {node.value + 1}"))
        elif isinstance(node, ast.Expr) and isinstance(node.value, ast.Call) and not _is_docstring(node):
            points.append((node, f"drop call {ast.unparse(node.value.func)}()"))
    return points


class _Apply(ast.NodeTransformer):
    def __init__(self, target: ast.AST) -> None:
        self.target = target

    def visit(self, node: ast.AST) -> ast.AST:
        if node is not self.target:
            return super().visit(node)
        if isinstance(node, ast.Compare):
            node.ops = [COMPARE_SWAP[type(node.ops[0])](), *node.ops[1:]]
        elif isinstance(node, ast.BoolOp):
            node.op = ast.Or() if isinstance(node.op, ast.And) else ast.And()
        elif isinstance(node, ast.UnaryOp):
            return node.operand
        elif isinstance(node, (ast.BinOp, ast.AugAssign)):
            node.op = BINOP_SWAP[type(node.op)]()
        elif isinstance(node, ast.Constant) and type(node.value) is bool:
            node.value = not node.value
        elif isinstance(node, ast.Constant):
            node.value = node.value + 1
        elif isinstance(node, ast.Expr):
            return ast.Pass()
        return node


def mutants_of(module: str) -> tuple[list[Mutant], str]:
    source = (ROOT / module).read_text()
    tree = ast.parse(source)
    return [
        Mutant(module, i, getattr(node, "lineno", 0), what) for i, (node, what) in enumerate(mutation_points(tree))
    ], source


def mutated_source(source: str, index: int) -> str:
    tree = ast.parse(source)
    node, _ = mutation_points(tree)[index]
    tree = _Apply(node).visit(tree)
    return ast.unparse(ast.fix_missing_locations(tree))


def make_copy() -> Path:
    """A copy of the tracked and new files of the tree (never the .git directory or caches)."""
    dest = Path(tempfile.mkdtemp(prefix="mutate-"))
    files = subprocess.run(
        ["git", "ls-files", "-co", "--exclude-standard"], cwd=ROOT, capture_output=True, text=True, check=True
    ).stdout.split()
    for name in files:
        src = ROOT / name
        if src.is_file():
            (dest / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(src, dest / name)
    return dest


def run_tests(tree: Path, tests: list[str], timeout: float, show: bool = False) -> str:
    """'killed', 'survived' or 'timeout' (an endless loop is caught: counted as killed)."""
    env = {**os.environ, "PYTHONPATH": str(tree), "PYTHONDONTWRITEBYTECODE": "1"}
    cmd = [sys.executable, "-m", "pytest", "-x", "-q", "-p", "no:cacheprovider", "-p", "no:randomly", *tests]
    cmd += [f"--deselect={t}" for t in DESELECT]
    try:
        proc = subprocess.run(cmd, cwd=tree, env=env, capture_output=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return "timeout"
    if show and proc.returncode:
        print(proc.stdout.decode(errors="replace")[-3000:], proc.stderr.decode(errors="replace")[-2000:])
    return "survived" if proc.returncode == 0 else "killed"


def check(mutant: Mutant, source: str, tests: list[str], timeout: float, trees: list[Path]) -> tuple[Mutant, str]:
    tree = trees.pop()
    try:
        target = tree / mutant.module
        target.write_text(mutated_source(source, mutant.index))
        try:
            return mutant, run_tests(tree, tests, timeout)
        finally:
            target.write_text(source)
    finally:
        trees.append(tree)


def _survivors_in(log: Path) -> dict[str, set]:
    """The modules an earlier run finished and its survivors, as (module, line, what), from its --survivors log."""
    done, survived = set(), set()
    for line in log.read_text().splitlines():
        if line.startswith("  survived "):
            where, what = line[len("  survived ") :].split(": ", 1)
            module, number = where.rsplit(":", 1)
            survived.add((module, int(number), what))
        elif " killed (" in line:
            done.add(line.split(":", 1)[0])
    return {"done": done, "survived": survived}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("modules", nargs="*", help="modules to mutate (default: all of the core)")
    parser.add_argument("--jobs", type=int, default=2, help="mutants tested at once (one tree copy each)")
    parser.add_argument("--timeout", type=float, default=120.0, help="seconds before a test run counts as a hang")
    parser.add_argument("--survivors", action="store_true", help="list every surviving mutant")
    parser.add_argument("--list", action="store_true", help="only list the mutants")
    parser.add_argument(
        "--recheck",
        metavar="LOG",
        help="run only the mutants an earlier run's --survivors log names (tests were only added since: what was "
        "killed stays killed); the score counts every mutant of the module",
    )
    args = parser.parse_args()
    # a SIGTERM (timeout, kill) unwinds like Ctrl-C, so the tree copies are removed
    signal.signal(signal.SIGTERM, lambda signum, frame: sys.exit(143))
    modules = args.modules or list(MODULES)
    earlier = _survivors_in(Path(args.recheck)) if args.recheck else None
    if earlier is not None and not args.modules:
        modules = [m for m in MODULES if m in earlier["done"]]
    trees: list[Path] = []
    rows = []
    try:
        for module in modules:
            mutants, source = mutants_of(module)
            everything = len(mutants)
            if earlier is not None:
                mutants = [m for m in mutants if (m.module, m.line, m.what) in earlier["survived"]]
            if args.list:
                for m in mutants:
                    print(f"{m.module}:{m.line}: {m.what}")
                continue
            while len(trees) < args.jobs:
                trees.append(make_copy())
            # a test file that does not exist yet is skipped; options (``-k...``) pass through to pytest
            tests = [t for t in MODULES[module] if t.startswith("-") or (trees[0] / t).exists()]
            if run_tests(trees[0], tests, args.timeout * 3, show=True) != "survived":
                print(f"{module}: the tests fail without any mutation; fix them first", file=sys.stderr)
                return 1
            started = time.monotonic()
            with concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
                results = list(
                    pool.map(
                        functools.partial(check, source=source, tests=tests, timeout=args.timeout, trees=trees), mutants
                    )
                )
            survivors = [m for m, outcome in results if outcome == "survived"]
            killed = everything - len(survivors)
            score = 100.0 * killed / everything if everything else 100.0
            rows.append((module, everything, killed, len(survivors), score, time.monotonic() - started))
            print(f"{module}: {killed}/{everything} killed ({score:.1f}%)", file=sys.stderr, flush=True)
            if args.survivors:
                for m in survivors:
                    print(f"  survived {m.module}:{m.line}: {m.what}", file=sys.stderr, flush=True)
    finally:
        for tree in trees:
            shutil.rmtree(tree, ignore_errors=True)
    if rows:
        print(f"\n{'module':34} {'mutants':>8} {'killed':>7} {'survived':>9} {'score':>7} {'time':>7}")
        for module, n, killed, survived, score, secs in rows:
            print(f"{module:34} {n:8} {killed:7} {survived:9} {score:6.1f}% {secs:6.0f}s")
        total = sum(r[1] for r in rows)
        killed_total = sum(r[2] for r in rows)
        print(f"{'all':34} {total:8} {killed_total:7} {total - killed_total:9} {100.0 * killed_total / total:6.1f}%")
    return 0


if __name__ == "__main__":
    sys.exit(main())
