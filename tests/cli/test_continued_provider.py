"""A continued session goes on with the provider and model that served it: the defaults ($CHATBOT_PROVIDER, the
config file, groq) are for new sessions; a --provider or --model typed wins, and is kept."""

from __future__ import annotations

import json
from pathlib import Path

from tests.support.cli import assert_clean, one_error_line, run_chatbot
from tests.support.fake_server import FakeServer


def stored(tmp_path: Path, session_id: str) -> tuple[str, str]:
    data = json.loads((tmp_path / "sessions" / f"{session_id}.json").read_text())
    return data["provider"], data["model"]


def test_a_session_continued_by_id_keeps_its_provider_without_the_default_providers_key(tmp_path: Path) -> None:
    assert run_chatbot("--provider", "echo", "--session", "k9", "-p", "hi", cwd=tmp_path).returncode == 0
    result = run_chatbot("--session", "k9", "-p", "again", cwd=tmp_path)  # groq is the default; no GROQ_API_KEY
    assert_clean(result)
    assert result.returncode == 0, result.stderr
    assert "Last user message: again" in result.stdout  # echo answered
    assert stored(tmp_path, "k9") == ("echo", "echo")


def test_a_damaged_session_continued_is_named_as_damaged_not_as_the_default_providers_missing_key(
    tmp_path: Path,
) -> None:
    assert run_chatbot("--provider", "echo", "--session", "covers", "-p", "hi", cwd=tmp_path).returncode == 0
    path = tmp_path / "sessions" / "covers.json"
    data = json.loads(path.read_text())
    data["summary"] = {"text": "x", "covers": 99}
    path.write_text(json.dumps(data))
    result = run_chatbot("--session", "covers", "-p", "again", cwd=tmp_path)  # groq is the default; no GROQ_API_KEY
    assert_clean(result)
    assert result.returncode == 3, result.stderr
    assert "summary.covers" in result.stderr and "GROQ_API_KEY" not in result.stderr


def test_continue_keeps_the_newest_sessions_provider_over_the_environments(tmp_path: Path) -> None:
    assert run_chatbot("--provider", "echo", "-p", "hi", cwd=tmp_path).returncode == 0
    result = run_chatbot("-c", "-p", "again", cwd=tmp_path, env={"CHATBOT_PROVIDER": "openai"})
    assert result.returncode == 0, result.stderr
    assert "Last user message: again" in result.stdout


def test_a_continued_session_keeps_its_model_over_the_config_files(tmp_path: Path) -> None:
    with FakeServer(reply="ok") as server:
        (tmp_path / "config.toml").write_text(
            f'provider = "openai"\nbase_url = "{server.base_url}"\nmodel = "config-model"\n'
        )
        env = {"OPENAI_API_KEY": "k"}
        first = run_chatbot("--model", "own-model", "--session", "m", "-p", "hi", cwd=tmp_path, env=env)
        assert first.returncode == 0, first.stderr
        again = run_chatbot("--session", "m", "-p", "again", cwd=tmp_path, env=env)
        assert again.returncode == 0, again.stderr
        assert [body["model"] for body in server.record.requests] == ["own-model", "own-model"]
    assert stored(tmp_path, "m") == ("openai", "own-model")


def test_a_provider_typed_on_a_continued_session_wins_and_is_kept(tmp_path: Path) -> None:
    assert run_chatbot("--provider", "echo", "--session", "p", "-p", "hi", cwd=tmp_path).returncode == 0
    with FakeServer(reply="from the server") as server:
        switched = run_chatbot("--provider", "openai", "--base-url", server.base_url, "--session", "p", "-p", "x",
                               cwd=tmp_path)  # fmt: skip
        assert (switched.returncode, switched.stdout.strip()) == (0, "from the server"), switched.stderr
        assert server.record.requests[-1]["model"] == "gpt-4o-mini"  # openai's default, not echo's model
    assert stored(tmp_path, "p") == ("openai", "gpt-4o-mini")


def test_a_model_typed_on_a_continued_session_wins_and_is_kept(tmp_path: Path) -> None:
    assert run_chatbot("--provider", "echo", "--session", "q", "-p", "hi", cwd=tmp_path).returncode == 0
    assert run_chatbot("--session", "q", "--model", "other", "-p", "x", cwd=tmp_path).returncode == 0
    assert stored(tmp_path, "q") == ("echo", "other")
    assert run_chatbot("--session", "q", "-p", "y", cwd=tmp_path).returncode == 0
    assert stored(tmp_path, "q") == ("echo", "other")


def test_a_new_session_still_takes_the_default_provider(tmp_path: Path) -> None:
    result = run_chatbot("--session", "fresh", "-p", "hi", cwd=tmp_path)
    assert result.returncode == 5
    assert "GROQ_API_KEY is not set" in result.stderr


