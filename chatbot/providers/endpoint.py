"""Where the API key and the conversation go: a line for the user whenever that is not simply the provider's server.

The line is computed from the final request target, whatever set it: the base URL (``--base-url``, the config file,
``$OPENAI_BASE_URL`` / ``$GROQ_BASE_URL``), the proxy the HTTP client will go through (``HTTPS_PROXY``,
``HTTP_PROXY``, ``ALL_PROXY``, in either case, less ``NO_PROXY``) and the CA bundle it will trust (``SSL_CERT_FILE``,
else ``SSL_CERT_DIR``, unless it is the system's own), and whether or not a key is set (without one, the
conversation still goes there). Plain ``http://`` to a host that is not this machine is warned about; a base URL or
proxy URL that carries an API key (the value of a provider's key variable, or a key-shaped ``gsk_…`` / ``sk-…``
string) is refused, because every server and log on the way would read it.
"""

from __future__ import annotations

import ipaddress
import os
import re
import urllib.request
from collections.abc import Collection, Mapping
from urllib.parse import unquote, urlsplit

from chatbot.errors import ConfigError
from chatbot.providers.table import PROVIDERS
from chatbot.text import mask_password

#: the CA bundle variables the HTTP client (httpx) reads, the first one set wins: whoever holds a certificate they
#: trust can read the traffic (REQUESTS_CA_BUNDLE is read by requests, not by httpx: it changes nothing here)
CA_VARIABLES = ("SSL_CERT_FILE", "SSL_CERT_DIR")
#: what Groq and OpenAI keys look like
_KEY_SHAPE = re.compile(r"(gsk_|sk-)[A-Za-z0-9_-]{20,}")


def is_loopback(host: str) -> bool:
    """Whether ``host`` is this machine (localhost, 127.0.0.0/8, ::1)."""
    if host.lower() in ("localhost", "localhost."):
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def url_problem(url: str) -> str:
    """What is wrong with ``url`` as a base URL ("" when nothing): it needs http:// or https://, a host, and a port
    (when it names one) that is a number from 1 to 65535. Checked before any request, so that a typo is one line
    naming where the URL came from, not an HTTP library's error."""
    try:
        parts = urlsplit(url)
    except ValueError:  # urlsplit refuses only an unbalanced IPv6 bracket
        return "its host has an unclosed [ (an IPv6 address is written http://[::1]:8080/v1)"
    if parts.scheme.lower() not in ("http", "https"):
        return "it must start with http:// or https:// (e.g. http://localhost:11434/v1)"
    if any(ch.isspace() or ord(ch) < 32 or ord(ch) == 127 for ch in url):
        return "it holds a space or a control character"
    if not parts.hostname:
        return "it names no host (e.g. http://localhost:11434/v1)"
    after_host = parts.netloc.rpartition("@")[2].rpartition("]")[2]  # past the user and an IPv6 address
    port = after_host.partition(":")[2]  # "" when none is named (http://host:/ too: the scheme's own)
    if port and not (port.isascii() and port.isdigit() and 1 <= int(port) <= 65535):
        return f"its port {port!r} is not a number from 1 to 65535"
    return ""


def proxy_for(url: str, environ: Mapping[str, str] = os.environ) -> tuple[str, str] | None:
    """(proxy URL, the variable that set it) the HTTP client sends ``url`` through, or None (none, or NO_PROXY)."""
    parts = urlsplit(url)
    proxies = {k: v for k, v in urllib.request.getproxies_environment().items() if v}
    if not proxies or urllib.request.proxy_bypass(parts.hostname or ""):  # NO_PROXY
        return None
    for scheme in (parts.scheme, "all"):
        if scheme in proxies:
            name = next((n for n in environ if n.lower() == f"{scheme}_proxy" and environ[n] == proxies[scheme]), "")
            return proxies[scheme], name or f"{scheme.upper()}_PROXY"
    return None


def refuse_keys_in(url: str, what: str, environ: Mapping[str, str] = os.environ) -> None:
    """A ConfigError when ``url`` carries an API key (never repeating the key)."""
    text = unquote(url)
    for info in PROVIDERS.values():
        value = environ.get(info.key_env or "", "").strip()
        if len(value) >= 8 and value in text:
            raise ConfigError(f"the {what} holds the value of {info.key_env}; refusing to send your key there")
    if _KEY_SHAPE.search(text):
        raise ConfigError(f"the {what} holds a string that looks like an API key; refusing to send it there")


def given_base_url(provider: str, flag_url: str | None, environ: Mapping[str, str] = os.environ) -> str | None:
    """The base URL ``provider``'s requests go to instead of its own service's default: ``flag_url`` (typed, or the
    config file's), else the provider's variable (``$OPENAI_BASE_URL``); None when none is given, and always for
    echo (no server)."""
    info = PROVIDERS.get(provider)
    if info is None or not info.default_base_url:
        return None
    return flag_url or environ.get(info.base_url_env or "") or None


def base_url_needed(mark: str, provider: str) -> str:
    """Why a session with endpoint ``mark`` may not go on at ``provider``'s own service with no base URL given, or ""
    when it may. "custom": it was served at another address. "unknown": it was stored before the mark was kept, so it
    may have been; only a provider whose own service is on this machine (Ollama, LM Studio, vLLM) is safe to assume."""
    info = PROVIDERS.get(provider)
    if info is None or not info.default_base_url:
        return ""  # (echo: nothing is sent anywhere)
    if mark == "custom":
        return f"it was made against a server at another address than {provider}'s own service"
    if mark == "unknown" and not info.local:
        return (
            "it was stored before chatbot kept whether a session was served at a base URL of your own, so it may have "
            "been"
        )
    return ""


