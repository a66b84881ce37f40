"""A ``--tokenizer`` given as a Hugging Face hub name: its tokenizer.json found in the local cache, else downloaded.

The download is the command line's (the engine counts, and reads a file it is handed): :func:`tokenizer_file` is
what :func:`chatbot.engine.tokens.make_counter` is given to turn a hub name into a file.
"""

from __future__ import annotations

import socket
from urllib.parse import urlparse

from chatbot.errors import ConfigError


def tokenizer_file(name: str) -> str:
    """The local path of ``name``'s tokenizer.json: from the hub cache, else downloaded when the hub is reachable.

    Same result as ``Tokenizer.from_pretrained``, but an offline machine fails in seconds instead of retrying.
    """
    advice = f"Nothing can be downloaded for --tokenizer {name!r}; pass the path of a tokenizer.json file instead"
    try:
        from huggingface_hub import constants, hf_hub_download
    except ImportError:
        raise ConfigError(f"{advice} (huggingface_hub is not installed).") from None
    try:
        return str(hf_hub_download(name, "tokenizer.json", local_files_only=True))
    except Exception:
        pass  # not in the cache: try the network
    if constants.HF_HUB_OFFLINE:
        raise ConfigError(f"{advice} (HF_HUB_OFFLINE is set and it is not in the local cache).")
    endpoint = urlparse(constants.ENDPOINT)
    host = endpoint.hostname or "huggingface.co"
    try:  # a mirror's own port (HF_ENDPOINT=http://mirror:8080), else https
        socket.create_connection((host, endpoint.port or 443), timeout=3).close()
    except OSError as exc:
        raise ConfigError(f"{advice} (the Hugging Face hub at {host} is unreachable: {exc}).") from None
    try:
        return str(hf_hub_download(name, "tokenizer.json"))
    except Exception as exc:  # not found, gated, rate limited, network dropped ...
        raise ConfigError(f"{advice} (the hub has no usable tokenizer.json for it: {exc}).") from None
