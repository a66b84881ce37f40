"""Where a fetched web page may come from, and the one deadline of the whole fetch (:mod:`chatbot.attachments.fetch`).

**Addresses.** By default a URL attachment reaches public addresses only (``ipaddress``'s ``is_global``): loopback,
private networks, link-local ones (the cloud metadata service at 169.254.169.254), shared, multicast and reserved
ones are refused, because a page anyone can write, or a redirect it answers with, must not read this machine's or
its network's services into the conversation. ``--allow-private-urls`` (config key ``allow_private_urls``) lets
them through, for people who attach their own local pages.

The check is made where each connection is made (every redirect hop opens its own): the name is resolved once, every
address it gives must be allowed, and the address the socket is connected to is checked again. Checking a name and
then letting the HTTP client resolve it again would let a DNS server answer a public address the first time and a
private one the second. Through a proxy, the proxy resolves names and connects: chatbot checks what it can see, a
target given as an address (``http://10.0.0.1/``) or named ``localhost``; the proxy itself (the user's setting) is
reached whatever its address.

**Deadline.** The same connections are held to one deadline: every connect, read and write is given no more than
what is left of it, so a server that drips its headers a byte at a time gives up when the page's time is over, as
one that drips its body does.
"""

from __future__ import annotations

import ipaddress
import socket
import time
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Any

import httpcore

if TYPE_CHECKING:
    import ssl

    import httpx

Address = ipaddress.IPv4Address | ipaddress.IPv6Address
#: whether a page may be fetched from an address
Policy = Callable[[Address], bool]


def public(address: Address) -> bool:
    """The default policy: only addresses the whole internet can reach, one host each (an IPv4 address written as
    IPv6 is judged as itself)."""
    mapped = getattr(address, "ipv4_mapped", None)
    return (mapped or address).is_global and not address.is_multicast


def anywhere(address: Address) -> bool:
    """The policy of ``--allow-private-urls``: every address."""
    return True


class RefusedAddress(Exception):
    """A connection the policy does not allow: ``host`` (as the URL names it) is, or resolved to, ``address``."""

    def __init__(self, host: str, address: Address | None) -> None:
        super().__init__(host, address)
        self.host, self.address = host, address

    def why(self) -> str:
        """One phrase for the user: which address, and what kind."""
        if self.address is None:
            return f"{self.host} is this machine"
        a = self.address
        kind = (
            "a loopback address (this machine)"
            if a.is_loopback
            else "a link-local address (where cloud metadata services answer)"
            if a.is_link_local
            else "a private address"
            if a.is_private
            else "not a public address"
        )
        said = "" if self.host.strip("[]") == str(a) else f"{self.host} is "
        return f"{said}{a}, {kind}"


class Deadline:
    """One point in time the whole fetch must be over by."""

    def __init__(self, seconds: float) -> None:
        self.seconds = seconds
        self.at = time.monotonic() + seconds

    def left(self) -> float:
        """Seconds left (negative once out of time)."""
        return self.at - time.monotonic()

    def passed(self) -> bool:
        """Whether the fetch is out of time."""
        return time.monotonic() >= self.at

    def clamp(self, timeout: float | None, error: type[Exception]) -> float:
        """``timeout`` cut to what is left; ``error`` (an httpcore timeout) when nothing is."""
        left = self.at - time.monotonic()
        if left <= 0:
            raise error(f"the fetch's {self.seconds:g} s are over")
        return left if timeout is None else min(timeout, left)


class _Stream(httpcore.NetworkStream):
    """A connection whose every read and write is held to the fetch's deadline."""

    def __init__(self, inner: httpcore.NetworkStream, deadline: Deadline) -> None:
        self._inner, self._deadline = inner, deadline

    def read(self, max_bytes: int, timeout: float | None = None) -> bytes:
        return self._inner.read(max_bytes, self._deadline.clamp(timeout, httpcore.ReadTimeout))

    def write(self, buffer: bytes, timeout: float | None = None) -> None:
        self._inner.write(buffer, self._deadline.clamp(timeout, httpcore.WriteTimeout))

    def close(self) -> None:
        self._inner.close()

    def start_tls(
        self, ssl_context: ssl.SSLContext, server_hostname: str | None = None, timeout: float | None = None
    ) -> httpcore.NetworkStream:
        wait = self._deadline.clamp(timeout, httpcore.ConnectTimeout)
        return _Stream(self._inner.start_tls(ssl_context, server_hostname, wait), self._deadline)

    def get_extra_info(self, info: str) -> Any:
        return self._inner.get_extra_info(info)