def endpoint_mark(provider: str, flag_url: str | None) -> str:
    """What a session served by ``provider`` with ``flag_url`` keeps of where it was served: "custom" for a base URL
    at another address (scheme, host, port) than the provider's own service's, else "" (the URL itself is never
    kept: see :attr:`~chatbot.storage.session.Session.endpoint`). Another path on the service's own host is still
    the service (Groq's SDK root with or without ``/openai/v1``)."""
    url = given_base_url(provider, flag_url)
    if url is None or _address(url) == _address(PROVIDERS[provider].default_base_url):
        return ""
    return "custom"


def _address(url: str) -> tuple[str, str, int | None]:
    """(scheme, host, port) of ``url``, the port its scheme's own when none is named; a malformed one names none."""
    try:
        parts = urlsplit(url)
        port = parts.port or {"http": 80, "https": 443}.get(parts.scheme.lower())
    except ValueError:  # (a malformed URL is refused by name before any request: url_problem)
        return ("", url, None)
    return parts.scheme.lower(), (parts.hostname or "").lower(), port


def endpoint_notices(
    provider: str, flag_url: str | None, from_dotenv: Collection[str], flag_source: str = "--base-url"
) -> list[tuple[str, bool]]:
    """Lines for the user as (text, is_warning) about where ``provider``'s key and conversation go; [] when they go
    straight to the provider's own server.

    ``flag_url`` is the ``--base-url`` setting and ``flag_source`` where it came from (the flag, or the config
    file: "base_url in PATH"); ``from_dotenv`` the names of the variables ``.env`` set. Raises ConfigError when
    the base URL or the proxy URL carries a key.
    """
    info = PROVIDERS.get(provider)
    if info is None or not info.default_base_url:
        return []  # echo: no server, nothing leaves this machine
    env_url = os.environ.get(info.base_url_env or "") or None
    url = flag_url or env_url
    target = url or info.default_base_url
    refuse_keys_in(target, "base URL")
    proxy = proxy_for(target)
    if proxy is not None:
        refuse_keys_in(proxy[0], f"proxy URL of ${proxy[1]}")
    has_key = bool(info.key_env and os.environ.get(info.key_env, "").strip())
    what = f"your {info.key_env}" if has_key else "the conversation"
    notices: list[tuple[str, bool]] = []
    route = _route(target, proxy)
    if not has_key and not route and is_loopback(urlsplit(target).hostname or ""):
        return []  # a local server sent no key: nothing of the user's leaves this machine
    if url:
        if flag_url:
            source = flag_source
        elif info.base_url_env in from_dotenv:
            source = f"{info.base_url_env} in .env"
        else:
            source = f"${info.base_url_env}"
        key_source = "; the key is from .env" if info.key_env in from_dotenv else ""
        key_source += "" if has_key or not info.key_env else f"; no {info.key_env} is set"
        if url.rstrip("/") != info.default_base_url.rstrip("/") or source.endswith(".env") or route:
            notices.append((f"sending {what} to {mask_password(url)} (set by {source}{key_source}){route}", False))
    elif route:
        notices.append((f"sending {what} to {mask_password(target)}{route}", False))
    parts = urlsplit(target)
    if parts.scheme == "http" and not is_loopback(parts.hostname or ""):
        crossing = "the key and the conversation cross" if has_key else "the conversation crosses"
        notices.append(
            (
                f"{mask_password(target)} is plain http:// to another host: {crossing} the network "
                "unencrypted; use https:// unless you trust every network in between",
                True,
            )
        )
    return notices


def ca_bundle(environ: Mapping[str, str] = os.environ) -> tuple[str, str] | None:
    """(variable, path) of the CA bundle the HTTP client trusts instead of its own, or None when that is the default
    or the system's own bundle (a distribution's SSL_CERT_FILE often names it)."""
    import ssl

    name = next((n for n in CA_VARIABLES if environ.get(n)), None)
    if name is None:
        return None
    paths = ssl.get_default_verify_paths()
    usual = {paths.openssl_cafile, paths.openssl_capath}
    try:
        import certifi

        usual.add(certifi.where())
    except ImportError:  # pragma: no cover - httpx depends on certifi
        pass
    if os.path.realpath(environ[name]) in {os.path.realpath(p) for p in usual if p}:
        return None
    return name, environ[name]


def route_for(url: str) -> str:
    """What lies between this machine and ``url`` as the HTTP client reads it from the environment (the proxy, and
    the CA bundle trusted for https://), told as the provider's notice tells it: "" when nothing does. Any HTTP
    connection of chatbot's (a fetched web page too) goes by these rules; raises ConfigError when the proxy URL
    carries a key."""
    proxy = proxy_for(url)
    if proxy is not None:
        refuse_keys_in(proxy[0], f"proxy URL of ${proxy[1]}")
    return _route(url, proxy)


def _route(target: str, proxy: tuple[str, str] | None) -> str:
    """What lies between this machine and ``target``: a proxy, and the CA bundle trusted for https://."""
    route = f" through the proxy {mask_password(proxy[0])} (${proxy[1]})" if proxy else ""
    bundle = ca_bundle()
    if bundle and urlsplit(target).scheme == "https":
        route += f", trusting the certificates of ${bundle[0]} ({bundle[1]})"
    return route
