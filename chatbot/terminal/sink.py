"""How the terminal shows a turn: streamed Markdown (or plain text), dim notices, tool lines, and a notice while the
server is slow, as the :class:`~chatbot.core.front_end.EventSink` that :func:`~chatbot.core.front_end.run_turn`
feeds."""

from __future__ import annotations

import contextlib
from collections.abc import Callable

from rich.console import Console
from rich.text import Text

from chatbot.core.events import Notice, Saving, ToolFinished, ToolStarted, wait_notice
from chatbot.errors import Interrupted
from chatbot.terminal.render import make_stream
from chatbot.text import StreamCleaner, preview
from chatbot.tools.base import describe_call


class TerminalSink:
    """One turn on the terminal. ``say(text, warning)`` prints a notice; ``asking()`` is true while the user is asked
    about a tool call (no "waiting for the server" then)."""

    output = "to the terminal"

    def __init__(
        self,
        console: Console,
        say: Callable[[str, bool], None],
        asking: Callable[[], bool],
        *,
        plain: bool,
        show_reasoning: bool,
    ) -> None:
        self.console = console
        self.say = say
        self.asking = asking
        self.stream = make_stream(console, plain=plain, show_reasoning=show_reasoning)
        self.shown = False  # the server's wait notice only before the reply starts: later the tail is on screen
        # each piece cleaned as part of the whole: a sequence split between two pieces is removed whole
        self.answer, self.thinking = StreamCleaner(), StreamCleaner()

    def text(self, text: str) -> None:
        self.shown = True
        self.stream.feed(self.answer.feed(text))

    def reasoning(self, text: str) -> None:
        self.shown = True
        self.stream.feed_reasoning(self.thinking.feed(text))

    def _rest(self) -> None:
        # what the cleaners held back (a sequence the reply ended inside), cleaned, before the display ends
        self.stream.feed_reasoning(self.thinking.flush())
        self.stream.feed(self.answer.flush())

    def notice(self, notice: Notice) -> None:
        self._settle()
        self.say(notice.text, notice.warning)

    def _settle(self) -> None:
        # what streamed so far is printed whole before a line of ours: a notice at the end of a reply (cut at the
        # output limit, the store away) must not land above the reply's last lines, still in the live region
        if self.shown:
            self.stream.settle()

    def tool(self, event: ToolStarted | ToolFinished) -> None:
        self._settle()
        if isinstance(event, ToolStarted):
            self.console.print(Text(f"→ {describe_call(event.call.name, event.call.arguments)}", style="dim"))
        else:
            self.console.print(Text(f"  ← {preview(event.text)}", style="dim yellow" if event.error else "dim"))

    def waiting(self, last: object) -> None:
        # not once the reply shows (its live tail is on screen), nor while the user is asked about a tool call; a
        # slow save is told even after the reply
        # (called from the watch's thread: it prints a line and touches nothing of the stream the main thread draws)
        if (not self.shown and not self.asking()) or isinstance(last, Saving):
            self.say(wait_notice(last), False)

    def finish(self) -> None:
        self._rest()
        self.stream.finish()

    def stop(self, exc: BaseException) -> None:
        with contextlib.suppress(Exception):  # (the terminal may be gone)
            self._rest()
        if isinstance(exc, KeyboardInterrupt) and not isinstance(exc, Interrupted):
            self.stream.abort()  # Ctrl-C: what came stays, "interrupted" under it
            return
        with contextlib.suppress(Exception):  # a signal, an error, a bug: the terminal may be gone; the cursor back
            self.stream.abort() if isinstance(exc, Interrupted) else self.stream.abort("")
