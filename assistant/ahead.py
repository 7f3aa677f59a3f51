"""The VLM's work done ahead of the user's next step, in the background (issue 37).

- **A new photo** is encoded (the VLM's cached prompt prefix, models/prefix_cache.py) on upload, while the
  user types the question.
- **The choices a reply lists**: the second turn sends a new image, the photo with the chosen region
  marked, whose encoding costs most of the time before its first word. So after a reply that lists
  candidates (two or more, numbered for the user to choose from; not an answer about a chosen one), the
  marked copies of its first `AssistantConfig.choices_ahead` (3) candidates are encoded while the user
  reads it: these are guesses.

One worker runs them in order (the torch work itself runs on the compute thread, models/compute.py). Any
session's next step (an upload, a question, a choice) first cancels every queued guess, whoever's they
are, and its own queued photo encoding, never another session's photo: so one visitor's guesses never
delay another visitor's photo or turn, and at most one running encoding finishes first. Futures are
queued and recorded under one lock, so a cancel never misses one. A choice beyond the guessed ones, or
made before its guess ran, encodes its image when chosen, as without this.
"""

from __future__ import annotations

import functools
import logging
import threading
from collections.abc import Callable, Hashable, Sequence
from concurrent.futures import Future, ThreadPoolExecutor, wait

from PIL import Image

from assistant.marking import MarkMode, image_for_region
from assistant.types import Region, Reply
from models.base import ImagePreparingModel
from models.errors import ModelError
from models.memory import release_free_memory

log = logging.getLogger(__name__)


class Ahead:
    """The queue of encodings ahead of the user; see the module doc. One per process (`ahead()`)."""

    def __init__(self) -> None:
        self._executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="whichone-vlm-prepare")
        self._lock = threading.Lock()
        self._guesses: list[Future[None]] = []
        self._photos: dict[Hashable, Future[None]] = {}

    def step(self, owner: Hashable) -> None:
        """A session's next step begins: drop every queued guess and `owner`'s queued photo encoding (a
        running one finishes)."""
        with self._lock:
            for guess in self._guesses:
                guess.cancel()
            self._guesses = []
            own = self._photos.pop(owner, None)
            if own is not None:
                own.cancel()
            self._photos = {key: future for key, future in self._photos.items() if not future.done()}

    def photo(self, vlm: ImagePreparingModel, owner: Hashable, image: Image.Image) -> Future[None]:
        """A step of `owner` (see `step`) that queues the encoding of its new photo."""
        self.step(owner)
        with self._lock:
            future = self._executor.submit(_prepare_quietly, vlm, lambda: image)
            self._photos[owner] = future
        return future

    def choices(
        self, vlm: ImagePreparingModel, image: Image.Image, regions: Sequence[Region], marking: MarkMode
    ) -> list[Future[None]]:
        """Queue the guesses: the marked copy of `image` for each region, in order (drawn by the worker)."""

        def marked(region: Region) -> Callable[[], Image.Image]:
            return lambda: image_for_region(image, region, marking)

        with self._lock:
            futures = [self._executor.submit(_prepare_quietly, vlm, marked(r)) for r in regions]
            self._guesses.extend(futures)
        return futures

    def settle(self, timeout: float | None = None) -> None:
        """Wait until everything queued so far has run or been cancelled (tests; `whichone perf`)."""
        with self._lock:
            pending = [*self._guesses, *self._photos.values()]
        wait(pending, timeout=timeout)


@functools.cache
def ahead() -> Ahead:
    """The process's queue (the Assistant is made per request; the queue and its model are shared)."""
    return Ahead()


def listed_choices(reply: Reply, count: int) -> list[Region]:
    """The first `count` candidates a reply lists for the user to choose from (those it names first, then
    the others in their numbers' order): the app shows every reply's candidates, numbered, to choose from.
    None for fewer than two candidates, or a reply about the region the user chose."""
    if count <= 0 or reply.resolved_region is not None or len(reply.candidates.regions) < 2:
        return []
    named = [r for i in reply.referents if (r := reply.candidates.by_id(i)) is not None]
    named_ids = set(reply.referents)
    rest = [r for r in reply.candidates.regions if r.id not in named_ids]
    return [*named, *rest][:count]


def _prepare_quietly(vlm: ImagePreparingModel, image: Callable[[], Image.Image]) -> None:
    try:
        vlm.prepare_image(image())
    except ModelError as exc:  # the step's own call will meet (and report) the same failure
        log.warning("encoding an image ahead failed: %s", exc)
    release_free_memory()  # what the encoding freed, back to the system while the user types or reads
