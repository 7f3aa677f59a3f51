"""Throughput of a benchmark run over an OpenAI-compatible server: one request at a time against N in
flight (the runner's `generate_in_flight`, what `whichone bench run --concurrency N` does), on the same
server.

Two servers, both local:
- `transformers serve` (transformers' own OpenAI-compatible server, not ours) serving SmolVLM-256M's
  architecture with random weights (models/full_size.py: the real model's compute), on this machine's CPU;
- a fixed-latency server (each reply takes --latency-s, any number at once): what a batching server (vLLM)
  looks like from the client, so the client's own bound shows.

Run: .venv/bin/python scripts/server_throughput.py [--requests 16] [--in-flight 4] [--tokens 16]
Prints requests per second for each and the speed-up.
"""

from __future__ import annotations

import argparse
import json
import socket
import subprocess
import sys
import threading
import time
import urllib.request
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from assistant.evaluation.runner import generate_in_flight  # noqa: E402
from models.base import ChatMessage, GenerationSettings  # noqa: E402
from models.openai_vlm import OpenAICompatibleVLM  # noqa: E402
from models.tiny import default_cache_dir  # noqa: E402
from ui.example_photos import example_photos  # noqa: E402


def full_size_folder() -> Path:
    """SmolVLM-256M's architecture with random weights, saved once for transformers serve to load."""
    folder = default_cache_dir() / "full-size" / "smolvlm-256m-random"
    if not (folder / "config.json").is_file():
        from models.full_size import random_smolvlm_256m

        model, processor = random_smolvlm_256m()
        model.save_pretrained(folder)
        processor.save_pretrained(folder)
    return folder


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def wait_up(url: str, proc: subprocess.Popen | None, timeout_s: float = 300) -> None:
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        if proc is not None and proc.poll() is not None:
            raise SystemExit(f"the server exited with status {proc.returncode}")
        try:
            with urllib.request.urlopen(url + "/v1/models", timeout=5) as response:
                if response.status == 200:
                    return
        except OSError:
            time.sleep(1)
    raise SystemExit(f"no server at {url} after {timeout_s} s")


def latency_server(latency_s: float) -> str:
    class Handler(BaseHTTPRequestHandler):
        def log_message(self, *args: object) -> None:
            pass

        def _json(self, payload: dict) -> None:
            data = json.dumps(payload).encode()
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        def do_GET(self) -> None:  # noqa: N802
            self._json({"object": "list", "data": [{"id": "latency", "object": "model"}]})

        def do_POST(self) -> None:  # noqa: N802
            self.rfile.read(int(self.headers.get("Content-Length", 0)))
            time.sleep(latency_s)
            message = {"role": "assistant", "content": "a reply"}
            self._json({"choices": [{"index": 0, "message": message, "finish_reason": "stop"}]})

    httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    httpd.daemon_threads = True
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    return f"http://127.0.0.1:{httpd.server_address[1]}"


def measure(url: str, requests: int, in_flight: int, tokens: int) -> tuple[float, float]:
    """(requests per second one at a time, with `in_flight` at once)."""
    from PIL import Image

    model = OpenAICompatibleVLM(base_url=url + "/v1", timeout=600, max_retries=0)
    photo = Image.open(example_photos()[0].path).convert("RGB")
    settings = GenerationSettings(max_new_tokens=tokens, temperature=0.0)
    conversations = [
        [ChatMessage("user", f"Question {i}: what is in this photo?", [photo])] for i in range(requests)
    ]
    generate_in_flight(model, conversations[:2], settings, 2)  # warm up (the first request loads the model)
    rates = []
    for width in (1, in_flight):
        started = time.perf_counter()
        replies = generate_in_flight(model, conversations, settings, width)
        failed = [r for r in replies if not isinstance(r, str)]
        if failed:
            raise SystemExit(f"{len(failed)} requests failed: {failed[0]}")
        rates.append(requests / (time.perf_counter() - started))
    return rates[0], rates[1]


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--requests", type=int, default=16)
    parser.add_argument("--in-flight", type=int, default=4)
    parser.add_argument("--tokens", type=int, default=16)
    parser.add_argument("--latency-s", type=float, default=0.5)
    args = parser.parse_args()

    url = latency_server(args.latency_s)
    one, many = measure(url, args.requests, args.in_flight, args.tokens)
    print(
        f"fixed-latency server ({args.latency_s} s a reply): {one:.2f} req/s one at a time, {many:.2f} req/s "
        f"with {args.in_flight} in flight: {many / one:.2f}x"
    )

    folder = full_size_folder()
    port = free_port()
    exe = str(Path(sys.executable).parent / "transformers")
    command = [exe, "serve", str(folder), "--device", "cpu", "--port", str(port), "--host", "127.0.0.1"]
    proc = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.STDOUT)
    try:
        served = f"http://127.0.0.1:{port}"
        wait_up(served, proc)
        one, many = measure(served, args.requests, args.in_flight, args.tokens)
        print(
            f"transformers serve, SmolVLM-256M architecture (random weights), CPU, {args.tokens} new "
            f"tokens: {one:.2f} req/s one at a time, {many:.2f} req/s with {args.in_flight} in flight: "
            f"{many / one:.2f}x"
        )
    finally:
        proc.terminate()
        proc.wait(timeout=30)


if __name__ == "__main__":
    main()