def test_load_of_another_providers_session_says_who_made_it_who_answers_and_how_to_go_on_with_its_own(
    tmp_path: Path,
) -> None:
    with FakeServer(reply="ok") as server:
        made = run_chatbot("--provider", "openai", "--model", "gpt-4o-mini", "--base-url", server.base_url,
                           "--session", "oa", "-p", "hi", cwd=tmp_path, env={"OPENAI_API_KEY": "k"})  # fmt: skip
        assert made.returncode == 0, made.stderr
    chat = run_chatbot("--provider", "echo", stdin="/load oa\nwho answers?\n", cwd=tmp_path)
    assert chat.returncode == 0, chat.stderr
    assert (
        "session oa was made with openai, model gpt-4o-mini; this chat answers it with echo, model echo (a turn sent "
        "here is stored as echo's, and the session goes on with it); to go on with openai, model gpt-4o-mini "
        "instead: /quit, then chatbot --session oa --provider openai --model gpt-4o-mini"
    ) in chat.stderr
    assert "Last user message: who answers?" in chat.stdout  # echo answered, as it said
    assert stored(tmp_path, "oa") == ("echo", "echo")


def test_load_keeps_a_sessions_own_model_over_the_config_files_and_says_when_a_typed_one_answers(
    tmp_path: Path,
) -> None:
    (tmp_path / "config.toml").write_text('provider = "echo"\nmodel = "config-model"\n')
    assert run_chatbot("--model", "own-model", "--session", "m", "-p", "hi", cwd=tmp_path).returncode == 0
    kept = run_chatbot(stdin="/load m\n/model\n", cwd=tmp_path)
    assert kept.returncode == 0, kept.stderr
    assert "model: own-model (provider echo)" in kept.stdout
    assert "was made with" not in kept.stderr
    typed = run_chatbot("--model", "typed-model", stdin="/load m\n", cwd=tmp_path)
    assert typed.returncode == 0, typed.stderr
    assert (
        "session m was made with echo, model own-model; this chat answers it with echo, model typed-model (a turn "
        "sent here is stored as typed-model's, and the session goes on with it); to go on with echo, model "
        "own-model instead: /model own-model"
    ) in typed.stderr


def made_against(server: FakeServer, tmp_path: Path, session_id: str = "local") -> None:
    """A session made as a user of a local llama.cpp server makes one: --provider openai --base-url, no key."""
    made = run_chatbot("--provider", "openai", "--base-url", server.base_url, "--session", session_id, "-p", "secret",
                       cwd=tmp_path)  # fmt: skip
    assert made.returncode == 0, made.stderr
    assert json.loads((tmp_path / "sessions" / f"{session_id}.json").read_text())["endpoint"] == "custom"


def test_a_session_made_against_another_server_is_refused_when_continued_with_only_the_providers_key(
    tmp_path: Path,
) -> None:
    with FakeServer(reply="ok") as server:
        made_against(server, tmp_path)
        for how in (("-c",), ("--session", "local")):
            refused = run_chatbot(*how, "-p", "more", cwd=tmp_path, env={"OPENAI_API_KEY": "sk-x"})
            assert refused.returncode == 2, refused.stderr  # a config error, before any request
            assert one_error_line(refused) == (
                "chatbot: cannot continue session local: it was made against a server at another address than "
                "openai's own service (the address is not kept with it); give --base-url URL to go on with it there, "
                "or --provider NAME to send it to a provider's own service knowingly"
            )
        assert len(server.record.requests) == 1
    kept = (tmp_path / "sessions" / "local.json").read_text()
    assert "127.0.0.1" not in kept  # the mark, never the address
    assert len(json.loads(kept)["turns"]) == 1


def test_a_session_made_against_another_server_goes_on_with_a_base_url_typed_on_its_own_provider_and_model(
    tmp_path: Path,
) -> None:
    with FakeServer(reply="ok") as server:
        made_against(server, tmp_path)
        key = {"OPENAI_API_KEY": "sk-x"}  # and no --provider: groq is the default provider
        again = run_chatbot("-c", "--base-url", server.base_url, "-p", "more", cwd=tmp_path, env=key)
        assert (again.returncode, again.stdout.strip()) == (0, "ok"), again.stderr
        assert [body["model"] for body in server.record.requests] == ["gpt-4o-mini", "gpt-4o-mini"]
    assert stored(tmp_path, "local") == ("openai", "gpt-4o-mini")


def test_a_session_made_against_another_server_goes_on_with_the_providers_variable_or_the_config_files_base_url(
    tmp_path: Path,
) -> None:
    with FakeServer(reply="ok") as server:
        made_against(server, tmp_path)
        by_variable = run_chatbot("-c", "-p", "more", cwd=tmp_path, env={"OPENAI_BASE_URL": server.base_url})
        assert by_variable.returncode == 0, by_variable.stderr
        (tmp_path / "config.toml").write_text(f'provider = "openai"\nbase_url = "{server.base_url}"\n')
        by_config = run_chatbot("-c", "-p", "again", cwd=tmp_path)
        assert by_config.returncode == 0, by_config.stderr
        assert len(server.record.requests) == 3
    assert json.loads((tmp_path / "sessions" / "local.json").read_text())["endpoint"] == "custom"


