"""What a tool is: its spec in the OpenAI shape, the defaults every tool has, and how a call is shown."""

from __future__ import annotations

from chatbot.tools.base import ToolOutcome, ToolSpec, describe_call
from chatbot.tools.functions import FunctionTool


def test_a_spec_in_the_openai_tools_shape():
    parameters = {"type": "object", "properties": {"q": {"type": "string"}}, "required": ["q"]}
    assert ToolSpec("search", "Searches.", parameters, "tools.py").to_openai() == {
        "type": "function",
        "function": {"name": "search", "description": "Searches.", "parameters": parameters},
    }


def test_a_spec_without_parameters_takes_none_and_comes_from_nowhere():
    spec = ToolSpec("now", "The time.")
    assert spec.parameters == {"type": "object", "properties": {}} and spec.source == ""
    assert spec.to_openai()["function"]["parameters"] == {"type": "object", "properties": {}}


def test_a_tool_is_available_and_has_nothing_to_release_unless_it_says_otherwise():
    def now() -> str:
        """The time."""
        return "noon"

    tool = FunctionTool(now, "lib")
    assert tool.available is True
    assert tool.close() is None
    assert tool.available is True  # closing a plain function changes nothing


def test_an_outcome_is_a_quiet_success_unless_told():
    assert ToolOutcome("now", "noon") == ToolOutcome("now", "noon", error=False, notice="")


def test_a_call_is_shown_on_one_line_of_at_most_100_columns():
    assert describe_call("search", '{"q": "kimchi"}') == 'search({"q": "kimchi"})'
    assert describe_call("search", '{\n  "q": "two\\nlines"\n}') == 'search({ "q": "two\\nlines" })'
    long = describe_call("search", '{"q": "' + "x" * 200 + '"}')
    assert long == 'search({"q": "' + "x" * 85 + "…" and len(long) == 100
    assert describe_call("search", '{"q": "' + "x" * 200 + '"}', width=20) == 'search({"q": "xxxxx…'
