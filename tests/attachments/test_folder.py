"""A folder attachment reads its own files only (attachments/folder.py): never a file the git index or a symbolic link
leads outside it, never a crash on a tree too deep, and every folder it does not read is named."""

from __future__ import annotations

import hashlib
import subprocess
from pathlib import Path

import pytest

from chatbot.attachments.folder import MAX_FOLDER_DEPTH, read_folder
from chatbot.errors import UsageError
from tests.support.trees import nested, remove_nested


def git(cwd: Path, *args: str) -> None:
    subprocess.run(["git", "-c", "user.name=t", "-c", "user.email=t@t.invalid", *args], cwd=cwd, check=True,
                   capture_output=True)  # fmt: skip


def texts(folder) -> str:
    return "\n".join(f.text for f in folder.files)


def index_entry_renamed(repo: Path, placeholder: str, path: str) -> None:
    """The git index entry ``placeholder`` renamed to ``path`` (of the same length), as a hostile clone ships it:
    git itself refuses to add such a path, but reads any index it is given."""
    index = repo / ".git" / "index"
    body = index.read_bytes()[:-20].replace(placeholder.encode(), path.encode())
    index.write_bytes(body + hashlib.sha1(body).digest())  # the index ends with the SHA-1 of what comes before


@pytest.mark.parametrize("where", ["absolute", "parent"])
def test_an_index_entry_outside_the_folder_is_not_read(tmp_path, where):
    (tmp_path / "secret.txt").write_text("OUTSIDE-SECRET\n")
    repo = tmp_path / "repo"
    repo.mkdir()
    (repo / "readme.txt").write_text("inside\n")
    git(repo, "init", "-q")
    target = str(tmp_path / "secret.txt") if where == "absolute" else "../secret.txt"
    placeholder = "p" * len(target)
    (repo / placeholder).write_text("placeholder\n")
    git(repo, "add", "readme.txt", placeholder)
    index_entry_renamed(repo, placeholder, target)
    (repo / placeholder).unlink()
    folder = read_folder(repo, "repo")
    assert "OUTSIDE-SECRET" not in texts(folder) and texts(folder) == "inside\n"
    assert any(line.startswith("repo/") and "outside the folder: not read" in line for line in folder.skipped)


def test_a_tracked_folder_replaced_by_a_symbolic_link_is_not_followed(tmp_path):
    elsewhere = tmp_path / "dotssh"
    elsewhere.mkdir()
    (elsewhere / "id_rsa").write_text("PRIVATE-KEY\n")
    repo = tmp_path / "repo"
    (repo / "conf").mkdir(parents=True)
    (repo / "conf" / "id_rsa").write_text("a harmless file\n")
    (repo / "readme.txt").write_text("inside\n")
    git(repo, "init", "-q")
    git(repo, "add", ".")
    git(repo, "commit", "-qm", "x")
    (repo / "conf" / "id_rsa").unlink()
    (repo / "conf").rmdir()
    (repo / "conf").symlink_to(elsewhere)  # the index still lists conf/id_rsa
    folder = read_folder(repo, "repo")
    assert "PRIVATE-KEY" not in texts(folder)
    assert "repo/conf/id_rsa (reached through the symbolic link conf/: not read)" in folder.skipped


def test_a_folder_thousands_of_levels_deep_is_named_not_a_crash(tmp_path):
    top = tmp_path / "deep"
    top.mkdir()
    (top / "a.txt").write_text("top\n")
    nested(top, 1_500)
    try:
        folder = read_folder(top, "deep")
    finally:
        remove_nested(top)
    assert texts(folder) == "top\n"
    deepest = "deep/" + "d/" * (MAX_FOLDER_DEPTH + 1)  # the first folder past the limit
    assert f"{deepest} (more than {MAX_FOLDER_DEPTH} folders deep: not read)" in folder.skipped


def test_a_symlinked_folder_and_one_that_cannot_be_read_are_named(tmp_path):
    notes = tmp_path / "notes"
    notes.mkdir()
    (notes / "a.txt").write_text("alpha\n")
    (tmp_path / "other").mkdir()
    (tmp_path / "other" / "b.txt").write_text("OTHER\n")
    (notes / "linked").symlink_to(tmp_path / "other")
    (notes / "long").mkdir()
    name = "n" * 250
    nested(notes / "long", 20, name)  # past the longest path the system opens (4,096 bytes): a folder none can list
    folder = read_folder(notes, "notes")
    assert texts(folder) == "alpha\n"
    assert "notes/linked/ (a symbolic link)" in folder.skipped
    unreadable = [line for line in folder.skipped if "cannot be read: File name too long" in line]
    assert len(unreadable) == 1 and unreadable[0].startswith(f"notes/long/{name}/")


def test_a_folder_of_nothing_readable_is_still_one_usage_error(tmp_path):
    (tmp_path / "empty").mkdir()
    with pytest.raises(UsageError, match="empty has no text file to attach"):
        read_folder(tmp_path / "empty", "empty")


def test_a_git_folders_secret_files_are_left_out_tracked_or_not_and_each_is_named(tmp_path):
    repo = tmp_path / "repo"
    (repo / "src").mkdir(parents=True)
    (repo / "src" / "app.py").write_text("print('hi')\n")
    (repo / "src" / ".env.local").write_text("TOKEN=TRACKED-SECRET\n")
    (repo / "tls").mkdir()
    (repo / "tls" / "cert.pem").write_text("-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n")
    git(repo, "init", "-q")
    git(repo, "add", ".")
    git(repo, "commit", "-qm", "x")  # a .env committed by mistake is still a .env
    (repo / ".env").write_text("GROQ_API_KEY=gsk_realsecretkey123\n")  # not in .gitignore: git lists it
    (repo / "tls" / "server.key").write_text("-----BEGIN EC PRIVATE KEY-----\nMHcC\n-----END EC PRIVATE KEY-----\n")
    folder = read_folder(repo, "repo")
    assert [f.label for f in folder.files] == ["repo/src/app.py", "repo/tls/cert.pem"]
    assert "gsk_" not in texts(folder) and "SECRET" not in texts(folder) and "PRIVATE" not in texts(folder)
    assert folder.left_out == (
        "repo/.env (holds secrets)",
        "repo/src/.env.local (holds secrets)",
        "repo/tls/server.key (a private key)",
    )
    assert folder.skipped == ()


def test_a_folder_holding_only_secrets_is_refused_naming_them(tmp_path):
    keys = tmp_path / "keys"
    keys.mkdir()
    (keys / "id_ed25519").write_text("-----BEGIN OPENSSH PRIVATE KEY-----\nb3Bl\n-----END OPENSSH PRIVATE KEY-----\n")
    with pytest.raises(UsageError, match=r"keys has no text file to attach \(skipped: keys/id_ed25519 \(a private SSH"):
        read_folder(keys, "keys")


def test_a_long_list_of_secret_files_left_out_is_cut_and_counted(tmp_path):
    keys = tmp_path / "keys"
    keys.mkdir()
    (keys / "readme.txt").write_text("the one file to attach\n")
    for i in range(45):
        (keys / f"k{i:02}.key").write_text("-----BEGIN PRIVATE KEY-----\nMIIE\n-----END PRIVATE KEY-----\n")
    folder = read_folder(keys, "keys")
    assert texts(folder) == "the one file to attach\n"
    assert len(folder.left_out) == 40 and folder.left_out[0] == "keys/k00.key (a private key)"
    assert folder.left_out[-1] == "6 more (of 45 left out in all)"
