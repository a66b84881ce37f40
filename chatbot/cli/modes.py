"""Script and one-shot modes: replies as plain text on stdout, notices and errors on stderr.

Terminal mode is :mod:`chatbot.terminal.repl`; :mod:`chatbot.cli` picks the mode.
"""

from __future__ import annotations

import argparse
import contextlib
import sys
from typing import TYPE_CHECKING, Any, TextIO

from chatbot.errors import ChatbotError, SaveFailed, UsageError
from chatbot.text import StreamCleaner, clean, is_blank, json_shown, preview

if TYPE_CHECKING:
    from chatbot.attachments.attach import Content
    from chatbot.commands.effects import Show
    from chatbot.commands.timeline import Timeline
    from chatbot.core.app import App
    from chatbot.core.events import Notice, TakenBack, ToolFinished, ToolStarted, TurnDone, Unsent


def stderr_line(line: str) -> None:
    """Write one line to stderr, whatever state the terminal is in (it may be gone: SIGHUP)."""
    with contextlib.suppress(OSError):
        print(line, file=sys.stderr, flush=True)


def notice(text: str, *, warning: bool = False) -> None:
    """One line for the user on stderr (``chatbot: ...``), control characters removed."""
    stderr_line(f"chatbot: {'warning: ' if warning else ''}{clean(text)}")


def show_request(kind: str, body: dict[str, Any], resent: str = "") -> None:
    """--show-requests: one request's JSON body on stderr as it goes out, after a line that says what it is (and,
    for a request sent again, why)."""
    what = (
        "chat request"
        if kind == "chat"
        else "summary request (a separate call that writes the rolling summary; not a turn of the chat)"
    )
    again = f", sent again: {resent}" if resent else ""
    stderr_line(f"chatbot: {what}{again}, JSON body:\n{json_shown(body)}")


class PlainSink:
    """One turn as plain text: the reply on ``out``, notices (and reasoning, when shown) on stderr.

    Reasoning never goes where the answer goes (``chatbot -p ... > answer.txt`` keeps the answer alone); on a terminal
    it is dim, and its last line is ended before anything else is written, so a notice or the answer starts a line."""

    output = "the reply to standard output"

    def __init__(self, app: App, out: TextIO, *, show_reasoning: bool) -> None:
        self.app = app
        self.out = out
        self.show_reasoning = show_reasoning
        self.wrote = False
        self.owed = ""  # what ends the reasoning's last line on stderr ("\n" while it is open)
        # each piece cleaned as part of the whole: a sequence split between two pieces is removed whole
        self.answer, self.thinking = StreamCleaner(), StreamCleaner()

    def text(self, text: str) -> None:
        self._write(self.answer.feed(text))

    def _write(self, shown: str) -> None:
        if not shown:
            return
        self._end_reasoning()
        self.out.write(shown)
        self.out.flush()
        self.wrote = True

    def reasoning(self, text: str) -> None:
        self._think(self.thinking.feed(text))

    def _think(self, shown: str) -> None:
        if not self.show_reasoning or not shown:
            return
        with contextlib.suppress(OSError):
            sys.stderr.write(f"\x1b[2m{shown}\x1b[0m" if _dim_stderr() else shown)
            sys.stderr.flush()
        self.owed = "" if shown.endswith("\n") else "\n"

    def notice(self, told: Notice) -> None:
        self._end_reasoning()
        notice(told.text, warning=told.warning)

    def tool(self, event: ToolStarted | ToolFinished) -> None:
        from chatbot.core.events import ToolStarted
        from chatbot.text import preview
        from chatbot.tools.base import describe_call

        self._end_reasoning()
        if isinstance(event, ToolStarted):
            notice(f"tool call: {describe_call(event.call.name, event.call.arguments)}")
        else:
            outcome = "failed" if event.error else "result"
            notice(f"tool {event.call.name} {outcome}: {preview(event.text)}", warning=event.error)

    def waiting(self, last: object) -> None:
        from chatbot.core.events import wait_notice

        self._end_reasoning()
        notice(wait_notice(last))

    def _rest(self) -> None:
        # what the cleaners held back (a sequence the reply ended inside), cleaned, before the reply is ended
        self._think(self.thinking.flush())
        self._write(self.answer.flush())

    def finish(self) -> None:
        self._rest()
        self._end_reasoning()
        if self.wrote:
            self.out.write("\n")
            self.out.flush()

    def stop(self, exc: BaseException) -> None:
        with contextlib.suppress(OSError):  # (the output may be what went away)
            self._rest()
        self._end_reasoning()
        if self.wrote and isinstance(exc, ChatbotError):
            # a failed attempt's partial line is ended and marked, so a retry's reply does not glue onto it
            with contextlib.suppress(OSError):
                self.out.write(f"\n{failed_mark(self.app, exc)}\n")
                self.out.flush()

    def _end_reasoning(self) -> None:
        owed, self.owed = self.owed, ""
        if owed:
            with contextlib.suppress(OSError):
                sys.stderr.write(owed)
                sys.stderr.flush()


