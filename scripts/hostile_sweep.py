"""The hostile sweep of issue 31: raw HTTP against a running `whichone serve` in public mode, per hole.

    .venv/bin/python scripts/hostile_sweep.py http://127.0.0.1:7900/ --pid PID --log SERVER_LOG

Loopback only (the URL must be 127.0.0.1 or localhost): each hole's requests come from several source
addresses 127.0.0.x, chunked and in parallel, bounded in count and time. Prints, per hole: tries, how many
got through (2xx), the status codes, the server's resident memory before / peak / after, the files left
behind (new files in the upload folder and the system temp folder) and the tracebacks the server logged
during it. `--holes H1,H3` runs a few; `--scale 0.2` fewer tries (a quick look).
"""

from __future__ import annotations

import argparse
import collections
import concurrent.futures
import json
import os
import re
import socket
import sys
import tempfile
import threading
import time
import urllib.parse
import uuid
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import httpx

sys.path.insert(0, str(Path(__file__).parent))  # decode_memory, the maker of the H6 photos

MIB = 2**20
BOUNDARY = "hostile-sweep-boundary"


@dataclass
class Target:
    url: str
    pid: int | None
    log: Path | None
    scale: float

    @property
    def api(self) -> str:
        return self.url.rstrip("/") + "/gradio_api"

    def tries(self, count: int) -> int:
        return max(1, int(count * self.scale))


@dataclass
class Tally:
    tries: int = 0
    codes: collections.Counter[str] = field(default_factory=collections.Counter)
    notes: list[str] = field(default_factory=list)

    def add(self, code: int | str) -> None:
        self.tries += 1
        self.codes[str(code)] += 1

    @property
    def through(self) -> int:
        return sum(n for code, n in self.codes.items() if code.startswith("2"))


def client(address: int, timeout: float = 30.0) -> httpx.Client:
    """An HTTP client whose connections come from 127.0.0.<address>."""
    return httpx.Client(transport=httpx.HTTPTransport(local_address=f"127.0.0.{address}"), timeout=timeout)


def request(address: int, method: str, url: str, **kwargs: object) -> int | str:
    try:
        with client(address, float(kwargs.pop("timeout", 30.0))) as http:  # type: ignore[arg-type]
            return http.request(method, url, **kwargs).status_code  # type: ignore[arg-type]
    except httpx.HTTPError as exc:
        return type(exc).__name__


def chunks(size: int, step: int = 256 * 1024) -> Iterator[bytes]:
    """`size` bytes as a chunked body (a generator has no Content-Length)."""
    block = b"x" * step
    left = size
    while left > 0:
        yield block[: min(step, left)]
        left -= step


def multipart(size: int, name: str = "data", filename: str = "clip.mp4") -> Iterator[bytes]:
    yield (
        f'--{BOUNDARY}\r\nContent-Disposition: form-data; name="{name}"; filename="{filename}"\r\n'
        "Content-Type: video/mp4\r\n\r\n"
    ).encode()
    yield from chunks(size)
    yield f"\r\n--{BOUNDARY}--\r\n".encode()


def rss_mb(pid: int | None) -> float:
    if pid is None:
        return float("nan")
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    except OSError:
        pass
    return float("nan")


class Watch:
    """The server's memory (sampled every 50 ms), files and tracebacks around one hole."""

    def __init__(self, target: Target, folders: list[Path]) -> None:
        self.target = target
        self.folders = folders
        self.peak = 0.0
        self._stop = threading.Event()

    def files(self) -> set[str]:
        found: set[str] = set()
        for number, folder in enumerate(self.folders):
            try:  # the system temp folder (shared) at its top level only; the upload folder all through
                paths = folder.glob("*") if number == 0 else folder.rglob("*")
                found |= {str(p) for p in paths if p.is_file()}
            except OSError:
                pass
        return found

    def tracebacks(self) -> int:
        if self.target.log is None:
            return 0
        return self.target.log.read_text(errors="replace").count("Traceback (most recent call last)")

    def __enter__(self) -> Watch:
        self.before = rss_mb(self.target.pid)
        self.peak = self.before
        self.files_before = self.files()
        self.traces_before = self.tracebacks()
        self._thread = threading.Thread(target=self._sample, daemon=True)
        self._thread.start()
        return self

    def _sample(self) -> None:
        while not self._stop.wait(0.05):
            self.peak = max(self.peak, rss_mb(self.target.pid))

    def __exit__(self, *exc: object) -> None:
        time.sleep(1.0)  # let the server finish what the last requests started
        self._stop.set()
        self._thread.join()
        self.after = rss_mb(self.target.pid)
        self.left = len(self.files() - self.files_before)
        self.traces = self.tracebacks() - self.traces_before


