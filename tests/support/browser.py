"""A real browser for the tests that check a page: Debian's Chromium, headless (``.ci/run`` installs it).

No skip: a test that needs it fails when it is missing, locally as in CI (``apt-get install -y chromium``).
"""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

#: Chromium as root needs --no-sandbox; no GPU, no first-run prompts, nothing fetched from the network
FLAGS = ("--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--hide-scrollbars")


def chromium() -> str:
    """The browser's path; the test fails, naming the package, when it is not installed."""
    found = shutil.which("chromium") or shutil.which("chromium-browser")
    if not found:
        pytest.fail("headless Chromium is needed to check the HTML timeline: apt-get install -y chromium")
    return found


def screenshot(page: Path, png: Path, width: int, height: int) -> bytes:
    """Render ``page`` in the browser to ``png`` (width x height pixels); its bytes."""
    size = f"--window-size={width},{height}"
    subprocess.run([chromium(), *FLAGS, f"--screenshot={png}", size, page.as_uri()], capture_output=True, timeout=120)
    assert png.exists(), f"Chromium wrote no screenshot of {page}"
    return png.read_bytes()


def dom(page: Path) -> str:
    """The page as the browser parsed it (its DOM, serialized)."""
    done = subprocess.run([chromium(), *FLAGS, "--dump-dom", page.as_uri()], capture_output=True, timeout=120)
    return done.stdout.decode("utf-8", "replace")
