"""Vision-language models from transformers (AutoModelForImageTextToText), 4-bit NF4 on CUDA when possible.

One adapter serves Qwen2.5-VL, SmolVLM and the tiny local checkpoints of models/tiny.py and
models/tiny_smolvlm.py alike: the processor's own chat template renders the messages, the processor resizes
and tokenises the images, and `generate` runs batched with left padding.
"""

from __future__ import annotations

import inspect
import re
import sys
import threading
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any, Literal, TypedDict

from PIL import Image

from models.base import (
    Ability,
    AnswerProbabilities,
    ChatMessage,
    Conversation,
    GenerationSettings,
    ModelBase,
    strip_pieces,
)
from models.compute import on_compute_thread
from models.errors import ModelError, ModelOutOfMemory, ModelUnavailable, first_line, is_out_of_memory
from models.families import GroundingFamilySpec, family_table
from models.hf_loading import load_checkpoint
from models.hf_streaming import start_generation, streaming_classes
from models.prefix_cache import IMAGE_END_TOKENS, PREFIX_MODEL_TYPES, ImagePrefixCache
from models.quantise import int8_dynamic

if TYPE_CHECKING:
    import torch
    from transformers import BatchFeature


class TextPart(TypedDict):
    type: Literal["text"]
    text: str


class ImagePart(TypedDict):
    type: Literal["image"]
    image: Image.Image


class TemplateMessage(TypedDict):
    """One message as a processor's chat template takes it."""

    role: str
    content: list[TextPart | ImagePart]


def fit_size(width: int, height: int, max_side: int) -> tuple[int, int]:
    """(width, height) scaled down, aspect kept, so the longer side is <= max_side (never scaled up)."""
    longest = max(width, height)
    if longest <= max_side:
        return width, height
    scale = max_side / longest
    return max(1, round(width * scale)), max(1, round(height * scale))


