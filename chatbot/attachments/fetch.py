"""A web page as an attachment (``/file https://...``, ``-f URL``): fetched with ``httpx`` within a time limit (15 s
of silence; 20 s for the whole fetch, connecting, headers and body, however slowly they drip), a size limit (what is
downloaded, and what it unpacks to) and from public addresses only unless told otherwise
(:mod:`~chatbot.attachments.url_guard`); its bytes become text in :mod:`~chatbot.attachments.page_text`. An error
status, a type that is not text, a page too large or too slow, an address refused, a redirect too many is one line
naming the URL and why.

Redirects are followed here, hop by hop (at most :data:`MAX_REDIRECTS`), their bodies never read: httpx would read a
redirect's whole body, unpacked, before the next hop. A body is unpacked here too, one layer of gzip or deflate at
most and never past the size limit: httpx inflates ``Content-Encoding: gzip, gzip`` a layer at a time in one call,
so a few kilobytes become gigabytes.

The page is fetched as the provider's requests go (:mod:`chatbot.providers.endpoint`): through the proxy and with
the CA bundle of the environment (``HTTPS_PROXY`` ..., ``NO_PROXY``, ``SSL_CERT_FILE``), which a ``.env`` file
cannot set; when either is in the way, the line that says what was attached says so, and a proxy URL that carries an
API key is refused.
"""

from __future__ import annotations

import zlib
from typing import TYPE_CHECKING
from urllib.parse import urlsplit

from chatbot.errors import UsageError
from chatbot.text import mask_password

if TYPE_CHECKING:
    import httpx

    from chatbot.attachments.url_guard import Deadline, Policy

MAX_URL_BYTES = 5 * 1024 * 1024  # what is downloaded, and what it unpacks to; the text is held to the text limit
URL_TIMEOUT = 15.0  # seconds to connect, and between two pieces of the answer
URL_DEADLINE = 20.0  # seconds for the whole fetch: a server that sends a byte now and then must not hold the chat
MAX_REDIRECTS = 5
HTML_TYPES = ("text/html", "application/xhtml+xml")
TEXT_TYPES = ("text/", "application/json", "application/xml", "application/javascript", "application/x-yaml")
HEADERS = {"Accept": "text/html, text/*;q=0.9, */*;q=0.5", "Accept-Encoding": "gzip, deflate"}


def is_url(text: str) -> bool:
    """Whether ``text`` names a web page (http or https) rather than a path."""
    return text.strip().lower().startswith(("http://", "https://"))


def fetch(url: str, max_text: int, *, allow_private: bool = False, allow: Policy | None = None) -> tuple[str, str, str]:
    """The readable text of ``url``, what it was ("web page", "PDF, N page(s)", the content type) and the route it
    came by (" through the proxy ...", or ""); one UsageError naming the URL when it cannot be had or is not text.
    Only public addresses are contacted unless ``allow_private`` (``allow``: another policy, for tests)."""
    import httpx

    from chatbot.attachments import url_guard
    from chatbot.attachments.page_text import page_text
    from chatbot.providers.endpoint import route_for

    name = mask_password(url)  # what every line names: the URL without its password
    _check_url(url, name)
    route = route_for(url)  # before anything is sent: a proxy URL holding a key is refused
    policy = allow or (url_guard.anywhere if allow_private else url_guard.public)
    deadline = url_guard.Deadline(URL_DEADLINE)
    try:
        # trust_env: the environment's proxy and CA bundle, read as the providers' SDK clients read them
        with httpx.Client(timeout=URL_TIMEOUT, trust_env=True) as client:
            url_guard.guard(client, policy, deadline)
            response = _open(client, url, name, policy)
            try:
                kind = response.headers.get("content-type", "").split(";")[0].strip().lower()
                _check_type(name, kind)
                data = _body(name, response, deadline)
                encoding = response.encoding or "utf-8"
            finally:
                response.close()
    except url_guard.RefusedAddress as exc:
        hop = "" if exc.host == urlsplit(url).hostname else " (where it redirected)"
        raise UsageError(
            f"{name}: {exc.why()}{hop}; only public addresses are fetched unless --allow-private-urls is given"
        ) from None
    except httpx.TimeoutException:
        if deadline.passed():
            raise UsageError(f"{name}: the page did not arrive within {URL_DEADLINE:g} s") from None
        raise UsageError(f"{name}: no answer within {URL_TIMEOUT:g} s") from None
    except httpx.InvalidURL as exc:
        raise UsageError(f"{name} is not a URL that can be fetched ({exc})") from None
    except httpx.HTTPError as exc:
        raise UsageError(f"cannot fetch {name}: {exc or type(exc).__name__}") from None
    return (*page_text(name, kind, data, encoding, max_text, deadline), route)


