"""--schema in the terminal chat: a reply that is not the JSON asked for is told in one line, and the chat goes on."""

from __future__ import annotations

import pytest

from tests.support.cli import openai_flags, session_doc
from tests.support.fake_server import FakeServer

pexpect = pytest.importorskip("pexpect")


def test_the_terminal_chat_tells_a_reply_that_does_not_match_the_schema_and_goes_on(spawn, tmp_path):
    wrong, right = '{"name": "Rex", "age": "old"}', '{"name": "Fido", "age": 5}'
    with FakeServer(flavour="openai", replies=[wrong, right], schemas=False) as server:
        child = spawn(*openai_flags(server.base_url), "--schema", "name, age int", "--session", "t")
        child.expect("›")
        child.sendline("a json dog")
        child.expect("the reply does not match the schema: age: 'old' is not of type 'integer'")
        child.expect("model wrote it")
        child.expect("›")
        child.sendline("another json dog")
        child.expect("tokens")
        child.expect("›")
        second = child.before
        child.sendeof()
        child.expect(pexpect.EOF)
    assert "does not match" not in second  # the matching reply is not told about
    assert [t["messages"][-1]["content"] for t in session_doc(tmp_path, "t")["turns"]] == [wrong, right]
