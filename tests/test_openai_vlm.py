"""The OpenAI-compatible adapter against a real HTTP server on 127.0.0.1 speaking chat completions."""

from __future__ import annotations

import base64
import io
import json
import socket
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler
from typing import Any

import numpy as np
import pytest
from PIL import Image

from models.base import ChatMessage, GenerationSettings, VisionLanguageModel
from models.errors import ModelError, ModelTimeout, ModelUnavailable
from models.openai_vlm import OpenAICompatibleVLM
from models.registry import create_vlm
from tests.chat_server import JSONHandler, serve


@dataclass
class ChatServer:
    """What the server does (`mode`) and what it saw (`requests`)."""

    url: str
    mode: str = "echo"  # echo | sleep | status | empty | no_text
    # How a streamed reply (stream=True) goes, after what `mode` does first (echo, sleep, status):
    # ok | error_event (an SSE error after two pieces) | cut (the connection drops after two pieces) |
    # stall (the server stops after one piece) | drop_first (the first stream drops before any piece) |
    # no_finish (ends without a finish reason)
    stream_mode: str = "ok"
    sleep_s: float = 0.0
    status: int = 500
    error_body: Any = field(
        default_factory=lambda: {"error": {"message": "the server broke", "type": "server_error"}}
    )
    requests: list[dict[str, Any]] = field(default_factory=list)
    in_flight: int = 0
    max_in_flight: int = 0
    lock: threading.Lock = field(default_factory=threading.Lock)


def _last_user_text(body: dict[str, Any]) -> str:
    content = [m for m in body["messages"] if m["role"] == "user"][-1]["content"]
    if isinstance(content, str):
        return content
    return " ".join(part["text"] for part in content if part["type"] == "text")


def _completion(body: dict[str, Any], text: str | None) -> dict[str, Any]:
    return {
        "id": "chatcmpl-test",
        "object": "chat.completion",
        "created": int(time.time()),
        "model": body.get("model", "?"),
        "choices": [{"index": 0, "message": {"role": "assistant", "content": text}, "finish_reason": "stop"}],
        "usage": {"prompt_tokens": 1, "completion_tokens": 1, "total_tokens": 2},
    }


def _chunk(body: dict[str, Any], delta: dict[str, Any], finish: str | None = None) -> dict[str, Any]:
    return {
        "id": "chatcmpl-test",
        "object": "chat.completion.chunk",
        "created": int(time.time()),
        "model": body.get("model", "?"),
        "choices": [{"index": 0, "delta": delta, "finish_reason": finish}],
    }


