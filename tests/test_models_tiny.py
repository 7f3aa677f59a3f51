"""The transformers adapter end to end on the tiny Qwen2.5-VL: build -> from_pretrained -> generate."""

from __future__ import annotations

import hashlib
import json
import shutil
from pathlib import Path

import numpy as np
import pytest
from PIL import Image

from models.base import (
    Ability,
    ChatMessage,
    GenerationSettings,
    VisionLanguageModel,
    can,
    stream_generate,
    strip_pieces,
)
from models.errors import ModelError, ModelOutOfMemory, ModelUnavailable
from models.families.qwen import QWEN_SPECIAL_TOKENS, TINY_QWEN2_5_VL
from models.hf_vlm import HFVisionLanguageModel, fit_size
from models.tiny import build_tiny

GREEDY = GenerationSettings(max_new_tokens=8, temperature=0.0)


def _noise_image(width: int, height: int, seed: int) -> Image.Image:
    rng = np.random.default_rng(seed)
    return Image.fromarray(rng.integers(0, 256, (height, width, 3), dtype=np.uint8))


def _ask(image: Image.Image | None, text: str = "What colour is the cup?") -> list[ChatMessage]:
    return [ChatMessage("user", text, [image] if image is not None else [])]


def _sha(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


# ---------------------------------------------------------------- the checkpoint


def test_tiny_checkpoint_is_real_qwen2_5_vl(tiny_model_dir: Path) -> None:
    from transformers import AutoConfig, AutoProcessor

    config = AutoConfig.from_pretrained(tiny_model_dir, local_files_only=True)
    assert config.model_type == "qwen2_5_vl"
    assert config.architectures == ["Qwen2_5_VLForConditionalGeneration"]
    assert (config.text_config.num_hidden_layers, config.text_config.hidden_size) == (2, 64)
    assert (config.vision_config.depth, config.vision_config.hidden_size) == (2, 32)
    assert config.vision_config.out_hidden_size == 64

    tokenizer = AutoProcessor.from_pretrained(tiny_model_dir, local_files_only=True).tokenizer
    ids = {tok: tokenizer.convert_tokens_to_ids(tok) for tok in QWEN_SPECIAL_TOKENS}
    assert len(set(ids.values())) == len(QWEN_SPECIAL_TOKENS)
    assert all(i < config.text_config.vocab_size for i in ids.values())
    assert 500 <= config.text_config.vocab_size <= 700
    assert config.image_token_id == ids["<|image_pad|>"]
    assert config.vision_start_token_id == ids["<|vision_start|>"]
    for cfg in (config, config.text_config):
        assert cfg.eos_token_id == ids["<|im_end|>"]
        assert cfg.pad_token_id == ids["<|endoftext|>"]
    # Special tokens are single tokens, and ordinary text round-trips through the byte-level BPE.
    assert tokenizer.encode("<|image_pad|>", add_special_tokens=False) == [ids["<|image_pad|>"]]
    text = "Which cup, the left one? Ünïcode 42"
    assert tokenizer.decode(tokenizer.encode(text, add_special_tokens=False)) == text


def test_chat_template_renders_images_like_qwen(tiny_model_dir: Path) -> None:
    from transformers import AutoProcessor

    processor = AutoProcessor.from_pretrained(tiny_model_dir, local_files_only=True)
    messages = [{"role": "user", "content": [{"type": "image"}, {"type": "text", "text": "Which one?"}]}]
    text = processor.apply_chat_template(messages, add_generation_prompt=True, tokenize=False)
    assert text == (
        "<|im_start|>system\nYou are a helpful assistant.<|im_end|>\n"
        "<|im_start|>user\n<|vision_start|><|image_pad|><|vision_end|>Which one?<|im_end|>\n"
        "<|im_start|>assistant\n"
    )


def test_build_reuses_complete_dir_and_rebuilds_identically(tiny_model_dir: Path, tmp_path: Path) -> None:
    copy = tmp_path / "copy"
    shutil.copytree(tiny_model_dir, copy)
    weights = copy / "model.safetensors"
    first_hash, first_mtime = _sha(weights), weights.stat().st_mtime_ns

    assert build_tiny(TINY_QWEN2_5_VL, copy) == copy  # complete: reused as it is
    assert weights.stat().st_mtime_ns == first_mtime

    (copy / "whichone_tiny.json").unlink()  # an interrupted build leaves no marker: rebuild it
    assert build_tiny(TINY_QWEN2_5_VL, copy) == copy
    assert json.loads((copy / "whichone_tiny.json").read_text())["parameters"] > 100_000
    assert weights.stat().st_mtime_ns != first_mtime
    assert _sha(weights) == first_hash  # fixed seed: the same weights every build
    assert _sha(copy / "tokenizer.json") == _sha(tiny_model_dir / "tokenizer.json")
    assert not [p for p in tmp_path.iterdir() if p.name.startswith(".copy.build-")]  # staging cleaned


# ---------------------------------------------------------------- generation


def test_generate_returns_text_and_greedy_is_deterministic(tiny_vlm: HFVisionLanguageModel) -> None:
    assert isinstance(tiny_vlm, VisionLanguageModel)
    image = _noise_image(200, 120, seed=0)
    first = tiny_vlm.generate(_ask(image), GREEDY)
    assert isinstance(first, str) and first  # random weights: noise, but some text
    assert first == first.strip()
    assert tiny_vlm.generate(_ask(image), GREEDY) == first
    # The image reaches the model: a different image changes the greedy reply.
    assert tiny_vlm.generate(_ask(_noise_image(200, 120, seed=99)), GREEDY) != first


def test_generate_batch_matches_unbatched(tiny_vlm: HFVisionLanguageModel) -> None:
    conversations = [
        _ask(_noise_image(200, 120, seed=1), "What colour is the cup?"),
        _ask(_noise_image(90, 300, seed=2), "Which one is it?"),  # other size -> other prompt length
        [ChatMessage("system", "Be brief."), ChatMessage("user", "No image in this one.")],
    ]
    batched = tiny_vlm.generate_batch(conversations, GREEDY)
    single = [tiny_vlm.generate(conv, GREEDY) for conv in conversations]
    assert len(batched) == 3 and all(isinstance(r, str) for r in batched)
    # Left padding + the attention mask make each row compute what it computes alone; in float32 on a
    # CPU the tiny model's argmax does not flip on the last-bit differences that batching can cause.
    assert batched == single
    assert tiny_vlm.generate_batch([], GREEDY) == []


def test_max_new_tokens_is_respected_and_greedy_extends(tiny_vlm: HFVisionLanguageModel) -> None:
    conv = _ask(_noise_image(120, 120, seed=3))
    short = tiny_vlm.generate_token_ids([conv], GenerationSettings(max_new_tokens=3))[0]
    long = tiny_vlm.generate_token_ids([conv], GenerationSettings(max_new_tokens=10))[0]
    assert 1 <= len(short) <= 3 and len(long) <= 10
    assert long[: len(short)] == short  # greedy: a longer budget only appends tokens


def test_sampling_follows_the_seed(tiny_vlm: HFVisionLanguageModel) -> None:
    conv = _ask(_noise_image(120, 120, seed=4))

    def sample(seed: int) -> str:
        return tiny_vlm.generate(conv, GenerationSettings(max_new_tokens=12, temperature=1.0, seed=seed))

    assert sample(3) == sample(3)
    assert sample(3) != sample(4)


def test_control_tokens_in_user_text_stay_text(tiny_vlm: HFVisionLanguageModel) -> None:
    # Without sanitising, "<|image_pad|>" in a question would add an image slot with no image features.
    conv = _ask(_noise_image(100, 100, seed=5), "Is it <|image_pad|><|im_end|> red?")
    assert isinstance(tiny_vlm.generate(conv, GREEDY), str)


def test_generation_failure_is_a_model_error(tiny_vlm: HFVisionLanguageModel) -> None:
    too_thin = _noise_image(300, 1, seed=6)  # aspect ratio 300:1, which Qwen's processor refuses
    with pytest.raises(ModelError, match="tiny"):
        tiny_vlm.generate(_ask(too_thin), GREEDY)
    with pytest.raises(ModelError, match="ChatMessage"):
        tiny_vlm.generate([{"role": "user", "content": "hi"}], GREEDY)  # type: ignore[list-item]


# ---------------------------------------------------------------- streaming


@pytest.mark.parametrize(
    "settings",
    [GenerationSettings(max_new_tokens=48), GenerationSettings(max_new_tokens=48, temperature=0.9, seed=7)],
    ids=["greedy", "sampled"],
)
def test_stream_pieces_join_to_the_generated_reply(tiny_vlm: HFVisionLanguageModel, settings) -> None:
    assert can(tiny_vlm, Ability.STREAM)
    counts = []
    for seed in (10, 11, 12):
        conv = _ask(_noise_image(160, 120, seed=seed))
        pieces = list(tiny_vlm.generate_stream(conv, settings))
        assert "".join(pieces) == tiny_vlm.generate(conv, settings)  # same tokens, same decoding, same strip
        assert all(pieces)
        counts.append(len(pieces))
    assert max(counts) > 3  # it streams: the reply comes in several pieces, not at the end in one


def test_stream_errors_are_the_model_errors_generate_raises(
    tiny_vlm: HFVisionLanguageModel, monkeypatch: pytest.MonkeyPatch
) -> None:
    too_thin = _ask(_noise_image(300, 1, seed=6))  # refused by Qwen's processor, in the generation thread
    with pytest.raises(ModelError, match="tiny") as from_generate:
        tiny_vlm.generate(too_thin, GREEDY)
    with pytest.raises(ModelError, match="tiny") as from_stream:
        list(tiny_vlm.generate_stream(too_thin, GREEDY))
    assert type(from_stream.value) is type(from_generate.value)
    assert str(from_stream.value) == str(from_generate.value)
    with pytest.raises(ModelError, match="ChatMessage"):
        list(tiny_vlm.generate_stream([{"role": "user", "content": "hi"}], GREEDY))  # type: ignore[list-item]

    def out_of_memory(**kwargs):
        raise RuntimeError("CUDA out of memory. Tried to allocate 2.00 GiB")

    monkeypatch.setattr(tiny_vlm._model, "generate", out_of_memory)
    conv = _ask(_noise_image(64, 64, seed=1))
    with pytest.raises(ModelOutOfMemory):
        tiny_vlm.generate(conv, GREEDY)
    with pytest.raises(ModelOutOfMemory):
        list(tiny_vlm.generate_stream(conv, GREEDY))
    assert not tiny_vlm._lock.locked()


def test_a_failure_in_the_middle_of_a_stream_comes_after_its_pieces(
    tiny_vlm: HFVisionLanguageModel, monkeypatch: pytest.MonkeyPatch
) -> None:
    import torch

    words = tiny_vlm._processor.tokenizer.encode("the cup is red and the box ", add_special_tokens=False)

    def fails_midway(**kwargs):
        streamer = kwargs["streamer"]
        streamer.put(kwargs["input_ids"])  # the prompt comes first, as in generate()
        for token in words:
            streamer.put(torch.tensor([token]))
        raise RuntimeError("the device fell over")

    monkeypatch.setattr(tiny_vlm._model, "generate", fails_midway)
    got: list[str] = []
    with pytest.raises(ModelError, match="tiny failed to generate: the device fell over"):
        for piece in tiny_vlm.generate_stream(_ask(_noise_image(64, 64, seed=2)), GREEDY):
            got.append(piece)
    assert len(got) > 1 and "the cup is red and the box".startswith("".join(got))
    assert not tiny_vlm._lock.locked()


def test_closing_a_stream_early_stops_its_generation(
    tiny_vlm: HFVisionLanguageModel, monkeypatch: pytest.MonkeyPatch
) -> None:
    import threading

    settings = GenerationSettings(max_new_tokens=300)
    conv = _ask(_noise_image(160, 120, seed=12))
    full = tiny_vlm.generate_token_ids([conv], settings)[0]
    assert len(full) == 300  # the tiny model's noise for this image runs to the limit
    generate = tiny_vlm._model.generate
    made: list[int] = []

    def counted(**kwargs):
        output = generate(**kwargs)
        made.append(output.shape[1] - kwargs["input_ids"].shape[1])
        return output

    monkeypatch.setattr(tiny_vlm._model, "generate", counted)
    stream = tiny_vlm.generate_stream(conv, settings)
    first = next(stream)
    stream.close()  # stops the generation at its next token and waits for its thread
    assert first and made and made[0] < len(full)
    assert not tiny_vlm._lock.locked()
    assert not [t for t in threading.enumerate() if t.name.startswith("whichone-stream-")]


def test_stream_generate_serves_models_without_a_stream() -> None:
    class Whole:
        name = "whole"

        def __init__(self, text: str) -> None:
            self.text = text

        def generate(self, messages, settings=None) -> str:
            return self.text

    conv = _ask(None, "hi")
    assert list(stream_generate(Whole("It is red."), conv)) == ["It is red."]
    assert list(stream_generate(Whole(""), conv)) == []


def test_strip_pieces_joins_to_the_stripped_text() -> None:
    pieces = [" ", "\n It", " is", " ", "", "red", ".\n", "  ", "\n"]
    out = list(strip_pieces(pieces))
    assert "".join(out) == "".join(pieces).strip() == "It is red."
    assert out == ["It", " is", " red", "."] and all(out)
    assert list(strip_pieces([" ", "\n"])) == []


# ---------------------------------------------------------------- image sizes


@pytest.mark.parametrize("size", [(200, 120), (90, 300), (640, 480), (1500, 900), (30, 30)])
def test_model_input_size_matches_the_processor_grid(tiny_vlm: HFVisionLanguageModel, size) -> None:
    image = _noise_image(*size, seed=7)
    processor = tiny_vlm._processor.image_processor
    grid = processor(images=[tiny_vlm.fit_image(image)], return_tensors="pt")["image_grid_thw"][0].tolist()
    _, grid_h, grid_w = grid
    assert tiny_vlm.model_input_size(image) == (grid_w * processor.patch_size, grid_h * processor.patch_size)


def test_images_are_fitted_to_max_image_side(tiny_model_dir: Path) -> None:
    vlm = HFVisionLanguageModel(str(tiny_model_dir), device="cpu", max_image_side=100)
    assert vlm.fit_image(_noise_image(300, 200, seed=8)).size == (100, 67)
    small = _noise_image(80, 40, seed=8)
    assert vlm.fit_image(small).size == (80, 40)  # never scaled up
    assert vlm.fit_image(small.convert("L")).mode == "RGB"
    assert fit_size(4000, 3000, 1280) == (1280, 960)


# ---------------------------------------------------------------- description and loading errors


def test_describe(tiny_vlm: HFVisionLanguageModel, tiny_model_dir: Path) -> None:
    info = tiny_vlm.describe()
    assert info["name"] == "tiny"
    assert info["backend"] == "transformers"
    assert info["model_id"] == str(tiny_model_dir)
    assert (info["device"], info["dtype"], info["quantisation"]) == ("cpu", "float32", "none")
    marker = json.loads((tiny_model_dir / "whichone_tiny.json").read_text())
    assert info["parameters"] == marker["parameters"] > 100_000


def test_bfloat16_on_cpu(tiny_model_dir: Path) -> None:
    vlm = HFVisionLanguageModel(str(tiny_model_dir), device="cpu", dtype="bfloat16")
    assert vlm.describe()["dtype"] == "bfloat16"
    assert isinstance(vlm.generate(_ask(_noise_image(64, 64, seed=9)), GREEDY), str)


def test_missing_directory_is_unavailable(tmp_path: Path) -> None:
    missing = tmp_path / "no-such-model"
    with pytest.raises(ModelUnavailable, match="no model directory") as caught:
        HFVisionLanguageModel(str(missing))
    assert str(missing) in str(caught.value)


def test_directory_without_checkpoint_is_unavailable(tmp_path: Path) -> None:
    with pytest.raises(ModelUnavailable, match="does not hold a loadable checkpoint"):
        HFVisionLanguageModel(str(tmp_path))


def test_unknown_hub_id_offline_is_unavailable(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    model_id = "whichone-tests/no-such-model"
    with pytest.raises(ModelUnavailable) as caught:
        HFVisionLanguageModel(model_id, device="cpu")
    message = str(caught.value)
    assert "\n" not in message
    assert message.startswith(f"the model {model_id} is not downloaded here (HF_HUB_OFFLINE is set)")
    assert f"hf download {model_id}" in message and "--stack NAME" not in message
    assert "use the cpu-tiny stack to try the app offline" in message


def test_unknown_hub_id_without_network_fails_fast(monkeypatch: pytest.MonkeyPatch) -> None:
    import socket
    import time

    monkeypatch.delenv("HF_HUB_OFFLINE", raising=False)
    monkeypatch.delenv("TRANSFORMERS_OFFLINE", raising=False)
    with socket.socket() as sock:  # a closed local port stands in for a hub that cannot be reached
        sock.bind(("127.0.0.1", 0))
        endpoint = f"http://127.0.0.1:{sock.getsockname()[1]}"
    monkeypatch.setenv("HF_ENDPOINT", endpoint)
    start = time.monotonic()
    with pytest.raises(ModelUnavailable) as caught:
        HFVisionLanguageModel("whichone-tests/no-such-model", device="cpu")
    assert str(caught.value).startswith(
        f"the model whichone-tests/no-such-model is not downloaded here and {endpoint} is not reachable: "
        "run `hf download whichone-tests/no-such-model` on a machine with internet"
    )
    assert time.monotonic() - start < 10  # not huggingface_hub's minutes of retries


@pytest.mark.parametrize(
    ("kwargs", "expected"),
    [
        ({"quantise": "4bit"}, "needs a CUDA GPU"),
        ({"quantise": "8bit"}, "unknown quantisation"),
        ({"dtype": "float64"}, "unknown dtype"),
    ],
)
def test_impossible_settings_are_unavailable(tiny_model_dir: Path, kwargs, expected: str) -> None:
    with pytest.raises(ModelUnavailable, match=expected):
        HFVisionLanguageModel(str(tiny_model_dir), device="cpu", **kwargs)
