"""Finding fenced code blocks in a reply (for -x and /copy code)."""

from chatbot.text import code_blocks


def test_code_blocks_in_order_without_fences():
    text = "intro\n```python\na = 1\n```\ntext\n~~~\nb\n~~~\n````md\n```x```\n````\n"
    assert code_blocks(text) == ["a = 1\n", "b\n", "```x```\n"]


def test_no_blocks_and_an_unclosed_fence():
    assert code_blocks("just text") == []
    assert code_blocks("```\nnever closed\n") == []
