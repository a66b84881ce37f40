"""--functions: plain Python functions become tools (schema from the signature, description from the docstring)."""

from __future__ import annotations

import datetime
import sys
import threading
import time
from pathlib import Path
from typing import Any, Literal, Optional

import pytest

from chatbot.errors import ToolFailed, ToolSourceError
from chatbot.tools.functions import FunctionTool, as_text, function_spec, import_functions, json_type, load_functions
from chatbot.tools.registry import Registry
from tests.support.cli import run_chatbot

FILE = '''
"""Tools for tests."""
import math
from typing import Optional


def add(a: int, b: int = 2) -> int:
    """Add two whole numbers.

    More detail that the model does not need.
    """
    return a + b


def shout(text: str, times: Optional[int] = None) -> str:
    """Upper-case text."""
    return text.upper() * (times or 1)


def explode(reason: str) -> str:
    """Always fails."""
    raise RuntimeError(f"boom: {reason}")


def sleepy(seconds: float) -> str:
    """Sleeps."""
    import time
    time.sleep(seconds)
    return "awake"


def _private() -> None:
    pass
'''


@pytest.fixture
def tools_file(tmp_path: Path) -> Path:
    path = tmp_path / "my_tools.py"
    path.write_text(FILE)
    return path


def test_public_functions_defined_in_the_file_become_tools(tools_file):
    tools = load_functions(str(tools_file))
    assert [t.spec.name for t in tools] == ["add", "shout", "explode", "sleepy"]  # not math's, not _private
    add = tools[0].spec
    assert add.description == "Add two whole numbers."
    assert add.source == str(tools_file)
    assert add.parameters == {
        "type": "object",
        "properties": {"a": {"type": "integer"}, "b": {"type": "integer", "default": 2}},
        "required": ["a"],
        "additionalProperties": False,
    }
    assert tools[1].spec.parameters["properties"]["times"] == {"type": "integer", "default": None}


def test_calls_through_the_registry(tools_file):
    registry = Registry(load_functions(str(tools_file)), timeout=0.5)
    assert registry.call("add", '{"a": 40}').text == "42"
    assert registry.call("shout", '{"text": "hi", "times": 2}').text == "HIHI"
    raised = registry.call("explode", '{"reason": "test"}')
    assert raised.error and raised.text == "Error: the tool raised RuntimeError: boom: test"
    started = time.monotonic()
    slow = registry.call("sleepy", '{"seconds": 3}')
    assert slow.error and "did not finish within 0.5 seconds" in slow.text
    assert time.monotonic() - started < 2


def test_bad_calls_become_messages(tools_file):
    registry = Registry(load_functions(str(tools_file)))
    assert "does not exist; available tools: add, shout, explode, sleepy" in registry.call("nope", "{}").text
    assert "not valid JSON" in registry.call("add", '{"a": 1').text
    assert "missing required argument 'a'" in registry.call("add", "{}").text
    assert "'a' should be integer, not str" in registry.call("add", '{"a": "one"}').text
    assert "'a' should be integer, not bool" in registry.call("add", '{"a": true}').text
    assert "unknown argument 'c'" in registry.call("add", '{"a": 1, "c": 2}').text
    assert "must be a JSON object" in registry.call("add", "[1]").text
    assert registry.call("add", '{"a": 1}').error is False


def test_a_huge_result_is_cut_with_a_notice(tmp_path):
    path = tmp_path / "big.py"
    path.write_text("def big() -> str:\n    '''Lots.'''\n    return 'x' * 100_000\n")
    outcome = Registry(load_functions(str(path))).call("big", "")
    assert len(outcome.text) < 16_100 and outcome.text.endswith("[result cut: 16,000 of 100,000 characters kept]")
    assert outcome.notice == "the result of big was cut to 16,000 characters" and not outcome.error


def test_files_that_cannot_be_used(tmp_path):
    with pytest.raises(ToolSourceError, match="no such file"):
        load_functions(str(tmp_path / "missing.py"))
    broken = tmp_path / "broken.py"
    broken.write_text("def f(:\n")
    with pytest.raises(ToolSourceError, match="failed to load: SyntaxError"):
        load_functions(str(broken))
    empty = tmp_path / "empty.py"
    empty.write_text("X = 1\n")
    with pytest.raises(ToolSourceError, match="defines no public functions"):
        load_functions(str(empty))


