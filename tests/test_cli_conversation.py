"""/fork, /edit and /copy in script and one-shot mode, and the request log, through the real CLI."""

from __future__ import annotations

import json

from tests.support.cli import one_error_line, run_chatbot, session_doc
from tests.support.fake_server import FakeServer


def user_texts(doc: dict) -> list[str]:
    return [t["messages"][0]["content"] for t in doc["turns"]]


def test_fork_copies_the_session_and_switches_to_it(tmp_path):
    script = "one\n/set seed 7\n/fork branch\ntwo\n"
    result = run_chatbot("--provider", "echo", "--session", "main", stdin=script, cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert "forked main into branch (1 turn(s)); now in branch" in result.stderr
    main, branch = session_doc(tmp_path, "main"), session_doc(tmp_path, "branch")
    assert user_texts(main) == ["one"] and user_texts(branch) == ["one", "two"]
    assert branch["options"] == {"seed": 7} and branch["title"] == "fork of main"
    assert branch["system"] == main["system"]


def test_fork_without_an_id_makes_one_and_refuses_a_taken_id(tmp_path):
    run_chatbot("--provider", "echo", "--session", "taken", "-p", "x", cwd=tmp_path)
    result = run_chatbot("--provider", "echo", "--session", "src", stdin="hi\n/fork taken\n/fork\n", cwd=tmp_path)
    assert "session taken exists already" in result.stderr and result.returncode == 2
    ids = sorted(p.stem for p in (tmp_path / "sessions").glob("*.json"))
    assert len(ids) == 3 and {"src", "taken"} < set(ids)


def test_edit_with_text_replaces_the_last_turn(tmp_path):
    script = "first\nsecnod\n/edit second\n"
    result = run_chatbot("--provider", "echo", "--session", "e", stdin=script, cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert user_texts(session_doc(tmp_path, "e")) == ["first", "second"]


def test_edit_keeps_the_images_of_the_message_it_replaces(tmp_path):
    from tests.support.images import png

    (tmp_path / "p.png").write_bytes(png(10, 10))
    script = "/file p.png\nwhat colour?\n/edit what shape?\n"
    result = run_chatbot("--provider", "echo", "--session", "ei", stdin=script, cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    (turn,) = session_doc(tmp_path, "ei")["turns"]
    text, image = turn["messages"][0]["content"]
    assert text == {"type": "text", "text": "what shape?"} and image["type"] == "image_url"


def test_bare_edit_in_a_script_and_with_nothing_to_edit_are_clear(tmp_path):
    empty = run_chatbot("--provider", "echo", stdin="/edit\n", cwd=tmp_path)
    assert empty.returncode == 2 and "nothing to edit yet" in one_error_line(empty)
    bare = run_chatbot("--provider", "echo", stdin="hi\n/edit\n", cwd=tmp_path)
    assert bare.returncode == 2 and "/edit NEW MESSAGE" in one_error_line(bare)


def test_copy_without_a_terminal_says_so(tmp_path):
    result = run_chatbot("--provider", "echo", stdin="/copy\nhi\n/copy code\n/copy\n", cwd=tmp_path)
    lines = [s for s in result.stderr.splitlines() if not s.startswith("chatbot: session ")]
    assert lines == [
        "chatbot: no reply to copy yet",
        "chatbot: the last reply has no fenced code block",
        "chatbot: /copy needs a terminal (it sends OSC 52 to it); stderr is not one",
    ]
    assert result.returncode == 2


def test_request_log_has_one_line_per_call_and_never_the_text_or_key(tmp_path):
    log = tmp_path / "requests.jsonl"
    secret = "sk-test-never-logged-123"
    with FakeServer(reply="fine answer words") as server:
        for i in range(4):
            result = run_chatbot(
                "--provider", "openai", "--base-url", server.base_url, "--session", "lg", "--summary-trigger", "2",
                "--keep-turns", "1", "--log-requests", str(log), "-p", f"secret-question-{i}", cwd=tmp_path,
                env={"OPENAI_API_KEY": secret},
            )  # fmt: skip
            assert result.returncode == 0, result.stderr
    raw = log.read_text()
    assert secret not in raw and "secret-question" not in raw and "fine answer" not in raw
    records = [json.loads(line) for line in raw.splitlines()]
    kinds = [r["kind"] for r in records]
    assert kinds == ["chat", "chat", "chat", "summary", "chat"]  # turn 4 folds turns 1-2 first
    chat, summary = records[0], records[3]
    assert chat["session"] == "lg" and chat["model"] == "gpt-4o-mini" and chat["strategy"] == "summary"
    assert chat["request_tokens"]["provider"] > 0 and chat["request_tokens"]["estimate"] > 0
    assert chat["completion_tokens"] == {"provider": 3, "estimate": chat["completion_tokens"]["estimate"]}
    assert chat["ttft"] is not None and chat["latency"] >= chat["ttft"] and chat["ok"] is True
    assert chat["finish_reason"] == "stop" and summary["request_tokens"]["estimate"] > 0
    assert summary["summarized"] == 2 and records[4]["summarized"] == 2 and records[4]["dropped"] == 0
    assert (log.stat().st_mode & 0o777) == 0o600


def test_request_log_records_a_failed_call(tmp_path):
    log = tmp_path / "log.jsonl"
    with FakeServer(error="auth") as server:
        result = run_chatbot(
            "--provider", "openai", "--base-url", server.base_url, "--log-requests", str(log), "-p", "hi",
            cwd=tmp_path, env={"OPENAI_API_KEY": "k"},
        )  # fmt: skip
    assert result.returncode == 5
    (record,) = [json.loads(line) for line in log.read_text().splitlines()]
    assert (
        record["ok"] is False
        and record["error"] == "AuthenticationError"
        and record["request_tokens"]["provider"] is None
    )


def test_request_log_in_an_unwritable_place_is_one_line(tmp_path):
    result = run_chatbot("--provider", "echo", "--log-requests", str(tmp_path / "no" / "dir.jsonl"), "-p", "hi",
                         cwd=tmp_path)  # fmt: skip
    assert result.returncode == 2 and "cannot open the request log" in one_error_line(result)
