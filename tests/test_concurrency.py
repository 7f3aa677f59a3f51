"""N = 8 parallel sessions through gradio_client against the real app (tiny VLM, blobs pointer).

Session k (1..8) sends its own photo: k squares in the first k of eight colours, so what its candidates
must be is known by construction: k of them, in exactly those colours, each box on one of its squares.
Every session asks, then chooses its own newest colour. All sessions start together (a barrier).

The queue: the app runs model work in one Gradio concurrency group ("gpu") with WHICHONE_GPU_CONCURRENCY
slots, here 2 so the limit is not trivially met. How many ran at once is measured inside the server by
ui.gpu.GAUGE, which wraps the real model calls (no stand-in), reported by /models when
WHICHONE_QUEUE_STATS=1: its max_in_flight must equal the limit (honoured, and used). Client-side latency
(p50, p95 over all requests) and the total wall time are printed, with the server-side compute time.
"""

from __future__ import annotations

import statistics
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from tests.ui_support import AppServer, app_server, draw_scene

pytestmark = pytest.mark.slow

gradio_client = pytest.importorskip("gradio_client")
from gradio_client import Client, handle_file  # noqa: E402

N = 8
GPU_LIMIT = 2
REQUEST_TIMEOUT_S = 120
# Colour words as the blobs pointer names them (models.blob_pointer.colour_name), each a clear hue.
COLOURS = (
    ("red", (220, 30, 30)),
    ("blue", (30, 60, 220)),
    ("green", (30, 160, 60)),
    ("orange", (240, 150, 0)),
    ("purple", (130, 40, 200)),
    ("yellow", (230, 210, 20)),
    ("pink", (230, 60, 160)),
    ("black", (20, 20, 20)),
)
# A 4 x 2 grid of 104-pixel squares on 640 x 480, edges on multiples of 4 (see tests/ui_support.py).
CELLS = [(x, y) for y in (80, 296) for x in (40, 192, 344, 496)]
SIDE = 104


def shapes(k: int) -> list[tuple[tuple[int, int, int, int], tuple[int, int, int]]]:
    return [((x, y, x + SIDE - 1, y + SIDE - 1), COLOURS[i][1]) for i, (x, y) in enumerate(CELLS[:k])]


def expected_strategy(k: int) -> str:
    return "answer" if k == 1 else "enumerate" if k <= 3 else "clarify"


@dataclass
class SessionRun:
    k: int
    photo: Path
    latencies: list[float] = field(default_factory=list)
    server_s: list[float] = field(default_factory=list)
    first: dict | None = None
    second: dict | None = None
    error: str | None = None


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    index = min(len(ordered) - 1, max(0, round(q * (len(ordered) - 1))))
    return ordered[index]


@pytest.fixture(scope="module")
def server() -> Iterator[AppServer]:
    with app_server(WHICHONE_GPU_CONCURRENCY=str(GPU_LIMIT), WHICHONE_QUEUE_STATS="1") as running:
        yield running


def run_session(url: str, run: SessionRun, barrier: threading.Barrier) -> None:
    try:
        client = Client(url, verbose=False)
        barrier.wait(timeout=60)
        start = time.monotonic()
        question = "What colour is the square?"
        job = client.submit(handle_file(str(run.photo)), question, api_name="/ask")
        run.first = job.result(timeout=REQUEST_TIMEOUT_S)
        run.latencies.append(time.monotonic() - start)
        own = COLOURS[run.k - 1][0]  # this session's newest colour
        target = next(c["id"] for c in run.first["candidates"] if own in c["label"])
        start = time.monotonic()
        run.second = client.submit(target, api_name="/choose").result(timeout=REQUEST_TIMEOUT_S)
        run.latencies.append(time.monotonic() - start)
        run.server_s += [run.first["timings_s"]["total"], run.second["timings_s"]["total"]]
        client.close()
    except Exception as exc:  # noqa: BLE001 - reported per session below
        run.error = f"{type(exc).__name__}: {exc}"