def test_a_session_made_against_another_server_goes_to_a_provider_typed_and_loses_its_mark(tmp_path: Path) -> None:
    with FakeServer(reply="ok") as server:
        made_against(server, tmp_path)
    moved = run_chatbot("-c", "--provider", "echo", "-p", "more", cwd=tmp_path)
    assert moved.returncode == 0, moved.stderr
    assert "Last user message: more" in moved.stdout
    data = json.loads((tmp_path / "sessions" / "local.json").read_text())
    assert (data["provider"], data["endpoint"]) == ("echo", "")


def test_a_session_without_the_mark_continued_with_a_base_url_typed_goes_on_there_and_is_marked(
    tmp_path: Path,
) -> None:
    with FakeServer(reply="ok") as server:
        made_against(server, tmp_path)
        path = tmp_path / "sessions" / "local.json"
        data = json.loads(path.read_text())
        del data["endpoint"]  # as a file of an earlier chatbot, or of a session served by openai's own service
        path.write_text(json.dumps(data))
        again = run_chatbot("--session", "local", "--base-url", server.base_url, "-p", "more", cwd=tmp_path)
        assert (again.returncode, again.stdout.strip()) == (0, "ok"), again.stderr
        assert len(server.record.requests) == 2
    assert json.loads(path.read_text())["endpoint"] == "custom"


def test_load_refuses_a_session_made_against_another_server_in_a_chat_at_the_providers_own_service(
    tmp_path: Path,
) -> None:
    with FakeServer(reply="ok") as server:
        made_against(server, tmp_path)
        own = run_chatbot("--provider", "openai", stdin="/load local\n/model\n", cwd=tmp_path,
                          env={"OPENAI_API_KEY": "sk-x"})  # fmt: skip
        assert own.returncode == 2, own.stderr
        assert (
            "session local was not loaded: it was made against a server at another address than openai's own "
            "service, and this chat sends to openai's own service; to go on with it at its server: /quit, then "
            "chatbot --session local --base-url URL"
        ) in own.stderr
        at_a_server = run_chatbot("--provider", "openai", "--base-url", server.base_url, stdin="/load local\nmore\n",
                                  cwd=tmp_path)  # fmt: skip
        assert (at_a_server.returncode, at_a_server.stdout.strip()) == (0, "ok"), at_a_server.stderr
        assert len(server.record.requests) == 2


def stored_before_the_mark(tmp_path: Path, session_id: str, provider: str = "openai") -> Path:
    """A session file as an earlier chatbot wrote it: no endpoint mark (where it was served is not known)."""
    made = run_chatbot("--provider", "echo", "--session", session_id, "-p", "secret", cwd=tmp_path)
    assert made.returncode == 0, made.stderr
    path = tmp_path / "sessions" / f"{session_id}.json"
    data = json.loads(path.read_text())
    del data["endpoint"]
    data["provider"], data["model"] = provider, ""
    path.write_text(json.dumps(data))
    return path


def test_a_session_stored_before_the_mark_is_not_continued_at_a_hosted_service_without_a_word(tmp_path: Path) -> None:
    # it may have been made against a local server: with only the key set, it would go to api.openai.com
    stored_before_the_mark(tmp_path, "old")
    refused = run_chatbot("--session", "old", "-p", "more", cwd=tmp_path, env={"OPENAI_API_KEY": "sk-x"})
    assert refused.returncode == 2, refused.stderr
    assert one_error_line(refused) == (
        "chatbot: cannot continue session old: it was stored before chatbot kept whether a session was served at a "
        "base URL of your own, so it may have been (the address is not kept with it); give --base-url URL to go on "
        "with it there, or --provider NAME to send it to a provider's own service knowingly"
    )


def test_a_session_stored_before_the_mark_goes_on_where_the_user_says_and_keeps_the_mark_from_then_on(
    tmp_path: Path,
) -> None:
    path = stored_before_the_mark(tmp_path, "old")
    with FakeServer(reply="ok") as server:
        again = run_chatbot("--session", "old", "--base-url", server.base_url, "-p", "more", cwd=tmp_path)
        assert (again.returncode, again.stdout.strip()) == (0, "ok"), again.stderr
    assert json.loads(path.read_text())["endpoint"] == "custom"
    stored_before_the_mark(tmp_path, "older")
    moved = run_chatbot("--session", "older", "--provider", "echo", "-p", "more", cwd=tmp_path)
    assert moved.returncode == 0, moved.stderr
    assert json.loads((tmp_path / "sessions" / "older.json").read_text())["endpoint"] == ""


def test_a_session_stored_before_the_mark_of_a_service_on_this_machine_goes_on_as_before(tmp_path: Path) -> None:
    # Ollama's own address is this machine: nothing can leave it, so an older session of it is not held up
    stored_before_the_mark(tmp_path, "llamas", provider="ollama")
    went = run_chatbot("--session", "llamas", "-p", "more", cwd=tmp_path)
    assert "cannot continue" not in went.stderr
    assert went.returncode == 5 and "localhost:11434" in went.stderr  # it went on, to Ollama's address (none here)
