"""Whose wait the user is told of while a turn's next event is slow in coming: this side's until a model call goes
out, the server's once one has (the summary's named), a tool's while it runs, the session store's while saving."""

from __future__ import annotations

from chatbot.core.events import (
    PREPARE_NOTICE,
    SAVE_NOTICE,
    SUMMARY_WAIT_NOTICE,
    WAIT_NOTICE,
    Asking,
    Saving,
    ToolFinished,
    ToolStarted,
    wait_notice,
)
from chatbot.providers.base import ToolCall


def test_before_any_model_call_the_wait_is_this_sides_work_not_the_servers():
    assert wait_notice(None) == PREPARE_NOTICE
    assert "server" not in PREPARE_NOTICE


def test_once_a_call_goes_out_the_wait_is_the_servers_and_a_summary_says_so():
    assert wait_notice(Asking()) == WAIT_NOTICE
    assert wait_notice(Asking("summary")) == SUMMARY_WAIT_NOTICE


def test_a_running_tool_is_named_and_a_finished_one_leaves_the_next_request_to_be_built():
    call = ToolCall(id="c1", name="slow_tool", arguments="{}")
    assert wait_notice(ToolStarted(call)) == "waiting for the tool slow_tool… (Ctrl-C cancels)"
    assert wait_notice(ToolFinished(call, "done")) == PREPARE_NOTICE


def test_after_the_reply_the_wait_is_the_session_stores():
    assert wait_notice(Saving()) == SAVE_NOTICE
