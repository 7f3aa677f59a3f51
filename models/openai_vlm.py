"""Any OpenAI-compatible chat-completions server (vLLM, SGLang, OpenAI) as a VisionLanguageModel.

Configuration comes from the arguments, else the environment:
  WHICHONE_OPENAI_BASE_URL (else OPENAI_BASE_URL, else vLLM's default http://localhost:8000/v1),
  WHICHONE_OPENAI_API_KEY (else OPENAI_API_KEY, else "EMPTY", which a local vLLM accepts),
  WHICHONE_OPENAI_MODEL (else the first model the server lists, which suits a vLLM serving one model),
  WHICHONE_OPENAI_TIMEOUT (seconds per attempt, default 60) and WHICHONE_OPENAI_MAX_RETRIES (default 2),
  read by the registry's factory (`limits_from_env`).
Images travel inside the request as base64 data URLs; nothing is written to disk.
`generate_stream` asks for the same completion with `stream=True` (server-sent events) and gives its text in
pieces as they arrive.
"""

from __future__ import annotations

import base64
import io
import math
import random
import threading
import time
from collections.abc import Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any

from PIL import Image

from models.base import (
    Ability,
    AnswerProbabilities,
    ChatMessage,
    Conversation,
    GenerationSettings,
    ModelBase,
    read_answer,
    strip_pieces,
)
from models.errors import ModelError, ModelTimeout, ModelUnavailable
from models.families import FamilyTable, GroundingFamilySpec, family_table

DEFAULT_TIMEOUT_S = 60  # seconds per HTTP attempt (WHICHONE_OPENAI_TIMEOUT)
DEFAULT_MAX_RETRIES = 2  # attempts after the first (WHICHONE_OPENAI_MAX_RETRIES)
TOP_LOGPROBS = 20  # the most OpenAI's API returns; vLLM and SGLang accept it too
ANSWER_TOKENS = 4  # a one-word answer's reply, read when a server gives no logprobs

DEFAULT_BASE_URL = "http://localhost:8000/v1"
# What the openai client retries (and how long it waits before attempt n + 1), mirrored for streams.
_RETRY_STATUSES = (408, 409, 429)
_RETRY_DELAY_S, _MAX_RETRY_DELAY_S = 0.5, 8.0
_FORMATS = {"PNG": "image/png", "JPEG": "image/jpeg", "WEBP": "image/webp"}


@dataclass(frozen=True)
class LocalServer:
    """A model server people run on a laptop (Ollama, llama-server; its rows are models.catalog.SERVERS):
    where it listens, and what to tell a user when it is not running or lacks the model."""

    name: str  # the VLM's registry name and the stack's
    label: str  # what the user calls it
    base_url: str  # its OpenAI-compatible API, as it listens by default
    model: str | None  # the model to ask for (None: the one it serves, from /v1/models)
    setup: str  # the commands that start it with a suitable vision model
    vision_help: str  # what to do when the served model cannot see images

    def not_running(self, base_url: str) -> str:
        return f"{self.label} is not running at {base_url}: start it ({self.setup})"


# What these servers answer when the model has no vision part or is not there (their error bodies'
# messages, lower case): llama-server without --mmproj; Ollama for a model that is not pulled.
NO_VISION_MARKS = (
    "image input is not supported",  # llama-server without a vision projector
    "mmproj",
    "does not support image",
    "not a multimodal model",  # vLLM
)
NOT_PULLED_MARKS = ("try pulling it first",)


def _short(text: str, limit: int = 200) -> str:
    line = " ".join(str(text).split())
    return line if len(line) <= limit else line[: limit - 3] + "..."


def _server_reason(body: object) -> str:
    """The reason an error reply gives, in the shapes servers use: OpenAI's {"error": {"message"}},
    FastAPI's {"detail": text} or {"detail": [{"msg"}, ...]} (transformers serve, vLLM) or plain text;
    "" when it gives none."""
    if isinstance(body, str):
        return body
    if not isinstance(body, dict):
        return ""
    inner = body.get("error", body)
    if isinstance(inner, str):
        return inner
    if not isinstance(inner, dict):
        return ""
    for field in ("message", "detail"):
        reason = inner.get(field)
        if isinstance(reason, str) and reason:
            return reason
        if isinstance(reason, list):  # FastAPI's validation errors
            return "; ".join(
                str(item.get("msg", item)) if isinstance(item, dict) else str(item) for item in reason
            )
    return ""


