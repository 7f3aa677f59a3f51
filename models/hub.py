"""Where weights come from: the Hugging Face Hub (or a mirror), its cache, or a local folder.

One home for the questions every loader asks: is the user offline (`hub_offline`), which Hub
(`hub_endpoint`), can it be reached (`hub_reachable`), is a refusal a gated repository (`is_gated`); and
`load_pretrained`, the processor-and-model load that the detectors and SAM 2 / SAM 3 share, with one line
for each failure a user can meet.
"""

from __future__ import annotations

import os
import socket
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from models.errors import ModelUnavailable, error_chain


def hub_offline() -> bool:
    """HF_HUB_OFFLINE / TRANSFORMERS_OFFLINE as set now (huggingface_hub reads them only at import)."""
    value = os.environ.get("HF_HUB_OFFLINE") or os.environ.get("TRANSFORMERS_OFFLINE") or ""
    return value.strip().lower() in ("1", "true", "yes", "on")


def hub_endpoint() -> str:
    return os.environ.get("HF_ENDPOINT", "https://huggingface.co").rstrip("/")


def hub_reachable(timeout: float = 3.0) -> bool:
    """Whether a TCP connection to the hub opens within `timeout` s (assumed so behind a proxy)."""
    if any(os.environ.get(var) for var in ("HTTPS_PROXY", "https_proxy", "HTTP_PROXY", "http_proxy")):
        return True  # the proxy decides; a direct probe would say nothing
    url = urlsplit(hub_endpoint())
    port = url.port or (443 if url.scheme == "https" else 80)
    try:
        socket.create_connection((url.hostname or "", port), timeout=timeout).close()
    except OSError:
        return False
    return True


def is_gated(error: BaseException) -> bool:
    """Whether `error` (or one it was raised from) is the Hub refusing a gated repository."""
    try:
        from huggingface_hub.errors import GatedRepoError
    except ImportError:  # pragma: no cover - huggingface_hub always has it with transformers 5
        GatedRepoError = ()  # type: ignore[assignment,misc] # noqa: N806
    return any(
        isinstance(link, GatedRepoError) or "gated" in str(link).lower() for link in error_chain(error)
    )


def gated_help(repo: str, then: str = "download it") -> str:
    """What to do about a gated repository: ask for access, log in, then `then`."""
    return (
        f"{repo} is gated on the Hugging Face Hub: ask for access at https://huggingface.co/{repo}, then "
        f"log in (`hf auth login`, or set HF_TOKEN) and {then}"
    )


def load_pretrained(
    processor_class: Any, model_class: Any, checkpoint: str, *, what: str, hint: str
) -> tuple[Any, Any]:
    """(processor, model) of `checkpoint` (a local folder or a Hub id, from the cache only when offline).

    `what` names the model in messages ("SAM 2"), `hint` is what to do instead ("or pick sam-vit-b"). Each
    failure is one ModelUnavailable line: a gated repository without access, weights that are not here and
    cannot be fetched, or a checkpoint that is not of these classes."""
    only_local = Path(checkpoint).expanduser().is_dir() or hub_offline()
    try:
        processor = processor_class.from_pretrained(checkpoint, local_files_only=only_local)
        model = model_class.from_pretrained(checkpoint, local_files_only=only_local)
    except OSError as error:
        if is_gated(error):
            raise ModelUnavailable(gated_help(checkpoint)) from error
        raise ModelUnavailable(
            f"the {what} weights {checkpoint} are not downloaded here and could not be fetched: run "
            f"`hf download {checkpoint}` where there is internet (then copy its Hugging Face cache here) "
            f"({hint})"
        ) from error
    except (ValueError, KeyError, RuntimeError) as error:
        raise ModelUnavailable(f"{checkpoint} is not a {what} checkpoint that loads here: {error}") from error
    return processor, model