def test_duplicate_names_keep_the_first(tools_file, tmp_path):
    other = tmp_path / "other.py"
    other.write_text("def add(x: str) -> str:\n    return x\n")
    registry = Registry(load_functions(str(tools_file)))
    registry.add(load_functions(str(other)))
    assert registry.call("add", '{"a": 1}').text == "3"
    assert registry.warnings == [f"tool 'add' from {other} skipped: {tools_file} already has one"]


def test_type_hints_to_schema():
    assert json_type(Literal["a", "b"]) == {"enum": ["a", "b"]}
    assert json_type(list[str]) == {"type": "array", "items": {"type": "string"}}
    assert json_type(int | str) == {"anyOf": [{"type": "integer"}, {"type": "string"}]}
    assert json_type(object) == {}

    def undocumented(x, *args, **kwargs):
        return x

    spec = function_spec(undocumented, "here")
    assert spec.description == "the function undocumented" and spec.parameters["required"] == ["x"]


def test_a_tool_that_exits_is_a_tool_message_and_a_file_that_exits_a_clear_error(tmp_path):
    (tmp_path / "quit.py").write_text('import sys\ndef quitter() -> str:\n    """Exits."""\n    sys.exit(3)\n')
    registry = Registry(load_functions(str(tmp_path / "quit.py")), timeout=5)
    outcome = registry.call("quitter", "{}")
    assert outcome.error and "SystemExit" in outcome.text
    (tmp_path / "exits.py").write_text("import sys\nsys.exit(4)\n")
    result = run_chatbot("--provider", "echo", "--functions", str(tmp_path / "exits.py"), "-p", "hi", cwd=tmp_path)
    assert result.returncode == 2 and "failed to load: SystemExit" in result.stderr


def test_optional_and_container_hints_to_schema():
    assert json_type(Optional[int]) == {"type": "integer"}  # noqa: UP045 - the spelling users write
    assert json_type(str | None) == {"type": "string"}
    # typing caches unions as equal in any order: the order of anyOf is the first spelling the process met
    either = json_type(Optional[int | str])  # noqa: UP045
    assert list(either) == ["anyOf"] and sorted(either["anyOf"], key=str) == [{"type": "integer"}, {"type": "string"}]
    assert json_type(dict[str, int]) == {"type": "object"}  # only a list says what its items are
    assert json_type(list) == {"type": "array"}
    assert json_type(list[Literal[1, 2]]) == {"type": "array", "items": {"enum": [1, 2]}}


def sample(
    count: int,
    name: str = "x",
    ratio: float = 1.5,
    loud: bool = True,
    limit: Optional[int] = None,  # noqa: UP045
    tags: list[str] = [],  # noqa: B006 - a default that is not a JSON scalar is not shown
    *rest: int,
    mode: Literal["fast", "slow"] = "fast",
    anything=3,
    **extra: int,
) -> str:
    """Do the sample thing
    over two lines.

    Details the model does not need.
    """
    return ""


def test_a_functions_whole_spec_is_read_from_its_signature_and_docstring():
    spec = function_spec(sample, "here.py")
    assert spec.name == "sample" and spec.source == "here.py"
    assert spec.description == "Do the sample thing over two lines."
    assert spec.parameters == {
        "type": "object",
        "properties": {
            "count": {"type": "integer"},
            "name": {"type": "string", "default": "x"},
            "ratio": {"type": "number", "default": 1.5},
            "loud": {"type": "boolean", "default": True},
            "limit": {"type": "integer", "default": None},
            "tags": {"type": "array", "items": {"type": "string"}},
            "mode": {"enum": ["fast", "slow"], "default": "fast"},
            "anything": {"default": 3},
        },
        "additionalProperties": False,
        "required": ["count"],
    }


def test_an_unresolvable_hint_leaves_the_parameters_untyped():
    def later(x: NotDefinedAnywhere, y: int = 1) -> str:  # noqa: F821 - the name is missing on purpose
        """Uses a forward reference that never resolves."""
        return ""

    assert function_spec(later, "f.py").parameters == {
        "type": "object",
        "properties": {"x": {}, "y": {"default": 1}},
        "additionalProperties": False,
        "required": ["x"],
    }