def parallel(jobs: Sequence[Callable[..., int | str]], workers: int = 8) -> list[int | str]:
    with concurrent.futures.ThreadPoolExecutor(workers) as pool:
        return list(pool.map(lambda job: job(), jobs))


# ------------------------------------------------------------------------------------------------ holes


def h1_process_recording(t: Target, tally: Tally) -> None:
    """30 x 4 MB recordings from 3 addresses, 8 at once; then one 400 MB form field."""
    jobs = [
        lambda a=1 + i % 3: request(
            a,
            "POST",
            t.api + "/process_recording",
            content=multipart(4 * MIB),
            headers={"Content-Type": f"multipart/form-data; boundary={BOUNDARY}"},
        )
        for i in range(t.tries(30))
    ]
    for code in parallel(jobs):
        tally.add(code)
    big = (
        f'--{BOUNDARY}\r\nContent-Disposition: form-data; name="params"\r\n\r\n'.encode(),
        *chunks(int(400 * MIB * t.scale)),
        f"\r\n--{BOUNDARY}--\r\n".encode(),
    )
    tally.add(
        request(
            4,
            "POST",
            t.api + "/process_recording",
            content=iter(big),
            headers={"Content-Type": f"multipart/form-data; boundary={BOUNDARY}"},
            timeout=120.0,
        )
    )


def h2_session_burst(t: Target, tally: Tally) -> None:
    """New session hashes from one address: component_server posts and heartbeats that close at once."""
    body = {"session_hash": "", "component_id": 1, "fn_name": "x", "data": None}

    def post() -> int | str:
        body["session_hash"] = uuid.uuid4().hex[:11]
        return request(5, "POST", t.api + "/component_server", json=dict(body), timeout=10.0)

    def heartbeat() -> int | str:
        try:
            with (
                client(5, 5.0) as http,
                http.stream("GET", t.api + f"/heartbeat/{uuid.uuid4().hex[:11]}") as r,
            ):
                return r.status_code  # closed at once: the server runs the unload for the new session
        except httpx.HTTPError as exc:
            return type(exc).__name__

    for code in parallel([post] * t.tries(2000) + [heartbeat] * t.tries(500)):
        tally.add(code)


def h3_big_bodies(t: Target, tally: Tally) -> None:
    """100 MB chunked bodies to the routes the door did not cover, two at once."""
    size = int(100 * MIB * t.scale)
    routes = ["/reset", "/cancel", "/component_server", f"/stream/{uuid.uuid4().hex}"]
    jobs = [
        lambda r=route, a=6 + i: request(
            a,
            "POST",
            t.api + r,
            content=chunks(size),
            headers={"Content-Type": "application/json"},
            timeout=120.0,
        )
        for i, route in enumerate(routes * 2)
    ]
    for code in parallel(jobs, workers=2):
        tally.add(code)


def h4_stream(t: Target, tally: Tally) -> None:
    """A queued event's data replaced through /stream/<event_id> (here: any id, with text the door cleans)."""
    for _ in range(t.tries(20)):
        body = {"data": ["\ud800 \x00\x07" + "q" * 100], "fn_index": 0, "session_hash": uuid.uuid4().hex[:11]}
        tally.add(request(7, "POST", t.api + f"/stream/{uuid.uuid4().hex}", content=json.dumps(body)))


def h5_forwarded_host(t: Target, tally: Tally) -> None:
    """X-Forwarded-Host on /info: does the API page then name another host for everyone?"""
    tally.add(request(8, "GET", t.api + "/info", headers={"X-Forwarded-Host": "attacker.example"}))
    with client(9) as http:
        text = http.get(t.api + "/info").text + http.get(t.url.rstrip("/") + "/config").text
    tally.notes.append(f"attacker.example named {text.count('attacker.example')} times afterwards")


def h8_waiting(t: Target, tally: Tally) -> None:
    """40 joins of the ask API at once from one address (cap: waiting_per_client)."""
    data = {"data": [None, "What colour is the square?"]}
    jobs = [lambda: request(10, "POST", t.api + "/call/ask", json=data) for _ in range(t.tries(40))]
    for code in parallel(jobs, workers=40):
        tally.add(code)


def event_index(t: Target, api_name: str) -> int:
    config = httpx.get(t.url.rstrip("/") + "/config", timeout=30).json()
    for index, dependency in enumerate(config["dependencies"]):
        if dependency.get("api_name") == api_name:
            return int(dependency.get("id", index))
    raise KeyError(api_name)


