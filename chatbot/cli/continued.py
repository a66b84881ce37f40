"""A continued session's provider and model: the run goes on with what served the session, unless told otherwise.

Continuing a session (``-c``, or ``--session ID`` of one that exists) with no ``--provider`` typed uses the provider
and model stored with it (a ``--base-url`` typed alone points that provider at the server: the URL is the one thing a
session does not keep); ``$CHATBOT_PROVIDER``, ``$CHATBOT_MODEL`` and the config file are
standing defaults for new sessions, and never move a session to another provider or model. A ``--provider`` or
``--model`` typed wins, and the session keeps it from then on (the app stores what served each turn).

A session made (or last served) against a server at another base URL than its provider's own service keeps a mark of
it, never the URL. Continued with no base URL given (typed, the config file's or the provider's variable), it is
refused before any request: the conversation would otherwise go to the provider's own service (a user trial: a chat
with a local llama.cpp server went on at api.openai.com, since only ``$OPENAI_API_KEY`` was set).
"""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING, NamedTuple

from chatbot.errors import ConfigError
from chatbot.providers.endpoint import base_url_needed, given_base_url
from chatbot.providers.table import PROVIDERS

if TYPE_CHECKING:
    from chatbot.storage.base import SessionStore


class _Stored(NamedTuple):
    """What served the session a run continues: its id, provider, model and endpoint mark."""

    session_id: str
    provider: str
    model: str
    endpoint: str


def with_session_provider(store: SessionStore, args: argparse.Namespace) -> argparse.Namespace:
    """``args`` with the continued session's provider and model in place of the defaults (a copy; ``args`` itself
    when this run starts a new session, or ``--provider`` is typed). A :class:`~chatbot.errors.ConfigError` when the
    session was served by another base URL than its provider's own and none is given now."""
    given = getattr(args, "given", None)
    if given is None or "provider" in given:
        return args  # (None: run() called without main(): every setting counts as typed)
    stored = _stored(store, args)
    if stored is None:
        return args
    changed = argparse.Namespace(**vars(args))
    if stored.provider != args.provider:
        changed.provider = stored.provider
        if "base_url" not in given:  # the config file's base URL belongs to the provider it chose, not to this one
            changed.base_url = None
    if "model" not in given:
        changed.model = stored.model or None
    why = base_url_needed(stored.endpoint, stored.provider)
    if why and given_base_url(changed.provider, changed.base_url) is None:
        raise ConfigError(
            f"cannot continue session {stored.session_id}: {why} (the address is not kept with it); give --base-url "
            "URL to go on with it there, or --provider NAME to send it to a provider's own service knowingly"
        )
    return changed


def _stored(store: SessionStore, args: argparse.Namespace) -> _Stored | None:
    """What served the session this run continues; None for a new session, an older file that names no provider, or
    one this version does not know (the app then opens it). A damaged one is its
    :class:`~chatbot.errors.SessionError`."""
    session_id = args.session
    if args.cont:
        session_id = store.choose_latest()[0]  # (the sessions it skips are named when the session is opened)
    if session_id is None or not store.exists(session_id):
        return None
    # a damaged session is said to be so here, before a provider is made for it: made first, the default provider's
    # missing key was the error a user read (a user trial: "GROQ_API_KEY is not set" for a broken session file)
    session = store.load(session_id)
    if session.provider not in PROVIDERS:
        return None
    return _Stored(session_id, session.provider, session.model, session.endpoint)
