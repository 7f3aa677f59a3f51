"""The local model servers people already run on a laptop, Ollama and llama.cpp's `llama-server`: both
speak the OpenAI-compatible chat-completions API, so whichone reaches them through the `openai` adapter
(models/openai_vlm.py) with their own default address, the model to ask for, and what to tell a user when
the server is not running, the model is not there, or the model cannot see images.

A suitable model is a small vision model in 4 bits: Qwen2.5-VL 3B (`qwen2.5vl:3b` in Ollama's library;
`ggml-org/Qwen2.5-VL-3B-Instruct-GGUF`, Q4_K_M with its vision projector, for llama-server's `-hf`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

LocalServerName = Literal["ollama", "llamacpp"]


@dataclass(frozen=True)
class LocalServer:
    name: LocalServerName  # the VLM's registry name and the stack's
    label: str  # what the user calls it
    base_url: str  # its OpenAI-compatible API, as it listens by default
    model: str | None  # the model to ask for (None: the one it serves, from /v1/models)
    setup: str  # the commands that start it with a suitable vision model
    vision_help: str  # what to do when the served model cannot see images

    def not_running(self, base_url: str) -> str:
        return f"{self.label} is not running at {base_url}: start it ({self.setup})"


SERVERS: dict[LocalServerName, LocalServer] = {
    "ollama": LocalServer(
        name="ollama",
        label="Ollama",
        base_url="http://localhost:11434/v1",
        model="qwen2.5vl:3b",
        setup="`ollama pull qwen2.5vl:3b`, then the Ollama app or `ollama serve`",
        vision_help="pull a vision model (`ollama pull qwen2.5vl:3b`) and set WHICHONE_OLLAMA_MODEL to it",
    ),
    "llamacpp": LocalServer(
        name="llamacpp",
        label="llama.cpp's llama-server",
        base_url="http://localhost:8080/v1",
        model=None,
        setup="`llama-server -hf ggml-org/Qwen2.5-VL-3B-Instruct-GGUF`, which fetches the model and its "
        "vision projector",
        vision_help="start llama-server with a vision model and its projector: `llama-server -hf "
        "ggml-org/Qwen2.5-VL-3B-Instruct-GGUF`, or `-m MODEL.gguf --mmproj MMPROJ.gguf`",
    ),
}

# What these servers answer when the model has no vision part or is not there (their error bodies'
# messages, lower case): llama-server without --mmproj; Ollama for a model that is not pulled.
NO_VISION_MARKS = (
    "image input is not supported",  # llama-server without a vision projector
    "mmproj",
    "does not support image",
    "not a multimodal model",  # vLLM
)
NOT_PULLED_MARKS = ("try pulling it first",)
