"""The project's error tree.

Every expected failure is a :class:`ChatbotError` carrying the message a user should read and the exit code the
process ends with. The CLI prints ``chatbot: <message>`` and exits with the code, never a traceback::

    ChatbotError                      1
    ├── UsageError                    2  a bad flag, argument or command value
    ├── ConfigError                   2  missing key, unloadable tokenizer, bad base URL
    ├── OutputError                  74  standard output cannot be written (closed, full disk)
    ├── SessionError                  3
    │   ├── InvalidSessionId
    │   ├── SessionNotFound
    │   ├── SessionLocked
    │   ├── SessionChanged               the store's copy is not the one this process loaded: kept whole in a rescue
    │   ├── SessionCorrupt
    │   ├── StoreUnavailable             the session store (PostgreSQL) cannot be reached; turns kept in memory
    │   └── SaveFailed                   a session could not be written; the message names its rescue file
    ├── BudgetError                   4  even the system message and the new message do not fit
    ├── SummaryError                  1  the summarizer failed (the request falls back, history unchanged)
    ├── InvalidRequest                1  a request that breaks the chat format; never sent
    ├── ToolSourceError               2  a --functions file or --mcp server that cannot be used
    ├── ToolFailed                    1  one tool call failed (it becomes a tool message for the model)
    └── ProviderError                 5
        ├── AuthenticationError
        ├── ModelNotFoundError
        ├── RateLimitError
        │   └── TokenRateLimitError
        ├── ContextLengthError
        ├── ServerError
        │   └── IncompleteReply          the stream ended without a finish: the reply is kept, marked
        ├── ProviderTimeout
        ├── ConnectionFailed
        └── InvalidReply             a reply that is not the JSON asked for (--schema): stored, and reported

    KeyboardInterrupt ── Interrupted   (a signal or a closed output stopped a reply: handled like Ctrl-C)

Anything else is a bug (``INTERNAL_ERROR``, 70, EX_SOFTWARE): still one line, ``chatbot: internal error: <type>:
<message> (details in <log file>)``; the traceback goes to a private log file and the open session to a rescue file.
"""

from __future__ import annotations

import signal

#: the exit status of an exception no layer expected (a bug): EX_SOFTWARE of sysexits.h
INTERNAL_ERROR = 70


class ChatbotError(Exception):
    """Base of every expected failure: ``message`` is for the user, ``exit_code`` for the shell."""

    exit_code = 1

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


class UsageError(ChatbotError):
    """A bad flag, argument or command value."""

    exit_code = 2


class ConfigError(ChatbotError):
    """The environment is not set up: missing API key, unloadable tokenizer, bad base URL."""

    exit_code = 2


# --- sessions ---------------------------------------------------------------------------------------------------


class SessionError(ChatbotError):
    """Something is wrong with a stored session."""

    exit_code = 3


class InvalidSessionId(SessionError):
    """A session id that does not match ``[A-Za-z0-9][A-Za-z0-9._-]{0,63}``."""


class SessionNotFound(SessionError):
    """No session file with that id."""


class SessionLocked(SessionError):
    """Another process holds the session."""


class SessionChanged(SessionError):
    """The store's copy of a session is not the one this process loaded (another process wrote it since, or it is
    gone): a save is refused, and what this process has of the session is kept whole in a rescue file."""


class SessionCorrupt(SessionError):
    """A session file that does not parse, misses fields, or has an unknown version; never overwritten."""


class StoreUnavailable(SessionError):
    """The session store (a PostgreSQL server) cannot be reached; what the user saw is kept in memory."""


class SaveFailed(SessionError):
    """A session could not be written (read-only directory, full disk, file size limit); the message says where
    the session was rescued to, when it could be, and ``rescued`` names that file (None: no rescue file took it)."""

    def __init__(self, message: str, *, rescued: str | None = None) -> None:
        super().__init__(message)
        self.rescued = rescued


class OutputError(ChatbotError):
    """Standard output cannot be written (closed, a full disk, ``/dev/full``)."""

    exit_code = 74  # EX_IOERR