def open_photo(t: Target, address: int, photo: Path) -> str:
    """Upload `photo` from 127.0.0.<address> and open it in a new session, as the page does; the first
    line of the session's status afterwards."""
    session = uuid.uuid4().hex[:11]
    with client(address, 300.0) as http:
        uploaded = http.post(t.api + "/upload", files={"files": (photo.name, photo.read_bytes())})
        if uploaded.status_code != 200:
            return f"upload {uploaded.status_code}"
        body = {
            "data": [{"path": uploaded.json()[0]}, None],
            "fn_index": event_index(t, "ui_photo"),
            "session_hash": session,
        }
        joined = http.post(t.api + "/queue/join", json=body)
        if joined.status_code != 200:
            return f"join {joined.status_code}"
        with http.stream("GET", t.api + "/queue/data", params={"session_hash": session}) as stream:
            for line in stream.iter_lines():
                if '"process_completed"' in line:
                    return "opened" if "Photo ready" in line else "refused"
    return "no answer"


def h6_modes(t: Target, tally: Tally) -> None:
    """79-MP photos of every mode (scripts/decode_memory.py makes them), each opened by the page's event,
    two at once."""
    folder = Path(tempfile.gettempdir()) / "decode-memory-sweep"
    from decode_memory import MODES, make  # noqa: PLC0415 - the photos' maker, beside this script

    folder.mkdir(exist_ok=True)
    photos = [make(folder, mode, ext) for mode, ext in MODES.items()]
    jobs = [lambda p=photo, a=20 + i: open_photo(t, a, p) for i, photo in enumerate(photos * 2)]
    for photo, code in zip(photos * 2, parallel(jobs, workers=2), strict=True):
        tally.add(code)
        tally.notes.append(f"{photo.name}: {code}")


MISTAKES: list[tuple[str, str, object]] = [
    ("POST", "/component_server", {"session_hash": "x", "component_id": 0, "fn_name": "x", "data": 0}),
    ("POST", "/component_server", b"--x\r\n"),
    ("POST", "/queue/join", {"fn_index": 10**400, "data": [], "session_hash": "x"}),
    ("POST", "/queue/join", b"{not json"),
    ("POST", "/reset", {"event_id": None}),
    ("POST", "/cancel", {"session_hash": "x", "fn_index": "a", "event_id": 1}),
    ("POST", "/stream/x", b"\x00"),
    ("POST", "/stream/x/close", b""),
    ("POST", "/upload", b"--x\r\nbroken"),
    ("POST", "/call/ask", {"data": ["\x00", 10**400]}),
    ("GET", "/proxy=http%3A//a%00b/", None),
    ("GET", "/file=%00", None),
    ("GET", "/heartbeat/%00", None),
    ("GET", "/queue/data?session_hash=%00", None),
    ("GET", "/call/ask/%00", None),
    ("GET", "/stream/x/1/2/playlist.m3u8", None),
    ("GET", "/upload_progress?upload_id=%00", None),
    ("GET", "/deep_link?session_hash=%00", None),
    ("POST", "/process_recording", b"{}"),
    ("POST", "/vibe-edit", {"prompt": 1}),
    ("POST", "/run-history/connect", b"[]"),
    ("GET", "/custom_component/1/2/3/4", None),
]


def h9_mistakes(t: Target, tally: Tally) -> None:
    """Client mistakes on every route: bad JSON, wrong types, huge integers, NUL, cut-off bodies."""
    for repeat in range(t.tries(5)):
        for method, route, body in MISTAKES:
            kwargs: dict[str, object] = {"timeout": 10.0}
            if isinstance(body, bytes):
                kwargs["content"] = body
            elif body is not None:
                kwargs["content"] = json.dumps(body)
                kwargs["headers"] = {"Content-Type": "application/json"}
            tally.add(request(11 + repeat % 3, method, t.api + route, **kwargs))
    for _ in range(t.tries(5)):
        tally.add(cut_off_upload(t))


def cut_off_upload(t: Target) -> str:
    """An upload whose connection closes half-way (ClientDisconnect inside Gradio)."""
    host, port = urllib.parse.urlsplit(t.url).hostname or "127.0.0.1", urllib.parse.urlsplit(t.url).port or 80
    with socket.create_connection((host, port), timeout=5, source_address=("127.0.0.14", 0)) as sock:
        head = (
            f"POST /gradio_api/upload HTTP/1.1\r\nHost: {host}\r\nContent-Length: 2000000\r\n"
            f"Content-Type: multipart/form-data; boundary={BOUNDARY}\r\n\r\n"
            f'--{BOUNDARY}\r\nContent-Disposition: form-data; name="files"; filename="a.png"\r\n\r\n'
        )
        sock.sendall(head.encode() + b"x" * 100_000)
    return "cut"


