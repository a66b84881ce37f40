"""Image costs as OpenAI publishes them, sizes read from real-world headers (EXIF before the frame, sizes past 16
bits, a header cut right after the size) and from data URLs the way encoders really write them."""

from __future__ import annotations

import base64

import pytest

from chatbot.engine.tokens import image_size, image_tokens, image_tokens_for_size
from tests.engine.test_image_tokens import jpeg
from tests.support.images import png

MOST = 85 + 170 * 8


@pytest.mark.parametrize(
    ("width", "height", "tokens"),
    [
        (1024, 1024, 765),  # OpenAI's worked example: scaled to 768 x 768, four tiles
        (2048, 4096, 1105),  # OpenAI's worked example: 1024 x 2048, then 768 x 1536, six tiles
        (4096, 8192, 1105),  # twice as large again: scaled to the same 768 x 1536
        (1536, 768, 85 + 170 * 6),  # short side already 768: 3 x 2 tiles
        (1537, 768, 85 + 170 * 8),  # one pixel more: a fourth column
        (512, 513, 85 + 170 * 2),  # one pixel taller than a tile: two rows
        (1, 1, 85 + 170),  # the smallest image: one tile
        (1, 4000, 85 + 170 * 4),  # 1 x 2048 (never widened): four rows of one tile
        (10, 0, MOST),  # no size: the most an image costs
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


def test_only_a_data_url_is_decoded():
    """A remote URL is never read as image bytes, even with a comma followed by what looks like base64."""
    data = base64.b64encode(png(300, 20)).decode()
    assert image_tokens({"type": "image_url", "image_url": {"url": f"data:image/png;base64,{data}"}}) == 85 + 170
    remote = {"type": "image_url", "image_url": {"url": f"https://example.com/a,{data}"}}
    assert image_tokens(remote) == 85 + 170 * 8  # unknown size: the most an image costs


def test_a_jpeg_with_exif_before_its_frame():
    """Camera JPEGs carry an APP1 (EXIF) segment of kilobytes before the frame: its two-byte length is walked."""
    exif = b"\xff\xe1" + (3000).to_bytes(2, "big") + b"\x00" * 2998
    assert image_size(jpeg(4032, 3024, before=exif)) == (4032, 3024)


def test_a_jpeg_cut_right_after_its_size_still_gives_it():
    whole = jpeg(640, 480)
    frame_end = 2 + 9  # start of image, then the frame: marker, length, precision, height, width
    assert image_size(whole[:frame_end]) == (640, 480)
    assert image_size(whole[: frame_end - 1]) is None


def test_png_sizes_are_four_bytes():
    header = png(1, 1)[:16] + (70_000_000).to_bytes(4, "big") + (2**24 + 3).to_bytes(4, "big")
    assert image_size(header) == (70_000_000, 2**24 + 3)
