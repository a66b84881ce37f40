"""The project's error tree.

Every expected failure is a :class:`ChatbotError` carrying the message a user should read and the exit code the
process ends with. The CLI prints ``chatbot: <message>`` and exits with the code, never a traceback::

    ChatbotError                      1
    ├── UsageError                    2  a bad flag, argument or command value
    ├── ConfigError                   2  missing key, unloadable tokenizer, bad base URL
    ├── SessionError                  3
    │   ├── InvalidSessionId
    │   ├── SessionNotFound
    │   ├── SessionLocked
    │   ├── SessionCorrupt
    │   └── StoreUnavailable             the session store (PostgreSQL) cannot be reached; turns kept in memory
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
        ├── ProviderTimeout
        └── ConnectionFailed
"""

from __future__ import annotations


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


class SessionCorrupt(SessionError):
    """A session file that does not parse, misses fields, or has an unknown version; never overwritten."""


class StoreUnavailable(SessionError):
    """The session store (a PostgreSQL server) cannot be reached; what the user saw is kept in memory."""


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
    """The provider does not serve the requested model."""


class RateLimitError(ProviderError):
    """Too many requests; ``retry_after`` is the wait the server asked for, in seconds, when it said."""

    def __init__(self, message: str, *, retry_after: float | None = None) -> None:
        super().__init__(message)
        self.retry_after = retry_after


class TokenRateLimitError(RateLimitError):
    """A per-minute token limit (Groq answers 413): the request is too large for the current rate tier."""


class ContextLengthError(ProviderError):
    """The request is longer than the model's context window."""


class ServerError(ProviderError):
    """The server failed (5xx, or an error event mid-stream) after the SDK's retries."""


class ProviderTimeout(ProviderError):
    """The server did not answer in time."""


class ConnectionFailed(ProviderError):
    """The server could not be reached."""


# --- tools ------------------------------------------------------------------------------------------------------


class ToolSourceError(ChatbotError):
    """A tool source given on the command line is unusable (a --functions file that does not load, no mcp SDK)."""

    exit_code = 2


class ToolFailed(ChatbotError):
    """One tool call failed (raised, timed out, its server died); the message goes back to the model, not a crash."""


class InvalidRequest(ChatbotError):
    """A request that breaks the chat format (system not first, orphan tool messages, ...); never sent."""
