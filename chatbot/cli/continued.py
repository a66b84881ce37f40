"""A continued session's provider and model: the run goes on with what served the session, unless told otherwise.

Continuing a session (``-c``, or ``--session ID`` of one that exists) with no ``--provider`` and no ``--base-url``
typed uses the provider and model stored with it; ``$CHATBOT_PROVIDER``, ``$CHATBOT_MODEL`` and the config file are
standing defaults for new sessions, and never move a session to another provider or model. A ``--provider`` or
``--model`` typed wins, and the session keeps it from then on (the app stores what served each turn).
"""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING

from chatbot.providers.table import PROVIDERS

if TYPE_CHECKING:
    from chatbot.storage.base import SessionStore


def with_session_provider(store: SessionStore, args: argparse.Namespace) -> argparse.Namespace:
    """``args`` with the continued session's provider and model in place of the defaults (a copy; ``args`` itself
    when this run starts a new session, or a flag typed chooses)."""
    given = getattr(args, "given", None)
    if given is None or "provider" in given or "base_url" in given:
        return args  # (None: run() called without main(): every setting counts as typed)
    stored = _stored(store, args)
    if stored is None:
        return args
    provider, model = stored
    changed = argparse.Namespace(**vars(args))
    if provider != args.provider:
        changed.provider = provider
        changed.base_url = None  # the config file's base URL belongs to the provider it chose, not to this one
    if "model" not in given:
        changed.model = model or None
    return changed


def _stored(store: SessionStore, args: argparse.Namespace) -> tuple[str, str] | None:
    """(provider, model) stored with the session this run continues; None for a new session, an older file that
    names no provider, or one this version does not know (the app then opens it). A damaged one is its
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
    return session.provider, session.model