def _handler(state: ChatServer) -> type[BaseHTTPRequestHandler]:
    class Handler(JSONHandler):
        def _event(self, payload: dict[str, Any] | str) -> None:
            data = payload if isinstance(payload, str) else json.dumps(payload)
            frame = f"data: {data}\n\n".encode()
            self.wfile.write(f"{len(frame):X}\r\n".encode() + frame + b"\r\n")
            self.wfile.flush()

        def _stream(self, body: dict[str, Any], text: str) -> None:
            """The reply as server-sent events, a few characters per chunk, as vLLM streams."""
            with state.lock:
                first = sum(1 for r in state.requests if r["body"].get("stream")) == 1
            # HTTP/1.1, chunked: a connection that drops before the closing chunk is an error to the client
            # (an HTTP/1.0 body without a length just ends there). One response per connection, as before.
            self.protocol_version = "HTTP/1.1"
            self.close_connection = True
            self.send_response(200)
            self.send_header("Content-Type", "text/event-stream")
            self.send_header("Transfer-Encoding", "chunked")
            self.send_header("Connection", "close")
            self.end_headers()
            mode = state.stream_mode
            if mode == "drop_first" and first:
                return  # headers, then the connection closes without a piece (nor the closing chunk)
            reply = f"  reply to: {text}  "
            pieces = [reply[i : i + 4] for i in range(0, len(reply), 4)]
            self._event(_chunk(body, {"role": "assistant", "content": ""}))
            for n, piece in enumerate(pieces):
                if n == 2 and mode == "error_event":
                    self._event({"error": {"message": "the model crashed", "type": "server_error"}})
                    break
                if n == 2 and mode == "cut":
                    return  # no closing chunk: the client sees the body end early
                if n == 1 and mode == "stall":
                    time.sleep(state.sleep_s)
                    return
                self._event(_chunk(body, {"content": piece}))
            if mode != "no_finish":
                self._event(_chunk(body, {}, "stop"))
            self._event({**_chunk(body, {}), "choices": [], "usage": {"completion_tokens": len(pieces)}})
            self._event("[DONE]")
            self.wfile.write(b"0\r\n\r\n")

        def do_GET(self) -> None:
            if self.path.endswith("/models"):
                self._send(200, {"object": "list", "data": [{"id": "served-model", "object": "model"}]})
            else:
                self._send(404, {"error": {"message": "no such route"}})

        def do_POST(self) -> None:
            body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
            with state.lock:
                state.requests.append(
                    {
                        "path": self.path,
                        "headers": {k.lower(): v for k, v in self.headers.items()},
                        "body": body,
                    }
                )
                state.in_flight += 1
                state.max_in_flight = max(state.max_in_flight, state.in_flight)
            finished = False

            def finish() -> None:
                nonlocal finished
                if not finished:
                    finished = True
                    with state.lock:
                        state.in_flight -= 1

            try:
                text = _last_user_text(body)
                if state.mode == "sleep":
                    time.sleep(state.sleep_s)
                elif state.mode == "echo" and text.startswith("delay "):
                    time.sleep(float(text.split()[1]))  # lets later requests finish first
                if state.mode == "status":
                    self._send(state.status, state.error_body)
                elif state.mode == "empty":
                    self._send(200, {**_completion(body, "x"), "choices": []})
                elif state.mode == "no_text":
                    self._send(200, _completion(body, None))
                elif body.get("stream"):
                    self._stream(body, text)
                else:
                    reply = _completion(body, f"  reply to: {text}  ")
                    # Done before the reply leaves: the client may send its next request the moment it has
                    # it, before this handler could count itself out (max_in_flight once read 3 for 2).
                    finish()
                    self._send(200, reply)
            finally:
                finish()

    return Handler


@pytest.fixture
def chat_server() -> Iterator[ChatServer]:
    state = ChatServer(url="")
    with serve(_handler(state)) as url:
        state.url = url
        yield state


def _image(width: int = 40, height: int = 30) -> Image.Image:
    rng = np.random.default_rng(0)
    return Image.fromarray(rng.integers(0, 256, (height, width, 3), dtype=np.uint8))


def _vlm(server: ChatServer, **kwargs: Any) -> OpenAICompatibleVLM:
    kwargs.setdefault("model", "test-model")
    kwargs.setdefault("api_key", "sk-test")
    kwargs.setdefault("timeout", 5)
    kwargs.setdefault("max_retries", 0)
    return OpenAICompatibleVLM(base_url=server.url, **kwargs)


def test_reply_and_request_carry_image_and_settings(chat_server: ChatServer) -> None:
    vlm = _vlm(chat_server)
    assert isinstance(vlm, VisionLanguageModel)
    image = _image()
    settings = GenerationSettings(max_new_tokens=33, temperature=0.7, top_p=0.9, seed=5)
    messages = [ChatMessage("system", "Be brief."), ChatMessage("user", "What colour is the cup?", [image])]

    assert vlm.generate(messages, settings) == "reply to: What colour is the cup?"

    (request,) = chat_server.requests
    body = request["body"]
    assert request["path"] == "/v1/chat/completions"
    assert request["headers"]["authorization"] == "Bearer sk-test"
    assert body["model"] == "test-model"
    assert (body["max_tokens"], body["temperature"], body["top_p"], body["seed"]) == (33, 0.7, 0.9, 5)
    assert body["messages"][0] == {"role": "system", "content": "Be brief."}
    image_part, text_part = body["messages"][1]["content"]
    assert text_part == {"type": "text", "text": "What colour is the cup?"}
    url = image_part["image_url"]["url"]
    assert image_part["type"] == "image_url" and url.startswith("data:image/png;base64,")
    sent = Image.open(io.BytesIO(base64.b64decode(url.split(",", 1)[1])))
    assert np.array_equal(np.asarray(sent.convert("RGB")), np.asarray(image))  # PNG: lossless


