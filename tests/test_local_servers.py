"""The ollama and llamacpp stacks' VLM against a local HTTP server that answers as Ollama and llama.cpp's
llama-server answer (tests/chat_server.py): the request they take (base URL with /v1, the model named or
found in /v1/models, the image as a data URL in an image_url part), their replies, and their error bodies:
a server that is not running, a model Ollama has not pulled, a llama-server started without a vision
projector. Each failure is one line saying what to do. `tests/test_transformers_serve.py` runs the same
stacks against `transformers serve`."""

from __future__ import annotations

import base64
import io
import json
import socket
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

import pytest
from PIL import Image

from models.base import ChatMessage, GenerationSettings
from models.errors import ModelUnavailable
from models.registry import create_vlm
from tests.chat_server import JSONHandler, serve

# Their error bodies, as the servers send them.
OLLAMA_NOT_PULLED = {
    "error": {
        "message": 'model "qwen2.5vl:3b" not found, try pulling it first',
        "type": "api_error",
        "param": None,
        "code": None,
    }
}
LLAMA_NO_MMPROJ = {
    "error": {
        "code": 500,
        "message": (
            "image input is not supported - hint: if this is unexpected, you may need to provide the mmproj"
        ),
        "type": "server_error",
    }
}


@dataclass
class Server:
    """What the local server lists, how it answers, and the requests it got."""

    models: list[str] = field(default_factory=lambda: ["ggml-org/Qwen2.5-VL-3B-Instruct-GGUF"])
    error: tuple[int, dict[str, Any]] | None = None
    requests: list[dict[str, Any]] = field(default_factory=list)
    headers: list[dict[str, str]] = field(default_factory=list)


@pytest.fixture
def local_server() -> Iterator[tuple[Server, str]]:
    state = Server()

    class Handler(JSONHandler):
        def do_GET(self) -> None:  # noqa: N802 - http.server's name
            if self.path != "/v1/models":
                self._send(404, {"error": {"message": f"no route {self.path}", "type": "not_found_error"}})
                return
            data = [{"id": m, "object": "model", "created": 0, "owned_by": "library"} for m in state.models]
            self._send(200, {"object": "list", "data": data})

        def do_POST(self) -> None:  # noqa: N802
            body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
            state.requests.append(body)
            state.headers.append({k.lower(): v for k, v in self.headers.items()})
            if self.path != "/v1/chat/completions":
                self._send(404, {"error": {"message": f"no route {self.path}", "type": "not_found_error"}})
                return
            if state.error is not None:
                self._send(*state.error)
                return
            reply = {"role": "assistant", "content": "A red square."}
            self._send(200, {
                "id": "chatcmpl-1", "object": "chat.completion", "created": 0, "model": body["model"],
                "choices": [{"index": 0, "message": reply, "finish_reason": "stop"}],
                "usage": {"prompt_tokens": 20, "completion_tokens": 4, "total_tokens": 24},
            })  # fmt: skip

    with serve(Handler) as url:
        yield state, url


def _ask(vlm: Any) -> str:
    photo = Image.new("RGB", (64, 48), (200, 30, 30))
    message = ChatMessage(role="user", text="What colour is the square?", images=(photo,))
    return str(vlm.generate([message], GenerationSettings(max_new_tokens=8, temperature=0.0)))


def test_ollama_request_and_reply_shapes(local_server, monkeypatch: pytest.MonkeyPatch) -> None:
    state, url = local_server
    monkeypatch.setenv("WHICHONE_OLLAMA_BASE_URL", url)
    vlm = create_vlm("ollama")
    assert _ask(vlm) == "A red square."
    request = state.requests[-1]
    assert url.endswith("/v1") and request["model"] == "qwen2.5vl:3b"  # Ollama is told which model
    parts = request["messages"][0]["content"]
    assert parts[0]["type"] == "image_url" and parts[-1] == {
        "type": "text",
        "text": "What colour is the square?",
    }
    data_url = parts[0]["image_url"]["url"]
    assert data_url.startswith("data:image/png;base64,")
    assert Image.open(io.BytesIO(base64.b64decode(data_url.split(",", 1)[1]))).size == (64, 48)
    assert request["max_tokens"] == 8 and request["temperature"] == 0.0
    assert state.headers[-1]["authorization"] == "Bearer ollama"  # required by the client, ignored by Ollama
    assert vlm.describe()["backend"] == "ollama" and vlm.name == "ollama:qwen2.5vl:3b"


