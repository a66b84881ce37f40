"""Terminal mode: a prompt_toolkit prompt and rich-rendered, streamed replies.

Enter sends; Alt-Enter (or Esc then Enter) inserts a newline, and pasted text stays one message; Ctrl-X Ctrl-E
writes the message in $EDITOR (:mod:`chatbot.terminal.editor`). Ctrl-C while a reply streams cancels it (the app
stays); Ctrl-C at the prompt clears the line; Ctrl-D or /quit exits, and Ctrl-D while a reply streams exits once it is
done (:mod:`chatbot.terminal.typeahead`).
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

from prompt_toolkit import PromptSession
from prompt_toolkit.completion import CompleteEvent, Completer, Completion
from prompt_toolkit.document import Document
from prompt_toolkit.history import FileHistory
from prompt_toolkit.key_binding import KeyBindings, KeyPressEvent
from rich.text import Text

from chatbot import __version__, commands
from chatbot.attachments.attach import Content
from chatbot.commands.effects import Show
from chatbot.commands.timeline import Timeline, plain
from chatbot.core.app import App
from chatbot.core.events import TakenBack, TurnDone, Unsent, unsent
from chatbot.core.front_end import run_turn
from chatbot.errors import (
    BudgetError,
    ChatbotError,
    Interrupted,
    InvalidReply,
    OutputError,
    SaveFailed,
    StoreUnavailable,
)
from chatbot.providers.base import ToolCall
from chatbot.storage.rescue import import_hint
from chatbot.terminal.clipboard import osc52
from chatbot.terminal.editor import EMPTY, add_editor_key, edit_text
from chatbot.terminal.reflow import keep_prompt_whole_on_resize
from chatbot.terminal.render import make_console
from chatbot.terminal.sink import TerminalSink
from chatbot.terminal.tables import fitted
from chatbot.terminal.timeline_view import timeline_text
from chatbot.terminal.typeahead import ctrl_d_typed
from chatbot.text import clean, is_blank, preview, visible

HISTORY_MAX_BYTES = 512 * 1024


class SlashCompleter(Completer):
    """Completes slash commands while the line is a single word starting with '/'."""

    def get_completions(self, document: Document, complete_event: CompleteEvent) -> Iterable[Completion]:
        text = document.text_before_cursor
        if not text.startswith("/") or " " in text:
            return
        for name, command in commands.COMMANDS.items():
            if name.startswith(text.lower()):
                yield Completion(name, start_position=-len(text), display_meta=command.help)


def history_path() -> Path:
    """The input history file: $CHATBOT_HISTORY_FILE, else ``history`` in the user's data dir."""
    override = os.environ.get("CHATBOT_HISTORY_FILE")
    if override:
        return Path(override)
    from platformdirs import user_data_dir

    return Path(user_data_dir("chatbot", appauthor=False)) / "history"


