"""A sqlite response cache, so a rerun makes no model calls and an interrupted run resumes.

The key is the sha256 of everything that changes an answer: the model's name and identity (its
`describe()` without run-time facts such as load time), every message's role and text, the sha256 of
every attached image's bytes (mode, size and pixels as the model gets them), and the generation
settings. Each response is committed as soon as it exists (WAL journal, one transaction per batch), so
a run killed at any point — SIGTERM or SIGKILL — loses at most the batch in flight, and the rerun finds
everything before it.

`cached_vlm` wraps any VisionLanguageModel with the cache and counts the calls that really reached the
model, which is how a run reports "0 model calls" when it is served from the cache; `cached_pointer` does
the same for a pointer. A wrapper answers `abilities()` for what it wraps (models.base.can) and forwards
each ability's method explicitly.
"""

from __future__ import annotations

import hashlib
import json
import sqlite3
import threading
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any, cast

import numpy as np
from PIL import Image

from assistant.errors import WhichoneError
from models.base import (
    Ability,
    AnswerProbabilities,
    Conversation,
    Describing,
    FrameSizingModel,
    GenerationSettings,
    GroundingFamilyModel,
    ImagePreparingModel,
    InstancePointer,
    Pointer,
    VisionLanguageModel,
    abilities_of,
    answer_probabilities,
)
from models.families.spec import GroundingFamilySpec
from models.pixels import image_digest
from models.types import Box, Grounding

# describe() keys that say how a model was loaded or how it runs now, not what it answers.
VOLATILE_IDENTITY_KEYS = frozenset(
    {
        "load_seconds",
        "load_time",
        "loaded_at",
        "memory",
        "memory_bytes",
        "memory_gb",
        "pid",
        "calls",
        "timeout_s",
        "max_retries",
        "max_concurrency",
    }
)

_SCHEMA = """
CREATE TABLE IF NOT EXISTS responses (
    key TEXT PRIMARY KEY,
    model TEXT NOT NULL,
    response TEXT NOT NULL,
    created REAL NOT NULL
)
"""


def model_identity(model: object) -> dict[str, Any]:
    """The part of `model.describe()` that determines its answers (name always included)."""
    info: dict[str, Any] = {}
    if isinstance(model, Describing):
        try:
            info = dict(model.describe())
        except Exception:  # a describe() that fails must not stop a benchmark; the name still keys it
            info = {}
    info = {k: v for k, v in info.items() if k not in VOLATILE_IDENTITY_KEYS}
    info["name"] = getattr(model, "name", info.get("name", type(model).__name__))
    return info


def image_bytes_digest(image: Image.Image) -> str:
    """sha256 of the image's bytes as the model receives them: mode, size and decoded pixels.

    Pixels rather than the file's bytes because a conversation may carry derived images (a region
    marked on the photo, a crop) that have no file; for a dataset image the two determine each other.
    """
    return image_digest(image)


def conversation_payload(conversation: Conversation) -> list[dict[str, Any]]:
    return [
        {"role": m.role, "text": m.text, "images": [image_bytes_digest(im) for im in m.images]}
        for m in conversation
    ]


def cache_key(identity: dict[str, Any], payload: Any, settings: GenerationSettings | dict[str, Any]) -> str:
    """sha256 over the canonical JSON of (identity, payload, settings)."""
    settings_dict = settings.as_dict() if isinstance(settings, GenerationSettings) else dict(settings)
    blob = json.dumps(
        {"model": identity, "input": payload, "settings": settings_dict},
        sort_keys=True,
        ensure_ascii=False,
        default=str,
    )
    return hashlib.sha256(blob.encode("utf-8")).hexdigest()


class CacheDamaged(WhichoneError):
    """The response cache file cannot be read as a database."""


