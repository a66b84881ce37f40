"""/fork, /edit and /copy in script and one-shot mode, and the request log, through the real CLI."""

from __future__ import annotations

from tests.support.cli import one_error_line, run_chatbot, session_doc


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
