"""Any OpenAI-compatible chat-completions server (vLLM, SGLang, OpenAI) as a VisionLanguageModel.

Configuration comes from the arguments, else the environment:
  WHICHONE_OPENAI_BASE_URL (else OPENAI_BASE_URL, else vLLM's default http://localhost:8000/v1),
  WHICHONE_OPENAI_API_KEY (else OPENAI_API_KEY, else "EMPTY", which a local vLLM accepts),
  WHICHONE_OPENAI_MODEL (else the first model the server lists, which suits a vLLM serving one model),
  WHICHONE_OPENAI_TIMEOUT (seconds per attempt, default 60) and WHICHONE_OPENAI_MAX_RETRIES (default 2),
  read by the registry's factory (`limits_from_env`).
Images travel inside the request as base64 data URLs; nothing is written to disk.
"""

from __future__ import annotations

import base64
import io
import os
import threading
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from PIL import Image

from models.base import ChatMessage, Conversation, GenerationSettings
from models.errors import ModelError, ModelTimeout, ModelUnavailable

DEFAULT_BASE_URL = "http://localhost:8000/v1"
_FORMATS = {"PNG": "image/png", "JPEG": "image/jpeg", "WEBP": "image/webp"}


def _short(text: str, limit: int = 200) -> str:
    line = " ".join(str(text).split())
    return line if len(line) <= limit else line[: limit - 3] + "..."


def image_data_url(image: Image.Image, image_format: str = "PNG") -> str:
    """The image as a data:image/...;base64 URL (encoded in memory)."""
    fmt = image_format.upper()
    rgb = image if image.mode == "RGB" else image.convert("RGB")
    buffer = io.BytesIO()
    rgb.save(buffer, format=fmt, **({"quality": 90} if fmt == "JPEG" else {}))
    return f"data:{_FORMATS[fmt]};base64,{base64.b64encode(buffer.getvalue()).decode('ascii')}"


def limits_from_env() -> dict[str, Any]:
    """timeout / max_retries from WHICHONE_OPENAI_TIMEOUT / WHICHONE_OPENAI_MAX_RETRIES, where set."""
    out: dict[str, Any] = {}
    for key, env, kind in (
        ("timeout", "WHICHONE_OPENAI_TIMEOUT", float),
        ("max_retries", "WHICHONE_OPENAI_MAX_RETRIES", int),
    ):
        text = os.environ.get(env, "").strip()
        if not text:
            continue
        try:
            value = kind(text)
        except ValueError:
            raise ModelUnavailable(f"{env} must be a number, got {text!r}") from None
        if value < 0 or (key == "timeout" and value == 0):
            raise ModelUnavailable(f"{env} must be positive, got {text!r}")
        out[key] = value
    return out


