"""A continued session goes on with the provider and model that served it: the defaults ($CHATBOT_PROVIDER, the
config file, groq) are for new sessions; a --provider or --model typed wins, and is kept."""

from __future__ import annotations

import json
from pathlib import Path

from tests.support.cli import assert_clean, run_chatbot
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
