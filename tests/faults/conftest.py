"""Fixtures the fault tests share."""

from __future__ import annotations

from collections.abc import Iterator

import pytest


@pytest.fixture(params=["json", "sqlite", "postgres"])
def store(request: pytest.FixtureRequest, tmp_path) -> Iterator[str]:
    """A store of the user's own for the real CLI's ``--store``: a JSON folder, a SQLite file, or a scratch
    PostgreSQL schema."""
    if request.param == "json":
        yield str(tmp_path / "store")
        return
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path / 'store' / 'chat.db'}"
        return
    from tests.support.stores import postgres_base_url, scratch_schema

    with scratch_schema(postgres_base_url()) as url:
        yield url
