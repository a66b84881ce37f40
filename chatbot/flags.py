"""The command line's flags, grouped as ``chatbot --help`` shows them.

Only argparse here: what a flag does is wired in :mod:`chatbot.cli`. Each group is one concern, so a new flag has
an obvious home.
"""

from __future__ import annotations

import argparse
import os

from chatbot import __version__
from chatbot.engine.memory import STRATEGIES
from chatbot.providers.table import PROVIDERS


def _count(text: str, least: int) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
    if value < least:
        raise argparse.ArgumentTypeError(f"{text} is less than {least}")
    return value


def seconds(text: str) -> float:
    """A positive, finite number of seconds."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of seconds") from None
    if not 0 < value < float("inf"):
        raise argparse.ArgumentTypeError(f"{text} is not a positive number of seconds")
    return value


def positive(text: str) -> int:
    """A whole number of at least 1."""
    return _count(text, 1)


def natural(text: str) -> int:
    """A whole number of at least 0."""
    return _count(text, 0)


def build_parser() -> argparse.ArgumentParser:
    """The argument parser: a declarative table of every flag, in groups."""
    env = os.environ.get
    p = argparse.ArgumentParser(
        prog="chatbot",
        description="A terminal chat with any OpenAI-compatible model. The model is stateless: every request "
        "re-sends the conversation, and chatbot decides what to keep.",
        epilog="Keys come from GROQ_API_KEY / OPENAI_API_KEY or a .env file. Try `--provider echo` offline.",
    )
    p.add_argument("--version", action="version", version=f"chatbot {__version__}")

    model = p.add_argument_group("model")
    model.add_argument(
        "--provider",
        choices=list(PROVIDERS),
        default=env("CHATBOT_PROVIDER") or "groq",
        help="default: $CHATBOT_PROVIDER, else groq",
    )
    model.add_argument(
        "--model",
        default=env("CHATBOT_MODEL") or None,
        help="default per provider (groq: openai/gpt-oss-20b), or $CHATBOT_MODEL",
    )
    model.add_argument("--base-url", help="any OpenAI-compatible endpoint (Ollama, vLLM, LM Studio, llama.cpp)")
    model.add_argument("--max-output-tokens", type=positive, metavar="R", help="reply limit sent to the provider")
    model.add_argument("--summary-model", metavar="NAME", help="model for summaries (default: the chat model)")
    model.add_argument(
        "--timeout",
        type=seconds,
        default=env("CHATBOT_TIMEOUT") or "60",
        metavar="SECONDS",
        help="give up on a server silent this long (before the reply or between its pieces; default: "
        "$CHATBOT_TIMEOUT, else 60); failed requests are retried twice, with a notice",
    )

    sessions = p.add_argument_group("sessions")
    sessions.add_argument("--session", metavar="ID", help="resume session ID, or create it")
    sessions.add_argument("-c", "--continue", dest="cont", action="store_true", help="resume the most recent session")
    sessions.add_argument(
        "--sessions-dir",
        metavar="DIR",
        default=env("CHATBOT_SESSIONS_DIR") or "sessions",
        help="default: $CHATBOT_SESSIONS_DIR, else ./sessions",
    )
    sessions.add_argument("--system", metavar="TEXT", help="system message of a new session")
    sessions.add_argument("--list-sessions", action="store_true", help="list sessions and exit")

    memory = p.add_argument_group("memory")
    memory.add_argument("--memory", choices=STRATEGIES, default="summary", help="default: summary")
    memory.add_argument("--window-turns", type=natural, default=6, metavar="N", help="window: earlier turns kept")
    memory.add_argument(
        "--summary-trigger",
        type=positive,
        default=8,
        metavar="N",
        help="summary: summarize when more than N earlier turns are unsummarized",
    )
    memory.add_argument(
        "--keep-turns",
        type=natural,
        default=4,
        metavar="M",
        help="summary: earlier turns kept verbatim after summarizing (M < N)",
    )
    memory.add_argument(
        "--max-input-tokens",
        type=positive,
        default=6000,
        metavar="T",
        help="budget for a whole request (default 6000)",
    )
    memory.add_argument("--tokenizer", metavar="PATH|NAME", help="count with a real tokenizer (tokenizer.json path)")

    output = p.add_argument_group("one-shot and output")
    output.add_argument("-p", "--prompt", metavar="TEXT", help="one-shot: send TEXT as the next turn, print the reply")
    output.add_argument("--plain", action="store_true", help="no Markdown rendering")
    output.add_argument("--reasoning", action="store_true", help="also show the model's reasoning (gpt-oss), dimmed")
    return p