def h10_h11_side_features(t: Target, tally: Tally) -> None:
    """Deep links, monitoring, screen recording, streaming inputs: off in public mode?"""
    for route in ("/gradio_api/deep_link?session_hash=abc", "/monitoring", "/monitoring/summary"):
        code = request(15, "GET", t.url.rstrip("/") + route)
        tally.add(code)
        tally.notes.append(f"GET {route.split('?')[0]}: {code}")


def h13_half_open(t: Target, tally: Tally) -> None:
    """300 connections from 3 addresses that send half a request line; how many are still open at 32 s?"""
    host, port = urllib.parse.urlsplit(t.url).hostname or "127.0.0.1", urllib.parse.urlsplit(t.url).port or 80
    socks = []
    for i in range(t.tries(300)):
        try:
            sock = socket.create_connection(
                (host, port), timeout=5, source_address=(f"127.0.0.{16 + i % 3}", 0)
            )
            sock.sendall(b"GET / HTTP/1.1\r\nHost: x\r\n")
            socks.append(sock)
            tally.add("opened")
        except OSError as exc:
            tally.add(type(exc).__name__)
    time.sleep(32)
    still = 0
    for sock in socks:
        sock.settimeout(0.01)
        try:
            sock.recv(1)  # b"" (closed) or the server's answer: not held any more
        except TimeoutError:
            still += 1  # nothing to read and not closed: the server still holds it
        except OSError:
            pass
        sock.close()
    tally.notes.append(f"{still} of {len(socks)} half-open connections still open after 32 s")


HOLES: dict[str, tuple[str, Callable[[Target, Tally], None]]] = {
    "H1": ("process_recording uploads", h1_process_recording),
    "H2": ("new session hashes", h2_session_burst),
    "H3": ("unbounded bodies", h3_big_bodies),
    "H4": ("/stream replaces data", h4_stream),
    "H5": ("X-Forwarded-Host", h5_forwarded_host),
    "H6": ("79-MP photos, every mode", h6_modes),
    "H8": ("waiting cap", h8_waiting),
    "H9": ("client mistakes", h9_mistakes),
    "H10/H11": ("deep links, monitoring", h10_h11_side_features),
    "H13": ("half-open connections", h13_half_open),
}


def upload_folder(log: Path | None) -> list[Path]:
    folders = [Path(tempfile.gettempdir())]
    if log is not None:
        found = re.search(r"uploads are kept in (\S+)", log.read_text(errors="replace"))
        if found:
            folders.append(Path(found.group(1)))
    return folders


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("url")
    parser.add_argument("--pid", type=int, help="the server's process id (for its memory)")
    parser.add_argument("--log", type=Path, help="the server's log file (for its tracebacks)")
    parser.add_argument("--holes", default=",".join(HOLES), help="which holes, comma separated")
    parser.add_argument("--scale", type=float, default=1.0, help="fraction of the tries (and sizes)")
    args = parser.parse_args()
    if urllib.parse.urlsplit(args.url).hostname not in ("127.0.0.1", "localhost"):
        raise SystemExit("the sweep runs against a server on this machine only (127.0.0.1)")
    target = Target(args.url, args.pid, args.log, args.scale)
    folders = upload_folder(args.log)
    print(
        f"{'hole':8} {'what':26} {'tries':>6} {'through':>7} {'RSS MB before/peak/after':>26} "
        f"{'files':>5} {'tracebacks':>10}  status codes"
    )
    total_traces = 0
    for name in args.holes.split(","):
        title, run = HOLES[name]
        tally = Tally()
        started = time.monotonic()
        with Watch(target, folders) as watch:
            run(target, tally)
        total_traces += watch.traces
        memory = f"{watch.before:.0f}/{watch.peak:.0f}/{watch.after:.0f}"
        codes = ", ".join(f"{code}: {n}" for code, n in sorted(tally.codes.items()))
        print(
            f"{name:8} {title:26} {tally.tries:>6} {tally.through:>7} {memory:>26} {watch.left:>5} "
            f"{watch.traces:>10}  {codes} ({time.monotonic() - started:.0f} s)",
            flush=True,
        )
        for note in tally.notes:
            print(f"{'':8} {note}", flush=True)
    print(f"tracebacks in the server log during the sweep: {total_traces}")


if __name__ == "__main__":
    os.environ.setdefault("NO_PROXY", "127.0.0.1,localhost")
    main()
