"""Files that hold secrets, never attached: a folder leaves them out (and says so), a file named alone is refused.
Nor is one read as a system message (``--system-file``) or a reply schema (``--schema``): whatever sends a file's
text to the model asks here first.

A ``.env`` is where API keys live (chatbot reads its own keys from one), and git does not list it as ignored unless
someone wrote it into ``.gitignore``: attaching a project folder must not send it to the model, nor keep it in the
session. :data:`SECRET_FILES` is the one list; a new kind of secret file is a row there.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from fnmatch import fnmatchcase
from pathlib import Path

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


def secret_of(path: Path, data: bytes) -> str:
    """Why the file at ``path`` holding ``data`` is never sent, by its own name or the name of the file a link there
    leads to (``notes.txt`` linked to ``.env``); "" when it may be."""
    return secret_why(path.name, data) or secret_why(path.resolve().name, data)


#: what a file named on its own would have been used as, and what to do instead
USES = {
    "attached": "paste the lines you want to ask about into your message, without the keys",
    "read as the system message": "write the system message in a file of its own, without the keys",
    "read as a reply schema": "write the schema in a file of its own",
}


def refusal(name: str, why: str, use: str = "attached") -> str:
    """The one line that refuses a secret file named on its own (``-f .env``, ``--system-file .env``: ``use`` is
    one of :data:`USES`), and what to do instead."""
    return f"{name} is not {use} ({why}): secrets are never sent to the model; {USES[use]}"