def _dim_stderr() -> bool:
    """Whether stderr is a terminal that takes the escape for dim text (not ``TERM=dumb``)."""
    import os

    dumb = os.environ.get("TERM", "").strip().lower() in ("dumb", "unknown")
    return not dumb and sys.stderr.isatty()


def send_plain(
    app: App, text: Content, out: TextIO, *, show_reasoning: bool, replacing: TakenBack | None = None
) -> TurnDone | None:
    """Send one message (replacing the turn /retry or /edit took back) and write the reply to ``out`` as plain text;
    notices go to stderr. Returns the turn."""
    from chatbot.core.front_end import run_turn

    return run_turn(app.chat, text, PlainSink(app, out, show_reasoning=show_reasoning), replacing=replacing)


def failed_mark(app: App, exc: ChatbotError) -> str:
    """The line that ends a reply cut by ``exc`` in plain output: where what was shown went."""
    if isinstance(exc, SaveFailed):
        if exc.rescued:
            return f"[not saved in the session store: this reply was kept in {exc.rescued}]"
        return "[not saved: the session store refused it and no rescue file could be written]"
    from chatbot.core.events import unsent

    if unsent(exc) is None:  # the turn was recorded (tools had run): kept, marked with the reason
        return f"[stopped: {exc.message}; what came so far is stored]"
    return "[failed: this partial reply was not stored]"


def script(app: App, lines: TextIO, args: argparse.Namespace) -> int:
    """Script mode: every stdin line is handled as if typed; EOF ends like /quit."""
    from chatbot import commands

    front = Script(app, reasoning=args.reasoning)
    for raw in lines:
        line = raw.rstrip("\r\n")
        if is_blank(line):
            continue  # whitespace, NUL, zero-width characters: nothing to send
        if not commands.is_command(line):
            front.send(commands.as_message(line))
            continue
        try:
            if commands.apply(commands.run(app, line, confirm=None, unsent=front.unsent), front):
                break
        except ChatbotError as exc:
            notice(exc.message)
            front.failed(exc.exit_code)
    return front.status


class Script:
    """Script mode as a front end for commands' effects (:class:`chatbot.commands.Front`): asked-for output on
    stdout, notices on stderr, no prompt and no editor. ``status`` is the first failure's exit status (0 while every
    turn and command went well); ``unsent`` the message of the last turn that stopped before anything was stored
    (what /retry resends)."""

    def __init__(self, app: App, *, reasoning: bool) -> None:
        self.app = app
        self.reasoning = reasoning
        self.status = 0
        self.unsent: Unsent | None = None

    def failed(self, status: int) -> None:
        """Keep ``status`` as the run's, unless an earlier failure set it."""
        self.status = self.status or status

    def send(self, text: Content, *, replacing: TakenBack | None = None) -> None:
        """Send one message and print the reply; a failure is told, and kept in the status."""
        from chatbot.core.events import unsent

        try:
            done = send_plain(self.app, text, sys.stdout, show_reasoning=self.reasoning, replacing=replacing)
        except ChatbotError as exc:
            self.unsent = unsent(exc)
            notice(exc.message)
            self.failed(exc.exit_code)
            return
        self.unsent = None
        self.failed(reply_status(done))  # a reply that is not the JSON asked for: told, and the status

    def show(self, shown: Show) -> None:
        """Asked-for output on stdout (the exact text: a script reads it)."""
        if shown.text:
            print(clean(shown.text), flush=True)

    def note(self, text: str) -> None:
        """A confirmation on stderr, a notice a line."""
        for said in text.splitlines():  # each a notice line of its own (/file's skipped files)
            notice(said)

    def chart(self, timeline: Timeline) -> None:
        """/timeline as plain text."""
        from chatbot.commands.timeline import plain

        print(clean(plain(timeline)), flush=True)

    def copy(self, text: str) -> None:
        """/copy: the OSC 52 sequence goes to the terminal on stderr, if there is one."""
        from chatbot.terminal.clipboard import osc52

        if not sys.stderr.isatty():
            raise UsageError("/copy needs a terminal (it sends OSC 52 to it); stderr is not one")
        sys.stderr.write(osc52(text))
        sys.stderr.flush()
        notice(f"copied {len(text)} characters to the clipboard (OSC 52)")

    def edit(self, text: str, no_prompt: str) -> str:
        """No prompt to edit in: what the command says to do instead, as a usage error."""
        raise UsageError(no_prompt)

    def compose(self, text: str) -> str:
        """No editor without a terminal: the message is the next line."""
        raise UsageError("/editor needs a terminal; in a script, the message is the next line")


