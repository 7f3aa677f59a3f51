"""The photo's encoding reused between calls (models/prefix_cache.py) on the tiny SmolVLM of the real classes:
the same logits and replies as without it, computed once per photo, on upload in the background."""

from __future__ import annotations

import threading
import time

import numpy as np
import pytest
import torch
from PIL import Image

from assistant.ahead import ahead
from assistant.grounding import Grounder
from assistant.marking import image_for_region
from assistant.pipeline import Assistant, AssistantConfig
from assistant.types import Region, Strategy
from models.base import Ability, ChatMessage, GenerationSettings, can
from models.blob_pointer import BlobPointer
from models.compute import compute_thread
from models.types import Box
from ui.cli.perf_scene import cups_scene

pytestmark = pytest.mark.filterwarnings("ignore::UserWarning")
GREEDY = GenerationSettings(max_new_tokens=12, temperature=0.0)


def _photo(seed: int) -> Image.Image:
    rng = np.random.default_rng(seed)
    return Image.fromarray(rng.integers(0, 255, (96, 128, 3), dtype=np.uint8))


@pytest.fixture(scope="module")
def exact(tmp_path_factory: pytest.TempPathFactory):
    """smolvlm-tiny in float32: a split prompt must give the very logits of the whole one."""
    from models.registry import create_vlm

    folder = tmp_path_factory.mktemp("smol") / "smolvlm"
    return create_vlm("smolvlm-tiny", target_dir=folder, device="cpu", quantise="none")


def _conversation(
    photo: Image.Image, text: str = "Is this ambiguous? Answer Yes or No."
) -> list[ChatMessage]:
    return [ChatMessage("user", text, [photo])]


def test_a_cached_prefix_gives_the_whole_prompts_logits_and_reply(exact) -> None:
    photo = _photo(1)
    exact.reuse_image_prefix = False
    plain_probabilities = exact.next_token_probabilities(_conversation(photo))
    plain_reply = exact.generate_token_ids([_conversation(photo, "What is it?")], GREEDY)
    exact.reuse_image_prefix = True
    fills = exact._prefix.fills
    cached_probabilities = exact.next_token_probabilities(_conversation(photo))
    cached_reply = exact.generate_token_ids([_conversation(photo, "What is it?")], GREEDY)
    streamed = "".join(exact.generate_stream(_conversation(photo, "What is it?"), GREEDY))
    assert torch.allclose(plain_probabilities, cached_probabilities, atol=1e-6)
    assert cached_reply == plain_reply
    assert streamed == exact.generate(_conversation(photo, "What is it?"), GREEDY)
    assert exact._prefix.fills == fills + 1  # one encoding of this photo, reused by the later calls
    assert exact._prefix.hits >= 3


def test_each_photo_has_its_own_prefix_and_only_the_last_six_are_kept(exact) -> None:
    """Six: the photo and the marked copies of the candidates a reply lists (assistant/ahead.py)."""
    exact._prefix.clear()
    first = exact._prefix.fills
    seeds = range(11, 18)
    for seed in seeds:
        exact.prepare_image(_photo(seed))
    assert exact._prefix.fills == first + 7 and len(exact._prefix._entries) == 6
    hits = exact._prefix.hits
    exact.next_token_probabilities(_conversation(_photo(17)))
    exact.next_token_probabilities(_conversation(_photo(12)))  # the oldest kept
    assert exact._prefix.hits == hits + 2 and exact._prefix.fills == first + 7
    exact.next_token_probabilities(_conversation(_photo(11)))  # pushed out: encoded again
    assert exact._prefix.fills == first + 8


def test_text_only_conversations_and_batches_do_not_use_it(exact) -> None:
    fills, hits = exact._prefix.fills, exact._prefix.hits
    exact.generate([ChatMessage("user", "Hello")], GREEDY)
    exact.generate_batch([_conversation(_photo(2)), _conversation(_photo(3))], GREEDY)
    assert (exact._prefix.fills, exact._prefix.hits) == (fills, hits)


def test_qwen_keeps_no_prefix(tiny_vlm) -> None:
    """Qwen2.5-VL's multimodal rotary positions need the whole prompt: no cached prefix for it."""
    assert tiny_vlm._prefix is None
    tiny_vlm.prepare_image(_photo(4))  # a no-op, never an error


