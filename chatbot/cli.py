"""The ``chatbot`` command: parse the flags, wire the core together, pick the mode.

Terminal mode lives in :mod:`chatbot.terminal.repl`; script and one-shot modes are here. Expected failures print one
line (``chatbot: ...``) and exit with the error's code; nothing here knows how memory works.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, TextIO

from chatbot.errors import ChatbotError, UsageError
from chatbot.flags import build_parser

if TYPE_CHECKING:
    from chatbot.app import App
    from chatbot.attach import Attachment, Content
    from chatbot.chat import TurnDone
    from chatbot.config import Config


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``chatbot`` script. Returns the exit status."""
    from chatbot import config

    _load_dotenv()  # before the parser reads its defaults: CHATBOT_* may come from .env too
    parser = build_parser()
    problem: ChatbotError | None = None
    try:
        settings = config.load(parser)
        config.apply(parser, settings)  # the file's values become defaults: flags still win
    except ChatbotError as exc:
        problem = exc  # reported after parsing, so --help and --version still work with a broken file
    args = parser.parse_args(argv)
    if problem is not None:
        print(f"chatbot: {problem.message}", file=sys.stderr)
        return problem.exit_code
    if args.config:
        print(config.report(parser, argv, args, settings))
        return 0
    # Undecodable input bytes become U+FFFD rather than a crash (and never reach a request as lone surrogates).
    if hasattr(sys.stdin, "reconfigure"):
        sys.stdin.reconfigure(errors="replace")
    try:
        return run(args, settings)
    except ChatbotError as exc:
        print(f"chatbot: {exc.message}", file=sys.stderr)
        return exc.exit_code
    except KeyboardInterrupt:
        print(file=sys.stderr)
        return 130
    except BrokenPipeError:
        # the reader went away (`chatbot ... | head`): stop quietly, like other Unix tools killed by SIGPIPE
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 141


def _check_combinations(args: argparse.Namespace) -> None:
    if args.prompt is not None and not args.prompt.strip():
        raise UsageError("-p needs a message to send")
    for flag, used in (("--json", args.json), ("-x/--extract", args.extract), ("-f/--file", args.file)):
        if used and args.prompt is None:
            raise UsageError(f"{flag} works with -p (one-shot); in a chat, use /file PATH and /copy code")
    if args.json and args.extract:
        raise UsageError("--json and -x/--extract cannot be used together (the JSON holds the whole reply)")
    given = [f for f, v in (("--system", args.system), ("--system-file", args.system_file), ("--role", args.role)) if v]
    if len(given) > 1:
        raise UsageError(f"{' and '.join(given)} cannot be used together: each sets the system message")


def _system_text(args: argparse.Namespace, cfg: Config) -> str | None:
    """The system message for new sessions: --system, --system-file or --role."""
    if args.system_file:
        from chatbot.attach import decode_text

        try:
            text = decode_text(Path(args.system_file).expanduser().read_bytes(), args.system_file)
        except OSError as exc:
            raise UsageError(f"cannot read --system-file {args.system_file}: {exc.strerror or exc}") from None
        if not text.strip():
            raise UsageError(f"--system-file {args.system_file} is empty")
        return text.strip()
    if args.role:
        return cfg.role(args.role)
    return str(args.system) if args.system is not None else None


def _attachments(args: argparse.Namespace) -> list[Attachment]:
    """Piped stdin (with -p only) and -f files, read before anything is sent."""
    from chatbot.attach import MAX_TEXT_BYTES, from_stdin, read_file

    found: list[Attachment] = []
    if args.prompt is not None and not sys.stdin.isatty():
        piped = from_stdin(sys.stdin.buffer.read(MAX_TEXT_BYTES + 1))
        found += [piped] if piped else []
    return found + [read_file(path) for path in args.file or []]


def run(args: argparse.Namespace, cfg: Config | None = None) -> int:
    """Wire the app for ``args`` and run the chosen mode."""
    from chatbot.app import App, Settings, parse_option
    from chatbot.config import Config
    from chatbot.engine.memory import MemoryConfig
    from chatbot.storage import open_store
    from chatbot.storage.session import validate_id

    cfg = cfg or Config(Path("config.toml"), exists=False)
    _check_combinations(args)
    options = dict(parse_option(key, value) for key, value in args.option or [])
    system = _system_text(args, cfg)
    if args.list_models:
        return list_models(args)
    attachments = _attachments(args)
    store = open_store(args.sessions_dir)
    for warning in store.warnings:
        print(f"chatbot: warning: {warning}", file=sys.stderr)
    if args.list_sessions:
        from chatbot.terminal.commands import format_sessions

        print(format_sessions(store))
        return 0
    if args.session is not None:
        validate_id(args.session)  # refused before any request or file access
    if args.session is not None and args.cont:
        raise UsageError("--session and -c/--continue cannot be used together")
    memory = MemoryConfig(
        strategy=args.memory,
        window_turns=args.window_turns,
        summary_trigger=args.summary_trigger,
        keep_turns=args.keep_turns,
        max_input_tokens=args.max_input_tokens,
    )
    from chatbot.engine.tokens import make_counter
    from chatbot.providers import make_provider
    from chatbot.request_log import RequestLog

    provider = make_provider(args.provider, model=args.model, base_url=args.base_url)
    settings = Settings(
        provider_name=args.provider,
        model=args.model,
        memory=memory,
        system=system,
        max_output_tokens=args.max_output_tokens or None,
        summary_model=args.summary_model,
        options=options,
        stream=not args.no_stream,
        log=RequestLog(args.log_requests) if args.log_requests else None,
        roles=cfg.roles,
    )
    app = App(store, provider, settings, lambda model: make_counter(args.tokenizer, args.provider, model))
    try:
        chat = app.open(args.session, latest=args.cont)
        chat.conversation.counter.count("probe")  # a --tokenizer that cannot load fails now, not at every turn
        if system is not None and chat.conversation.turns and system != chat.conversation.system:
            _notice("--system shapes new sessions only; this one keeps its own (/system TEXT changes it)")
        interactive = args.prompt is None and sys.stdin.isatty() and sys.stdout.isatty()
        if interactive:
            from chatbot.terminal.repl import Repl

            return Repl(app, plain=args.plain, show_reasoning=args.reasoning).run()
        turns = len(chat.conversation.turns)
        _notice(f"session {chat.session.id} ({f'{turns} turn(s) stored' if turns else 'new'})")
        if args.prompt is not None:
            for attachment in attachments:
                chat.attach(attachment)
            return one_shot(app, args.prompt, args)
        return script(app, sys.stdin, args)
    finally:
        app.close()