def uses_repl(args: argparse.Namespace) -> bool:
    """Whether a one-shot reply is rendered (and questions asked) by the terminal front end."""
    return args.prompt is not None and sys.stdout.isatty() and not args.plain and not args.json and not args.extract


def check_one_shot(text: str) -> None:
    """Refuse a one-shot ``text`` that starts with ``/``, as one that names no command is at the terminal's prompt:
    it is more likely a command (``-p /undo``) than a message; ``//`` sends a message that starts with ``/``.
    Checked before a session is opened or named: nothing is made for a message that is not sent."""
    from chatbot import commands

    if text.lstrip().startswith("/") and not text.lstrip().startswith("//"):
        name = preview(text.split(maxsplit=1)[0], 40)
        run_it = f" (run commands in a chat, or pipe them: echo {name} | chatbot -c)" if commands.is_known(text) else ""
        raise UsageError(
            f"-p sends a message, not a command: {name!r} was not sent{run_it}; "
            "start it with // to send a message that begins with /"
        )


def one_shot(app: App, text: str, args: argparse.Namespace) -> int:
    """One-shot mode: send ``text`` (checked by :func:`check_one_shot`) as the next turn of the session and print
    the reply (or JSON, or its code)."""
    from chatbot import commands

    text = commands.as_message(text)
    if args.json or args.extract:
        from chatbot.cli.oneshot import print_extract, print_json

        return (print_json if args.json else print_extract)(app, text, send_plain, show_reasoning=args.reasoning)
    if uses_repl(args):
        from chatbot.terminal.repl import Repl

        repl = Repl(app, plain=False, show_reasoning=args.reasoning, confirm_tools=args.confirm_tools, one_shot=True)
        return repl.send(text)
    return reply_status(send_plain(app, text, sys.stdout, show_reasoning=args.reasoning))


def reply_status(done: TurnDone | None) -> int:
    """The exit status a stored turn leaves: 5 when its reply is not the JSON asked for (the chat said why)."""
    from chatbot.errors import InvalidReply

    return InvalidReply.exit_code if done is not None and done.invalid_json else 0


def list_models(args: argparse.Namespace, model: str | None) -> int:
    """--list-models: the endpoint's models, one a line; ``model`` (``--model``, an alias resolved) marked."""
    from chatbot.commands import format_models
    from chatbot.providers import make_provider
    from chatbot.providers.endpoint import endpoint_notices

    provider = make_provider(args.provider, model=model, base_url=args.base_url, timeout=args.timeout)
    for line, warn in endpoint_notices(args.provider, args.base_url, getattr(args, "dotenv", ())):
        notice(line, warning=warn)  # the key goes with the request for the list, as with a chat request
    print(clean(format_models(provider)))
    return 0


def list_providers(current: str) -> str:
    """--list-providers: every provider, the one in use marked ``*``, with its key variable and whether it is set
    (never the key), its default model and base URL (and the variable that overrides it, when that is set)."""
    import os

    from chatbot.providers.table import PROVIDERS

    rows = [("", "provider", "key", "default model", "base URL")]
    for info in PROVIDERS.values():
        if info.key_env is None:
            key = "none (local server)" if info.default_base_url else "none (offline)"
        else:
            state = "set" if os.environ.get(info.key_env, "").strip() else "not set"
            key = f"{info.key_env} ({'optional, ' if info.local else ''}{state})"
        url = info.default_base_url or "(none: answers on this machine)"
        if info.base_url_env and os.environ.get(info.base_url_env):
            url += f" (overridden: ${info.base_url_env} is set)"
        rows.append(("*" if info.name == current else "", info.name, key, info.default_model, url))
    widths = [max(len(row[i]) for row in rows) for i in range(4)]
    return "\n".join("  ".join(c.ljust(w) for c, w in zip(r[:4], widths, strict=True)) + "  " + r[4] for r in rows)
