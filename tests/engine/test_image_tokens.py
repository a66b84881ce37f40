"""What an image costs in a request: its size read from PNG and JPEG headers, OpenAI's tile rule at its edges,
and the most an image can cost when its size cannot be read."""

from __future__ import annotations

import base64

import pytest

from chatbot.engine.tokens import image_size, image_tokens, image_tokens_for_size
from tests.support.images import png

MOST = 85 + 170 * 8  # 2048 x 768: eight tiles, what an unreadable image counts as


def jpeg(width: int, height: int, marker: int = 0xC0, before: bytes = b"") -> bytes:
    """A JPEG header: start of image, optional segments, then a frame segment with the size."""
    frame = bytes([0xFF, marker]) + (17).to_bytes(2, "big") + b"\x08" + height.to_bytes(2, "big")
    frame += width.to_bytes(2, "big") + b"\x03" + b"\x00" * 9
    return b"\xff\xd8" + before + frame + b"\xff\xd9"


def app_segment(length: int) -> bytes:
    """An APP0 segment of ``length`` (the length counts its own two bytes)."""
    return b"\xff\xe0" + length.to_bytes(2, "big") + b"\x00" * (length - 2)


def test_png_and_jpeg_sizes_are_read_from_their_headers():
    assert image_size(png(300, 20)) == (300, 20)
    assert image_size(jpeg(640, 480)) == (640, 480)
    assert image_size(jpeg(10, 20, before=app_segment(16) + app_segment(5))) == (10, 20)
    for marker in (0xC1, 0xC2, 0xCF):  # every start-of-frame kind
        assert image_size(jpeg(7, 9, marker=marker)) == (7, 9)


def test_markers_that_are_no_frame_are_walked_past():
    for marker in (0xC4, 0xC8, 0xCC):  # Huffman and arithmetic tables, JPG extension: not a frame
        not_frame = bytes([0xFF, marker]) + (6).to_bytes(2, "big") + b"\x00" * 4
        assert image_size(jpeg(3, 4, before=not_frame)) == (3, 4)


@pytest.mark.parametrize(
    "data",
    [
        b"",
        b"GIF89a" + b"\x00" * 30,
        b"\x89PNG\r\n\x1a\n" + b"\x00" * 15,  # a PNG header cut before the size
        b"\xff\xd8" + b"\x00" * 20,  # a JPEG whose segments do not start with 0xFF
        b"\xff\xd8" + app_segment(4)[:4] + b"\x00" * 5,  # ends before any frame
    ],
)
def test_a_size_that_cannot_be_read_is_none(data):
    assert image_size(data) is None


def test_the_png_header_must_be_complete():
    assert image_size(png(1, 1)[:24]) == (1, 1)
    assert image_size(png(1, 1)[:23]) is None


@pytest.mark.parametrize(
    ("width", "height", "tokens"),
    [
        (512, 512, 85 + 170),  # one tile
        (513, 512, 85 + 170 * 2),  # one pixel more: two tiles
        (1024, 1024, 85 + 170 * 4),  # scaled to 768 x 768: four tiles
        (768, 768, 85 + 170 * 4),
        (4096, 1024, 85 + 170 * 4),  # fit into 2048 x 512; the short side is already under 768: 4 x 1 tiles
        (3000, 2000, 85 + 170 * 6),  # 2048 x 1365, then the short side to 768: 1152 x 768, 3 x 2 tiles
        (100, 100, 85 + 170),  # small images are never scaled up
        (0, 10, MOST),
        (10, -1, MOST),
    ],
)
def test_the_tile_rule(width, height, tokens):
    assert image_tokens_for_size(width, height) == tokens


def test_an_image_part_is_costed_from_its_data_url_or_at_most():
    def part(url: str) -> dict:
        return {"type": "image_url", "image_url": {"url": url}}

    data = base64.b64encode(png(300, 20)).decode()
    assert image_tokens(part(f"data:image/png;base64,{data}")) == 85 + 170
    assert image_tokens(part("https://example.com/cat.png")) == MOST
    assert image_tokens(part("data:image/png;base64,!!!")) == MOST
    assert image_tokens(part("data:image/png;base64,abc")) == MOST  # bad padding: base64 refuses it
    assert image_tokens(part("data:no-comma")) == MOST
    assert image_tokens({"type": "image_url"}) == MOST


def test_a_message_with_images_counts_its_text_parts_and_each_image(counter):
    data = base64.b64encode(png(300, 20)).decode()
    parts = [
        {"type": "text", "text": "what is"},
        {"type": "image_url", "image_url": {"url": f"data:image/png;base64,{data}"}},
        {"type": "text", "text": "this"},
        {"type": "image_url", "image_url": {"url": "https://example.com/x.png"}},
        {"type": "other", "text": "not counted"},
    ]
    # per message 1, three words of text, one small image and one of unknown size
    assert counter.count_message({"role": "user", "content": parts}) == 1 + 3 + (85 + 170) + MOST
