"""How a refused session id is shown: whole up to 80 characters, cut to 80 from the first one past them."""

from __future__ import annotations

import pytest

from chatbot.errors import InvalidSessionId
from chatbot.storage.session import validate_id


def test_a_bad_id_one_character_past_eighty_is_cut_to_eighty():
    with pytest.raises(InvalidSessionId) as caught:
        validate_id("/" * 79)  # its repr is 81 characters
    assert f"invalid session id '{'/' * 76}...:" in caught.value.message
