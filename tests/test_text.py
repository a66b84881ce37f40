"""Text made safe to print and to send: what a terminal would obey is removed, what cannot be encoded is replaced,
and a message of invisible characters counts as empty."""

from __future__ import annotations

import json

import pytest

from chatbot.text import HOLD_MOST, StreamCleaner, clean, is_blank, mask_password, wire_safe


def test_clean_removes_what_a_terminal_would_act_on_and_keeps_the_text():
    reply = (
        "a\x1b[2Jb"  # clear the screen
        "\x1b]52;c;aGk=\x07c"  # write the clipboard (OSC 52, BEL-terminated)
        "\x1b]8;;https://x.example\x1b\\link\x1b]8;;\x1b\\"  # a hidden link (OSC 8, ST-terminated)
        "\x9b31m\x00\x7f\x1bc\x1b7"  # 8-bit CSI, NUL, DEL, two-character escapes (reset, save cursor)
        "\tend\n"
    )
    assert clean(reply) == "abclink31m\tend\n"
    assert clean("안녕 ✓ 🙂") == "안녕 ✓ 🙂"


def test_clean_shows_bidi_overrides_as_codes_and_leaves_right_to_left_text_alone():
    # "Trojan Source": after U+202E the rest of the line is drawn reversed, so "\u202etxt.exe" reads "exe.txt"
    for code in [*range(0x202A, 0x202F), *range(0x2066, 0x206A)]:
        assert clean(f"a{chr(code)}b") == f"a\\u{code:04x}b", hex(code)
    assert clean("invoice\u202etxt.exe") == "invoice\\u202etxt.exe"
    rtl = "שלום עולם, مرحبا بالعالم \u200f(1)\u200e"  # Hebrew, Arabic and the two marks: no override among them
    assert clean(rtl) == rtl


def test_wire_safe_replaces_lone_surrogates_anywhere_in_the_messages():
    messages = [{"role": "assistant", "content": "x\ud800y", "tool_calls": [{"arguments": "\udfff"}], "n": 3}]
    safe = wire_safe(messages)
    assert safe == [{"role": "assistant", "content": "x\ufffdy", "tool_calls": [{"arguments": "\ufffd"}], "n": 3}]
    json.dumps(safe, ensure_ascii=False).encode("utf-8")  # encodable now
    assert messages[0]["content"] == "x\ud800y"  # what is stored stays as received


@pytest.mark.parametrize("text", ["", "   \n\t", "\x00 \x00", "\u200b\u200d\ufeff", "\u00ad\u2060 \u034f"])
def test_only_invisible_characters_are_blank(text):
    assert is_blank(text)


@pytest.mark.parametrize("text", ["a", " . ", "\u200bx", "ㅋ", "0"])
def test_anything_visible_is_not_blank(text):
    assert not is_blank(text)


def test_what_clean_strips_is_every_control_a_terminal_acts_on():
    import unicodedata

    for code in range(0x00, 0x100):
        ch = chr(code)
        assert (clean(ch) == "") == (unicodedata.category(ch) == "Cc" and ch not in "\t\n"), hex(code)


def test_a_preview_drops_escape_sequences_before_cutting():
    from chatbot.text import preview

    assert preview("\x1b[2J" + "a" * 10, 5) == "aaaa…"
    assert preview("title\x1b]0;pwned\x07 here", 40) == "title here"


def test_a_preview_of_wide_characters_is_cut_to_terminal_columns():
    from chatbot.text import preview

    assert preview("사물함 번호는 4711", 20) == "사물함 번호는 4711"  # 19 columns: whole
    assert preview("사물함 번호는 4711입니다", 12) == "사물함 번호…"  # 11 columns and the ellipsis
    assert preview("abcdefghij", 6) == "abcde…"  # one column a letter, as before


def test_what_hides_text_is_every_control_format_and_separator_but_space_and_newline():
    from chatbot.text import hides_text

    shown = {"a": False, " ": False, "\n": False, "é": False, "ㅋ": False}
    hidden = {
        "\t": True,  # a control (Cc): tab is kept by clean() but shown escaped where text is confirmed
        "\x7f": True,
        "\u200b": True,  # zero-width space (Cf)
        "\u202e": True,  # right-to-left override (Cf)
        "\uffff": True,  # a noncharacter (Cn)
        "\u2028": True,  # line separator (Zl)
        "\u2029": True,  # paragraph separator (Zp)
        "\u00a0": True,  # no-break space (Zs, not the space)
        "\u3000": True,  # ideographic space (Zs)
    }
    assert {ch: hides_text(ch) for ch in {**shown, **hidden}} == {**shown, **hidden}


def test_visible_collapses_blank_runs_and_writes_hidden_characters_as_escapes():
    from chatbot.text import visible

    text = "a\u200bb\n\n\n\nc  d\u00a0e\uffff\U000e0001\u2028 end"
    assert visible(text) == "a\\u200bb⟨4 blanks⟩c  d\\u00a0e\\uffff\\U000e0001\\u2028 end"
    assert visible("plain text, 안녕") == "plain text, 안녕"