def test_no_seed_is_not_sent_and_large_images_are_fitted(chat_server: ChatServer) -> None:
    vlm = _vlm(chat_server, max_image_side=50, image_format="JPEG")
    big = _image(200, 100)
    assert vlm.model_input_size(big) == (50, 25)
    vlm.generate([ChatMessage("user", "hi", [big])], GenerationSettings(seed=None))
    body = chat_server.requests[0]["body"]
    assert "seed" not in body
    url = body["messages"][0]["content"][0]["image_url"]["url"]
    assert url.startswith("data:image/jpeg;base64,")
    assert Image.open(io.BytesIO(base64.b64decode(url.split(",", 1)[1]))).size == (50, 25)


def test_batch_preserves_order_with_bounded_concurrency(chat_server: ChatServer) -> None:
    vlm = _vlm(chat_server, max_concurrency=2)
    # Earlier conversations take longer, so answers arrive out of order.
    texts = [f"delay {0.05 * (6 - i):.2f} item {i}" for i in range(6)]
    replies = vlm.generate_batch([[ChatMessage("user", t)] for t in texts])
    assert replies == [f"reply to: {t}" for t in texts]
    assert len(chat_server.requests) == 6
    assert chat_server.max_in_flight == 2  # never more than max_concurrency (and it did run two at once)
    assert vlm.generate_batch([]) == []