class ResponseCache:
    """Thread-safe sqlite key -> response text store."""

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._lock = threading.Lock()
        with self._readable():
            # check_same_thread=False: worker threads of a server run share one connection under the lock.
            self._db = sqlite3.connect(str(self.path), timeout=60.0, check_same_thread=False)
            self._db.execute("PRAGMA journal_mode=WAL")
            self._db.execute("PRAGMA synchronous=NORMAL")  # WAL + NORMAL: a commit survives a killed process
            self._db.execute(_SCHEMA)
            self._db.commit()

    @contextmanager
    def _readable(self) -> Iterator[None]:
        """A damaged file (truncated, overwritten) becomes one plain line; the file is left as it is, so
        nothing already cached is lost by trying."""
        try:
            yield
        except sqlite3.DatabaseError as exc:
            shown = str(self.path).replace(str(Path.home()), "~", 1)
            raise CacheDamaged(
                f"the benchmark's response cache {shown} cannot be read ({exc}); move it aside and run "
                "again (its answers are then asked of the model again)"
            ) from None

    def get(self, key: str) -> str | None:
        with self._lock, self._readable():
            row = self._db.execute("SELECT response FROM responses WHERE key = ?", (key,)).fetchone()
        return None if row is None else row[0]

    def get_many(self, keys: Sequence[str]) -> dict[str, str]:
        found: dict[str, str] = {}
        with self._lock, self._readable():
            for start in range(0, len(keys), 500):
                chunk = list(keys[start : start + 500])
                marks = ",".join("?" * len(chunk))
                rows = self._db.execute(f"SELECT key, response FROM responses WHERE key IN ({marks})", chunk)
                found.update(dict(rows.fetchall()))
        return found

    def put_many(self, model: str, items: Sequence[tuple[str, str]]) -> None:
        """Store (key, response) pairs in one committed transaction."""
        now = time.time()
        with self._lock, self._readable():
            self._db.executemany(
                "INSERT OR REPLACE INTO responses (key, model, response, created) VALUES (?, ?, ?, ?)",
                [(k, model, r, now) for k, r in items],
            )
            self._db.commit()

    def put(self, model: str, key: str, response: str) -> None:
        self.put_many(model, [(key, response)])

    def __len__(self) -> int:
        with self._lock, self._readable():
            return int(self._db.execute("SELECT COUNT(*) FROM responses").fetchone()[0])

    def close(self) -> None:
        with self._lock:
            self._db.close()


class CachedVLM:
    """A VisionLanguageModel that answers from the cache first and stores every new answer at once, with the
    wrapped model's optional abilities (but streaming).

    `calls` counts conversations sent to the wrapped model; `hits` those answered from the cache.
    """

    def __init__(self, model: VisionLanguageModel, cache: ResponseCache) -> None:
        self.model = model
        self.cache = cache
        self.name = getattr(model, "name", type(model).__name__)
        self.identity = model_identity(model)
        self.calls = 0
        self.hits = 0
        self._count_lock = threading.Lock()

    def describe(self) -> dict[str, Any]:
        return self.model.describe() if isinstance(self.model, Describing) else {"name": self.name}

    def key(self, conversation: Conversation, settings: GenerationSettings) -> str:
        return cache_key(self.identity, conversation_payload(conversation), settings)

    def generate(self, messages: Conversation, settings: GenerationSettings | None = None) -> str:
        return self.generate_batch([messages], settings)[0]

    def generate_batch(
        self, conversations: Sequence[Conversation], settings: GenerationSettings | None = None
    ) -> list[str]:
        settings = settings or GenerationSettings()
        keys = [self.key(c, settings) for c in conversations]
        found = self.cache.get_many(keys)
        missing = [i for i, k in enumerate(keys) if k not in found]
        with self._count_lock:
            self.hits += len(keys) - len(missing)
        if missing:
            todo = [conversations[i] for i in missing]
            replies = (
                self.model.generate_batch(todo, settings)
                if len(todo) > 1
                else [self.model.generate(todo[0], settings)]
            )
            if len(replies) != len(todo):
                raise RuntimeError(
                    f"{self.name} returned {len(replies)} replies for {len(todo)} conversations"
                )
            with self._count_lock:
                self.calls += len(todo)
            self.cache.put_many(self.name, [(keys[i], r) for i, r in zip(missing, replies, strict=True)])
            found.update({keys[i]: r for i, r in zip(missing, replies, strict=True)})
        return [found[k] for k in keys]

    def abilities(self) -> frozenset[Ability]:
        """The wrapped model's, but streaming (a stream would be a call past the cache); answer scores
        always (answered from the cache, or by the wrapped model's own means)."""
        return (abilities_of(self.model) - {Ability.STREAM}) | {Ability.ANSWER_SCORES}

    # Forwarded, not cached: sizes and families are facts of the model; an image's preparation is no text
    # the cache could hold. Each is called only where abilities() has it.

    def model_input_size(self, image: Image.Image) -> tuple[int, int]:
        return cast(FrameSizingModel, self.model).model_input_size(image)

    def grounding_family(self) -> GroundingFamilySpec | None:
        return cast(GroundingFamilyModel, self.model).grounding_family()

    def prepare_image(self, image: Image.Image) -> None:
        cast(ImagePreparingModel, self.model).prepare_image(image)

    def answer_probabilities(self, messages: Conversation, answers: Sequence[str]) -> AnswerProbabilities:
        """The wrapped model's answer probabilities (models.base.answer_probabilities), cached as JSON under
        a key of their own (the answers are part of it; a generation's key never collides with it)."""
        key = cache_key(
            self.identity, {"answers": list(answers), "input": conversation_payload(messages)}, {}
        )
        found = self.cache.get_many([key])
        if key in found:
            with self._count_lock:
                self.hits += 1
            data = json.loads(found[key])
            return AnswerProbabilities(data["probabilities"], data["covered"], data["source"])
        result = answer_probabilities(self.model, messages, answers)
        with self._count_lock:
            self.calls += 1
        payload = {"probabilities": result.probabilities, "covered": result.covered, "source": result.source}
        self.cache.put_many(self.name, [(key, json.dumps(payload))])
        return result


