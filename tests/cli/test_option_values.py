"""Model options from a piped chat and the command line: NaN and infinity refused in any case, and the reply limit
never set twice (``--max-output-tokens`` with ``-o max_tokens``)."""

from __future__ import annotations

from tests.support.cli import one_error_line, run_chatbot


def test_nan_and_infinity_are_refused_as_option_values_whatever_their_case(tmp_path):
    script = "".join(f"/set temperature {v}\n" for v in ("nan", "NaN", "inf", "-Infinity", "INF")) + "/set\n"
    result = run_chatbot("--provider", "echo", "--session", "o", cwd=tmp_path, stdin=script)
    assert result.stderr.count("option temperature: must be a finite number") == 5, result.stderr
    assert "no model options set" in result.stdout
    refused = run_chatbot("--provider", "echo", "-o", "top_p", "nan", "-p", "hi", cwd=tmp_path)
    assert refused.returncode == 2
    assert one_error_line(refused) == "chatbot: option top_p: must be a finite number, found nan"


def test_max_output_tokens_and_a_max_tokens_option_together_are_refused_with_one_line(tmp_path):
    both = run_chatbot(
        "--provider", "echo", "-o", "max_tokens", "5", "--max-output-tokens", "60", "-p", "hi", cwd=tmp_path
    )
    assert both.returncode == 2 and both.stdout == ""
    assert one_error_line(both) == (
        "chatbot: --max-output-tokens and -o max_tokens cannot be used together: each sets the reply limit"
    )
    alone = run_chatbot("--provider", "echo", "-o", "max_tokens", "5", "-p", "hi", cwd=tmp_path)
    assert alone.returncode == 0, alone.stderr
