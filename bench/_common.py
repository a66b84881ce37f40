"""What every benchmark prints first: the machine it ran on."""

from __future__ import annotations

import os
import platform


def machine() -> str:
    """Platform, processor, CPU count and Python version, on one line."""
    return (
        f"{platform.platform()}, {platform.processor() or platform.machine()}, {os.cpu_count()} CPUs, "
        f"Python {platform.python_version()}"
    )
