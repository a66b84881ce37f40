"""The address of a PostgreSQL store as a user writes it, and its password kept out of every message.

Two forms reach libpq: a URL (``postgresql://USER:PASSWORD@HOST:PORT/DB?…``) and its ``key=value`` connection string
(``host=db user=alice password=…``). Both are a PostgreSQL store: a connection string is never taken for a folder.

A password never shows: the address is shown with ``***`` in its place, and every message from libpq is searched for
it (a URL libpq reads otherwise than the user meant can put part of a password in a host or database name). A URL
whose password holds an unencoded ``@`` is refused before any connection with the line that fixes it: libpq would
cut it at the first ``@`` and try the rest as a host.
"""

from __future__ import annotations

import re
from urllib.parse import parse_qsl, unquote, urlsplit

from chatbot.errors import ConfigError
from chatbot.text import CONNINFO_PASSWORD, mask_password

SCHEMES = ("postgresql://", "postgres://")
# libpq's connection keywords (PostgreSQL 12 to 17): a location that starts with one of them and "=" is a connection
# string (a folder of that name can still be given as ./host=db)
KEYWORDS = {
    "host", "hostaddr", "port", "dbname", "user", "password", "passfile", "channel_binding", "connect_timeout",
    "client_encoding", "options", "application_name", "fallback_application_name", "keepalives", "keepalives_idle",
    "keepalives_interval", "keepalives_count", "tcp_user_timeout", "replication", "gssencmode", "sslmode",
    "requiressl", "sslcompression", "sslcert", "sslkey", "sslpassword", "sslrootcert", "sslcrl", "sslcrldir",
    "sslsni", "requirepeer", "ssl_min_protocol_version", "ssl_max_protocol_version", "krbsrvname", "gsslib",
    "gssdelegation", "service", "target_session_attrs", "load_balance_hosts", "require_auth", "sslcertmode",
}  # fmt: skip
_KEYWORD = re.compile(r"\s*([a-z_]+)\s*=")
_FIX = (
    "percent-encode it (@ as %40, / as %2F, ? as %3F, # as %23), or keep the password out of the URL: "
    "~/.pgpass or $PGPASSWORD"
)


def is_postgres(location: str) -> bool:
    """Whether ``location`` names a PostgreSQL store: a ``postgresql://`` URL or a libpq connection string."""
    return location.startswith(SCHEMES) or is_keywords(location)


def is_keywords(location: str) -> bool:
    """Whether ``location`` is a libpq ``key=value`` connection string."""
    match = _KEYWORD.match(location)
    return match is not None and match.group(1) in KEYWORDS


def checked(location: str) -> str:
    """``location`` once :func:`check` passes it (what the store table opens a PostgreSQL store with)."""
    check(location)
    return location


def check(location: str) -> None:
    """Refuse an address libpq would misread before any connection is tried, naming neither it nor its password."""
    if is_keywords(location):
        return  # libpq reads it; its messages are masked (:func:`hide_password`)
    rest = location.partition("://")[2]
    end = min([i for i in map(rest.find, "/?#") if i >= 0], default=len(rest))
    authority, path = rest[:end], rest[end:].partition("?")[0]
    if authority.count("@") > 1 or ("@" not in authority and "@" in path):
        raise ConfigError(f"the store URL's user name or password holds a character a URL must encode: {_FIX}")
    try:
        urlsplit(location).port  # noqa: B018 - reading the port is the check (a port that is not a number raises)
    except ValueError as exc:  # (what it took for the port may be a piece of a password with a ? in it)
        raise ConfigError(
            f"the store is not a valid postgresql:// URL ({hide_password(str(exc), location)}); the form is "
            f"postgresql://USER@HOST:PORT/DB. If its password holds @ / ? or #, {_FIX}"
        ) from None


def redact(location: str) -> str:
    """The address without its password, for messages."""
    return mask_password(location)


#: a password (or piece of one) shorter than this is masked only where it stands alone, not inside a word: a
#: password "on" must not make "connection" read "c***necti***"
SHORT_SECRET = 4


def hide_password(message: str, location: str) -> str:
    """``message`` (from libpq, about ``location``) with every password the address holds replaced by ``***`` (a
    short one, or a short piece of one, where it stands alone: between characters that are not letters or digits)."""
    for secret in sorted(_passwords(location), key=len, reverse=True):
        if len(secret) >= SHORT_SECRET:
            message = message.replace(secret, "***")
        else:
            message = re.sub(rf"(?<![^\W_]){re.escape(secret)}(?![^\W_])", "***", message)
    return message


def _passwords(location: str) -> set[str]:
    """Every string that may be the address's password, as written and as libpq or a URL parser reads it."""
    found = set()
    if is_keywords(location):
        found |= {m.group(2).strip("'") for m in CONNINFO_PASSWORD.finditer(location)}
    else:
        rest = location.partition("://")[2]
        libpq = rest.partition("@")[0] if "@" in rest else ""  # libpq's reading: up to the first @
        for userinfo in (libpq, rest.partition("?")[0].rpartition("@")[0]):  # and a URL parser's: the last
            if ":" in userinfo:
                found.add(userinfo.partition(":")[2])
        query = rest.partition("?")[2]
        found |= {v for k, v in parse_qsl(query) if k.lower() in ("password", "sslpassword")}
    # and its pieces: libpq cuts an unencoded @ (or /) off, and says what follows as a host or database name
    forms = {s for form in found for s in (form, unquote(form))}
    return {piece for form in forms for piece in (form, *re.split(r"[@/?#:]", form)) if piece}