def test_json_shown_is_indented_unicode_json_with_hidden_characters_escaped_and_reads_back():
    from chatbot.text import json_shown

    value = {"k": ["é\u200b", 1], "t": "\x7f\u2029\U000e0001"}
    shown = json_shown(value)
    assert shown == '{\n  "k": [\n    "é\\u200b",\n    1\n  ],\n  "t": "\\u007f\\u2029\\udb40\\udc01"\n}'
    assert json.loads(shown) == value


def test_a_preview_is_a_hundred_columns_unless_told():
    from chatbot.text import preview

    assert preview("a" * 100) == "a" * 100
    assert preview("a" * 101) == "a" * 99 + "…"


def test_a_full_width_character_takes_two_columns_in_a_preview():
    from chatbot.text import preview

    assert preview("ＡＢＣ", 6) == "ＡＢＣ"  # U+FF21...: East Asian full-width, two columns each
    assert preview("ＡＢＣ", 5) == "ＡＢ…"


@pytest.mark.parametrize(
    ("location", "shown"),
    [
        ("postgresql://bob:s3cret@db.example:5432/chat", "postgresql://bob:***@db.example:5432/chat"),
        ("http://u:p@proxy:8080", "http://u:***@proxy:8080"),
        ("http://u:p:with:colons@host/v1", "http://u:***@host/v1"),
        ("http://u:p@ss@host/v1", "http://u:***@host/v1"),  # the last @ before the query ends the user part
        ("postgresql://bob:pa/ss@db/chat", "postgresql://bob:***@db/chat"),  # a / typed in a password: still hidden
        ("http://user@host/v1", "http://user@host/v1"),  # no password: nothing to hide
        ("http://host:8080/v1", "http://host:8080/v1"),  # a port is not a password
        ("http://host/v1?next=a:b@c", "http://host/v1?next=a:b@c"),  # an @ in the query is not a user part
        ("http://host/v1#a:b@c", "http://host/v1#a:b@c"),  # nor in the fragment
        ("postgresql://?host=a:b@c", "postgresql://?host=a:b@c"),  # a query straight after the scheme
        ("http://u:p@host/v1?next=http://x", "http://u:***@host/v1?next=http://x"),  # the first :// is the scheme's
        ("http://h/p?a=x:y@z?b", "http://h/p?a=x:y@z?b"),  # the first ? ends the user part's reach
        ("http://h/p#a=x:y@z#b", "http://h/p#a=x:y@z#b"),  # and so does the first #
        (
            "postgresql://db/chat?user=bob&password=s3cret&sslmode=require",
            "postgresql://db/chat?user=bob&password=***&sslmode=require",
        ),
        ("postgresql://db/chat?PASSWORD=x#frag", "postgresql://db/chat?PASSWORD=***#frag"),
        ("postgresql://db/chat?sslpassword=key", "postgresql://db/chat?sslpassword=***"),
        ("postgresql://db/chat?mypassword=kept", "postgresql://db/chat?mypassword=kept"),
        ("/var/lib/sessions", "/var/lib/sessions"),  # not a URL: as it is
        ("u:p@host", "u:p@host"),
        ("http://u:p@h?password=x", "http://u:***@h?password=***"),
    ],
)
def test_a_locations_password_is_masked_wherever_a_url_carries_it(location, shown):
    assert mask_password(location) == shown


def cleaned_in(pieces: list[str]) -> str:
    cleaner = StreamCleaner()
    return "".join(cleaner.feed(piece) for piece in pieces) + cleaner.flush()


HIDING = "a\x1b[2Jb\x1b]52;c;ZXZpbA==\x07c\x1b]8;;http://evil\x1b\\link\x1b]8;;\x1b\\d\x1b7e\x1b[?1049hf"


def test_text_streamed_in_pieces_is_cleaned_as_the_whole_is_wherever_it_is_split():
    assert cleaned_in([HIDING]) == clean(HIDING) == "abclinkdef"
    for at in range(1, len(HIDING)):  # every split in two
        assert cleaned_in([HIDING[:at], HIDING[at:]]) == clean(HIDING), at
    assert cleaned_in(list(HIDING)) == clean(HIDING)  # a character a piece


def test_what_is_held_back_is_only_a_sequence_begun_and_it_comes_out_as_soon_as_it_ends():
    cleaner = StreamCleaner()
    assert cleaner.feed("plain text, shown at once ") == "plain text, shown at once "
    assert cleaner.feed("then \x1b]52;c;") == "then "  # an OSC begun: its text may be hidden
    assert cleaner.feed("ZXZpbA==") == ""
    assert cleaner.feed("\x07 and on") == " and on"
    assert cleaner.flush() == ""


def test_a_string_command_that_never_ends_is_let_go_past_the_hold_and_at_the_end_its_esc_dropped():
    cleaner = StreamCleaner()
    assert cleaner.feed("x\x1b]0;") == "x"
    out = cleaner.feed("y" * HOLD_MOST)  # a reply is never held back whole
    assert out == clean("\x1b]0;" + "y" * HOLD_MOST) and "\x1b" not in out
    assert cleaner.feed("z\x1b]0;title") == "z" and cleaner.flush() == clean("\x1b]0;title")
