"""Background embeddings of several sessions sharing one Grounder (the app has one per model choice)."""

from __future__ import annotations

import threading

from PIL import Image

from assistant.grounding import Grounder
from models.blob_pointer import BlobPointer


class GatedSegmenter:
    """Records which photos it embedded; the first embedding waits until the test opens the gate, so the
    others queue up behind it (the grounder runs one embedding at a time)."""

    def __init__(self) -> None:
        self.gate = threading.Event()
        self.embedded: list[int] = []

    def prepare(self, image: Image.Image) -> None:
        self.gate.wait(10)
        self.embedded.append(image.getpixel((0, 0))[0])


def photo(n: int) -> Image.Image:
    return Image.new("RGB", (32, 32), (n, 0, 0))


def test_a_new_photo_cancels_only_its_own_sessions_queued_embedding() -> None:
    seg = GatedSegmenter()
    grounder = Grounder(BlobPointer(), seg)  # type: ignore[arg-type]
    try:
        running = grounder.prepare(photo(0), owner="a")  # starts, waits at the gate
        queued_b = grounder.prepare(photo(1), owner="b")
        queued_c = grounder.prepare(photo(2), owner="c")
        replaced_b = grounder.prepare(photo(3), owner="b")  # b changed photo before 1 was embedded
        assert queued_b is not None and queued_b.cancelled()
        assert queued_c is not None and not queued_c.cancelled()
        seg.gate.set()
        for future in (running, queued_c, replaced_b):
            assert future is not None
            future.result(10)
        assert seg.embedded == [0, 2, 3]  # c's photo was embedded although b uploaded after it
    finally:
        grounder.close()
