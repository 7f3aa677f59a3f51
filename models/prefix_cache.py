"""The image's encoding, reused between calls about the same photo: a cached prompt prefix.

Every whichone prompt puts the photo first: "<|im_start|>User:" then the image's tokens, then the text. The
key/value cache of that opening (the vision encoder's output run through the language model) is the same
for the recognition call and a whole-photo answer, so it is computed once per photo (when the photo is
uploaded, in the background, or by the first call) and each call prefills only its own text.

Only for models whose positions are plain 1-D indices (Idefics3 / SmolVLM: the CPU's model): Qwen2-VL's
multimodal rotary positions are computed from the whole prompt's image grid, which a cached prefix skips.
A cached prefix gives the same logits as the whole prompt (tests/test_prefix_cache.py checks it).
"""

from __future__ import annotations

import copy
import hashlib
import threading
from collections import OrderedDict
from typing import Any

from models.compute import on_compute_thread

PREFIX_MODEL_TYPES = frozenset({"idefics3", "smolvlm"})
IMAGE_END_TOKENS = ("<fake_token_around_image>",)  # the token that closes an Idefics3 image block


class ImagePrefixCache:
    """Prefix caches of the last `size` photos, keyed by the prefix's token ids and the image's pixels.

    Six: the photo, and the marked copies of the candidates a reply lists, encoded while the user reads
    it (assistant/ahead.py), with room for a second visitor's photo. Each is about 4 MB for SmolVLM-256M.
    Callers hold the model's lock: the cache runs the model (on the compute thread, models/compute.py)."""

    def __init__(self, model: Any, end_token_ids: set[int], size: int = 6) -> None:
        self.model = model
        self.end_token_ids = end_token_ids
        self.size = size
        self._entries: OrderedDict[str, Any] = OrderedDict()
        self._lock = threading.Lock()
        self.hits = 0
        self.fills = 0

    @property
    def device(self) -> Any:
        """Where the model runs (models/compute.py runs a CPU model's work on the compute thread)."""
        return getattr(self.model, "device", None)

    def prefix_length(self, input_ids: Any) -> int:
        """Tokens up to and including the last image-closing token of the first row (0: no image)."""
        row = input_ids[0].tolist()
        ends = [i for i, token in enumerate(row) if token in self.end_token_ids]
        return ends[-1] + 1 if ends else 0

    def key(self, inputs: Any) -> tuple[int, str] | None:
        """(prefix length, cache key) of one conversation's processor `inputs`; None when the prompt has no
        image prefix to reuse."""
        ids = inputs["input_ids"]
        if ids.shape[0] != 1 or "pixel_values" not in inputs:
            return None
        length = self.prefix_length(ids)
        if length == 0 or length >= ids.shape[1]:
            return None
        digest = hashlib.blake2b(digest_size=16)
        digest.update(ids[0, :length].detach().cpu().numpy().tobytes())
        digest.update(inputs["pixel_values"].detach().cpu().contiguous().numpy().tobytes())
        return length, digest.hexdigest()

    def holds(self, inputs: Any) -> bool:
        """Whether the prefix of `inputs` is cached now."""
        keyed = self.key(inputs)
        with self._lock:
            return keyed is not None and keyed[1] in self._entries

    @on_compute_thread
    def lookup(self, inputs: Any) -> tuple[int, Any] | None:
        """(prefix length, a copy of its key/value cache) for one conversation's processor `inputs`, computed
        now if this photo's prefix is not cached; None when the prompt has no image prefix to reuse."""
        import torch

        keyed = self.key(inputs)
        if keyed is None:
            return None
        length, key = keyed
        ids = inputs["input_ids"]
        with self._lock:
            cached = self._entries.get(key)
            if cached is not None:
                self._entries.move_to_end(key)
                self.hits += 1
                return length, copy.deepcopy(cached)
        extra = {k: v for k, v in inputs.items() if k.startswith("pixel_")}
        with torch.inference_mode():
            mask = inputs["attention_mask"][:, :length]
            out = self.model(input_ids=ids[:, :length], attention_mask=mask, use_cache=True, **extra)
        with self._lock:
            self._entries[key] = out.cache
            self.fills += 1
            while len(self._entries) > self.size:
                self._entries.popitem(last=False)
        return length, copy.deepcopy(out.cache)

    def clear(self) -> None:
        with self._lock:
            self._entries.clear()
