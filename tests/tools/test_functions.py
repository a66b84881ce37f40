"""--functions: plain Python functions become tools (schema from the signature, description from the docstring)."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Literal

import pytest

from chatbot.errors import ToolSourceError
from chatbot.tools.functions import function_spec, json_type, load_functions
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
