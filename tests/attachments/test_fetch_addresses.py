"""Which addresses a URL attachment may reach (url_guard.py through fetch.py): public ones only unless
told otherwise, at every redirect hop, checked on the address resolved and connected to, not only the name.

Only loopback addresses are ever contacted: 127.0.0.2 stands in for "a public server" through a policy that allows
it alone, and 127.0.0.1 for the internal service a page must not reach."""

from __future__ import annotations

import ipaddress

import pytest

from chatbot.attachments.fetch import fetch
from chatbot.attachments.url_guard import Deadline, GuardedBackend, RefusedAddress, public
from chatbot.errors import UsageError
from tests.support.pages import Page, PageServer

SECRET = {"/latest/meta-data": Page(b"INSTANCE-CREDENTIALS")}


def only_127_0_0_2(address: ipaddress.IPv4Address | ipaddress.IPv6Address) -> bool:
    """A policy for tests: 127.0.0.2 plays the public internet, every other address is private."""
    return address == ipaddress.ip_address("127.0.0.2")


def test_a_loopback_address_is_refused_by_default_before_anything_is_sent():
    with PageServer(SECRET) as inside:
        with pytest.raises(UsageError) as err:
            fetch(inside.url("/latest/meta-data"), 10_000)
        assert inside.seen == []
    assert "127.0.0.1, a loopback address (this machine)" in err.value.message
    assert "--allow-private-urls" in err.value.message


def test_a_name_that_resolves_to_loopback_is_refused():
    with PageServer(SECRET) as inside:
        with pytest.raises(UsageError) as err:
            fetch(inside.url("/latest/meta-data", host="localhost"), 10_000)
        assert inside.seen == []
    assert "localhost is 127.0.0.1, a loopback address" in err.value.message


def test_a_redirect_hop_to_an_internal_address_is_refused():
    with PageServer(SECRET) as inside:
        hop = {"/go": Page(status=302, headers={"Location": inside.url("/latest/meta-data")})}
        with PageServer(hop, host="127.0.0.2") as outside:
            with pytest.raises(UsageError) as err:
                fetch(outside.url("/go"), 10_000, allow=only_127_0_0_2)
            assert outside.seen == ["/go"]
        assert inside.seen == []
    assert "127.0.0.1, a loopback address (this machine) (where it redirected)" in err.value.message


def test_the_allowed_address_is_fetched_and_the_opt_in_reaches_private_ones():
    with PageServer({"/a.txt": Page(b"public words\n")}, host="127.0.0.2") as outside:
        assert fetch(outside.url("/a.txt"), 10_000, allow=only_127_0_0_2)[0] == "public words\n"
    with PageServer({"/a.txt": Page(b"my own page\n")}) as inside:
        assert fetch(inside.url("/a.txt"), 10_000, allow_private=True)[0] == "my own page\n"


@pytest.mark.parametrize(
    "address",
    ["127.0.0.1", "10.1.2.3", "172.16.0.1", "192.168.1.1", "169.254.169.254", "100.64.0.1", "0.0.0.0", "::1",
     "fe80::1", "fd00::1", "::ffff:127.0.0.1", "224.0.0.1"],
)  # fmt: skip
def test_non_public_addresses_are_not_public(address):
    assert not public(ipaddress.ip_address(address))


def test_the_backend_checks_every_address_a_name_resolves_to_and_connects_to_the_one_checked():
    backend = GuardedBackend(only_127_0_0_2, Deadline(5))
    with pytest.raises(RefusedAddress) as err:
        backend.connect_tcp("localhost", 9)  # resolved here, once: 127.0.0.1, refused before any connection
    assert (err.value.host, str(err.value.address)) == ("localhost", "127.0.0.1")
    with PageServer({}, host="127.0.0.2") as outside:
        stream = backend.connect_tcp("127.0.0.2", outside.port)
        assert stream.get_extra_info("server_addr")[0] == "127.0.0.2"  # the address checked is the one connected
        stream.close()


@pytest.mark.parametrize("url", ["http://[::1/ok", "http://xn--/", "http://host:port/", "http://"])
def test_a_malformed_url_is_one_usage_error(url):
    with pytest.raises(UsageError) as err:
        fetch(url, 10_000)
    assert "is not a URL that can be fetched" in err.value.message