def test_llamacpp_asks_for_the_model_it_serves(local_server, monkeypatch: pytest.MonkeyPatch) -> None:
    state, url = local_server
    monkeypatch.setenv("WHICHONE_LLAMACPP_BASE_URL", url)
    vlm = create_vlm("llamacpp")
    assert _ask(vlm) == "A red square."
    assert state.requests[-1]["model"] == "ggml-org/Qwen2.5-VL-3B-Instruct-GGUF"  # from /v1/models
    assert vlm.describe()["backend"] == "llamacpp"


def test_the_default_addresses_are_the_servers_own(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("WHICHONE_OLLAMA_BASE_URL", raising=False)
    monkeypatch.delenv("WHICHONE_LLAMACPP_BASE_URL", raising=False)
    assert create_vlm("ollama").describe()["base_url"] == "http://localhost:11434/v1"
    assert create_vlm("llamacpp").describe()["base_url"] == "http://localhost:8080/v1"


@pytest.mark.parametrize(
    ("stack", "said"),
    [
        ("ollama", "Ollama is not running at {url}: start it (`ollama pull qwen2.5vl:3b`, then the Ollama "
         "app or `ollama serve`)"),
        ("llamacpp", "llama.cpp's llama-server is not running at {url}: start it (`llama-server -hf "
         "ggml-org/Qwen2.5-VL-3B-Instruct-GGUF`, which fetches the model and its vision projector)"),
    ],
)  # fmt: skip
def test_a_server_that_is_not_running_is_one_line_saying_how_to_start_it(
    stack: str, said: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    with socket.socket() as sock:  # a closed local port: nothing listens there
        sock.bind(("127.0.0.1", 0))
        url = f"http://127.0.0.1:{sock.getsockname()[1]}/v1"
    monkeypatch.setenv(f"WHICHONE_{stack.upper()}_BASE_URL", url)
    monkeypatch.setenv("WHICHONE_OPENAI_MAX_RETRIES", "0")
    with pytest.raises(ModelUnavailable) as caught:
        _ask(create_vlm(stack))
    assert str(caught.value).startswith(said.format(url=url)) and "\n" not in str(caught.value)


def test_a_model_ollama_has_not_pulled(local_server, monkeypatch: pytest.MonkeyPatch) -> None:
    state, url = local_server
    state.error = (404, OLLAMA_NOT_PULLED)
    monkeypatch.setenv("WHICHONE_OLLAMA_BASE_URL", url)
    with pytest.raises(ModelUnavailable) as caught:
        _ask(create_vlm("ollama"))
    assert str(caught.value) == (
        f"Ollama at {url} does not have qwen2.5vl:3b: `ollama pull qwen2.5vl:3b`, then the Ollama app or "
        "`ollama serve`"
    )


def test_a_model_that_cannot_see_images(local_server, monkeypatch: pytest.MonkeyPatch) -> None:
    state, url = local_server
    state.error = (500, LLAMA_NO_MMPROJ)
    monkeypatch.setenv("WHICHONE_LLAMACPP_BASE_URL", url)
    monkeypatch.setenv("WHICHONE_OPENAI_MAX_RETRIES", "0")  # a 500 is retried otherwise
    with pytest.raises(ModelUnavailable) as caught:
        _ask(create_vlm("llamacpp"))
    assert str(caught.value).startswith(
        f"ggml-org/Qwen2.5-VL-3B-Instruct-GGUF at {url} cannot see images (image input is not supported"
    )
    assert str(caught.value).endswith(
        "start llama-server with a vision model and its projector: `llama-server -hf "
        "ggml-org/Qwen2.5-VL-3B-Instruct-GGUF`, or `-m MODEL.gguf --mmproj MMPROJ.gguf`"
    )


def test_whichone_stacks_lists_them_with_the_commands_that_start_them() -> None:
    from typer.testing import CliRunner

    from ui.cli import app

    out = CliRunner().invoke(app, ["stacks"]).stdout
    assert "\nollama: a vision model you run with Ollama" in out and "`ollama pull qwen2.5vl:3b`" in out
    assert "\nllamacpp: a vision model you run with llama.cpp's llama-server" in out
    assert "`llama-server -hf ggml-org/Qwen2.5-VL-3B-Instruct-GGUF`" in out
    assert "  vlm       ollama  [Ollama, on this machine]" in out
    assert "  vlm       llamacpp  [llama-server, on this machine]" in out
    assert out.count("  pointer   owlvit-b32  [google/owlvit-base-patch32]") == 3  # cpu, ollama, llamacpp
