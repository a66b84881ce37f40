"""The Markdown transcript of a session (``/export``): the same for every store."""

from __future__ import annotations

from chatbot.engine.turn import Turn, content_text, images_in
from chatbot.storage.session import Session
from chatbot.text import clean


def export_markdown(session: Session) -> str:
    """A Markdown transcript: header, system message, the summary (marked, with the turns it covers), every turn."""
    conv = session.conversation
    out = [f"# {session.title or 'Session ' + session.id}", ""]
    out += [
        f"- Session: `{session.id}`",
        f"- Provider / model: {session.provider or '?'} / {session.model or '?'}",
        f"- Created: {session.created_at} · last saved: {session.updated_at}",
        f"- Turns: {len(conv.turns)}",
        "",
        "## System message",
        "",
        _quote(conv.system),
        "",
    ]
    if conv.summary:
        covers = conv.summary_covers
        out += [
            f"## Summary of turns 1-{covers}",
            "",
            f"> **Summary** written by the assistant's memory; it stands in for turns 1-{covers} in requests. "
            "Those turns are still stored and listed in full below.",
            ">",
            _quote(conv.summary),
            "",
        ]
    for i, turn in enumerate(conv.turns, start=1):
        notes = []
        if i <= conv.summary_covers and conv.summary:
            notes.append("covered by the summary")
        if turn.interrupted:
            notes.append("interrupted")
        out += [f"## Turn {i}" + (f" ({', '.join(notes)})" if notes else ""), ""]
        out += _render_turn(turn)
    # a transcript is for reading: no escape sequence from a reply or a file reaches whoever cats it
    return clean("\n".join(out).rstrip() + "\n")


def _render_turn(turn: Turn) -> list[str]:
    out: list[str] = []
    for m in turn.messages:
        role = m.get("role")
        text = content_text(m.get("content"))
        if role == "user":
            images = images_in(m.get("content"))
            out += ["**User:**", "", text, *(["", f"*({images} image(s) attached)*"] if images else []), ""]
        elif role == "assistant":
            if text:
                out += ["**Assistant:**", "", text, ""]
            for call in m.get("tool_calls") or []:
                fn = call.get("function") or {}
                out += [f"*Tool call* `{fn.get('name', '?')}`: `{fn.get('arguments', '')}`", ""]
        elif role == "tool":
            out += [f"**Tool result** ({m.get('name') or m.get('tool_call_id') or '?'}):", "", "```", text, "```", ""]
    if turn.interrupted:
        out += ["*(interrupted: the reply was cut off before it finished)*", ""]
    return out


def _quote(text: str) -> str:
    return "\n".join(f"> {line}" if line else ">" for line in text.splitlines() or [""])
