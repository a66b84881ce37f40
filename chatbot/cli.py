"""The ``chatbot`` command: parse the flags, wire the core together, pick the mode.

Terminal mode lives in :mod:`chatbot.terminal.repl`; script and one-shot modes are here. Expected failures print one
line (``chatbot: ...``) and exit with the error's code; nothing here knows how memory works.
"""

from __future__ import annotations

import argparse
import contextlib
import errno
import os
import signal
import sys
from collections.abc import Sequence
from typing import TYPE_CHECKING, TextIO

from chatbot.engine.text import clean, is_blank
from chatbot.errors import ChatbotError, Interrupted, OutputError, UsageError
from chatbot.flags import build_parser

if TYPE_CHECKING:
    from chatbot.app import App
    from chatbot.providers.base import ChatProvider

RETRIES = 2  # a failed request (no answer, 429, 5xx) is tried this many more times, each announced


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``chatbot`` script. Returns the exit status."""
    from chatbot.terminal.safety import guard_process, quiet_stdout

    closed = guard_process()  # signals handled like Ctrl-C, total output encoding, no closed standard streams
    dotenv = _load_dotenv()  # before the parser reads its defaults: CHATBOT_* may come from .env too
    args = build_parser().parse_args(argv, namespace=argparse.Namespace(dotenv=dotenv))
    try:
        if closed:
            raise OutputError("standard output is closed; chatbot needs somewhere to write its replies")
        return run(args)
    except ChatbotError as exc:
        _stderr(f"chatbot: {clean(exc.message)}")
        if isinstance(exc, OutputError):
            quiet_stdout()  # the interpreter's last flush of stdout would fail again, with a traceback
        return exc.exit_code
    except KeyboardInterrupt as exc:
        _stderr("")
        return exc.exit_code if isinstance(exc, Interrupted) else 130
    except BrokenPipeError:
        # the reader went away (`chatbot ... | head`): stop quietly, like other Unix tools killed by SIGPIPE
        quiet_stdout()
        return 141
    except OSError as exc:  # a file-system fault no layer expected: still one line, never a traceback
        if exc.errno == errno.EIO and not exc.filename:  # the terminal closed under the prompt (a hang-up)
            _stderr("chatbot: the terminal went away (input/output error); the session is saved")
            return 128 + signal.SIGHUP
        _stderr(f"chatbot: {exc.strerror or exc}{f': {exc.filename}' if exc.filename else ''}")
        return OutputError.exit_code


def _stderr(line: str) -> None:
    with contextlib.suppress(OSError):  # the terminal may be gone (SIGHUP)
        print(line, file=sys.stderr, flush=True)


def run(args: argparse.Namespace) -> int:
    """Wire the app for ``args`` and run the chosen mode."""
    from chatbot.app import App, Settings
    from chatbot.engine.memory import MemoryConfig
    from chatbot.storage import open_store
    from chatbot.storage.session import validate_id

    _refuse_undecodable(args)
    if args.prompt is not None and is_blank(args.prompt):
        raise UsageError("-p needs a message to send")
    store = open_store(args.sessions_dir)
    for warning in store.warnings:
        print(f"chatbot: warning: {warning}", file=sys.stderr)
    if args.list_sessions:
        from chatbot.terminal.commands import format_sessions

        print(clean(format_sessions(store)))
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

    provider = _provider(args)
    settings = Settings(
        provider_name=args.provider,
        model=args.model,
        memory=memory,
        system=args.system,
        max_output_tokens=args.max_output_tokens or None,
        summary_model=args.summary_model,
        retries=RETRIES,
    )
    app = App(store, provider, settings, lambda model: make_counter(args.tokenizer, args.provider, model))
    try:
        chat = app.open(args.session, latest=args.cont)
        chat.conversation.counter.count("probe")  # a --tokenizer that cannot load fails now, not at every turn
        if args.system is not None and chat.conversation.turns and args.system != chat.conversation.system:
            _notice("--system shapes new sessions only; this one keeps its own (/system TEXT changes it)")
        interactive = args.prompt is None and sys.stdin.isatty() and sys.stdout.isatty()
        if interactive:
            from chatbot.terminal.repl import Repl

            return Repl(app, plain=args.plain, show_reasoning=args.reasoning).run()
        turns = len(chat.conversation.turns)
        _notice(f"session {chat.session.id} ({f'{turns} turn(s) stored' if turns else 'new'})")
        if args.prompt is not None:
            return one_shot(app, args.prompt, args)
        return script(app, sys.stdin, args)
    finally:
        app.close()


def _provider(args: argparse.Namespace) -> ChatProvider:
    """The provider for ``args``; the user hears where the key goes when that is not simply the provider's server."""
    from chatbot.providers import make_provider
    from chatbot.providers.endpoint import endpoint_notices

    # the app retries itself (Chat), so that every retry is announced; the SDK's own retries are silent
    provider = make_provider(
        args.provider, model=args.model, base_url=args.base_url, timeout=args.timeout, max_retries=0
    )
    for line, warn in endpoint_notices(args.provider, args.base_url, args.dotenv):
        _notice(line, warning=warn)
    return provider


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