def test_a_result_is_text_as_it_is_or_json():
    assert as_text("plain") == "plain"
    assert as_text(None) == "null" and as_text(True) == "true" and as_text(2.5) == "2.5"
    assert as_text(datetime.date(2024, 5, 1)) == '"2024-05-01"'
    assert as_text({"ok": True, "word": "한국어"}) == '{"ok": true, "word": "한국어"}'
    assert as_text([datetime.date(2024, 5, 1)]) == '["2024-05-01"]'  # what JSON cannot hold goes as its str
    looped: list[Any] = []
    looped.append(looped)
    assert as_text(looped) == "[[...]]"  # JSON gives up on a loop: its str


def test_a_function_tool_runs_in_a_named_daemon_thread_and_raises_what_the_function_raised():
    def whoami(greeting: str = "hi") -> str:
        """Says where it runs."""
        thread = threading.current_thread()
        return f"{greeting} from {thread.name}, daemon={thread.daemon}"

    def explode() -> str:
        """Fails."""
        raise KeyError("gone")

    tool = FunctionTool(whoami, "lib")
    assert tool.spec == function_spec(whoami, "lib") and tool.spec.source == "lib"
    assert tool.run({"greeting": "hello"}, 5) == "hello from tool-whoami, daemon=True"
    with pytest.raises(KeyError, match="gone"):
        FunctionTool(explode, "lib").run({}, 5)


def test_a_function_tool_that_outlives_its_timeout_is_abandoned():
    release = threading.Event()

    def stuck() -> str:
        """Waits to be released."""
        release.wait(10)
        return "late"

    started = time.monotonic()
    try:
        with pytest.raises(ToolFailed) as raised:
            FunctionTool(stuck, "lib").run({}, 0.2)
    finally:
        release.set()
    assert raised.value.message == "stuck did not finish within 0.2 seconds"
    assert time.monotonic() - started < 5


IMPORTED = '''
from __future__ import annotations

import dataclasses
from os.path import join


@dataclasses.dataclass
class Point:
    x: int
    scale: dataclasses.InitVar[int] = 1  # dataclasses look this module up in sys.modules while it loads


LIMIT = 3


def add(a: int, b: int = 2) -> int:
    """Add."""
    return a + b


def _hidden() -> None:
    pass


def where() -> str:
    """The point."""
    return str(Point(4))
'''


def test_import_functions_returns_the_public_functions_the_file_defines(tmp_path):
    path = tmp_path / "imported.py"
    path.write_text(IMPORTED)
    functions = import_functions(str(path))
    assert list(functions) == ["add", "where"]  # not join (imported), Point, LIMIT or _hidden
    assert functions["add"](40) == 42 and functions["where"]() == "Point(x=4)"


def test_each_imported_file_is_a_module_of_its_own(tmp_path):
    (tmp_path / "one.py").write_text("def first() -> str:\n    return 'one'\n")
    (tmp_path / "two.py").write_text("def second() -> str:\n    return 'two'\n")
    first = import_functions(str(tmp_path / "one.py"))["first"]
    second = import_functions(str(tmp_path / "two.py"))["second"]
    assert first.__module__ != second.__module__
    assert sys.modules[first.__module__].__file__ == str(tmp_path / "one.py")
    assert sys.modules[second.__module__].__file__ == str(tmp_path / "two.py")


def test_import_functions_says_exactly_why_a_file_cannot_be_used(tmp_path):
    def reason(path: Path) -> str:
        with pytest.raises(ToolSourceError) as raised:
            import_functions(str(path))
        return raised.value.message

    assert reason(tmp_path / "missing.py") == f"--functions {tmp_path / 'missing.py'}: no such file"
    (tmp_path / "notes.txt").write_text("def f():\n    return 1\n")
    assert reason(tmp_path / "notes.txt") == f"--functions {tmp_path / 'notes.txt'}: not a Python file"
    (tmp_path / "empty.py").write_text("import os\nX = 1\n")
    assert reason(tmp_path / "empty.py") == f"--functions {tmp_path / 'empty.py'} defines no public functions"
    (tmp_path / "bad.py").write_text("raise ValueError('no config')\n")
    loaded_before = set(sys.modules)
    assert reason(tmp_path / "bad.py") == f"--functions {tmp_path / 'bad.py'} failed to load: ValueError: no config"
    assert set(sys.modules) == loaded_before  # the half-loaded module is not left behind
    (tmp_path / "leaves.py").write_text("import sys\ndel sys.modules[__name__]\nraise SystemExit(5)\n")
    assert reason(tmp_path / "leaves.py") == f"--functions {tmp_path / 'leaves.py'} failed to load: SystemExit: 5"