def _reason(error: BaseException) -> str:
    cause = error.__cause__ or error
    return _short(str(cause) or type(cause).__name__)


def _retryable(openai: Any, error: Exception) -> bool:
    """Whether the openai client would retry this error (a connection error, a timeout, 408/409/429/5xx)."""
    if isinstance(error, (openai.APITimeoutError, openai.APIConnectionError)):
        return True
    if isinstance(error, openai.APIStatusError):
        should = (error.response.headers.get("x-should-retry") or "").lower()
        if should in ("true", "false"):
            return should == "true"
        return error.status_code in _RETRY_STATUSES or error.status_code >= 500
    return False


def _retry_delay(attempt: int) -> float:
    """Seconds to wait after failed attempt `attempt` (1, 2, ...): the client's back-off with its jitter."""
    return min(_RETRY_DELAY_S * 2.0 ** (attempt - 1), _MAX_RETRY_DELAY_S) * (1 - 0.25 * random.random())


def image_data_url(image: Image.Image, image_format: str = "PNG") -> str:
    """The image as a data:image/...;base64 URL (encoded in memory)."""
    fmt = image_format.upper()
    rgb = image if image.mode == "RGB" else image.convert("RGB")
    buffer = io.BytesIO()
    rgb.save(buffer, format=fmt, **({"quality": 90} if fmt == "JPEG" else {}))
    return f"data:{_FORMATS[fmt]};base64,{base64.b64encode(buffer.getvalue()).decode('ascii')}"


def _family(name: GroundingFamilySpec | str | None, families: FamilyTable) -> GroundingFamilySpec | None:
    """The grounding family a setting names (None when unset); an unknown name is one line naming them."""
    if isinstance(name, GroundingFamilySpec):
        return name
    if not (name or "").strip():
        return None
    text = str(name).strip().lower()
    try:
        return families.named(text)
    except ValueError:
        known = ", ".join(families.names())
        raise ModelUnavailable(
            f"unknown grounding family {text!r} (WHICHONE_OPENAI_GROUNDING); known: {known}"
        ) from None