def test_eight_parallel_sessions_each_get_their_own_image_and_the_queue_limit_holds(
    server: AppServer, tmp_path: Path
) -> None:
    runs = [SessionRun(k, draw_scene(tmp_path / f"scene_{k}.png", shapes(k))) for k in range(1, N + 1)]
    # Warm the model once (first calls are slower), so the figures are about the queue, not start-up.
    warm = Client(server.url, verbose=False)
    warm.predict(handle_file(str(runs[0].photo)), "What colour is the square?", api_name="/ask")
    before = warm.predict(api_name="/models")["gpu_queue"]

    barrier = threading.Barrier(N)
    threads = [threading.Thread(target=run_session, args=(server.url, r, barrier)) for r in runs]
    start = time.monotonic()
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=REQUEST_TIMEOUT_S * 2 + 60)
    wall = time.monotonic() - start
    after = warm.predict(api_name="/models")["gpu_queue"]

    errors = {r.k: r.error for r in runs if r.error}
    assert not errors, errors
    for run in runs:
        own_shapes = shapes(run.k)
        names = {COLOURS[i][0] for i in range(run.k)}
        cands = run.first["candidates"]
        assert len(cands) == run.k, (run.k, cands)
        assert {next(n for n in names if n in c["label"]) for c in cands} == names, (run.k, cands)
        for cand in cands:  # each box covers exactly one of this session's squares
            x0, y0, x1, y1 = cand["box"]
            inside = [
                b for b, _ in own_shapes if x0 <= (b[0] + b[2]) / 2 <= x1 and y0 <= (b[1] + b[3]) / 2 <= y1
            ]
            assert len(inside) == 1, (run.k, cand)
        assert run.first["strategy"] == expected_strategy(run.k), (run.k, run.first["strategy"])
        own = COLOURS[run.k - 1][0]
        assert run.second["resolved_region"] is not None
        assert run.second["reply"].startswith(f"About the {own} square"), (run.k, run.second["reply"][:80])

    latencies = [s for r in runs for s in r.latencies]
    server_s = [s for r in runs for s in r.server_s]
    calls = after["calls"] - before["calls"]
    figures = {
        "sessions": N,
        "requests": len(latencies),
        "gpu limit": after["limit"],
        "max model calls at once (server)": after["max_in_flight"],
        "model calls counted": calls,
        "total wall s": round(wall, 2),
        "latency p50 s": round(statistics.median(latencies), 2),
        "latency p95 s": round(percentile(latencies, 0.95), 2),
        "latency max s": round(max(latencies), 2),
        "server compute per request, mean s": round(statistics.mean(server_s), 2),
        "server compute, sum s": round(sum(server_s), 2),
        "throughput requests/s": round(len(latencies) / wall, 2),
    }
    print("\n" + "\n".join(f"{k}: {v}" for k, v in figures.items()))
    assert calls == 2 * N  # every ask and choose ran its model work once, in the counted group
    assert after["in_flight"] == 0
    assert after["limit"] == GPU_LIMIT
    # Honoured (never more than the limit at once) and used (eight waiting sessions fill both slots).
    assert after["max_in_flight"] == GPU_LIMIT, after


def test_every_event_of_the_gpu_group_names_the_configured_limit(monkeypatch: pytest.MonkeyPatch) -> None:
    """Gradio gives a concurrency group the smallest limit of the events pushed so far, so one event with a
    lower limit (the settings' Apply had 1) would drop every session to it after its first use."""
    from ui.app import build_app
    from ui.engine import ModelChoice, ModelPool

    monkeypatch.setenv("WHICHONE_GPU_CONCURRENCY", "3")
    demo = build_app(pool=ModelPool(), choice=ModelChoice("tiny", "blobs", None))  # nothing loaded
    limits = {fn.api_name: fn.concurrency_limit for fn in demo.fns.values() if fn.concurrency_id == "gpu"}
    assert {"ask", "choose", "click", "hint", "ui_ask", "ui_settings"} <= set(limits), limits
    assert set(limits.values()) == {3}, limits