def cap_history(path: Path, max_bytes: int = HISTORY_MAX_BYTES) -> None:
    """Keep the history file under ``max_bytes`` by dropping its oldest entries (whole entries only)."""
    try:
        if path.stat().st_size <= max_bytes:
            return
        data = path.read_text(encoding="utf-8", errors="replace")
    except OSError:
        return
    # FileHistory writes each entry as "\n# <timestamp>\n+line\n+line\n": cut at an entry boundary
    keep = data[-max_bytes // 2 :]
    start = keep.find("\n# ")
    path.write_text(keep[start:] if start >= 0 else "", encoding="utf-8")


def _key_bindings(say: Callable[[str, bool], None]) -> KeyBindings:
    kb = KeyBindings()

    @kb.add("escape", "enter")
    def _newline(event: KeyPressEvent) -> None:
        event.current_buffer.insert_text("\n")

    add_editor_key(kb, say)
    return kb


#: what a turn that stopped before anything of it was stored says, where there is a next prompt to type it at
RETRY_HINT = "/retry resends your message"


class Repl:
    """The interactive app over an :class:`App`. ``pt_input``/``pt_output`` let tests drive it through pipes."""

    def __init__(
        self,
        app: App,
        *,
        plain: bool = False,
        show_reasoning: bool = False,
        pt_input: Any = None,
        pt_output: Any = None,
        console: Any = None,
        confirm_tools: bool = False,
        one_shot: bool = False,
    ) -> None:
        self.app = app
        self.one_shot = one_shot  # -p: the process ends after this turn, so there is no /retry to suggest
        self._always: set[str] = set()  # tools the user allowed for the rest of the run
        self._asking = False  # a --confirm-tools question waits for the user (no "waiting for..." notice then)
        if confirm_tools:
            app.confirm_tool = self._confirm_tool
        self.plain = plain
        self.show_reasoning = show_reasoning
        self.console = console or make_console(plain=plain)
        self._pt_io = {"input": pt_input, "output": pt_output}
        self._status = ""
        self._prompt: PromptSession[str] | None = None
        #: the message of the last turn that stopped before anything was stored: what /retry sends again
        self.unsent: Unsent | None = None

    # --- the loop ---------------------------------------------------------------------------------------------

    def run(self) -> int:
        """Run until /quit or Ctrl-D. Returns the exit status."""
        self._banner()
        prompt = self._prompt_session()
        draft = ""  # a line that named no command, given back to edit: most likely pasted text (/usr/bin is ...)
        while True:
            self._refresh_status()
            given, draft = draft, ""  # given back once: Ctrl-C or an empty line clears it for good
            try:
                line = prompt.prompt("› ", default=given)
            except Interrupted:
                raise  # SIGTERM, SIGHUP: leave (the session is saved after every turn)
            except KeyboardInterrupt:
                continue  # Ctrl-C at the prompt clears the line
            except EOFError:
                break
            if is_blank(line):
                continue
            if self.handle(line) or self._ctrl_d_typed():
                break
            draft = line if _given_back(line) else ""
        return self._goodbye()

    def _ctrl_d_typed(self) -> bool:
        """Ctrl-D was pressed while the last line was handled (a reply streamed): told, the chat ends."""
        if self._pt_io["input"] is not None or not ctrl_d_typed(sys.stdin):
            return False
        self._notice("Ctrl-D during the reply: the chat ends here")
        return True

    def _goodbye(self) -> int:
        """The last line, true to what the store holds, and the exit status: a save's (3, as in script mode) when the
        last turns could not be saved. What a failed save left out is tried once more first (space freed since)."""
        chat = self.app.chat
        sid = chat.session.id
        away = f"session {sid}: the store is away; the last turns are saved as it closes, or rescued (named next); bye"
        if chat.store_away:  # (its close tries once more; a rescue is told and makes the status 3)
            self._notice(away)
            return 0
        what = "last turns" if chat.unsaved_turns() else "last changes"  # (a /rename, /undo ... the store refused)
        try:
            if chat.unsaved():
                chat.save()
        except StoreUnavailable:
            self._notice(away)
            return 0
        except SaveFailed as exc:
            if exc.rescued:
                kept = f"they are kept in {exc.rescued} ({import_hint(Path(exc.rescued))})"
            else:
                kept = f"no rescue file could be written either ({exc.message})"
            self._error(f"session {sid}: the {what} could not be saved; {kept}; bye")
            return exc.exit_code
        saved = "saved" if chat.conversation.turns or self.app.store.exists(sid) else "empty, not saved"
        self.console.print(Text(f"session {sid} {saved}; bye", style="dim"))
        return 0

    def handle(self, line: str) -> bool:
        """Handle one input line (a command or a message). Returns True to quit."""
        if not commands.is_command(line):
            self.send(commands.as_message(line))
            return False
        try:
            return commands.apply(commands.run(self.app, line, confirm=self._confirm, unsent=self.unsent), self)
        except OutputError:
            raise  # the terminal cannot be written: leave (a resent turn is saved)
        except ChatbotError as exc:
            self._error(exc.message)
            if _given_back(line):  # (run gives it back at the next prompt)
                self._notice("your text is back at the prompt: // at its start sends it as a message")
        except Interrupted:
            raise  # SIGTERM, SIGHUP: leave
        except KeyboardInterrupt:  # Ctrl-C stops a slow command (/models on a silent server), not the app
            self.note(f"{line.split()[0]} cancelled")
        return False

    # --- what a command's effects do here (:class:`chatbot.commands.Front`) --------------------------------------

    def show(self, shown: Show) -> None:
        """Asked-for output: the readable view when there is one (/context json); a table fits the width."""
        text = shown.readable if shown.readable is not None else shown.text
        if text:
            self.console.print(fitted(clean(text)))  # a table's rows cut at the edge, not wrapped

    def note(self, text: str) -> None:
        """A confirmation, dim."""
        self._notice(text)

    def chart(self, timeline: Timeline) -> None:
        """/timeline in colour (as plain text with --plain)."""
        self.console.print(Text(clean(plain(timeline))) if self.plain else timeline_text(timeline))

    def edit(self, text: str, no_prompt: str) -> str:
        """/edit: ``text`` back in the prompt; "" when the user cancels (Ctrl-C, an empty line, a command)."""
        try:
            edited = self._prompt_session().prompt("edit› ", default=text)
        except Interrupted:
            raise  # SIGTERM, SIGHUP: leave, as at the main prompt
        except (KeyboardInterrupt, EOFError):
            return ""
        return "" if commands.is_command(edited) else edited

    def compose(self, text: str) -> str:
        """/editor: the message written in the user's editor ("" for an empty file, told)."""
        message = edit_text(text)
        if not message:
            self._notice(EMPTY)
        return message

    def copy(self, text: str) -> None:
        """Put ``text`` on the clipboard through the terminal (OSC 52), bypassing rich so it is not escaped."""
        out = self.console.file
        out.write(osc52(text))
        out.flush()
        self._notice(f"copied {len(text)} characters to the clipboard (OSC 52; in tmux: set -g set-clipboard on)")

    def send(self, text: Content, *, replacing: TakenBack | None = None) -> int:
        """Send one message (``replacing`` the turn /retry or /edit took back) and render the reply; 0 if it went."""
        sink = TerminalSink(
            self.console,
            lambda said, warning: self._notice(said, warning=warning),
            lambda: self._asking,
            plain=self.plain,
            show_reasoning=self.show_reasoning,
        )
        try:
            done = run_turn(self.app.chat, text, sink, replacing=replacing)
        except KeyboardInterrupt as exc:
            self.unsent = unsent(exc)  # the partial answer is stored, marked as interrupted
            if isinstance(exc, Interrupted):  # SIGTERM, SIGHUP: the terminal may be gone; the turn is saved
                raise
            said = "reply cancelled; the partial answer is kept and marked as interrupted"
            if self.unsent is not None:  # nothing stored: /retry resends it, where there is a next prompt (not -p)
                said = "cancelled before any answer; " + ("nothing was stored" if self.one_shot else RETRY_HINT)
            self._notice(said)
            return 130
        except OutputError:
            raise
        except ChatbotError as exc:
            self.unsent = unsent(exc)
            retryable = self.unsent is not None and not isinstance(exc, BudgetError) and not self.one_shot
            retry = f"\n{RETRY_HINT}" if retryable else ""
            self._error(f"{exc.message}{retry}")
            return exc.exit_code
        self.unsent = None
        if done is not None:
            self._usage_line(done)
        if self.one_shot and self._pt_io["input"] is None:
            ctrl_d_typed(sys.stdin)  # the process ends anyway: a Ctrl-D pressed meanwhile is not the shell's
        return InvalidReply.exit_code if done is not None and done.invalid_json else 0  # (told in a notice)

    # --- output -----------------------------------------------------------------------------------------------

    def _banner(self) -> None:
        chat = self.app.chat
        turns = len(chat.conversation.turns)
        state = f"resumed, {turns} turn(s)" if turns else "new"
        mem = chat.conversation.memory
        self.console.print(
            Text.assemble(
                (f"chatbot {__version__}", "bold"),
                f" · {self.app.provider.name} · {clean(chat.model)} · session {chat.session.id} ({state}) · memory "
                f"{mem.strategy}, budget {mem.max_input_tokens} tokens\n",
                (
                    "The model is stateless: each request re-sends the conversation. /context shows it, /help lists "
                    "commands, Ctrl-D quits.",
                    "dim",
                ),
            )
        )

    def _usage_line(self, done: TurnDone) -> None:
        if done.usage:
            u = done.usage
            cached = f" ({u.cached_tokens} cached)" if u.cached_tokens else ""
            text = (
                f"tokens: prompt {u.prompt_tokens}{cached} · completion {u.completion_tokens} · total {u.total_tokens}"
            )
        else:
            total = done.estimated_prompt + done.estimated_completion
            text = (
                f"tokens (estimated): prompt ~{done.estimated_prompt} · completion ~{done.estimated_completion} · "
                f"total ~{total}"
            )
        self.console.print(Text(f"{text} · {done.latency:.1f}s", style="dim"))

    def _notice(self, text: str, *, warning: bool = False) -> None:
        self.console.print(Text(("warning: " if warning else "") + clean(text), style="yellow" if warning else "dim"))

    def _error(self, text: str) -> None:
        self.console.print(Text(f"error: {clean(text)}", style="bold red"))

    # --- prompt -----------------------------------------------------------------------------------------------

    def _prompt_session(self) -> PromptSession[str]:
        if self._prompt is None:
            path = history_path()
            history: Any = None
            try:
                path.parent.mkdir(parents=True, exist_ok=True)
                # everything typed lands here: private like the session files
                fd = os.open(path, os.O_CREAT | os.O_APPEND | os.O_WRONLY, 0o600)
                info = os.fstat(fd)
                os.close(fd)
                if info.st_uid != os.geteuid() or info.st_mode & 0o022:  # another user's, or a shared file
                    self._notice(
                        f"the input history file {path} is not private to you (owned by another user or "
                        "writable by others); what you type is not kept in it",
                        warning=True,
                    )
                    raise PermissionError(path)
                cap_history(path)
                history = FileHistory(str(path))
            except OSError:
                history = None  # a read-only home must not stop the chat
            self._prompt = PromptSession(
                history=history,
                completer=SlashCompleter(),
                complete_while_typing=True,
                key_bindings=_key_bindings(lambda text, error: self._error(text) if error else self._notice(text)),
                bottom_toolbar=lambda: self._status,
                multiline=False,
                **{k: v for k, v in self._pt_io.items() if v is not None},
            )
            keep_prompt_whole_on_resize(self._prompt.app)
        return self._prompt

    def _refresh_status(self) -> None:
        """The bottom line: session, model, and how full the next request is against the budget."""
        chat = self.app.chat
        try:
            request = chat.next_request("")
            used = f"context {request.tokens}/{request.budget} tokens ({100 * request.tokens // request.budget}%)"
        except ChatbotError:
            used = "context over budget"
        self._status = f" {chat.session.id} · {clean(chat.model)} · {used} · /help"

    def _confirm_tool(self, call: ToolCall) -> bool:
        """--confirm-tools: yes, no, or always (this tool, for the rest of the run)."""
        if call.name in self._always:
            return True
        session: PromptSession[str] = PromptSession(**{k: v for k, v in self._pt_io.items() if v is not None})
        name = preview(call.name, 60)
        # what is confirmed is what was shown, whole: no cut, no padding that pushes the rest out of view
        self.console.print(Text(f"{name} is to run with these arguments ({len(call.arguments):,} characters):"))
        self.console.print(Text(visible(call.arguments) or "(none)", style="bold"))
        self._asking = True
        try:
            answer = self._answer(session, f"run {name} with these arguments? [y]es / [n]o / [a]lways for {name} ")
        except EOFError:
            return False
        finally:
            self._asking = False
        if answer in ("a", "always"):
            self._always.add(call.name)
            return True
        return answer in ("y", "yes")

    def _answer(self, session: PromptSession[str], question: str) -> str:
        """The answer to a tool call's question: y, n, a (or their words); Enter is no; anything else (a typo, a
        "maybe") is asked again, not taken for a no the user did not say."""
        while True:
            answer = session.prompt(question).strip().lower()
            if answer in ("", "y", "yes", "n", "no", "a", "always"):
                return answer
            self._notice("answer y (run it), n (refuse it) or a (run it and every later call of this tool)")

    def _confirm(self, question: str) -> bool:
        session: PromptSession[str] = PromptSession(**{k: v for k, v in self._pt_io.items() if v is not None})
        try:
            answer = session.prompt(f"{question} [y/N] ")
        except Interrupted:
            raise  # SIGTERM, SIGHUP: not a "no" (the turn it asks for stops, and the process ends)
        except (KeyboardInterrupt, EOFError):
            return False
        return answer.strip().lower() in ("y", "yes")


def _given_back(line: str) -> bool:
    """Whether a line that failed as a command is given back at the next prompt: one that names no command and says
    more than its first word, most likely pasted text ("/usr/bin is where ...", or a command mistyped with its
    argument); a lone mistyped word ("/hepl") is not, so what the user types next is not glued to it."""
    return commands.is_command(line) and not commands.is_known(line) and len(line.split(maxsplit=1)) > 1