def _load_dotenv() -> None:
    """Read ``.env`` in the working directory into the environment (never overriding what is set)."""
    if os.path.exists(".env"):
        from dotenv import load_dotenv

        load_dotenv(".env", override=False)


def _notice(text: str, *, warning: bool = False) -> None:
    print(f"chatbot: {'warning: ' if warning else ''}{text}", file=sys.stderr, flush=True)


# --- script and one-shot modes ----------------------------------------------------------------------------------


def send_plain(app: App, text: Content, out: TextIO, *, show_reasoning: bool) -> TurnDone | None:
    """Send one message and write the reply to ``out`` as plain text; notices go to stderr. Returns the turn."""
    from chatbot.chat import Notice, TurnDone
    from chatbot.providers.base import ReasoningDelta, TextDelta

    done: TurnDone | None = None
    wrote = False
    events = app.chat.send(text)
    try:
        for event in events:
            if isinstance(event, TextDelta):
                out.write(event.text)
                out.flush()
                wrote = True
            elif isinstance(event, ReasoningDelta):
                if show_reasoning:
                    sys.stderr.write(event.text)
            elif isinstance(event, Notice):
                _notice(event.text, warning=event.warning)
            elif isinstance(event, TurnDone):
                done = event
    finally:
        events.close()  # on Ctrl-C: stores the partial answer, marked as interrupted
    if wrote:
        out.write("\n")
        out.flush()
    return done


def script(app: App, lines: TextIO, args: argparse.Namespace) -> int:
    """Script mode: every stdin line is handled as if typed; EOF ends like /quit."""
    from chatbot.terminal import commands

    status = 0
    for raw in lines:
        line = raw.rstrip("\r\n")
        if not line.strip():
            continue
        message: Content = line
        try:
            if commands.is_command(line):
                result = commands.run(app, line, confirm=None)
                if result.output and result.notice:
                    _notice(result.output)
                elif result.output:
                    print(result.output, flush=True)
                if result.quit:
                    break
                if result.edit is not None:
                    raise UsageError("in a script, /edit takes the new text: /edit NEW MESSAGE")
                if result.clipboard is not None:
                    _copy(result.clipboard)
                    continue
                if result.send is None:
                    continue
                message = result.send
            send_plain(app, message, sys.stdout, show_reasoning=args.reasoning)
        except ChatbotError as exc:
            _notice(exc.message)
            status = status or exc.exit_code
    return status


def _copy(text: str) -> None:
    """/copy in script mode: the OSC 52 sequence goes to the terminal on stderr, if there is one."""
    from chatbot.terminal.clipboard import osc52

    if not sys.stderr.isatty():
        raise UsageError("/copy needs a terminal (it sends OSC 52 to it); stderr is not one")
    sys.stderr.write(osc52(text))
    sys.stderr.flush()
    _notice(f"copied {len(text)} characters to the clipboard (OSC 52)")


def one_shot(app: App, text: str, args: argparse.Namespace) -> int:
    """One-shot mode: send ``text`` as the next turn of the session and print the reply (or JSON, or its code)."""
    if args.json or args.extract:
        from chatbot.oneshot import print_extract, print_json

        return (print_json if args.json else print_extract)(app, text, send_plain, show_reasoning=args.reasoning)
    if sys.stdout.isatty() and not args.plain:
        from chatbot.terminal.repl import Repl

        return Repl(app, plain=False, show_reasoning=args.reasoning).send(text)
    send_plain(app, text, sys.stdout, show_reasoning=args.reasoning)
    return 0


def list_models(args: argparse.Namespace) -> int:
    """--list-models: the endpoint's models, one a line; the configured one marked."""
    from chatbot.providers import make_provider
    from chatbot.terminal.commands import format_models

    provider = make_provider(args.provider, model=args.model, base_url=args.base_url)
    print(format_models(provider))
    return 0