def _check_url(url: str, name: str) -> None:
    """One UsageError for a URL that cannot even be parsed (``http://[::1/``, ``http://xn--/``)."""
    import httpx

    try:
        parts = urlsplit(url)
        parts.port  # noqa: B018 - a port that is not a number raises here
        httpx.URL(url).host  # noqa: B018 - an A-label that is no punycode (xn--) raises only when the host is read
    except (ValueError, httpx.InvalidURL) as exc:  # (an IDNA error is a UnicodeError, a ValueError)
        raise UsageError(f"{name} is not a URL that can be fetched ({exc or type(exc).__name__})") from None
    if not parts.hostname:
        raise UsageError(f"{name} is not a URL that can be fetched (it names no host)")


def _open(client: httpx.Client, url: str, name: str, policy: Policy) -> httpx.Response:
    """The streamed answer to GET ``url``, redirects followed (each hop checked, no redirect's body read)."""
    from chatbot.attachments.url_guard import check_target
    from chatbot.providers.endpoint import proxy_for

    request = client.build_request("GET", url, headers=HEADERS)
    for _ in range(MAX_REDIRECTS + 1):
        check_target(request.url.host, proxy_for(str(request.url)) is not None, policy)
        response = client.send(request, stream=True)
        if response.next_request is None:
            if response.status_code >= 400:
                response.close()
                raise UsageError(f"{name}: the server answered {response.status_code} {response.reason_phrase}")
            return response
        response.close()
        request = response.next_request
    raise UsageError(f"{name}: more than {MAX_REDIRECTS} redirects")


def _check_type(url: str, kind: str) -> None:
    """One UsageError unless ``kind`` is a web page's, text's, or one a reader of ``READERS`` is fetched for."""
    from chatbot.attachments.attach import READERS

    if kind in HTML_TYPES or kind.startswith(TEXT_TYPES) or kind.endswith("+json"):
        return
    if any(kind in r.types for r in READERS):
        return
    kinds = ["a web page", "text", *(r.what for r in READERS if r.types)]
    raise UsageError(f"{url} is {kind or 'of no stated type'}, not {', '.join(kinds[:-1])} or {kinds[-1]}")


def _body(url: str, response: httpx.Response, deadline: Deadline) -> bytes:
    """The answer's bytes, unpacked, refused as soon as they (or what they unpack to) pass :data:`MAX_URL_BYTES` (a
    stated length is believed first) or arrive after ``deadline``: the read timeout alone lets a trickle go on."""
    stated = response.headers.get("content-length", "")
    if stated.isdigit() and int(stated) > MAX_URL_BYTES:
        raise UsageError(f"{url} is {int(stated):,} bytes; a page can be at most {MAX_URL_BYTES:,}")
    unpack = _unpacker(url, response.headers.get("content-encoding", ""))
    chunks, got, size = [], 0, 0
    for chunk in response.iter_raw():
        got += len(chunk)
        if got > MAX_URL_BYTES:
            raise UsageError(f"{url} is over {MAX_URL_BYTES:,} bytes; a page can be at most that")
        if deadline.passed():
            raise UsageError(f"{url}: the page did not arrive within {URL_DEADLINE:g} s ({got:,} bytes so far)")
        piece = unpack(chunk, MAX_URL_BYTES - size) if unpack else chunk
        size += len(piece)
        chunks.append(piece)
    return b"".join(chunks)


class _Inflate:
    """One layer of gzip or deflate unpacked a piece at a time, never more than the room left."""

    def __init__(self, url: str, coding: str) -> None:
        self._url, self._deflate = url, coding == "deflate"
        self._z = zlib.decompressobj(zlib.MAX_WBITS | (0 if self._deflate else 16))
        self._started = False

    def __call__(self, data: bytes, room: int) -> bytes:
        try:
            out = self._z.decompress(data, room + 1)  # at most one byte past the room: enough to know it is over
        except zlib.error as exc:
            if not (self._deflate and not self._started):
                raise UsageError(f"{self._url}: its packed bytes are damaged ({exc})") from None
            self._z, self._deflate = zlib.decompressobj(-zlib.MAX_WBITS), False  # deflate without its zlib header
            return self(data, room)
        self._started = True
        if len(out) > room:
            raise UsageError(f"{self._url} unpacks to over {MAX_URL_BYTES:,} bytes; a page can be at most that")
        return out


def _unpacker(url: str, header: str) -> _Inflate | None:
    """What unpacks a body sent with ``Content-Encoding: header``; None when it is not packed. More than one layer
    is refused: no server needs it, and a bomb does."""
    layers = [c.strip().lower() for c in header.split(",") if c.strip() and c.strip().lower() != "identity"]
    if not layers:
        return None
    if len(layers) > 1:
        raise UsageError(f"{url} is sent packed {len(layers)} times over ({header}); chatbot unpacks one layer")
    if layers[0] not in ("gzip", "x-gzip", "deflate"):
        raise UsageError(f"{url} is sent packed as {layers[0]}, which chatbot does not unpack (gzip or deflate)")
    return _Inflate(url, layers[0])