class CachedPointer:
    """A Pointer whose hits are cached like model responses (JSON of the groundings), counting calls, with
    the wrapped pointer's instances (SAM 3) where it has them."""

    def __init__(self, pointer: Pointer, cache: ResponseCache) -> None:
        self.pointer = pointer
        self.cache = cache
        self.name = getattr(pointer, "name", type(pointer).__name__)
        self.identity = {"pointer": model_identity(pointer)}
        self.calls = 0
        self.hits = 0

    def point(self, image: Image.Image, phrase: str) -> list[Grounding]:
        key = cache_key(self.identity, {"phrase": phrase, "image": image_bytes_digest(image)}, {})
        cached = self.cache.get(key)
        if cached is not None:
            self.hits += 1
            return [_grounding(d) for d in json.loads(cached)]
        hits = list(self.pointer.point(image, phrase))
        self.calls += 1
        self.cache.put(self.name, key, json.dumps([_grounding_dict(g) for g in hits]))
        return hits

    def abilities(self) -> frozenset[Ability]:
        return abilities_of(self.pointer) & {Ability.INSTANCES}

    def describe(self) -> dict[str, Any]:
        return dict(self.pointer.describe()) if isinstance(self.pointer, Describing) else {"name": self.name}

    def instances(self, image: Image.Image, phrase: str) -> tuple[list[Grounding], np.ndarray]:
        """SAM 3's hits and masks, forwarded (masks are no text the cache could hold)."""
        return cast(InstancePointer, self.pointer).instances(image, phrase)


def cached_vlm(model: VisionLanguageModel, cache: ResponseCache) -> CachedVLM:
    """`model` behind the cache (it keeps the model's optional abilities but streaming: a stream from it is
    the cached reply)."""
    return CachedVLM(model, cache)


def cached_pointer(pointer: Pointer, cache: ResponseCache) -> CachedPointer:
    """`pointer` behind the cache (it keeps SAM 3's instances)."""
    return CachedPointer(pointer, cache)


def _grounding_dict(g: Grounding) -> dict[str, Any]:
    box = None if g.box is None else [g.box.x0, g.box.y0, g.box.x1, g.box.y1]
    return {
        "label": g.label,
        "point": None if g.point is None else list(g.point),
        "box": box,
        "score": g.score,
        "source": g.source,
    }


def _grounding(d: dict[str, Any]) -> Grounding:
    return Grounding(
        label=d["label"],
        point=None if d["point"] is None else (float(d["point"][0]), float(d["point"][1])),
        box=None if d["box"] is None else Box(*map(float, d["box"])),
        score=float(d["score"]),
        source=d["source"],
    )