class Interrupted(KeyboardInterrupt):
    """A reply stopped by something other than Ctrl-C: SIGTERM, SIGHUP (the terminal closed) or a closed output.

    Handled like Ctrl-C (the partial answer is kept, marked with ``reason``), then the process ends with
    ``exit_code`` (128 + the signal number, as shells report a death by that signal).
    """

    def __init__(self, reason: str, exit_code: int, *, unsaved: bool = False, note: str = "") -> None:
        super().__init__(reason)
        self.reason = reason
        self.exit_code = exit_code
        # raised out of a save that never reached its store (a signal while it waited for the database): the
        # session still has to be rescued; ``note`` then says where it went, the one line printed on the way out
        self.unsaved = unsaved
        self.note = note

    @classmethod
    def by_signal(cls, signum: int) -> Interrupted:
        """The interruption a signal stands for."""
        what = {int(signal.SIGHUP): "the terminal was closed", int(signal.SIGTERM): "the process was asked to stop"}
        name = signal.Signals(signum).name
        return cls(f"{what.get(signum, 'a signal arrived')} ({name})", 128 + signum)


# --- memory -----------------------------------------------------------------------------------------------------


class BudgetError(ChatbotError):
    """Even the system message plus the new user message do not fit ``--max-input-tokens``."""

    exit_code = 4

    def __init__(self, message: str, *, needed: int, budget: int) -> None:
        super().__init__(message)
        self.needed = needed
        self.budget = budget


class SummaryError(ChatbotError):
    """The summarizer failed or returned nothing usable; stored history is unchanged."""


# --- providers --------------------------------------------------------------------------------------------------


class ProviderError(ChatbotError):
    """A provider call failed."""

    exit_code = 5


class AuthenticationError(ProviderError):
    """Missing or rejected API key."""


class ModelNotFoundError(ProviderError):
    """The provider does not serve the requested model; the message ends in :data:`CHOOSE`'s hint."""

    #: the hint that ends the message: the flag that chooses the model
    CHOOSE = "Choose another with {flag} NAME"

    def for_flag(self, flag: str) -> ModelNotFoundError:
        """This error with its hint naming ``flag`` (``--summary-model``, for the model that writes summaries)."""
        said = self.CHOOSE.format(flag="--model")
        return ModelNotFoundError(self.message.replace(said, self.CHOOSE.format(flag=flag)))


class RateLimitError(ProviderError):
    """Too many requests; ``retry_after`` is the wait the server asked for, in seconds, when it said."""

    def __init__(self, message: str, *, retry_after: float | None = None) -> None:
        super().__init__(message)
        self.retry_after = retry_after


class TokenRateLimitError(RateLimitError):
    """A per-minute token limit (Groq answers 413): the request is too large for the current rate tier."""


class ContextLengthError(ProviderError):
    """The request is longer than the model's context window; ``limit`` is that window in tokens, when the server
    named it (None when it did not)."""

    def __init__(self, message: str, *, limit: int | None = None) -> None:
        super().__init__(message)
        self.limit = limit


class ServerError(ProviderError):
    """The server failed (5xx, or an error event mid-stream); ``retry_after`` is the wait it asked for, in seconds,
    when it said (a 503 with ``Retry-After``)."""

    def __init__(self, message: str, *, retry_after: float | None = None) -> None:
        super().__init__(message)
        self.retry_after = retry_after


class IncompleteReply(ServerError):
    """The server stopped sending mid-reply (a reset, a dropped connection)."""


class ProviderTimeout(ProviderError):
    """The server did not answer in time."""


class ConnectionFailed(ProviderError):
    """The server could not be reached, or closed the connection before it answered."""


class InvalidReply(ProviderError):
    """The reply is not what was asked for: not JSON in JSON mode, or not matching the ``--schema``. The turn is
    stored as the model wrote it; the run still fails, so a script never takes a wrong shape for data."""


# --- tools ------------------------------------------------------------------------------------------------------


class ToolSourceError(ChatbotError):
    """A tool source given on the command line is unusable (a --functions file that does not load, no mcp SDK)."""

    exit_code = 2


class ToolFailed(ChatbotError):
    """One tool call failed (raised, timed out, its server died); the message goes back to the model, not a crash."""


class InvalidRequest(ChatbotError):
    """A request that breaks the chat format (system not first, orphan tool messages, ...); never sent."""