class OpenAICompatibleVLM(ModelBase):
    """Chat completions with images through the `openai` client, with bounded retries and timeouts.

    timeout: seconds for each HTTP attempt; max_retries: extra attempts the client makes on connection
    errors, timeouts, 408/409/429 and 5xx (so a call takes at most about (max_retries + 1) * timeout plus
    the client's short back-off). max_concurrency: requests in flight at once in generate_batch.
    max_image_side: images are scaled down so their longer side is at most this (None sends them as they are).
    grounding: the served model's grounding family (models/families/) when its id says nothing; min_pixels /
    max_pixels: the server processor's bounds for the resized frame of a family with a frame rule (default:
    the family's). families: the grounding families it knows (default: models/families/).
    The adapter reads no environment: models.catalog.openai_options gives it WHICHONE_OPENAI_*.
    """

    ABILITIES = frozenset(
        {Ability.STREAM, Ability.FRAME_SIZE, Ability.GROUNDING_FAMILY, Ability.ANSWER_SCORES}
    )

    def __init__(
        self,
        model: str | None = None,
        *,
        base_url: str | None = None,
        api_key: str | None = None,
        timeout: float = DEFAULT_TIMEOUT_S,
        max_retries: int = DEFAULT_MAX_RETRIES,
        max_concurrency: int = 4,
        image_format: str = "PNG",
        max_image_side: int | None = 2048,
        name: str | None = None,
        grounding: GroundingFamilySpec | str | None = None,
        min_pixels: int | None = None,
        max_pixels: int | None = None,
        server: LocalServer | None = None,
        families: FamilyTable | None = None,
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
        self.server = server  # Ollama or llama-server: their own advice when something is missing
        self.base_url = (base_url or (server.base_url if server else DEFAULT_BASE_URL)).rstrip("/")
        key = api_key or "EMPTY"
        self._model_id = model or None
        self.families = families or family_table()
        self.grounding = _family(grounding, self.families)
        self.min_pixels, self.max_pixels = min_pixels, max_pixels
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
        # Streams retry in generate_stream, which also retries a stream that breaks before its first piece.
        self._stream_client = self._client.with_options(max_retries=0)
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

    def grounding_family(self) -> GroundingFamilySpec | None:
        """The served model's grounding convention: WHICHONE_OPENAI_GROUNDING where set (a served model whose
        name says nothing), else the family whose id pattern the model id matches (models/families/); None
        when the id names no known family."""
        if self.grounding:
            return self.grounding
        return self.families.for_model_id(self._model_id or "")

    def model_input_size(self, image: Image.Image) -> tuple[int, int]:
        """(width, height) of the frame the served model's coordinates refer to: for a family with a frame
        rule, the frame its processor resizes the image we send to (with the server's min/max pixels:
        WHICHONE_OPENAI_MIN_PIXELS / WHICHONE_OPENAI_MAX_PIXELS, else the processor's defaults); otherwise
        the image as sent."""
        sent = self.fit_image(image).size
        family = self.grounding_family()
        if family is None or family.frame is None:
            return sent
        try:
            return family.frame(sent, self.min_pixels, self.max_pixels)
        except ValueError as error:  # an aspect ratio the processor refuses too
            raise ModelError(f"{self.name} cannot take this image: {error}") from error

    def _data_url(self, image: Image.Image) -> str:
        return image_data_url(self.fit_image(image), self.image_format)

    def _messages(self, conversation: Conversation) -> list[dict[str, Any]]:
        messages: list[dict[str, Any]] = []
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
        try:
            return request()
        except self._openai.OpenAIError as error:
            raise self._model_error(error) from error

    def _model_error(self, error: Exception, attempts: int | None = None) -> ModelError:
        """The ModelError kind, with a plain message, for an error of the openai client."""
        openai = self._openai
        attempts = self.max_retries + 1 if attempts is None else attempts
        if isinstance(error, openai.APITimeoutError):
            return ModelTimeout(
                f"the model server at {self.base_url} did not answer within {self.timeout:g} s "
                f"({attempts} attempt{'s' if attempts > 1 else ''})"
            )
        if isinstance(error, openai.APIConnectionError):
            if self.server is not None:
                return ModelUnavailable(f"{self.server.not_running(self.base_url)} ({_reason(error)})")
            return ModelUnavailable(f"the model server at {self.base_url} is not reachable: {_reason(error)}")
        if isinstance(error, openai.APIStatusError):
            reason = _server_reason(error.body) or error.message
            missing = self._missing_ability(reason)
            if missing is not None:
                return missing
            return ModelError(
                f"the model server at {self.base_url} answered HTTP {error.status_code}: {_short(reason)}"
            )
        return ModelError(f"the model server at {self.base_url} failed: {_short(str(error))}")

    def _missing_ability(self, reason: str) -> ModelUnavailable | None:
        """The served model cannot see images, or the server does not have it: what to do, or None."""
        said = reason.lower()
        model = self._model_id or "the served model"
        if any(mark in said for mark in NO_VISION_MARKS):
            advice = self.server.vision_help if self.server else "serve a vision model (with its projector)"
            return ModelUnavailable(
                f"{model} at {self.base_url} cannot see images ({_short(reason)}): {advice}"
            )
        if any(mark in said for mark in NOT_PULLED_MARKS) and self.server is not None:
            return ModelUnavailable(
                f"{self.server.label} at {self.base_url} does not have {model}: {self.server.setup}"
            )
        return None

    def _request(self, messages: Conversation, settings: GenerationSettings | None) -> dict[str, Any]:
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
        return request

    def generate(self, messages: Conversation, settings: GenerationSettings | None = None) -> str:
        request = self._request(messages, settings)
        completion = self._call(lambda: self._client.chat.completions.create(**request))
        choices = getattr(completion, "choices", None) or []
        if not choices:
            raise ModelError(f"the model server at {self.base_url} returned no choices")
        content = getattr(choices[0].message, "content", None)
        if content is None:
            raise ModelError(f"the model server at {self.base_url} returned a reply without text")
        return content.strip()

    def answer_probabilities(self, messages: Conversation, answers: Sequence[str]) -> AnswerProbabilities:
        """P(each answer) from the server's `top_logprobs` of the reply's first token: the mass of every
        listed token that is the answer as written ("Yes", " yes", ...), renormalised. Where the server
        returns no logprobs, the same short reply (at most ANSWER_TOKENS tokens) is read as one of the answers
        instead: one request either way."""
        request = {
            **self._request(messages, GenerationSettings(max_new_tokens=ANSWER_TOKENS, temperature=0.0)),
            "logprobs": True,
            "top_logprobs": TOP_LOGPROBS,
        }
        completion = self._call(lambda: self._client.chat.completions.create(**request))
        choices = getattr(completion, "choices", None) or []
        content = getattr(getattr(choices[0], "logprobs", None), "content", None) if choices else None
        top = getattr(content[0], "top_logprobs", None) if content else None
        if not top:
            text = getattr(getattr(choices[0], "message", None), "content", None) if choices else None
            return read_answer(str(text or ""), answers)
        mass = dict.fromkeys(answers, 0.0)
        for entry in top:
            token = str(getattr(entry, "token", "")).strip().lower()
            for answer in answers:
                if token == answer.lower():
                    mass[answer] += math.exp(float(getattr(entry, "logprob", -math.inf)))
        return AnswerProbabilities.from_mass(mass, "logprobs")

    def generate_stream(
        self, messages: Conversation, settings: GenerationSettings | None = None
    ) -> Iterator[str]:
        """generate()'s reply in pieces as the server streams them (`stream=True`); joined, they equal the
        text generate() gives for the same completion.

        Timeouts and retries as in generate(): each attempt waits at most `timeout` s for the server (to
        answer, and then between two pieces), and up to max_retries more attempts are made, after the
        client's back-off, on a connection error, a timeout, HTTP 408/409/429/5xx, or a stream that breaks
        before its first piece. Once text has come, a failure is not retried (the pieces already given
        cannot be taken back): it raises ModelError (ModelTimeout when the server stalls). A stream that
        ends without a finish reason was cut off, and raises ModelError too.
        """
        request = self._request(messages, settings)
        yield from strip_pieces(self._stream_pieces(request))

    def _stream_pieces(self, request: dict[str, Any]) -> Iterator[str]:
        openai = self._openai
        attempt = 0
        while True:
            attempt += 1
            started = False  # whether text has been given out (from then on nothing is retried)
            try:
                stream = self._stream_client.chat.completions.create(**request, stream=True)
                with stream:  # closes the connection when the consumer stops early
                    any_choice = any_text = finished = False
                    for chunk in stream:
                        choices = getattr(chunk, "choices", None) or []
                        if not choices:
                            continue  # e.g. a usage chunk
                        any_choice = True
                        choice = choices[0]
                        content = getattr(getattr(choice, "delta", None), "content", None)
                        if content is not None:
                            any_text = True
                            if content:
                                started = started or bool(content.strip())  # leading blanks are dropped
                                yield content
                        if getattr(choice, "finish_reason", None):
                            finished = True
            except openai.OpenAIError as error:
                if started:
                    raise self._broken_stream(error) from error
                if attempt <= self.max_retries and _retryable(openai, error):
                    time.sleep(_retry_delay(attempt))
                    continue
                raise self._model_error(error, attempt) from error
            if not any_choice:
                raise ModelError(f"the model server at {self.base_url} returned no choices")
            if not any_text:
                raise ModelError(f"the model server at {self.base_url} returned a reply without text")
            if not finished:
                raise ModelError(
                    f"the reply from the model server at {self.base_url} was cut off (its stream ended "
                    "without a finish reason)"
                )
            return

    def _broken_stream(self, error: Exception) -> ModelError:
        """The error for a stream that fails after some of its text came."""
        if isinstance(error, self._openai.APITimeoutError):
            return ModelTimeout(
                f"the model server at {self.base_url} stopped sending its reply for {self.timeout:g} s"
            )
        if isinstance(error, self._openai.APIConnectionError):
            reason = _reason(error)
        else:
            reason = _short(str(getattr(error, "message", None) or error))
        return ModelError(f"the model server at {self.base_url} broke off its reply: {reason}")

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
            "backend": self.server.name if self.server else "openai",
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
