"""Files that hold secrets, never attached: a folder leaves them out (and says so), a file named alone is refused.

A ``.env`` is where API keys live (chatbot reads its own keys from one), and git does not list it as ignored unless
someone wrote it into ``.gitignore``: attaching a project folder must not send it to the model, nor keep it in the
session. :data:`SECRET_FILES` is the one list; a new kind of secret file is a row there.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from fnmatch import fnmatchcase

PRIVATE_KEY = re.compile(rb"-----BEGIN [A-Z0-9 ]*PRIVATE KEY")  # PEM: RSA, EC, OPENSSH, ENCRYPTED, PGP ... BLOCK
KEY_FILE = re.compile(rb"\A\s*-----BEGIN [A-Z0-9 ]*PRIVATE KEY")  # a file that is a key, whatever it is called


@dataclass(frozen=True)
class SecretFile:
    """Files whose name matches one of ``names`` (shell patterns, matched in lower case), and whose text matches
    ``holds`` when the name alone does not tell (a ``.pem`` may be a public certificate): left out, ``why`` says
    why in a few words (``.env (holds secrets)``)."""

    names: tuple[str, ...]
    why: str
    holds: re.Pattern[bytes] | None = None


#: the files never attached (``.env.example`` too: a name is simpler and safer than a guess at what it holds)
SECRET_FILES = (
    SecretFile((".env", ".env.*", ".envrc"), "holds secrets"),
    SecretFile(("id_rsa", "id_dsa", "id_ecdsa", "id_ed25519", "id_ecdsa_sk", "id_ed25519_sk"), "a private SSH key"),
    SecretFile(("*.pem", "*.key"), "a private key", PRIVATE_KEY),  # a bundle: the key after the certificates
    SecretFile(("*",), "a private key", KEY_FILE),  # deploy_key, key.txt: a key names itself in its first line
    SecretFile((".netrc", "_netrc", ".git-credentials", ".pgpass"), "holds passwords"),
    SecretFile((".npmrc",), "holds a registry token", re.compile(rb"_auth|_password")),
    SecretFile((".pypirc",), "holds a registry password", re.compile(rb"(?im)^\s*password\s*[:=]")),
)


def secret_why(name: str, data: bytes) -> str:
    """Why the file called ``name`` (its last path part counts) holding ``data`` is never attached, "" when it may
    be."""
    base = name.replace("\\", "/").rstrip("/").rsplit("/", 1)[-1].lower()
    for row in SECRET_FILES:
        if any(fnmatchcase(base, pattern) for pattern in row.names) and (row.holds is None or row.holds.search(data)):
            return row.why
    return ""


def refusal(name: str, why: str) -> str:
    """The one line that refuses a secret file named on its own (``-f .env``), and what to do instead."""
    return (
        f"{name} is not attached ({why}): secrets are never sent to the model; paste the lines you want to ask about "
        "into your message, without the keys"
    )