def test_the_photo_is_encoded_on_upload_and_the_question_reuses_it(exact) -> None:
    assert can(exact, Ability.PREPARE_IMAGE)
    exact._prefix.clear()
    fills, hits = exact._prefix.fills, exact._prefix.hits
    # No choices ahead: this counts the photo's encodings alone.
    assistant = Assistant(exact, Grounder(BlobPointer()), AssistantConfig(choices_ahead=0))
    session = assistant.open_image(_photo(5))
    deadline = time.monotonic() + 30
    while exact._prefix.fills == fills and time.monotonic() < deadline:
        time.sleep(0.05)
    assert exact._prefix.fills == fills + 1  # encoded in the background, before any question
    reply, _ = assistant.ask(None, "What colour is the cup?", session)
    assert reply.ambiguity_probability is not None
    assert exact._prefix.hits > hits and exact._prefix.fills == fills + 1


# ---------------------------------------------------------------- the choices a reply lists, encoded ahead


def _encoded(vlm, image: Image.Image) -> bool:
    """Whether `image`'s prefix is in the VLM's cache now."""
    return vlm._prefix.holds(vlm._inputs([_conversation(image)]))


def _four_cups(variant: int) -> Image.Image:
    return cups_scene(320, 240, n=4, variant=variant)


def test_the_first_three_choices_a_reply_lists_are_encoded_while_the_user_reads(exact) -> None:
    exact._prefix.clear()
    config = AssistantConfig(answer_settings=GREEDY)
    assistant = Assistant(exact, Grounder(BlobPointer()), config)
    session = assistant.open_image(_four_cups(1))
    reply, session = assistant.ask(None, "What colour is the cup?", session)
    ahead().settle(timeout=120)  # the user reads the reply
    regions = reply.candidates.regions
    assert reply.strategy is Strategy.CLARIFY and len(regions) == 4
    marked = [image_for_region(session.image, r, config.region_marking) for r in regions]
    assert [_encoded(exact, m) for m in marked] == [True, True, True, False]
    fills, hits = exact._prefix.fills, exact._prefix.hits
    chosen, _ = assistant.resolve(session, regions[0].id)
    assert (exact._prefix.fills, exact._prefix.hits) == (fills, hits + 1)  # its encoding was made ahead
    exact.reuse_image_prefix = False
    try:
        plain, _ = assistant.resolve(session, regions[0].id)  # no cached encoding at all
    finally:
        exact.reuse_image_prefix = True
    assert chosen.text == plain.text and chosen.resolved_region == regions[0].id
    assistant.resolve(session, regions[3].id)  # beyond the three: encoded when chosen
    assert exact._prefix.fills == fills + 1 and _encoded(exact, marked[3])


def test_with_no_choices_ahead_only_the_photo_is_encoded(exact) -> None:
    exact._prefix.clear()
    fills = exact._prefix.fills
    config = AssistantConfig(answer_settings=GREEDY, choices_ahead=0)
    assistant = Assistant(exact, Grounder(BlobPointer()), config)
    session = assistant.open_image(_four_cups(2))
    reply, session = assistant.ask(None, "What colour is the cup?", session)
    ahead().settle(timeout=120)
    assert reply.strategy is Strategy.CLARIFY and len(reply.candidates.regions) == 4
    assert exact._prefix.fills == fills + 1 and _encoded(exact, session.image)
    marked = [image_for_region(session.image, r, config.region_marking) for r in reply.candidates.regions]
    assert not any(_encoded(exact, m) for m in marked)


def test_a_step_cancels_queued_guesses_and_never_another_sessions_photo(exact) -> None:
    exact._prefix.clear()
    queue, release = ahead(), threading.Event()
    busy = compute_thread().submit(lambda: release.wait(60))  # the compute thread is busy for now
    try:
        queue.photo(exact, "session b", _photo(21))  # taken by the worker, waiting for the compute thread
        their_photo = queue.photo(exact, "session c", _photo(22))  # queued behind it
        regions = [Region(id=i, box=Box(10.0 * i, 10.0, 10.0 * i + 30, 60.0)) for i in (1, 2, 3)]
        guesses = queue.choices(exact, _photo(23), regions, "marker")
        session = Assistant(exact, Grounder(BlobPointer())).open_image(_photo(24))  # session a's upload
        assert all(guess.cancelled() for guess in guesses)
        assert not their_photo.cancelled()
    finally:
        release.set()
    busy.result(timeout=60)
    queue.settle(timeout=120)
    assert their_photo.done() and not their_photo.cancelled()
    assert all(_encoded(exact, _photo(seed)) for seed in (21, 22))
    assert _encoded(exact, session.image)
    assert not any(_encoded(exact, image_for_region(_photo(23), r, "marker")) for r in regions)
