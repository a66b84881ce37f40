"""Where the API key goes: a line for the user whenever that is not simply the provider's own server.

A ``.env`` file in the working directory can set ``OPENAI_BASE_URL`` or ``GROQ_BASE_URL`` and so send the user's key
to another host; the user is told which URL a key is sent to when the URL came from ``.env`` or is not the
provider's default, and warned when the key would travel over plain ``http://`` to a host that is not this machine.
"""

from __future__ import annotations

import ipaddress
import os
from collections.abc import Collection
from urllib.parse import urlsplit

from chatbot.providers.table import PROVIDERS


def is_loopback(host: str) -> bool:
    """Whether ``host`` is this machine (localhost, 127.0.0.0/8, ::1)."""
    if host.lower() in ("localhost", "localhost."):
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def endpoint_notices(
    provider: str, flag_url: str | None, from_dotenv: Collection[str], flag_source: str = "--base-url"
) -> list[tuple[str, bool]]:
    """Lines for the user as (text, is_warning) about where ``provider``'s key is sent; [] when nothing to say.

    ``flag_url`` is the ``--base-url`` setting and ``flag_source`` where it came from (the flag, or the config
    file: "base_url in PATH"); ``from_dotenv`` the names of the variables ``.env`` set. No key, no line: a local
    server that is sent none has nothing of the user's.
    """
    info = PROVIDERS.get(provider)
    if info is None or info.key_env is None or not os.environ.get(info.key_env, "").strip():
        return []  # no key, nothing of the user's to send
    env_url = os.environ.get(info.base_url_env or "") or None
    url = flag_url or env_url
    if not url:
        return []
    if flag_url:
        source = flag_source
    elif info.base_url_env in from_dotenv:
        source = f"{info.base_url_env} in .env"
    else:
        source = f"${info.base_url_env}"
    key_source = "; the key is from .env" if info.key_env in from_dotenv else ""
    notices: list[tuple[str, bool]] = []
    if url.rstrip("/") != info.default_base_url.rstrip("/") or source.endswith(".env"):
        notices.append((f"sending your {info.key_env} to {url} (set by {source}{key_source})", False))
    parts = urlsplit(url)
    if parts.scheme == "http" and not is_loopback(parts.hostname or ""):
        notices.append(
            (
                f"{url} is plain http:// to another host: the key and the conversation cross the network "
                "unencrypted; use https:// unless you trust every network in between",
                True,
            )
        )
    return notices