def test_model_is_discovered_from_the_server(
    chat_server: ChatServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("WHICHONE_OPENAI_MODEL", raising=False)
    vlm = OpenAICompatibleVLM(base_url=chat_server.url, api_key="k", max_retries=0)
    vlm.generate([ChatMessage("user", "hi")])
    assert chat_server.requests[0]["body"]["model"] == "served-model"
    assert vlm.describe()["model_id"] == "served-model"


def test_configuration_from_environment(chat_server: ChatServer, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("WHICHONE_OPENAI_BASE_URL", chat_server.url)
    monkeypatch.setenv("WHICHONE_OPENAI_MODEL", "env-model")
    monkeypatch.delenv("WHICHONE_OPENAI_API_KEY", raising=False)
    monkeypatch.setenv("OPENAI_API_KEY", "sk-fallback")
    # The environment reaches the adapter through the registry (assistant.settings -> models.catalog).
    vlm = create_vlm("openai", max_retries=0)
    vlm.generate([ChatMessage("user", "hi")])
    monkeypatch.setenv("WHICHONE_OPENAI_API_KEY", "sk-whichone")
    create_vlm("openai", max_retries=0).generate([ChatMessage("user", "hi")])
    monkeypatch.delenv("WHICHONE_OPENAI_API_KEY")
    monkeypatch.delenv("OPENAI_API_KEY")
    create_vlm("openai", max_retries=0).generate([ChatMessage("user", "hi")])

    keys = [r["headers"]["authorization"] for r in chat_server.requests]
    assert keys == ["Bearer sk-fallback", "Bearer sk-whichone", "Bearer EMPTY"]
    assert {r["body"]["model"] for r in chat_server.requests} == {"env-model"}
    info = vlm.describe()
    assert (info["backend"], info["base_url"], info["model_id"]) == ("openai", chat_server.url, "env-model")
    assert "sk-" not in json.dumps(info)  # the key is never described


def test_timeout_is_bounded_and_retried(chat_server: ChatServer) -> None:
    chat_server.mode, chat_server.sleep_s = "sleep", 3.0
    vlm = _vlm(chat_server, timeout=0.4, max_retries=1)
    start = time.monotonic()
    with pytest.raises(ModelTimeout, match="did not answer within 0.4 s"):
        vlm.generate([ChatMessage("user", "hi")])
    assert time.monotonic() - start < 2.8  # two attempts of 0.4 s plus the client's back-off
    assert len(chat_server.requests) == 2  # the first attempt and one retry


def test_server_error_is_a_model_error(chat_server: ChatServer) -> None:
    chat_server.mode, chat_server.status = "status", 500
    with pytest.raises(ModelError, match="HTTP 500: the server broke") as caught:
        _vlm(chat_server, max_retries=0).generate([ChatMessage("user", "hi")])
    assert not isinstance(caught.value, (ModelUnavailable, ModelTimeout))
    assert len(chat_server.requests) == 1


def test_client_error_is_not_retried(chat_server: ChatServer) -> None:
    chat_server.mode, chat_server.status = "status", 400
    with pytest.raises(ModelError, match="HTTP 400"):
        _vlm(chat_server, max_retries=2).generate([ChatMessage("user", "hi")])
    assert len(chat_server.requests) == 1  # a 400 will not get better by asking again


@pytest.mark.parametrize(
    ("body", "reason"),
    [
        ({"detail": "The prompt has 9008 tokens, but the model takes at most 8192"}, "takes at most 8192"),
        ({"detail": [{"loc": ["body", "messages"], "msg": "Field required"}]}, "Field required"),
        ({"error": "model not loaded"}, "model not loaded"),
        ({"object": "error", "message": "max_tokens is too large", "code": 400}, "max_tokens is too large"),
        ({"something": "else"}, "Error code: 400"),  # no reason given: the client's own words
    ],
)
def test_a_refusal_names_the_servers_reason(chat_server: ChatServer, body: Any, reason: str) -> None:
    """Servers word a refusal differently (OpenAI, FastAPI's detail as text or a list, vLLM's flat
    message): the error names the reason whichever shape it comes in."""
    chat_server.mode, chat_server.status, chat_server.error_body = "status", 400, body
    with pytest.raises(ModelError, match=f"HTTP 400: .*{reason}"):
        _vlm(chat_server, max_retries=0).generate([ChatMessage("user", "hi")])


def test_empty_choices_and_missing_text_are_model_errors(chat_server: ChatServer) -> None:
    chat_server.mode = "empty"
    with pytest.raises(ModelError, match="no choices"):
        _vlm(chat_server).generate([ChatMessage("user", "hi")])
    chat_server.mode = "no_text"
    with pytest.raises(ModelError, match="without text"):
        _vlm(chat_server).generate([ChatMessage("user", "hi")])


def test_batch_raises_the_first_failure(chat_server: ChatServer) -> None:
    chat_server.mode, chat_server.status = "status", 503
    with pytest.raises(ModelError, match="HTTP 503"):
        _vlm(chat_server).generate_batch([[ChatMessage("user", "a")], [ChatMessage("user", "b")]])


def test_closed_port_is_unavailable() -> None:
    with socket.socket() as sock:  # a port that was free a moment ago, now closed: connection refused
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    url = f"http://127.0.0.1:{port}/v1"
    vlm = OpenAICompatibleVLM("m", base_url=url, api_key="k", timeout=2, max_retries=0)
    start = time.monotonic()
    with pytest.raises(ModelUnavailable, match=f"the model server at {url} is not reachable"):
        vlm.generate([ChatMessage("user", "hi")])
    assert time.monotonic() - start < 2


def test_bad_configuration_is_unavailable() -> None:
    with pytest.raises(ModelUnavailable, match="image format"):
        OpenAICompatibleVLM("m", base_url="http://127.0.0.1:9/v1", image_format="BMPX")
    with pytest.raises(ModelUnavailable, match="max_concurrency"):
        OpenAICompatibleVLM("m", base_url="http://127.0.0.1:9/v1", max_concurrency=0)


# ---------------------------------------------------------------- streaming (stream=True, server-sent events)


def test_stream_gives_the_reply_in_pieces_with_the_same_request(chat_server: ChatServer) -> None:
    vlm = _vlm(chat_server)
    settings = GenerationSettings(max_new_tokens=33, temperature=0.7, top_p=0.9, seed=5)
    messages = [
        ChatMessage("system", "Be brief."),
        ChatMessage("user", "What colour is the cup?", [_image()]),
    ]
    pieces = list(vlm.generate_stream(messages, settings))
    assert len(pieces) > 5 and all(pieces)
    assert "".join(pieces) == vlm.generate(messages, settings) == "reply to: What colour is the cup?"
    streamed, whole = (r["body"] for r in chat_server.requests)
    assert streamed.pop("stream") is True and "stream" not in whole
    assert streamed == whole  # the same model, messages (image included) and decoding settings


def test_stream_arrives_piece_by_piece(chat_server: ChatServer) -> None:
    # The server stalls after its first piece: that piece must be out before the stall ends.
    chat_server.stream_mode, chat_server.sleep_s = "stall", 1.0
    stream = _vlm(chat_server, timeout=3).generate_stream([ChatMessage("user", "hi")])
    start = time.monotonic()
    assert next(stream) == "re"  # "  reply to: hi  " in 4-character chunks, leading blanks dropped
    assert time.monotonic() - start < 0.8
    with pytest.raises(ModelError, match="broke off its reply"):
        list(stream)  # after the stall the server closes without finishing: a broken reply


def test_error_event_in_the_middle_of_a_stream_is_a_model_error(chat_server: ChatServer) -> None:
    chat_server.stream_mode = "error_event"
    got: list[str] = []
    with pytest.raises(ModelError, match="broke off its reply: the model crashed") as caught:
        for piece in _vlm(chat_server, max_retries=2).generate_stream([ChatMessage("user", "hi")]):
            got.append(piece)
    assert "".join(got) == "reply"  # what came before the error ("  reply" less its leading blanks)
    assert not isinstance(caught.value, (ModelUnavailable, ModelTimeout))
    assert len(chat_server.requests) == 1  # text had come: not retried


def test_connection_dropped_in_the_middle_of_a_stream_is_a_model_error(chat_server: ChatServer) -> None:
    chat_server.stream_mode = "cut"
    got: list[str] = []
    with pytest.raises(ModelError, match="broke off its reply") as caught:
        for piece in _vlm(chat_server, max_retries=2).generate_stream([ChatMessage("user", "hi")]):
            got.append(piece)
    assert "".join(got) == "reply"
    assert not isinstance(caught.value, ModelUnavailable)  # the server was reachable
    assert len(chat_server.requests) == 1


def test_server_stalling_in_the_middle_of_a_stream_times_out(chat_server: ChatServer) -> None:
    chat_server.stream_mode, chat_server.sleep_s = "stall", 2.0
    start = time.monotonic()
    with pytest.raises(ModelTimeout, match="stopped sending its reply for 0.5 s"):
        list(_vlm(chat_server, timeout=0.5, max_retries=2).generate_stream([ChatMessage("user", "hi")]))
    assert time.monotonic() - start < 1.5 and len(chat_server.requests) == 1


def test_stream_dropped_before_its_first_piece_is_retried(chat_server: ChatServer) -> None:
    chat_server.stream_mode = "drop_first"
    pieces = list(_vlm(chat_server, max_retries=1).generate_stream([ChatMessage("user", "hi")]))
    assert "".join(pieces) == "reply to: hi"
    assert len(chat_server.requests) == 2  # the dropped stream and its retry
    chat_server.requests.clear()
    with pytest.raises(ModelUnavailable, match="is not reachable"):
        list(_vlm(chat_server, max_retries=0).generate_stream([ChatMessage("user", "hi")]))


def test_stream_timeout_and_server_errors_retry_like_generate(chat_server: ChatServer) -> None:
    chat_server.mode, chat_server.sleep_s = "sleep", 3.0
    start = time.monotonic()
    with pytest.raises(ModelTimeout, match="did not answer within 0.4 s"):
        list(_vlm(chat_server, timeout=0.4, max_retries=1).generate_stream([ChatMessage("user", "hi")]))
    assert time.monotonic() - start < 2.8
    assert len(chat_server.requests) == 2  # the first attempt and one retry

    chat_server.requests.clear()
    chat_server.mode, chat_server.status = "status", 503
    with pytest.raises(ModelError, match="HTTP 503: the server broke"):
        list(_vlm(chat_server, max_retries=1).generate_stream([ChatMessage("user", "hi")]))
    assert len(chat_server.requests) == 2
    chat_server.requests.clear()
    chat_server.status = 400
    with pytest.raises(ModelError, match="HTTP 400"):
        list(_vlm(chat_server, max_retries=2).generate_stream([ChatMessage("user", "hi")]))
    assert len(chat_server.requests) == 1  # a 400 will not get better by asking again


def test_stream_without_a_finish_reason_was_cut_off(chat_server: ChatServer) -> None:
    chat_server.stream_mode = "no_finish"
    with pytest.raises(ModelError, match="was cut off"):
        list(_vlm(chat_server).generate_stream([ChatMessage("user", "hi")]))


def test_stream_from_a_closed_port_is_unavailable() -> None:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    vlm = OpenAICompatibleVLM(
        "m", base_url=f"http://127.0.0.1:{port}/v1", api_key="k", timeout=2, max_retries=0
    )
    with pytest.raises(ModelUnavailable, match="is not reachable"):
        list(vlm.generate_stream([ChatMessage("user", "hi")]))
