"""A server that leaves system messages out (llama-cpp-python's ``gemma`` chat format), through the real CLI: once
its counts show the drop, the system prompt and the rolling summary ride at the head of the first user message of
every later request, the user is told once, and the session remembers it; a server that keeps system messages gets
them as before."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from chatbot.core.budget import DROPS_SYSTEM_NOTICE
from chatbot.engine.summary_prompt import is_summary_request
from tests.support.cli import assert_clean, run_chatbot, session_doc
from tests.support.fake_server import FakeServer

OPENAI = {"OPENAI_API_KEY": "test"}
SYSTEM = "You are a careful bookkeeper who answers in plain words."
TOPICS = ("rent", "food", "transport", "savings", "insurance", "heating", "phone", "repairs", "gifts", "travel")
MARKER = "LEDGER-TALLY-42"
#: what the fake model writes when asked for a summary: long enough that a server's count shows it missing (a tenth
#: of the request or more), shorter than the turns it replaces; its marker shows where it reached the server
SUMMARY = f"- The user keeps a household ledger; the marker is {MARKER}.\n" + "".join(
    f"- The {topic} line is checked every month and written down before the next one.\n" for topic in TOPICS * 2
)


def message(n: int) -> str:
    topic = TOPICS[n % len(TOPICS)]
    return f"Step {n}: tell me about {topic}. " + " ".join(f"The {topic} line {k} matters to me." for k in range(40))


def run(server: FakeServer, tmp_path: Path, stdin: str) -> Any:
    """The CLI in script mode on session ``s`` under summary memory (fold after two turns, keep one)."""
    done = run_chatbot(
        "--provider", "openai", "--base-url", server.base_url, "--session", "s", "--system", SYSTEM,
        "--summary-trigger", "2", "--keep-turns", "1", stdin=stdin, cwd=tmp_path, env=OPENAI,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert_clean(done)
    return done


def converse(tmp_path: Path, *, system_role: bool) -> tuple[Any, list[list[dict[str, Any]]]]:
    """Ten turns against a server that keeps or drops system messages; (the finished process, the messages of each
    chat request the server saw)."""
    reply = "Noted: " + "the ledger holds it. " * 12
    with FakeServer(reply=reply, whole_reply=SUMMARY, system_role=system_role) as server:
        done = run(server, tmp_path, "".join(f"{message(n)}\n" for n in range(1, 11)))
        requests = server.record.requests
    return done, [r["messages"] for r in requests if not is_summary_request(r["messages"])]


def test_after_the_drop_is_seen_the_summary_and_system_prompt_ride_in_the_first_user_message(tmp_path):
    done, chats = converse(tmp_path, system_role=False)
    assert done.stderr.count(DROPS_SYSTEM_NOTICE) == 1
    # the first request whose system message held the summary showed the drop (the server counted only the rest)
    seen = next(i for i, messages in enumerate(chats) if MARKER in messages[0]["content"])
    assert all(messages[0]["role"] == "system" for messages in chats[: seen + 1])
    carried = chats[seen + 1 :]
    assert len(carried) >= 4
    for messages in carried:
        first = messages[0]
        assert first["role"] == "user" and all(m["role"] != "system" for m in messages)
        # the system prompt, the summary, a blank line, then the user's own text
        text = first["content"]
        assert text.startswith(f"{SYSTEM}\n\n") and MARKER in text
        assert any(text.endswith(f"\n\n{message(n)}") for n in range(1, 11))
    doc = session_doc(tmp_path, "s")
    assert [c.get("drops_system") for c in doc["calibration"].values()] == [True]


def test_a_session_that_learned_the_drop_carries_the_system_text_from_its_first_request_when_resumed(tmp_path):
    converse(tmp_path, system_role=False)
    with FakeServer(reply="Noted.", system_role=False) as server:
        done = run(server, tmp_path, "And what comes next?\n")
        (messages,) = [r["messages"] for r in server.record.requests]
    assert DROPS_SYSTEM_NOTICE not in done.stderr  # told once: the session keeps what its server taught
    assert messages[0]["role"] == "user" and messages[0]["content"].startswith(f"{SYSTEM}\n\n")
    assert MARKER in messages[0]["content"] and messages[-1]["content"] == "And what comes next?"


def test_a_server_that_keeps_system_messages_gets_the_summary_in_the_system_message_as_before(tmp_path):
    done, chats = converse(tmp_path, system_role=True)
    assert DROPS_SYSTEM_NOTICE not in done.stderr
    assert all(messages[0] == {"role": "system", "content": messages[0]["content"]} for messages in chats)
    assert all(messages[0]["content"].startswith(SYSTEM) for messages in chats)
    assert sum(MARKER in messages[0]["content"] for messages in chats) >= 5
    assert not any(MARKER in m["content"] for messages in chats for m in messages[1:])
    doc = session_doc(tmp_path, "s")
    assert all("drops_system" not in c for c in doc["calibration"].values())
