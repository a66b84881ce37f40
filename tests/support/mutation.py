"""What the test run does under mutmut (``python bench/mutation.py MODULE``) so that ``chatbot`` children count too.

mutmut copies the tree to ``mutants/`` (tests included, so :data:`tests.support.cli.ROOT` and every ``PYTHONPATH``
the tests give a child already point at the copy) and names the active mutant in ``MUTANT_UNDER_TEST``, which a
child inherits: a ``chatbot`` child runs the mutant too. Two things need help, both in mutmut's first phase only
(``MUTANT_UNDER_TEST=stats``, one run of the tests that records which tests reach which function):

- a child must run the plain code there: mutmut's recorder would look for its configuration in the child's working
  directory and crash the child, and what a child records is lost with it anyway;
- so the tests that start a process are written to :data:`CHILD_TESTS`, one node id a line, and the wrapper runs
  the survivors again with them (mutmut would otherwise run a mutant only against the tests that reach its function
  in the test process itself).
"""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Any

#: the tests that started a process in the stats phase (in ``mutants/``, read by bench/mutation.py)
CHILD_TESTS = Path(__file__).resolve().parents[2] / "mutmut-child-tests.txt"

_PROCESS_EVENTS = {"subprocess.Popen", "os.fork", "os.posix_spawn", "os.exec"}


def _note_child(event: str, _args: Any) -> None:
    test = os.environ.get("PYTEST_CURRENT_TEST")
    if event in _PROCESS_EVENTS and test:
        with CHILD_TESTS.open("a", encoding="utf-8") as out:
            out.write(test.rsplit(" ", 1)[0] + "\n")


def prepare_for_mutmut() -> None:
    """In mutmut's stats phase: plain code in children, and a note of each test that starts one."""
    if os.environ.get("MUTANT_UNDER_TEST") != "stats":
        return
    # the test process keeps its own copy of the phase (mutmut's trampoline falls back to it); children lose it
    del os.environ["MUTANT_UNDER_TEST"]
    sys.addaudithook(_note_child)