class HFVisionLanguageModel(ModelBase):
    """A transformers image-text-to-text model behind the VisionLanguageModel protocol.

    model_id: a hub id (loaded from the local HF cache; downloaded only when online) or a local directory.
    quantise: "auto" (4-bit NF4 when CUDA, bitsandbytes and accelerate are all there, else full precision),
    "4bit" (required; ModelUnavailable when impossible), "int8" (CPU only: int8 dynamic quantisation of the
    Linear layers, models/quantise.py, about 2x faster prefill and decoding; the catalog picks it for
    SmolVLM on a CPU) or "none". int8 quantises activations per call over the whole batch, so a batched
    reply may differ slightly from the same conversation's unbatched one.
    dtype: None picks float32 on CPU and bfloat16 on CUDA; or "float32", "bfloat16", "float16", a torch dtype.
    max_image_side: images are scaled down so their longer side is at most this many pixels before the
    processor sees them (the processor may then resize further; see model_input_size).
    processor_options: keyword arguments for AutoProcessor.from_pretrained, e.g. SmolVLM's
    {"size": {"longest_edge": 512}} (one 512 px tile instead of up to 16: ~10x less to read on a CPU).
    """

    ABILITIES = frozenset(
        {
            Ability.STREAM,
            Ability.FRAME_SIZE,
            Ability.GROUNDING_FAMILY,
            Ability.PREPARE_IMAGE,
            Ability.ANSWER_SCORES,
        }
    )

    def __init__(
        self,
        model_id: str,
        *,
        device: str | None = None,
        quantise: str = "auto",
        dtype: str | torch.dtype | None = None,
        max_image_side: int = 1280,
        name: str | None = None,
        processor_options: dict[str, Any] | None = None,
    ) -> None:
        if max_image_side < 28:
            raise ModelUnavailable(f"max_image_side must be at least 28 pixels, got {max_image_side}")
        self.model_id = str(model_id)
        self.name = name or self.model_id
        self.max_image_side = int(max_image_side)
        self.processor_options = dict(processor_options or {})
        self._lock = threading.Lock()  # one generate at a time: the seed is global and a GPU is shared
        loaded = load_checkpoint(
            self.model_id,
            self.name,
            device=device,
            quantise=quantise,
            dtype=dtype,
            processor_options=self.processor_options,
        )
        self.device, self.quantisation, self.dtype = loaded.device, loaded.quantisation, loaded.dtype
        self._processor = loaded.processor
        self._finish_setup(loaded.model)

    # ---------------------------------------------------------------- loading

    @classmethod
    def from_model(
        cls, model: Any, processor: Any, *, name: str, quantise: str = "none", max_image_side: int = 1280
    ) -> HFVisionLanguageModel:
        """The adapter around a model and processor built in memory, on the CPU (`whichone perf`: a published
        architecture with random weights, which has no checkpoint to load). `quantise`: "int8" or "none"."""
        import torch

        self = cls.__new__(cls)
        self.model_id = f"random {type(model).__name__}"
        self.name = name
        self.max_image_side = int(max_image_side)
        self.processor_options = {}
        self._lock = threading.Lock()
        self.device = "cpu"
        self.quantisation = "int8" if quantise == "int8" else "none"
        self.dtype = torch.float32
        self._processor = processor
        self._finish_setup(model)
        return self

    def _finish_setup(self, model: Any) -> None:
        """Everything after loading: eval mode, int8 where asked, left padding, the chat template's
        parameters and the control tokens a user's text must not carry."""
        self._model = model.eval()
        self._parameters = self._parameter_count()  # counted before int8 turns weights into packed buffers
        if self.quantisation == "int8":
            self._model = int8_dynamic(self._model)
        tokenizer = getattr(self._processor, "tokenizer", None)
        if tokenizer is not None:
            # Decoder-only generation must pad on the left so every row's new tokens start at one index.
            tokenizer.padding_side = "left"
        self._template_params = set(inspect.signature(self._processor.apply_chat_template).parameters)
        # transformers encodes control tokens in a user's text as plain text where it can (see _inputs).
        self._sanitize = "sanitize_control_tokens" in self._template_params
        added = getattr(tokenizer, "added_tokens_decoder", {}).values() if tokenizer is not None else ()
        contents = sorted({t.content for t in added if t.content.strip()}, key=len, reverse=True)
        self._control_tokens = re.compile("|".join(map(re.escape, contents))) if contents else None
        self._prefix: ImagePrefixCache | None = None
        if str(getattr(self._model.config, "model_type", "")) in PREFIX_MODEL_TYPES and tokenizer is not None:
            ends = {tokenizer.convert_tokens_to_ids(t) for t in IMAGE_END_TOKENS} - {
                tokenizer.unk_token_id,
                None,
            }
            if ends:
                self._prefix = ImagePrefixCache(self._model, ends)
        self.reuse_image_prefix = self._prefix is not None  # `whichone perf --stack` measures both ways

    # ---------------------------------------------------------------- images

    def fit_image(self, image: Image.Image) -> Image.Image:
        """The RGB image the processor receives, scaled down to max_image_side (the input is untouched)."""
        rgb = image if image.mode == "RGB" else image.convert("RGB")
        size = fit_size(*rgb.size, self.max_image_side)
        return rgb.resize(size, Image.Resampling.BICUBIC) if size != rgb.size else rgb

    def grounding_family(self) -> GroundingFamilySpec | None:
        """The grounding convention of this checkpoint's architecture: the family whose record lists its
        config's model_type (models/families/); None for an architecture without one (SmolVLM)."""
        model_type = str(getattr(getattr(self._model, "config", None), "model_type", "") or "")
        return family_table().for_model_type(model_type)

    def model_input_size(self, image: Image.Image) -> tuple[int, int]:
        """(width, height) of the image as the model sees it, after our resize and the processor's.

        Qwen2-VL / Qwen2.5-VL give absolute coordinates in this frame: scale a box by
        original_size / model_input_size to get original-image pixels. For processors without a single
        resized frame (e.g. SmolVLM's tiles) this is the size the processor receives.
        """
        width, height = fit_size(*image.size, self.max_image_side)
        processor = getattr(self._processor, "image_processor", None)
        smart_resize = getattr(sys.modules.get(type(processor).__module__), "smart_resize", None)
        size = getattr(processor, "size", None)
        if (
            processor is None
            or smart_resize is None
            or size is None
            or not getattr(processor, "do_resize", True)
        ):
            return width, height
        factor = processor.patch_size * processor.merge_size
        try:
            resized_h, resized_w = smart_resize(
                height, width, factor, min_pixels=size["shortest_edge"], max_pixels=size["longest_edge"]
            )
        except ValueError as error:  # e.g. an aspect ratio beyond 200:1, which the processor refuses too
            raise ModelError(f"{self.name} cannot take this image: {first_line(error)}") from error
        return int(resized_w), int(resized_h)

    # ---------------------------------------------------------------- generation

    def _hf_messages(self, conversation: Conversation) -> list[TemplateMessage]:
        messages: list[TemplateMessage] = []
        for message in conversation:
            if not isinstance(message, ChatMessage):
                raise ModelError(f"a conversation must hold ChatMessage items, got {type(message).__name__}")
            content: list[TextPart | ImagePart] = [
                ImagePart(type="image", image=self.fit_image(img)) for img in message.images
            ]
            content.append(TextPart(type="text", text=message.text))
            messages.append({"role": message.role, "content": content})
        return messages

    def _apply_chat_template(self, batch: list[list[TemplateMessage]], **extra: bool) -> BatchFeature:
        kwargs: dict[str, object] = {
            "add_generation_prompt": True,
            "tokenize": True,
            "return_dict": True,
            "return_tensors": "pt",
            **extra,
        }
        # A fresh dict each call: apply_chat_template writes into processor_kwargs.
        if "processor_kwargs" in self._template_params:
            kwargs["processor_kwargs"] = {"padding": True}
        else:  # older transformers 5.x take processor arguments directly
            kwargs["padding"] = True
        inputs: BatchFeature = self._processor.apply_chat_template(batch, **kwargs)
        return inputs

    def _inputs(self, conversations: Sequence[Conversation]) -> BatchFeature:
        # A user's text must not be able to write <|im_end|> or <|image_pad|> into the prompt.
        batch = [self._hf_messages(conv) for conv in conversations]
        if self._sanitize:
            try:
                inputs = self._apply_chat_template(batch, sanitize_control_tokens=True)
            except ValueError:
                # Idefics3Processor (SmolVLM) finds each image's tokens with char_to_token, which the
                # sanitised encoding (built piece by piece, without offsets) lacks: it fails on every image.
                # Remove control tokens from the text ourselves instead, from now on. (An error of the input
                # itself, e.g. an image the processor refuses, recurs here and is raised.)
                inputs = self._apply_chat_template(self._without_control_tokens(batch))
                self._sanitize = False
        else:
            inputs = self._apply_chat_template(self._without_control_tokens(batch))
        # BatchFeature.to casts only floating tensors (pixel values), so token ids stay integers.
        return inputs.to(self._model.device, dtype=self.dtype)

    def _strip_control_tokens(self, text: str) -> str:
        """`text` without the tokenizer's added tokens (<image>, <end_of_utterance>, ...), nested ones too."""
        if self._control_tokens is None:
            return text
        while (cleaner := self._control_tokens.sub("", text)) != text:  # "<ima<image>ge>" leaves "<image>"
            text = cleaner
        return text

    def _without_control_tokens(self, batch: list[list[TemplateMessage]]) -> list[list[TemplateMessage]]:
        def clean(part: TextPart | ImagePart) -> TextPart | ImagePart:
            if part["type"] == "text":
                return TextPart(type="text", text=self._strip_control_tokens(part["text"]))
            return part

        return [
            [TemplateMessage(role=m["role"], content=[clean(p) for p in m["content"]]) for m in messages]
            for messages in batch
        ]

    def _decoding(self, settings: GenerationSettings) -> dict[str, bool | float | None]:
        if settings.temperature <= 0:
            # Explicit Nones override sampling knobs a checkpoint's generation_config may carry.
            return {"do_sample": False, "temperature": None, "top_p": None, "top_k": None}
        # top_k 0 turns top-k off so only our temperature and top_p shape the distribution.
        return {"do_sample": True, "temperature": settings.temperature, "top_p": settings.top_p, "top_k": 0}

    @on_compute_thread
    def generate_token_ids(
        self, conversations: Sequence[Conversation], settings: GenerationSettings | None = None
    ) -> list[list[int]]:
        """New token ids per conversation (prompt and padding removed, cut before the first stop token)."""
        import torch

        settings = settings or GenerationSettings()
        if not conversations:
            return []
        stop_ids = self._stop_ids()
        with self._lock, self._generation_errors():
            inputs = self._inputs(conversations)
            prefixed = self._with_prefix(inputs)
            if settings.seed is not None:
                torch.manual_seed(settings.seed)
            with torch.inference_mode():
                output = self._model.generate(
                    **prefixed, max_new_tokens=settings.max_new_tokens, **self._decoding(settings)
                )
        new_tokens = output[:, inputs["input_ids"].shape[1] :].tolist()
        result = []
        for row in new_tokens:
            cut = next((i for i, tok in enumerate(row) if tok in stop_ids), len(row))
            result.append(row[:cut])
        return result

    @on_compute_thread
    def next_token_probabilities(self, messages: Conversation) -> torch.Tensor:
        """The probability of every vocabulary token as the first token of the reply to `messages`: one
        forward pass over the prompt (float32 tensor of the vocabulary's size). This is the position
        generate() samples its first token from."""
        import torch

        with self._lock, self._generation_errors():
            inputs = self._inputs([messages])
            prefixed = self._with_prefix(inputs)
            if "cache" in prefixed:  # only the text after the cached image prefix is run
                length = prefixed["cache"].get_seq_length()
                prefixed = {**prefixed, "input_ids": prefixed["input_ids"][:, length:]}
            with torch.inference_mode():
                logits = self._model(**prefixed).logits[0, -1]
        return torch.softmax(logits.float(), dim=-1).cpu()

    @on_compute_thread
    def prepare_image(self, image: Image.Image) -> None:
        """Encode `image` as the opening of a prompt (models/prefix_cache.py), so the next calls about it
        skip the vision encoder; a no-op for models without a reusable prefix. Safe to call in a background
        thread (it takes the model's lock)."""
        if self._prefix is None or not self.reuse_image_prefix:
            return
        with self._lock, self._generation_errors():
            self._prefix.lookup(self._inputs([[ChatMessage("user", "", [image])]]))

    def _with_prefix(self, inputs: BatchFeature) -> dict[str, Any]:
        """The model's inputs with the cached image prefix (`cache`, no pixels) where one applies; else as
        they are. The caller holds the lock."""
        if self._prefix is None or not self.reuse_image_prefix:
            return dict(inputs)
        found = self._prefix.lookup(inputs)
        if found is None:
            return dict(inputs)
        _, cache = found
        return {"input_ids": inputs["input_ids"], "attention_mask": inputs["attention_mask"], "cache": cache}

    def answer_probabilities(self, messages: Conversation, answers: Sequence[str]) -> AnswerProbabilities:
        """P(each answer) from the first reply token's distribution: the mass on every token that starts
        the answer as it may be written ("Yes", " Yes", "yes", " yes"), renormalised over the answers."""
        probabilities = self.next_token_probabilities(messages)
        starts = {answer: self._first_tokens(answer) for answer in answers}
        shared = {
            t for a, ids in starts.items() for t in ids if any(t in o for b, o in starts.items() if b != a)
        }
        mass = {
            a: float(probabilities[sorted(ids - shared)].sum()) if ids - shared else 0.0
            for a, ids in starts.items()
        }
        return AnswerProbabilities.from_mass(mass, "logits")

    def _first_tokens(self, answer: str) -> set[int]:
        tokenizer = getattr(self._processor, "tokenizer", self._processor)
        variants = {answer, answer.lower(), answer.capitalize(), answer.upper()}
        ids = set()
        for variant in variants | {" " + v for v in variants}:
            encoded = tokenizer.encode(variant, add_special_tokens=False)
            if encoded:
                ids.add(int(encoded[0]))
        return ids

    @contextmanager
    def _generation_errors(self) -> Iterator[None]:
        """Turns what a generation raises into the ModelError kinds, with plain messages."""
        import torch

        try:
            yield
        except torch.cuda.OutOfMemoryError as error:
            raise self._oom() from error
        except ModelError:
            raise
        except (RuntimeError, ValueError, TypeError, IndexError, KeyError) as error:
            if is_out_of_memory(error):
                raise self._oom() from error
            raise ModelError(f"{self.name} failed to generate: {first_line(error)}") from error

    def _stop_ids(self) -> set[int]:
        config = self._model.generation_config
        ids: set[int] = set()
        for value in (config.eos_token_id, config.pad_token_id):
            if isinstance(value, int):
                ids.add(value)
            elif value is not None:
                ids.update(int(v) for v in value)
        return ids

    def _oom(self) -> ModelOutOfMemory:
        import torch

        if torch.cuda.is_available():
            torch.cuda.empty_cache()
        return ModelOutOfMemory(
            f"{self.name} ran out of memory for this request; try a smaller image, a shorter reply "
            "or fewer conversations at once"
        )

    def generate_batch(
        self, conversations: Sequence[Conversation], settings: GenerationSettings | None = None
    ) -> list[str]:
        """One reply per conversation, in order, generated as one left-padded batch."""
        ids = self.generate_token_ids(conversations, settings)
        return [self._processor.decode(row, skip_special_tokens=True).strip() for row in ids]

    def generate(self, messages: Conversation, settings: GenerationSettings | None = None) -> str:
        return self.generate_batch([messages], settings)[0]

    def generate_stream(
        self, messages: Conversation, settings: GenerationSettings | None = None
    ) -> Iterator[str]:
        """generate()'s reply in pieces as they are decoded; joined, they equal generate()'s text.

        The generation runs on the compute thread (models/compute.py; a GPU model's in a thread of its own),
        holding the model's lock as generate does, and stops at the first stop token, where generate() cuts
        its reply. Its errors are raised here, as the same ModelError kinds generate() raises. Closing the
        iterator early stops the generation at its next token and waits for it to end; one that has not
        started yet is dropped.
        """
        import torch
        from transformers import StoppingCriteriaList

        settings = settings or GenerationSettings()
        stop_ids = self._stop_ids()
        reply_streamer, stop_when_set = streaming_classes()
        streamer = reply_streamer(self._processor, stop_ids)
        stop = threading.Event()
        # Stop at the first stop token (a pad token too), where generate_token_ids cuts the reply.
        stops = {"eos_token_id": sorted(stop_ids)} if stop_ids else {}
        failure: list[BaseException] = []

        def generate() -> None:
            if stop.is_set():  # the reader stopped before the generation started: nothing to make
                streamer.text_queue.put(streamer.stop_signal)
                return
            try:
                with self._lock, self._generation_errors():
                    inputs = self._with_prefix(self._inputs([messages]))
                    if settings.seed is not None:
                        torch.manual_seed(settings.seed)
                    with torch.inference_mode():
                        self._model.generate(
                            **inputs,
                            max_new_tokens=settings.max_new_tokens,
                            **self._decoding(settings),
                            **stops,
                            streamer=streamer,
                            stopping_criteria=StoppingCriteriaList([stop_when_set(stop)]),
                        )
            except BaseException as error:  # noqa: BLE001 - raised again in the consumer's thread
                failure.append(error)
                streamer.text_queue.put(streamer.stop_signal)  # wake the iterator: no more text comes

        finish = start_generation(self, generate, f"whichone-stream-{self.name}")
        try:
            yield from strip_pieces(streamer)
        finally:
            stop.set()  # a no-op when the generation has ended; else it stops at the next token
            finish()  # dropped if still queued, else waited for
        if failure:
            raise failure[0]

    # ---------------------------------------------------------------- description

    def describe(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "backend": "transformers",
            "model_id": self.model_id,
            "device": str(self.device),
            "dtype": str(self.dtype).removeprefix("torch."),
            "quantisation": self.quantisation,
            "parameters": self._parameters,
            **({"processor_options": self.processor_options} if self.processor_options else {}),
        }

    def _parameter_count(self) -> int:
        total = 0
        for param in self._model.parameters():
            # bitsandbytes packs two 4-bit weights per byte; its quant_state keeps the logical shape.
            shape = getattr(getattr(param, "quant_state", None), "shape", None)
            if shape is not None:
                count = 1
                for dim in shape:
                    count *= int(dim)
                total += count
            else:
                total += param.numel()
        return total