class OpenAICompatibleVLM:
    """Chat completions with images through the `openai` client, with bounded retries and timeouts.

    timeout: seconds for each HTTP attempt; max_retries: extra attempts the client makes on connection
    errors, timeouts, 408/409/429 and 5xx (so a call takes at most about (max_retries + 1) * timeout plus
    the client's short back-off). max_concurrency: requests in flight at once in generate_batch.
    max_image_side: images are scaled down so their longer side is at most this (None sends them as they are).
    """

    def __init__(
        self,
        model: str | None = None,
        *,
        base_url: str | None = None,
        api_key: str | None = None,
        timeout: float = 60,
        max_retries: int = 2,
        max_concurrency: int = 4,
        image_format: str = "PNG",
        max_image_side: int | None = 2048,
        name: str | None = None,
    ) -> None:
        try:
            import openai
        except ImportError as error:
            raise ModelUnavailable(
                "the OpenAI-compatible backend needs the openai package: pip install openai"
            ) from error
        if image_format.upper() not in _FORMATS:
            choices = ", ".join(_FORMATS)
            raise ModelUnavailable(f"unknown image format {image_format!r}; choose one of {choices}")
        if max_concurrency < 1:
            raise ModelUnavailable(f"max_concurrency must be at least 1, got {max_concurrency}")
        self.base_url = (
            base_url
            or os.environ.get("WHICHONE_OPENAI_BASE_URL")
            or os.environ.get("OPENAI_BASE_URL")
            or DEFAULT_BASE_URL
        ).rstrip("/")
        key = (
            api_key
            or os.environ.get("WHICHONE_OPENAI_API_KEY")
            or os.environ.get("OPENAI_API_KEY")
            or "EMPTY"
        )
        self._model_id = model or os.environ.get("WHICHONE_OPENAI_MODEL") or None
        self.timeout = float(timeout)
        self.max_retries = int(max_retries)
        self.max_concurrency = int(max_concurrency)
        self.image_format = image_format.upper()
        self.max_image_side = max_image_side
        self._name = name
        self._openai = openai
        self._client = openai.OpenAI(
            base_url=self.base_url, api_key=key, timeout=self.timeout, max_retries=self.max_retries
        )
        self._model_lock = threading.Lock()

    @property
    def name(self) -> str:
        return self._name or (f"openai:{self._model_id}" if self._model_id else "openai")

    # ---------------------------------------------------------------- requests

    @property
    def model(self) -> str:
        """The served model's id; asks the server's /models once when it was not configured."""
        with self._model_lock:
            if self._model_id is None:
                listing = self._call(lambda: self._client.models.list())
                ids = [m.id for m in getattr(listing, "data", []) or []]
                if not ids:
                    raise ModelUnavailable(
                        f"the model server at {self.base_url} lists no models; set WHICHONE_OPENAI_MODEL"
                    )
                self._model_id = ids[0]
            return self._model_id

    def fit_image(self, image: Image.Image) -> Image.Image:
        """The image as sent: scaled down so the longer side is <= max_image_side (input untouched)."""
        if self.max_image_side is None or max(image.size) <= self.max_image_side:
            return image
        scale = self.max_image_side / max(image.size)
        size = (max(1, round(image.width * scale)), max(1, round(image.height * scale)))
        return image.resize(size, Image.Resampling.BICUBIC)

    def model_input_size(self, image: Image.Image) -> tuple[int, int]:
        """(width, height) of the image as sent; the server may resize it further, unseen from here."""
        return self.fit_image(image).size

    def _data_url(self, image: Image.Image) -> str:
        return image_data_url(self.fit_image(image), self.image_format)

    def _messages(self, conversation: Conversation) -> list[dict[str, Any]]:
        messages = []
        for message in conversation:
            if not isinstance(message, ChatMessage):
                raise ModelError(f"a conversation must hold ChatMessage items, got {type(message).__name__}")
            if not message.images:
                messages.append({"role": message.role, "content": message.text})
                continue
            parts: list[dict[str, Any]] = [
                {"type": "image_url", "image_url": {"url": self._data_url(img)}} for img in message.images
            ]
            parts.append({"type": "text", "text": message.text})
            messages.append({"role": message.role, "content": parts})
        return messages

    def _call(self, request: Any) -> Any:
        """Run one client call, turning the client's errors into ModelError kinds with plain messages."""
        openai = self._openai
        try:
            return request()
        except openai.APITimeoutError as error:
            raise ModelTimeout(
                f"the model server at {self.base_url} did not answer within {self.timeout:g} s "
                f"({self.max_retries + 1} attempt{'s' if self.max_retries else ''})"
            ) from error
        except openai.APIConnectionError as error:
            cause = error.__cause__ or error
            reason = _short(str(cause) or type(cause).__name__)
            raise ModelUnavailable(
                f"the model server at {self.base_url} is not reachable: {reason}"
            ) from error
        except openai.APIStatusError as error:
            detail = error.message
            body = error.body
            if isinstance(body, dict):
                inner = body.get("error", body)
                detail = inner.get("message", detail) if isinstance(inner, dict) else str(inner)
            raise ModelError(
                f"the model server at {self.base_url} answered HTTP {error.status_code}: {_short(detail)}"
            ) from error
        except openai.OpenAIError as error:
            raise ModelError(f"the model server at {self.base_url} failed: {_short(str(error))}") from error

    def generate(self, messages: Conversation, settings: GenerationSettings | None = None) -> str:
        settings = settings or GenerationSettings()
        request: dict[str, Any] = {
            "model": self.model,
            "messages": self._messages(messages),
            "max_tokens": settings.max_new_tokens,
            "temperature": settings.temperature,
            "top_p": settings.top_p,
        }
        if settings.seed is not None:
            request["seed"] = settings.seed
        completion = self._call(lambda: self._client.chat.completions.create(**request))
        choices = getattr(completion, "choices", None) or []
        if not choices:
            raise ModelError(f"the model server at {self.base_url} returned no choices")
        content = getattr(choices[0].message, "content", None)
        if content is None:
            raise ModelError(f"the model server at {self.base_url} returned a reply without text")
        return content.strip()

    def generate_batch(
        self, conversations: Sequence[Conversation], settings: GenerationSettings | None = None
    ) -> list[str]:
        """One reply per conversation, in order; at most max_concurrency requests in flight.

        The first failure (in conversation order) is raised; requests not yet sent are cancelled.
        """
        if not conversations:
            return []
        _ = self.model  # resolve the model id once, not in every worker
        workers = min(self.max_concurrency, len(conversations))
        pool = ThreadPoolExecutor(max_workers=workers, thread_name_prefix="whichone-openai")
        try:
            futures = [pool.submit(self.generate, conv, settings) for conv in conversations]
            return [future.result() for future in futures]
        finally:
            # On failure, drop the queued requests instead of sending them to a server that is failing.
            pool.shutdown(wait=True, cancel_futures=True)

    def describe(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "backend": "openai",
            "model_id": self._model_id,
            "base_url": self.base_url,
            "device": "remote",
            "dtype": None,
            "quantisation": None,
            "parameters": None,
            "timeout_s": self.timeout,
            "max_retries": self.max_retries,
            "max_concurrency": self.max_concurrency,
        }
