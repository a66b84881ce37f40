"""Which files are never attached for the secrets they hold (attachments/secret_files.py): a ``.env`` and its kin and
SSH keys by their name alone, a ``.pem``/``.key``, ``.npmrc`` or ``.pypirc`` by what they hold; and the file named
alone is refused in one line saying what to do instead."""

from __future__ import annotations

import pytest

from chatbot.attachments.attach import read_file
from chatbot.attachments.secret_files import refusal, secret_of, secret_why
from chatbot.errors import UsageError

KEY = b"-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAA\n-----END OPENSSH PRIVATE KEY-----\n"
CERT = b"-----BEGIN CERTIFICATE-----\nMIIBszCCAVmgAwIBAgIU\n-----END CERTIFICATE-----\n"


@pytest.mark.parametrize(
    ("name", "data", "why"),
    [
        (".env", b"GROQ_API_KEY=gsk_x\n", "holds secrets"),
        ("app/.env.local", b"TOKEN=x\n", "holds secrets"),
        (".env.example", b"GROQ_API_KEY=\n", "holds secrets"),  # by its name: simpler and safer than a guess
        (".envrc", b"export TOKEN=x\n", "holds secrets"),
        (".ENV", b"", "holds secrets"),  # the same file on a case-insensitive disk
        ("home/.ssh/id_ed25519", b"anything", "a private SSH key"),
        ("id_rsa", b"anything", "a private SSH key"),
        ("tls/server.key", KEY, "a private key"),
        ("bundle.pem", CERT + KEY, "a private key"),
        (".netrc", b"machine x login y password z\n", "holds passwords"),
        (".git-credentials", b"https://u:p@example.org\n", "holds passwords"),
        (".npmrc", b"//registry.npmjs.org/:_authToken=npm_x\n", "holds a registry token"),
        (".pypirc", b"[pypi]\nusername = __token__\npassword = pypi-x\n", "holds a registry password"),
    ],
)
def test_a_secret_file_is_known_by_its_name_or_what_it_holds(name, data, why):
    assert secret_why(name, data) == why


@pytest.mark.parametrize(
    ("name", "data"),
    [
        ("id_ed25519.pub", b"ssh-ed25519 AAAA x@y\n"),  # a public key is no secret
        ("cert.pem", CERT),
        ("notes.key", b"a note about keys\n"),
        (".npmrc", b"registry=https://registry.example.org/\n"),
        (".pypirc", b"[distutils]\nindex-servers = pypi\n"),
        ("environment.py", b"import os\n"),
        ("docs/dotenv.md", b"put GROQ_API_KEY=... in a .env file\n"),
        ("env", b"x\n"),
    ],
)
def test_a_file_like_a_secret_but_holding_none_is_attached(name, data):
    assert secret_why(name, data) == ""


def test_a_dotenv_named_alone_is_refused_saying_why_and_what_to_do_instead(tmp_path):
    (tmp_path / ".env.local").write_text("GROQ_API_KEY=gsk_realsecretkey123\n")
    with pytest.raises(UsageError) as refused:
        read_file(str(tmp_path / ".env.local"))
    message = refused.value.message
    assert message == (
        f"{tmp_path / '.env.local'} is not attached (holds secrets): secrets are never sent to the model; "
        "paste the lines you want to ask about into your message, without the keys"
    )
    assert "gsk_" not in message


def test_a_private_key_named_alone_is_refused_and_a_certificate_is_attached(tmp_path):
    (tmp_path / "server.key").write_bytes(KEY)
    (tmp_path / "server.pem").write_bytes(CERT)
    with pytest.raises(UsageError, match=r"server\.key is not attached \(a private key\)"):
        read_file(str(tmp_path / "server.key"))
    assert read_file(str(tmp_path / "server.pem")).text == CERT.decode()


def test_a_private_key_under_any_name_is_known_by_its_first_line_and_a_text_quoting_one_is_not():
    assert secret_why("deploy_key", KEY) == "a private key"
    assert secret_why("notes.md", b"a key file starts with -----BEGIN OPENSSH PRIVATE KEY-----\n") == ""


def test_a_link_with_an_innocent_name_to_a_dotenv_is_refused(tmp_path):
    (tmp_path / ".env").write_text("GROQ_API_KEY=gsk_realsecretkey123\n")
    (tmp_path / "notes.txt").symlink_to(tmp_path / ".env")
    with pytest.raises(UsageError, match=r"notes\.txt is not attached \(holds secrets\)"):
        read_file(str(tmp_path / "notes.txt"))


def test_a_secret_refused_for_another_use_says_that_use_and_what_to_do_instead(tmp_path):
    (tmp_path / ".env").write_text("GROQ_API_KEY=gsk_realsecretkey123\n")
    (tmp_path / "prompt.txt").symlink_to(tmp_path / ".env")
    assert secret_of(tmp_path / "prompt.txt", b"") == "holds secrets" and secret_of(tmp_path / "a.txt", b"hi") == ""
    assert refusal("--system-file .env", "holds secrets", "read as the system message") == (
        "--system-file .env is not read as the system message (holds secrets): secrets are never sent to the model; "
        "write the system message in a file of its own, without the keys"
    )
