"""A web page as an attachment (``/file https://...``, ``-f URL``): fetched with ``httpx``, within a time limit
(15 s of silence, 20 s for the whole page) and a size limit, its HTML turned into readable text by ``inscriptis``
(headings, paragraphs, lists and tables kept as text; scripts and styles dropped). Plain text, JSON, XML and Markdown
are attached as they are, a PDF by its text. Any other content type, binary bytes, an error status, a page too large
or too slow is one line naming the URL and why.

The page is fetched as the provider's requests go (:mod:`chatbot.providers.endpoint`): through the proxy and with
the CA bundle of the environment (``HTTPS_PROXY`` ..., ``NO_PROXY``, ``SSL_CERT_FILE``), which a ``.env`` file
cannot set; when either is in the way, the line that says what was attached says so, and a proxy URL that carries an
API key is refused.
"""

from __future__ import annotations

import time
from typing import TYPE_CHECKING

from chatbot.engine.text import mask_password
from chatbot.errors import UsageError

if TYPE_CHECKING:
    import httpx

MAX_URL_BYTES = 5 * 1024 * 1024  # what is downloaded (HTML is mostly markup); the text is held to the text limit
URL_TIMEOUT = 15.0  # seconds to connect, and between two pieces of the answer
URL_DEADLINE = 20.0  # seconds for the whole page: a server that sends a byte now and then must not hold the chat
HTML_TYPES = ("text/html", "application/xhtml+xml")
TEXT_TYPES = ("text/", "application/json", "application/xml", "application/javascript", "application/x-yaml")


def is_url(text: str) -> bool:
    """Whether ``text`` names a web page (http or https) rather than a path."""
    return text.strip().lower().startswith(("http://", "https://"))


def fetch(url: str, max_text: int) -> tuple[str, str, str]:
    """The readable text of ``url``, what it was ("web page", "PDF, N page(s)", the content type) and the route it
    came by (" through the proxy ...", or ""); one UsageError naming the URL when it cannot be had or is not text."""
    import httpx

    from chatbot.providers.endpoint import route_for

    route = route_for(url)  # before anything is sent: a proxy URL holding a key is refused
    name = mask_password(url)  # what every line names: the URL without its password
    deadline = time.monotonic() + URL_DEADLINE
    try:
        with (
            # trust_env: the environment's proxy and CA bundle, read as the providers' SDK clients read them
            httpx.Client(timeout=URL_TIMEOUT, follow_redirects=True, max_redirects=5, trust_env=True) as client,
            client.stream("GET", url, headers={"Accept": "text/html, text/*;q=0.9, */*;q=0.5"}) as response,
        ):
            if response.status_code >= 400:
                raise UsageError(f"{name}: the server answered {response.status_code} {response.reason_phrase}")
            kind = response.headers.get("content-type", "").split(";")[0].strip().lower()
            _check_type(name, kind)
            data = _body(name, response, deadline)
            encoding = response.encoding or "utf-8"
    except httpx.TimeoutException:
        raise UsageError(f"{name}: no answer within {URL_TIMEOUT:g} s") from None
    except httpx.InvalidURL as exc:
        raise UsageError(f"{name} is not a URL that can be fetched ({exc})") from None
    except httpx.HTTPError as exc:
        raise UsageError(f"cannot fetch {name}: {exc or type(exc).__name__}") from None
    return (*_text(name, kind, data, encoding, max_text), route)


def _check_type(url: str, kind: str) -> None:
    if kind in HTML_TYPES or kind == "application/pdf" or kind.startswith(TEXT_TYPES) or kind.endswith("+json"):
        return
    raise UsageError(f"{url} is {kind or 'of no stated type'}, not a web page, text or PDF")


def _body(url: str, response: httpx.Response, deadline: float) -> bytes:
    """The answer's bytes, refused as soon as they pass :data:`MAX_URL_BYTES` (a stated length is believed first) or
    arrive after ``deadline`` (``time.monotonic()``): the read timeout alone lets a trickle go on for days."""
    stated = response.headers.get("content-length", "")
    if stated.isdigit() and int(stated) > MAX_URL_BYTES:
        raise UsageError(f"{url} is {int(stated):,} bytes; a page can be at most {MAX_URL_BYTES:,}")
    chunks, size = [], 0
    for chunk in response.iter_bytes():
        size += len(chunk)
        if size > MAX_URL_BYTES:
            raise UsageError(f"{url} is over {MAX_URL_BYTES:,} bytes; a page can be at most that")
        if time.monotonic() > deadline:
            raise UsageError(f"{url}: the page did not arrive within {URL_DEADLINE:g} s ({size:,} bytes so far)")
        chunks.append(chunk)
    return b"".join(chunks)


def _text(url: str, kind: str, data: bytes, encoding: str, max_text: int) -> tuple[str, str]:
    if kind == "application/pdf":
        from chatbot.core.pdf import pdf_text

        text, pages = pdf_text(data, url, max_text)
        return text, f"PDF, {pages} page(s)"
    try:
        decoded = data.decode(encoding, "replace")
    except LookupError:  # a charset Python does not know
        decoded = data.decode("utf-8", "replace")
    if "\x00" in decoded[:8192]:  # as for a file: text holds no NUL, whatever its stated type
        raise UsageError(f"{url} is binary, though the server calls it {kind or 'nothing'}: not a web page or text")
    if kind in HTML_TYPES:
        from inscriptis import get_text

        decoded, what = get_text(decoded).strip(), "web page"
    else:
        what = kind
    if not decoded.strip():
        raise UsageError(f"{url} has no text (an empty page, or one its scripts fill in)")
    size = len(decoded.encode("utf-8", "surrogatepass"))
    if size > max_text:
        raise UsageError(f"{url} holds {size:,} bytes of text; attached text can be at most {max_text:,}")
    return decoded, what
