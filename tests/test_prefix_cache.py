"""The photo's encoding reused between calls (models/prefix_cache.py) on the tiny SmolVLM of the real classes:
the same logits and replies as without it, computed once per photo, on upload in the background."""

from __future__ import annotations

import time

import numpy as np
import pytest
import torch
from PIL import Image

from assistant.grounding import Grounder
from assistant.pipeline import Assistant, AssistantConfig
from models.base import Ability, ChatMessage, GenerationSettings, can
from models.blob_pointer import BlobPointer

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


def test_each_photo_has_its_own_prefix_and_only_the_last_two_are_kept(exact) -> None:
    exact._prefix.clear()
    first = exact._prefix.fills
    for seed in (11, 12, 13):
        exact.prepare_image(_photo(seed))
    assert exact._prefix.fills == first + 3 and len(exact._prefix._entries) == 2
    hits = exact._prefix.hits
    exact.next_token_probabilities(_conversation(_photo(13)))
    assert exact._prefix.hits == hits + 1
    exact.next_token_probabilities(_conversation(_photo(11)))  # pushed out: encoded again
    assert exact._prefix.fills == first + 4


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
    assistant = Assistant(exact, Grounder(BlobPointer()), AssistantConfig())
    session = assistant.open_image(_photo(5))
    deadline = time.monotonic() + 30
    while exact._prefix.fills == fills and time.monotonic() < deadline:
        time.sleep(0.05)
    assert exact._prefix.fills == fills + 1  # encoded in the background, before any question
    reply, _ = assistant.ask(None, "What colour is the cup?", session)
    assert reply.ambiguity_probability is not None
    assert exact._prefix.hits > hits and exact._prefix.fills == fills + 1
