"""The Markdown transcript (/export) as a reader gets it, byte for byte (the file it goes to: test_output_files)."""

from __future__ import annotations

from chatbot.engine.conversation import Conversation
from chatbot.engine.turn import Turn
from chatbot.storage.export import export_markdown
from chatbot.storage.json_store import JsonStore
from chatbot.storage.session import Session

ESC = "\x1b"


def session_of(
    turns: list[Turn], *, title: str = "", summary: str = "", covers: int = 0, system: str = "Be brief.", counter=None
) -> Session:
    conv = Conversation(system, counter=counter, turns=turns, summary=summary, summary_covers=covers)
    return Session(
        "t1",
        conv,
        title=title,
        provider="groq",
        model="m1",
        created_at="2026-11-30T08:00:00+00:00",
        updated_at="2026-11-30T09:00:00+00:00",
    )


def exchange(user: object, reply: str, *, interrupted: bool = False) -> Turn:
    return Turn([{"role": "user", "content": user}, {"role": "assistant", "content": reply}], interrupted=interrupted)


def test_the_whole_transcript_of_a_summarized_session_with_tools(counter):
    """Header, quoted system message and summary, turns numbered from 1, the covered and interrupted marks, tool
    calls and results, and of a multimodal message its text parts, and how many images it carried."""
    call = {"id": "c1", "type": "function", "function": {"name": "add", "arguments": '{"a":1}'}}
    tool_turn = Turn(
        [
            {"role": "user", "content": [{"type": "text", "text": "look"}, {"type": "image_url", "image_url": {}}]},
            {"role": "assistant", "content": None, "tool_calls": [call]},
            {"role": "tool", "tool_call_id": "c1", "content": "2"},
            {"role": "assistant", "content": "It is 2."},
        ]
    )
    turns = [exchange("one", "1"), tool_turn, exchange("three", "", interrupted=True)]
    session = session_of(turns, summary="- counting\n\n- adding", covers=2, counter=counter)
    assert export_markdown(session) == (
        "# Session t1\n"
        "\n"
        "- Session: `t1`\n"
        "- Provider / model: groq / m1\n"
        "- Created: 2026-11-30T08:00:00+00:00 · last saved: 2026-11-30T09:00:00+00:00\n"
        "- Turns: 3\n"
        "\n"
        "## System message\n"
        "\n"
        "> Be brief.\n"
        "\n"
        "## Summary of turns 1-2\n"
        "\n"
        "> **Summary** written by the assistant's memory; it stands in for turns 1-2 in requests. Those turns are "
        "still stored and listed in full below.\n"
        ">\n"
        "> - counting\n"
        ">\n"
        "> - adding\n"
        "\n"
        "## Turn 1 (covered by the summary)\n"
        "\n"
        "**User:**\n\none\n\n**Assistant:**\n\n1\n"
        "\n"
        "## Turn 2 (covered by the summary)\n"
        "\n"
        "**User:**\n\nlook\n\n*(1 image(s) attached)*\n\n"
        '*Tool call* `add`: `{"a":1}`\n\n'
        "**Tool result** (c1):\n\n```\n2\n```\n\n"
        "**Assistant:**\n\nIt is 2.\n"
        "\n"
        "## Turn 3 (interrupted)\n"
        "\n"
        "**User:**\n\nthree\n\n"
        "*(interrupted: the reply was cut off before it finished)*\n"
    )


def test_an_empty_system_message_is_one_quote_mark_and_a_title_heads_the_page(counter):
    md = export_markdown(session_of([exchange("hi", "yo")], title="Trip", system="", counter=counter))
    assert md.startswith("# Trip\n\n")
    assert "## System message\n\n>\n\n## Turn 1\n\n**User:**\n\nhi\n\n**Assistant:**\n\nyo\n" in md


def test_a_tool_result_is_named_by_its_tool_and_a_call_without_function_by_a_mark(counter):
    calls = [{"id": "c9", "type": "function"}]
    turn = Turn(
        [
            {"role": "user", "content": "go"},
            {"role": "assistant", "content": "", "tool_calls": calls},
            {"role": "tool", "tool_call_id": "c9", "name": "clock", "content": None},
            {"role": "assistant", "content": "done"},
        ]
    )
    md = export_markdown(session_of([turn], counter=counter))
    assert "**User:**\n\ngo\n\n*Tool call* `?`: ``\n\n**Tool result** (clock):\n\n```\n\n```\n\n**Assistant:**" in md


def test_an_exported_transcript_holds_no_escape_sequences(tmp_path):
    from chatbot.engine.turn import Turn

    store = JsonStore(tmp_path / "s")
    session = store.create("e", system="sys")
    session.conversation.add_turn(
        Turn([{"role": "user", "content": f"hi{ESC}[2J"}, {"role": "assistant", "content": f"{ESC}]0;TITLE\x07ok"}])
    )
    text = export_markdown(session)
    assert ESC not in text and "\x07" not in text and "ok" in text


def test_unknown_provider_and_model_multimodal_text_and_an_unnamed_tool_result(counter):
    """Every message of a turn is kept (two user messages), the text parts of multimodal content are joined by
    lines (a text part without text is an empty line) and its images are counted, and what is unknown is a question
    mark."""
    turn = Turn(
        [
            {"role": "user", "content": "first"},
            {
                "role": "user",
                "content": [
                    {"type": "text", "text": "look"},
                    {"type": "image_url", "image_url": {"url": "data:"}},
                    {"type": "text"},
                    {"type": "text", "text": "here"},
                ],
            },
            {"role": "tool", "content": "42"},
        ],
        interrupted=True,
    )
    conv = Conversation("s", counter=counter, turns=[turn], summary="gist", summary_covers=1)
    md = export_markdown(Session("t2", conv, created_at="c", updated_at="u"))
    assert "- Provider / model: ? / ?\n" in md
    assert md.endswith(
        "## Turn 1 (covered by the summary, interrupted)\n\n**User:**\n\nfirst\n\n**User:**\n\nlook\n\nhere\n\n"
        "*(1 image(s) attached)*\n\n"
        "**Tool result** (?):\n\n```\n42\n```\n\n*(interrupted: the reply was cut off before it finished)*\n"
    )
