"""The mutation check on mutmut: one module at a time, against the test files that cover it.

mutmut (configured in pyproject.toml's ``[tool.mutmut]``) copies the tree to ``mutants/``, mutates the module and
runs, for each mutant, the tests that reach the mutated function. This wrapper adds the two things mutmut has no
setting for: the module and its test files are chosen per run (``MODULES`` below), and the survivors of that run
are run again with every test that starts a process added (a ``chatbot`` child, a store helper: noted by
tests/support/mutation.py), since what a child reaches cannot be recorded. The child runs the mutant: it inherits
``MUTANT_UNDER_TEST``. (Adding those tests to every mutant from the start costs their run on each of hundreds.)

    python bench/mutation.py chatbot/engine/memory.py          # run, then the table line and the survivors
    python bench/mutation.py chatbot/engine/memory.py --again  # its survivors and unrun mutants, with today's code
    python bench/mutation.py chatbot/engine/*.py --in-process  # the first run alone: a quick list of survivors
    python bench/mutation.py chatbot/engine/*.py --again --in-process  # its survivors against today's tests
    python bench/mutation.py --list                            # the modules it knows
    python bench/mutation.py chatbot/text.py chatbot/engine/parts.py  # several in one run (one test record)
    mutmut show chatbot.engine.memory.x_fit__mutmut_14         # then: what a survivor changed

Each run starts from an empty ``mutants/`` (results of another module's run would be kept otherwise).
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

# the tests that run the code in the test process (the ones that also start a chatbot child are noted, and run again
# for the survivors: see tests/support/mutation.py). mutmut runs each mutant only against the tests among these that
# reach its function, so one list serves every module; tests/cli and tests/faults work through children alone.
UNIT = [
    "tests/engine/",
    "tests/core/",
    "tests/commands/",
    "tests/providers/",
    "tests/tools/",
    "tests/storage/",
    "tests/terminal/",
    "tests/test_errors.py",
    "tests/test_library.py",
    # the terminal tests in a pty drive a chatbot child alone, and time keystrokes a loaded machine can miss
    "--ignore-glob=tests/terminal/test_pty*",
]
ENGINE = (
    "backoff",
    "calibration",
    "conversation",
    "fresh_round",
    "memory",
    "options",
    "parts",
    "recall",
    "strategies",
    "reply_schema",
    "summary_prompt",
    "tokens",
    "tool_results",
    "tool_text",
    "turn",
    "usage",
)
STORAGE = (
    "json_store",
    "files",
    "session",
    "session_format",
    "rescue",
    "export",
    "transfer",
    "postgres_store",
    "pg_schema",
    "pg_migrate",
    "pg_wait",
    "pg_lock",
)
CORE = ("chat", "rounds", "saving", "tool_round", "retry", "summaries", "budget", "request_log")
TOOLS = (
    "registry",
    "functions",
    "function_process",
    "function_worker",
    "mcp_client",
    "arguments",
    "setup",
    "base",
    "search",
)

#: module -> the test arguments run for it (set CHATBOT_TEST_POSTGRES: the PostgreSQL store's tests need it)
MODULES: dict[str, list[str]] = {
    **{f"chatbot/engine/{name}.py": UNIT for name in ENGINE},
    **{f"chatbot/storage/{name}.py": UNIT for name in STORAGE},
    **{f"chatbot/core/{name}.py": UNIT for name in CORE},
    **{f"chatbot/tools/{name}.py": UNIT for name in TOOLS},
    "chatbot/providers/openai_compat.py": UNIT,
    "chatbot/providers/reading.py": UNIT,
    "chatbot/text.py": UNIT,
}


def _tests(modules: list[str]) -> list[str]:
    """The modules' test arguments, each once, leaving out files that do not exist (yet)."""
    wanted = [t for module in modules for t in MODULES[module]]
    return [t for t in dict.fromkeys(wanted) if t.startswith("-") or (ROOT / t).exists() or t[:1] != "t"]


def _give_child_tests_to_every_mutant(modules: list[str]) -> None:
    """Patch mutmut's stats step: after it, every function of ``modules`` is also covered by the process tests."""
    import mutmut.__main__ as main
    from mutmut.mutation.data import SourceFileMutationData
    from mutmut.state import state
    from mutmut.utils.format_utils import mangled_name_from_mutant_name

    collect = main.collect_or_load_stats

    def collect_then_add(*args, **kwargs):  # type: ignore[no-untyped-def]
        collect(*args, **kwargs)
        noted = ROOT / "mutants" / "mutmut-child-tests.txt"
        children = set(noted.read_text().split()) if noted.exists() else set()
        for module in modules:
            data = SourceFileMutationData(path=Path(module))
            data.load()
            for name in data.exit_code_by_key:
                state().tests_by_mangled_function_name[mangled_name_from_mutant_name(name)] |= children

    main.collect_or_load_stats = collect_then_add


