"""The library face: ``chatbot`` exports the engine without the terminal, and importing it costs nothing."""

from __future__ import annotations

import subprocess
import sys

import pytest

import chatbot


def test_the_face_is_what_all_says():
    for name in chatbot.__all__:
        assert getattr(chatbot, name) is not None
    with pytest.raises(AttributeError):
        chatbot.Repl  # noqa: B018 - the terminal is not part of the face


def test_the_engine_runs_without_the_terminal():
    code = (
        "import sys; from chatbot import Conversation, MemoryConfig, make_provider, rough_count\n"
        "conv = Conversation('be brief', MemoryConfig(strategy='window', window_turns=1))\n"
        "r = conv.build_request('hello')\n"
        "print(make_provider('echo').complete(r.messages).text.splitlines()[0], rough_count('hello world'))\n"
        "print(sorted(m for m in sys.modules if m.split('.')[0] in ('rich', 'prompt_toolkit', 'openai', 'groq')))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    first, loaded = out.splitlines()
    assert first.startswith("**Echo**") and first.endswith(" 2")
    assert loaded == "[]"


def test_import_chatbot_imports_no_submodule():
    code = "import sys, chatbot; print(sorted(m for m in sys.modules if m.startswith('chatbot.')))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"


def test_the_public_token_estimate_keeps_its_path():
    from chatbot.tokens import rough_count

    assert rough_count("hello world") == 2
