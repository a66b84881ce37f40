"""Piped context and attached files through the real CLI: what the server receives, what the session keeps."""

from __future__ import annotations

import pytest

from chatbot.engine.tokens import image_tokens_for_size
from tests.support.cli import one_error_line, run_chatbot, session_doc
from tests.support.fake_server import FakeServer
from tests.support.images import png


def openai_args(server: FakeServer, *more: str) -> list[str]:
    return ["--provider", "openai", "--base-url", server.base_url, *more]


def test_piped_text_goes_before_the_prompt_in_one_user_message(tmp_path):
    with FakeServer(reply="two lines") as server:
        result = run_chatbot(
            *openai_args(server, "--session", "p", "-p", "summarize"), stdin="line A\nline B\n", cwd=tmp_path
        )
        sent = server.record.last_request()["messages"]
    assert result.returncode == 0, result.stderr
    assert result.stdout == "two lines\n"
    assert sent[-1] == {"role": "user", "content": "```stdin\nline A\nline B\n```\n\nsummarize"}
    assert session_doc(tmp_path, "p")["turns"][0]["messages"][0] == sent[-1]


def test_piped_text_holding_fences_gets_a_longer_fence(tmp_path):
    text = "```python\nprint(1)\n```\n"
    result = run_chatbot("--provider", "echo", "--session", "f", "-p", "explain", stdin=text, cwd=tmp_path)
    sent = session_doc(tmp_path, "f")["turns"][0]["messages"][0]["content"]
    assert result.returncode == 0 and sent == f"````stdin\n{text}````\n\nexplain"


def test_empty_stdin_with_p_sends_only_the_prompt(tmp_path):
    result = run_chatbot("--provider", "echo", "--session", "e", "-p", "hi", stdin="", cwd=tmp_path)
    assert result.returncode == 0
    assert session_doc(tmp_path, "e")["turns"][0]["messages"][0]["content"] == "hi"


def test_piped_text_counts_against_the_budget_and_nothing_is_sent(tmp_path):
    with FakeServer() as server:
        result = run_chatbot(
            *openai_args(server, "--max-input-tokens", "100", "-p", "summarize"), stdin="word " * 500, cwd=tmp_path
        )
        assert server.record.requests == []
    assert result.returncode == 4
    line = one_error_line(result)
    assert "budget" in line and "100" in line


def test_undecodable_piped_input_is_one_clear_error(tmp_path):
    result = run_chatbot("--provider", "echo", "-p", "summarize", stdin=b"ok \xff\xfe", cwd=tmp_path)
    assert result.returncode == 2
    assert "not UTF-8" in one_error_line(result) and "offset 3" in result.stderr


def test_without_p_piped_stdin_stays_script_mode(tmp_path):
    result = run_chatbot("--provider", "echo", "--session", "s", stdin="one\ntwo\n", cwd=tmp_path)
    turns = session_doc(tmp_path, "s")["turns"]
    assert result.returncode == 0 and [t["messages"][0]["content"] for t in turns] == ["one", "two"]


def test_files_are_fenced_with_their_names_in_order(tmp_path):
    (tmp_path / "a.py").write_text("x = 1\n")
    (tmp_path / "notes.md").write_text("# Notes\n")
    result = run_chatbot(
        "--provider", "echo", "--session", "fl", "-f", "a.py", "-f", "notes.md", "-p", "compare", cwd=tmp_path
    )
    assert result.returncode == 0, result.stderr
    content = session_doc(tmp_path, "fl")["turns"][0]["messages"][0]["content"]
    assert content == "```a.py\nx = 1\n```\n\n```notes.md\n# Notes\n```\n\ncompare"


def test_an_image_becomes_an_image_part_counted_by_its_size(tmp_path):
    (tmp_path / "shot.png").write_bytes(png(1024, 1024))
    with FakeServer(reply="a grey square") as server:
        result = run_chatbot(
            *openai_args(server, "--session", "img", "-f", "shot.png", "-p", "what is it?", "--json"), cwd=tmp_path
        )
        sent = server.record.last_request()["messages"][-1]
    assert result.returncode == 0, result.stderr
    text, image = sent["content"]
    assert text == {"type": "text", "text": "what is it?"}
    assert image["type"] == "image_url" and image["image_url"]["url"].startswith("data:image/png;base64,")
    stored = session_doc(tmp_path, "img")["turns"][0]
    assert stored["messages"][0] == sent  # the session keeps what was sent
    # 1024x1024 -> 768x768 -> 4 tiles: 85 + 4 * 170 tokens, plus the text and the chat format
    assert image_tokens_for_size(1024, 1024) == 765
    assert stored["usage"]["estimated_prompt_tokens"] > 765


@pytest.mark.parametrize(
    ("make", "expected"),
    [
        (lambda p: p.mkdir(), "thing has no text file to attach"),  # an empty folder
        (lambda p: p.write_bytes(b"\x7fELF\x00\x00binary"), "is binary"),
        (lambda p: p.write_bytes(b"caf\xe9 latin-1"), "not UTF-8"),
        (lambda p: p.write_text("a" * 600_000), "at most 524,288"),
        (lambda p: None, "No such file"),
    ],
)
def test_bad_files_get_one_clear_line_and_nothing_is_sent(tmp_path, make, expected):
    make(tmp_path / "thing")
    result = run_chatbot("--provider", "echo", "--session", "bad", "-f", "thing", "-p", "look", cwd=tmp_path)
    assert result.returncode == 2
    assert expected in one_error_line(result)
    assert not (tmp_path / "sessions" / "bad.json").exists()


def test_file_command_in_script_mode_attaches_to_the_next_message_only(tmp_path):
    (tmp_path / "data.csv").write_text("a,b\n1,2\n")
    script = "/file data.csv\n/file\nwhat is in it?\nand now?\n/file missing.txt\n"
    result = run_chatbot("--provider", "echo", "--session", "sf", stdin=script, cwd=tmp_path)
    turns = session_doc(tmp_path, "sf")["turns"]
    assert turns[0]["messages"][0]["content"] == "```data.csv\na,b\n1,2\n```\n\nwhat is in it?"
    assert turns[1]["messages"][0]["content"] == "and now?"
    assert "attached to your next message: data.csv (2 lines)" in result.stdout
    assert "cannot read missing.txt" in result.stderr and result.returncode == 2


def test_f_without_p_is_refused(tmp_path):
    result = run_chatbot("--provider", "echo", "-f", "x.txt", cwd=tmp_path)
    assert result.returncode == 2 and "-f/--file works with -p" in one_error_line(result)
