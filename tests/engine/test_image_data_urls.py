"""Image costs as OpenAI publishes them, and sizes read from data URLs the way encoders really write them."""

from __future__ import annotations

import base64

import pytest

from chatbot.engine.tokens import image_tokens, image_tokens_for_size
from tests.support.images import png


@pytest.mark.parametrize(
    ("width", "height", "tokens"),
    [
        (1024, 1024, 765),  # OpenAI's worked example: scaled to 768 x 768, four tiles
        (2048, 4096, 1105),  # OpenAI's worked example: 1024 x 2048, then 768 x 1536, six tiles
        (4096, 8192, 1105),  # twice as large again: scaled to the same 768 x 1536
        (1536, 768, 85 + 170 * 6),  # short side already 768: 3 x 2 tiles
        (1537, 768, 85 + 170 * 8),  # one pixel more: a fourth column
    ],
)
def test_openais_published_costs(width, height, tokens):
    assert image_tokens_for_size(width, height) == tokens


def test_a_data_url_with_line_wrapped_base64_still_gives_the_size():
    """MIME encoders wrap base64 every 76 characters; the size is still read (not counted as the most)."""
    wrapped = base64.encodebytes(png(1024, 1024) + b"\x00" * 200).decode()
    assert "\n" in wrapped
    part = {"type": "image_url", "image_url": {"url": f"data:image/png;base64,{wrapped}"}}
    assert image_tokens(part) == 765