def _forget_what_is_left(modules: list[str]) -> int:
    """Clear the verdicts a run again must redo (survived, no test reached it); how many there are, with the unrun.

    Run without names, mutmut runs every mutant without a verdict: these, those a stopped run never ran, and those
    of a function whose code changed since.
    """
    from mutmut.mutation.data import SourceFileMutationData
    from mutmut.stats import status_by_exit_code

    left = 0
    for module in modules:
        if not (ROOT / "mutants" / f"{module}.meta").exists():
            continue
        data = SourceFileMutationData(path=Path(module))
        data.load()
        for name, code in data.exit_code_by_key.items():
            if code is None or status_by_exit_code[code] in ("survived", "no tests"):
                data.exit_code_by_key[name] = None
                left += 1
        data.save()
    print(f"again: {left} mutants survived, were not reached, or were never run")
    return left


def _bring_up_to_date(copy: Path) -> None:
    """Replace the code and tests copied to ``copy`` (mutants/) by today's, keeping the verdicts of unchanged code.

    mutmut copies a file only when mutants/ lacks it, so a copy from an earlier run would stay as it was (a module
    not mutated in that run, fixed since, would be tested as it was). Without the copies, mutmut copies every file
    anew and makes each mutated module's mutants again, and keeps a verdict only where the function's code hashes
    as it did (the hashes are in the ``.meta`` files, which stay).
    """
    for old in (copy / "chatbot").rglob("*.py"):
        old.unlink()
    shutil.rmtree(copy / "tests", ignore_errors=True)
    # which test reaches what is recorded anew: mutmut would record only tests it has not seen, and a test changed
    # since may reach a function it did not
    (copy / "mutmut-stats.json").unlink(missing_ok=True)
    (copy / "mutmut-child-tests.txt").unlink(missing_ok=True)


def _listing() -> str:
    """mutmut's ``results --all``: one ``name: status`` line per mutant."""
    command = [sys.executable, "-m", "mutmut", "results", "--all", "true"]
    return subprocess.run(command, cwd=ROOT, capture_output=True, text=True).stdout


def run(modules: list[str], max_children: int, again: bool = False, children_too: bool = True) -> int:
    """Run mutmut on ``modules`` only; print a table line per module (killed, survived, score) and the survivors.

    Several modules in one run share its costly first step (the tests run once to record which test reaches which
    function), so a group such as ``engine/`` is cheaper together than module by module.
    """
    os.chdir(ROOT)  # mutmut reads pyproject.toml and writes mutants/ in the working directory
    import mutmut.configuration as configuration
    from mutmut.__main__ import cli

    if again:  # the last run's verdicts stay; the code and the tests are brought up to date
        _bring_up_to_date(ROOT / "mutants")
    else:
        shutil.rmtree(ROOT / "mutants", ignore_errors=True)
    cfg = configuration.config()
    cfg.only_mutate = modules
    cfg.pytest_add_cli_args_test_selection = _tests(modules)
    start = time.monotonic()
    # each step: (only what the step before left: survivors and unreached, with the tests that start a process too)
    steps = [(True, children_too)] if again else [(False, False), *([(True, True)] if children_too else [])]
    for left_only, with_children in steps:
        if left_only and not _forget_what_is_left(modules):
            break
        if with_children:
            _give_child_tests_to_every_mutant(modules)
        try:
            # mutmut runs every mutant without a verdict (named mutants would miss those of a function changed since)
            cli(["run", "--max-children", str(max_children)], standalone_mode=False)
        except SystemExit as stop:
            if stop.code:
                return int(stop.code)
    minutes = (time.monotonic() - start) / 60
    listing = _listing()
    print(f"{minutes:.0f} min for {len(modules)} module(s)")
    for module in modules:
        prefix = module.removesuffix(".py").replace("/", ".") + "."
        lines = [line.strip() for line in listing.splitlines() if line.strip().startswith(prefix)]
        status = [line.rsplit(": ", 1)[1] for line in lines if ": " in line]
        killed, survived = status.count("killed"), status.count("survived")
        others = len(status) - killed - survived
        score = 100 * killed / max(1, killed + survived)
        print(f"| {module} | {len(status)} | {killed} / {survived} | {score:.1f}% | other: {others}")
    print("\n".join(line for line in listing.splitlines() if not line.endswith(": killed")))
    return 0


if __name__ == "__main__":
    if sys.argv[1:] == ["--list"]:
        print("\n".join(MODULES))
        sys.exit(0)
    again = "--again" in sys.argv  # only the survivors of the last run of this module, with the tests as they are now
    # --in-process: the first run only (what the test process's own tests kill), for a quick list of survivors
    children_too = "--in-process" not in sys.argv
    args = [arg for arg in sys.argv[1:] if arg not in ("--again", "--in-process")]
    modules = [arg for arg in args if not arg.isdigit()]
    children = int(next((arg for arg in args if arg.isdigit()), "1"))
    unknown = [module for module in modules if module not in MODULES]
    if unknown or not modules:
        sys.exit(f"unknown module {' '.join(unknown) or '(none given)'}: see --list")
    sys.exit(run(modules, children, again, children_too))