def _load_dotenv() -> frozenset[str]:
    """Read ``.env`` in the working directory into the environment (never overriding what is set).

    Runs before the parser reads its defaults (CHATBOT_* may come from .env too). Returns the names it set.
    """
    if not os.path.exists(".env"):
        return frozenset()
    from dotenv import load_dotenv

    before = {k for k, v in os.environ.items() if v}
    load_dotenv(".env", override=False)
    return frozenset(k for k, v in os.environ.items() if v and k not in before)


def _notice(text: str, *, warning: bool = False) -> None:
    _stderr(f"chatbot: {'warning: ' if warning else ''}{clean(text)}")


# --- script and one-shot modes ----------------------------------------------------------------------------------


def send_plain(app: App, text: str, out: TextIO, *, show_reasoning: bool) -> None:
    """Send one message and write the reply to ``out`` as plain text; notices go to stderr."""
    from chatbot.chat import Notice, stop_reply
    from chatbot.providers.base import ReasoningDelta, TextDelta
    from chatbot.terminal.waiting import WAIT_NOTICE, watch

    wrote = False
    events = app.chat.send(text)
    try:
        for event in watch(events, lambda: _notice(WAIT_NOTICE)):
            if isinstance(event, TextDelta):
                out.write(clean(event.text))
                out.flush()
                wrote = True
            elif isinstance(event, ReasoningDelta):
                if show_reasoning:
                    sys.stderr.write(clean(event.text))
            elif isinstance(event, Notice):
                _notice(event.text, warning=event.warning)
        if wrote:
            out.write("\n")
            out.flush()
    except KeyboardInterrupt as exc:
        stop_reply(events, exc)  # stores the partial answer, marked as interrupted (by the user, or by a signal)
        raise
    except OSError as exc:  # stdout closed (a pipe's reader left) or full: keep the partial answer, marked
        broken = isinstance(exc, BrokenPipeError)
        reason = "the output was closed" if broken else f"the output could not be written ({exc.strerror})"
        stop_reply(events, Interrupted(reason, 141 if broken else OutputError.exit_code))
        if broken:
            raise
        raise OutputError(f"cannot write the reply to standard output: {exc.strerror}; the turn is saved") from None
    except ChatbotError:
        if wrote:  # a failed attempt's partial line is ended and marked, so a retry's reply does not glue onto it
            with contextlib.suppress(OSError):
                out.write("\n[failed: this partial reply was not stored]\n")
                out.flush()
        raise
    finally:
        events.close()


def script(app: App, lines: TextIO, args: argparse.Namespace) -> int:
    """Script mode: every stdin line is handled as if typed; EOF ends like /quit."""
    from chatbot.terminal import commands

    status = 0
    for raw in lines:
        line = raw.rstrip("\r\n")
        if is_blank(line):
            continue  # whitespace, NUL, zero-width characters: nothing to send
        try:
            if commands.is_command(line):
                result = commands.run(app, line, confirm=None)
                if result.output and result.notice:
                    _notice(result.output)
                elif result.output:
                    print(clean(result.output), flush=True)
                if result.quit:
                    break
                if result.send is None:
                    continue
                line = result.send
            send_plain(app, line, sys.stdout, show_reasoning=args.reasoning)
        except ChatbotError as exc:
            _notice(exc.message)
            status = status or exc.exit_code
    return status


def one_shot(app: App, text: str, args: argparse.Namespace) -> int:
    """One-shot mode: send ``text`` as the next turn of the session and print the reply."""
    if sys.stdout.isatty() and not args.plain:
        from chatbot.terminal.repl import Repl

        return Repl(app, plain=False, show_reasoning=args.reasoning, one_shot=True).send(text)
    send_plain(app, text, sys.stdout, show_reasoning=args.reasoning)
    return 0