class GuardedBackend(httpcore.NetworkBackend):
    """httpcore's own sockets, each connected only to an address ``allow`` allows (unless ``check`` is off: the
    proxy's connection) and held to ``deadline``."""

    def __init__(self, allow: Policy, deadline: Deadline, *, check: bool = True) -> None:
        self._allow, self._deadline, self._check = allow, deadline, check
        self._inner = httpcore.SyncBackend()

    def connect_tcp(
        self,
        host: str,
        port: int,
        timeout: float | None = None,
        local_address: str | None = None,
        socket_options: Iterable[Any] | None = None,
    ) -> httpcore.NetworkStream:
        failed: Exception = httpcore.ConnectError(f"{host} has no address")
        for ip in self._addresses(host, port) if self._check else [host]:
            wait = self._deadline.clamp(timeout, httpcore.ConnectTimeout)
            try:  # to the address checked, not to the name again
                stream = self._inner.connect_tcp(ip, port, wait, local_address, socket_options)
            except httpcore.ConnectError as exc:
                failed = exc
                continue
            if self._check:
                self._check_peer(host, stream)
            return _Stream(stream, self._deadline)
        raise failed

    def connect_unix_socket(
        self, path: str, timeout: float | None = None, socket_options: Iterable[Any] | None = None
    ) -> httpcore.NetworkStream:
        raise httpcore.ConnectError("a web page is not fetched through a Unix socket")

    def sleep(self, seconds: float) -> None:
        time.sleep(seconds)

    def _addresses(self, host: str, port: int) -> list[str]:
        """Every address ``host`` resolves to, once; RefusedAddress when any is not allowed."""
        try:
            found = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
        except (OSError, UnicodeError) as exc:
            raise httpcore.ConnectError(f"cannot resolve {host}: {exc}") from None
        ips = list(dict.fromkeys(str(info[4][0]) for info in found))
        for ip in ips:
            address = ipaddress.ip_address(ip.partition("%")[0])  # an IPv6 zone (fe80::1%eth0) is no part of it
            if not self._allow(address):
                raise RefusedAddress(host, address)
        return ips

    def _check_peer(self, host: str, stream: httpcore.NetworkStream) -> None:
        """The address actually connected to, checked again."""
        peer = stream.get_extra_info("server_addr")
        address = ipaddress.ip_address(str(peer[0]).partition("%")[0]) if peer else None
        if address is None or not self._allow(address):
            stream.close()
            raise RefusedAddress(host, address)


def guard(client: httpx.Client, allow: Policy, deadline: Deadline) -> None:
    """Make every connection ``client`` opens go through a :class:`GuardedBackend`: straight ones checked, a proxy's
    reached as set. httpx takes no network backend of its own, so its transports' connection pools are given one;
    when that cannot be done (an httpx that builds them otherwise) nothing is fetched."""
    transports = [client._transport, *client._mounts.values()]  # the direct one, then one per proxy (None: NO_PROXY)
    for transport in transports:
        if transport is None:
            continue
        pool = getattr(transport, "_pool", None)
        if not isinstance(pool, httpcore.ConnectionPool) or not hasattr(pool, "_network_backend"):
            raise RuntimeError(f"cannot guard the connections of {type(transport).__name__}")
        proxied = isinstance(pool, (httpcore.HTTPProxy, httpcore.SOCKSProxy))
        pool._network_backend = GuardedBackend(allow, deadline, check=not proxied)


def check_target(host: str, proxied: bool, allow: Policy) -> None:
    """Through a proxy (``proxied``), what can be checked of a target the proxy will resolve: an address, or the
    name ``localhost``; RefusedAddress when ``allow`` refuses it. (A straight connection is checked as it is made.)"""
    if not proxied:
        return
    bare = host.strip("[]")
    try:
        address = ipaddress.ip_address(bare.partition("%")[0])
    except ValueError:
        name = bare.lower().rstrip(".")
        if (name == "localhost" or name.endswith(".localhost")) and not allow(ipaddress.ip_address("127.0.0.1")):
            raise RefusedAddress(host, None) from None
        return
    if not allow(address):
        raise RefusedAddress(host, address)
