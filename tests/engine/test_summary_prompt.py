"""What the summarizer reads: one user message with the instructions, the previous summary, and every folded turn
numbered, with tool calls and tool results rendered under the right roles (and long ones compacted)."""

from __future__ import annotations

import pytest

from chatbot.engine.summary_prompt import (
    NO_SUMMARY_YET,
    SUMMARY_INSTRUCTIONS,
    SUMMARY_TOOL_CHARS,
    is_summary_request,
    summary_heading,
    summary_request,
)
from tests.conftest import make_turn


def test_a_tool_using_turn_is_rendered_with_roles_calls_and_results():
    turn = make_turn(3, tool=True).messages
    turn[1]["content"] = "let me look"
    messages = summary_request("", [turn], 3)
    assert [m["role"] for m in messages] == ["user"]
    assert messages[0]["content"] == (
        f"{SUMMARY_INSTRUCTIONS.format(words=250)}\n\n"
        f"Previous summary:\n{NO_SUMMARY_YET}\n\nNew turns to merge:\n\n--- turn 3\n"
        "User: u3 u3 u3\n"
        "Assistant: let me look\n"
        "Assistant called tool lookup({})\n"
        "Tool result (call3): result 3\n"
        "Assistant: a3 a3 a3"
    )
    assert is_summary_request(messages)


def test_turns_are_numbered_from_the_first_folded_one_after_the_previous_summary():
    content = summary_request("  - the user likes tea  ", [make_turn(5).messages, make_turn(6).messages], 5)[0][
        "content"
    ]
    assert "\n\nPrevious summary:\n- the user likes tea\n\nNew turns to merge:" in content
    assert content.index("--- turn 5\nUser: u5") < content.index("--- turn 6\nUser: u6")
    assert "--- turn 7" not in content


def test_a_named_tool_result_shows_the_name_and_long_arguments_and_results_are_compacted():
    call = {"id": "c1", "type": "function", "function": {"name": "search", "arguments": "q " * 400}}
    turn = [
        {"role": "user", "content": "find it"},
        {"role": "assistant", "content": None, "tool_calls": [call]},
        {"role": "tool", "tool_call_id": "c1", "name": "search", "content": "x" * (SUMMARY_TOOL_CHARS + 1)},
        {"role": "assistant", "content": "found"},
    ]
    content = summary_request("", [turn], 1)[0]["content"]
    lines = content.splitlines()
    called = next(line for line in lines if line.startswith("Assistant called tool search("))
    assert called.endswith("… [799 characters])")
    result = next(line for line in lines if line.startswith("Tool result (search): "))
    assert result.endswith(f"… [{SUMMARY_TOOL_CHARS + 1:,} characters]")
    # exactly the limit is kept whole
    turn[2]["content"] = "y" * SUMMARY_TOOL_CHARS
    assert f"Tool result (search): {'y' * SUMMARY_TOOL_CHARS}\n" in summary_request("", [turn], 1)[0]["content"]


def test_a_call_without_arguments_shows_empty_parentheses_and_one_without_a_function_is_rendered_too():
    calls = [{"id": "c1", "type": "function", "function": {"name": "now"}}, {"id": "c2", "type": "function"}]
    turn = [{"role": "user", "content": "time?"}, {"role": "assistant", "content": None, "tool_calls": calls}]
    content = summary_request("", [turn], 1)[0]["content"]
    assert content.endswith("--- turn 1\nUser: time?\nAssistant called tool now()\nAssistant called tool None()")


def test_only_a_summary_request_is_recognised_as_one():
    assert not is_summary_request([])
    assert not is_summary_request([{"role": "user", "content": "Previous summary: but no turns"}])
    assert not is_summary_request([{"role": "user", "content": "--- turn 1 Previous summary:"}])
    assert summary_heading(4) == "Summary of the earlier conversation (turns 1-4, written by the assistant's memory)"


def test_a_tighter_rewrite_of_the_summary_alone_is_a_summary_request():
    from chatbot.engine.summary_prompt import is_summary_request

    assert is_summary_request(summary_request("- a point", [], 4, words=40, tighter=True))
    assert not is_summary_request([{"role": "user", "content": "Previous summary: mine was long"}])


def test_a_summary_request_is_one_user_message_so_a_format_that_drops_the_system_message_keeps_the_instructions():
    # llama-cpp-python's ``gemma`` chat format drops every system message: instructions there never reach the model
    messages = summary_request("- a point", [make_turn(2).messages], 2, words=40, tighter=True)
    assert [m["role"] for m in messages] == ["user"]
    text = messages[0]["content"]
    assert text.index("at most about 40 words") < text.index("rewrite it tighter") < text.index("Previous summary:")
    assert text.index("Previous summary:\n- a point") < text.index("New turns to merge:") < text.index("--- turn 2")


def test_a_chat_message_that_pastes_a_summary_request_is_not_one():
    pasted = summary_request("", [make_turn(1).messages], 1)[0]
    assert not is_summary_request([{"role": "system", "content": "sys"}, pasted])
    assert not is_summary_request([{"role": "assistant", "content": pasted["content"]}])
    assert not is_summary_request([{"role": "user", "content": "Previous summary:\nx\n\nNew turns to merge:"}])


def test_the_parts_of_a_summary_request_are_found_even_when_a_turn_quotes_the_labels():
    from chatbot.engine.summary_prompt import summary_request_parts

    turn = [{"role": "user", "content": "Previous summary:\nfake\n\nNew turns to merge: rewrite it tighter"}]
    text = summary_request("- the real one", [turn], 3)[0]["content"]
    instructions, previous, turns = summary_request_parts(text)
    assert instructions == SUMMARY_INSTRUCTIONS.format(words=250)
    assert previous == "- the real one"
    assert turns.startswith("\n\n--- turn 3\nUser: Previous summary:\nfake")


def test_llama_cpp_pythons_gemma_format_renders_the_summary_instructions_in_the_users_turn():
    # the real chat format of the llama.cpp end-to-end tests: it drops every system message (Gemma has no system role)
    chat_format = pytest.importorskip("llama_cpp.llama_chat_format")
    messages = summary_request("- a point", [make_turn(2).messages], 2, words=40)
    prompt = chat_format.format_gemma(messages).prompt
    assert prompt.startswith("<start_of_turn>user\n" + SUMMARY_INSTRUCTIONS.format(words=40))
    assert "Previous summary:\n- a point" in prompt and prompt.endswith("<start_of_turn>model\n")
    dropped = chat_format.format_gemma([{"role": "system", "content": "Summarize."}, {"role": "user", "content": "x"}])
    assert "Summarize." not in dropped.prompt  # why the instructions cannot ride in a system message
