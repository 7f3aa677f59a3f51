"""Load and memory figures of a running whichone app, through gradio_client as real clients.

    python scripts/load_probe.py http://127.0.0.1:7860 --pid PID --sessions 50 --sequential 300

1. `--sessions N` clients at once (a barrier starts them together), each with its own photo: session k has
   1 + k % 8 squares in the first colours of eight, at known places, so its candidates are known by
   construction. Each asks, then chooses its newest colour. Cross-talk is any reply whose candidates are
   not exactly its own photo's squares (count, colours, boxes). Prints success, p50 / p95 latency.
2. `--sequential M` sessions one after another (ask, choose, close), printing the server's resident memory
   (VmRSS of --pid, read from /proc: run it on the server's machine) every 100 and the growth per 100
   after the first 100 (the first ones warm caches).

Start the app as the README says first (tiny model, blobs pointer). Figures only; it asserts nothing.
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import threading
import time
from pathlib import Path

from gradio_client import Client, handle_file
from PIL import Image, ImageDraw

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
CELLS = [(x, y) for y in (80, 296) for x in (40, 192, 344, 496)]  # a 4 x 2 grid on 640 x 480
SIDE = 104
QUESTION = "What colour is the square?"


def photo(folder: Path, k: int) -> Path:
    """k squares (1..8), the first k colours, on white."""
    image = Image.new("RGB", (640, 480), "white")
    draw = ImageDraw.Draw(image)
    for (x, y), (_, rgb) in zip(CELLS[:k], COLOURS, strict=False):
        draw.rectangle((x, y, x + SIDE - 1, y + SIDE - 1), fill=rgb)
    path = folder / f"squares-{k}.png"
    image.save(path)
    return path


def own_candidates(reply: dict, k: int) -> bool:
    """Exactly this photo's k squares: their colours, and each box on one of its squares."""
    candidates = reply.get("candidates") or []
    if len(candidates) != k:
        return False
    colours = {name for name, _ in COLOURS[:k]}
    for candidate in candidates:
        if not any(name in candidate["label"] for name in colours):
            return False
        x0, y0, x1, y1 = candidate["box"]
        cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
        if not any(x <= cx <= x + SIDE and y <= cy <= y + SIDE for x, y in CELLS[:k]):
            return False
    return True


def one_session(url: str, path: Path, k: int, latencies: list[float]) -> str:
    """'ok', 'cross-talk' or the error; appends each request's latency."""
    client = Client(url, verbose=False)
    try:
        start = time.monotonic()
        first = client.predict(handle_file(str(path)), QUESTION, api_name="/ask")
        latencies.append(time.monotonic() - start)
        if not own_candidates(first, k):
            return "cross-talk"
        newest = COLOURS[k - 1][0]
        target = next(c["id"] for c in first["candidates"] if newest in c["label"])
        start = time.monotonic()
        second = client.predict(target, api_name="/choose")
        latencies.append(time.monotonic() - start)
        return "ok" if second.get("resolved_region") == target else "cross-talk"
    finally:
        client.close()


def rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(q * (len(ordered) - 1))))]


def concurrent(url: str, photos: dict[int, Path], n: int) -> None:
    barrier = threading.Barrier(n)
    outcomes: list[str] = ["not run"] * n
    latencies: list[float] = []

    def run(i: int) -> None:
        k = 1 + i % 8
        try:
            barrier.wait(timeout=120)
            outcomes[i] = one_session(url, photos[k], k, latencies)
        except Exception as exc:  # noqa: BLE001 - counted and shown
            outcomes[i] = f"{type(exc).__name__}: {str(exc)[:80]}"

    start = time.monotonic()
    threads = [threading.Thread(target=run, args=(i,)) for i in range(n)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    wall = time.monotonic() - start
    ok = outcomes.count("ok")
    print(
        f"{n} sessions at once: {ok}/{n} answered with their own candidates ({100 * ok / n:.0f}%), "
        f"cross-talk {outcomes.count('cross-talk')}, {len(latencies)} requests in {wall:.1f} s, "
        f"latency p50 {statistics.median(latencies):.2f} s, p95 {percentile(latencies, 0.95):.2f} s"
    )
    failures = {o for o in outcomes if o not in ("ok", "cross-talk")}
    if failures:
        print("  failures:", "; ".join(sorted(failures))[:500])


def sequential(url: str, photos: dict[int, Path], m: int, pid: int | None) -> None:
    readings: list[tuple[int, float]] = []
    if pid:
        readings.append((0, rss_mb(pid)))
    latencies: list[float] = []
    failures: list[str] = []
    for i in range(1, m + 1):
        k = 1 + i % 8
        try:
            outcome = one_session(url, photos[k], k, latencies)
        except Exception as exc:  # noqa: BLE001 - counted and shown
            outcome = f"{type(exc).__name__}: {str(exc)[:120]}"
        if outcome != "ok":
            failures.append(f"session {i} ({k} squares): {outcome}")
        if pid and i % 100 == 0:
            time.sleep(2)  # let the server see the closed clients
            readings.append((i, rss_mb(pid)))
            print(f"  after {i} sequential sessions: server RSS {readings[-1][1]:.0f} MB", flush=True)
    line = f"{m} sequential sessions: {m - len(failures)}/{m} ok"
    if len(readings) >= 3:
        (i0, r0), (i1, r1) = readings[1], readings[-1]
        line += f"; RSS {readings[0][1]:.0f} MB before, growth per 100 after the first 100: "
        line += f"{(r1 - r0) / ((i1 - i0) / 100):+.1f} MB"
    print(line)
    for failure in failures:
        print("  " + failure)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    parser.add_argument("url")
    parser.add_argument("--pid", type=int, help="the server's process id, for its memory (same machine)")
    parser.add_argument("--sessions", type=int, default=50)
    parser.add_argument("--sequential", type=int, default=0)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        photos = {k: photo(Path(folder), k) for k in range(1, 9)}
        if args.sessions:
            concurrent(args.url, photos, args.sessions)
        if args.sequential:
            sequential(args.url, photos, args.sequential, args.pid)


if __name__ == "__main__":
    main()
