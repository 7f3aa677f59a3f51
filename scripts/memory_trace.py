"""Where a running app's memory grows over many sessions: the app in this process under tracemalloc, the
sessions from scripts/load_probe.py in another process (real gradio_client clients: ask, choose, close).

    python scripts/memory_trace.py --warmup 100 --sessions 300

Prints the resident memory and Python's traced memory after the warm-up and after the sessions, and the
allocation sites that grew most between the two (grouped by file and line), with how much
of the growth is in Gradio, in whichone and elsewhere. The demo stack (tiny model, blobs pointer), as the
README's offline start. Figures only; it asserts nothing.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import time
import tracemalloc
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]


def rss_mb() -> float:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def sessions(url: str, count: int) -> None:
    subprocess.run(
        [
            sys.executable,
            str(REPO / "scripts" / "load_probe.py"),
            url,
            "--sessions",
            "0",
            "--sequential",
            str(count),
        ],
        check=True,
    )


def where(trace: tracemalloc.Statistic) -> str:
    frame = trace.traceback[0]
    return f"{frame.filename}:{frame.lineno}"


def owner(filename: str) -> str:
    if "/gradio/" in filename or "/gradio_client/" in filename:
        return "gradio"
    if str(REPO) in filename:
        return "whichone"
    return "other"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    parser.add_argument("--warmup", type=int, default=100)
    parser.add_argument("--sessions", type=int, default=300)
    parser.add_argument("--top", type=int, default=15)
    args = parser.parse_args()
    os.environ.setdefault("WHICHONE_STACK", "demo")
    from ui.app import build_app, launch_kwargs
    from ui.client_address import trust_named_proxies

    demo = build_app()
    trust_named_proxies()  # as `whichone serve` starts
    demo.launch(**launch_kwargs(demo, host="127.0.0.1", port=None), prevent_thread_lock=True)
    url = demo.local_url
    try:
        sessions(url, args.warmup)
        time.sleep(8)  # closed sessions' state is released a few seconds after their unload
        # Traced from here: what the sessions after the warm-up allocate and keep (tracing the imports and
        # the model load too would slow them tenfold and tell nothing about the growth).
        tracemalloc.start(1)  # the allocating line is enough to group by; deeper traces slow it tenfold
        before, rss_before = tracemalloc.take_snapshot(), rss_mb()
        sessions(url, args.sessions)
        time.sleep(8)
        after, rss_after = tracemalloc.take_snapshot(), rss_mb()
    finally:
        demo.close()
    per_100 = 100 / args.sessions
    traced = sum(s.size for s in after.statistics("filename")) - sum(
        s.size for s in before.statistics("filename")
    )
    print(
        f"resident: {rss_before:.0f} -> {rss_after:.0f} MB "
        f"({(rss_after - rss_before) * per_100:+.1f} MB per 100 sessions)"
    )
    print(f"traced by Python: {traced / 2**20 * per_100:+.2f} MB per 100 sessions")
    diff = after.compare_to(before, "lineno")
    by_owner: dict[str, int] = {}
    for stat in diff:
        by_owner[owner(where(stat))] = by_owner.get(owner(where(stat)), 0) + stat.size_diff
    print(
        "growth by owner (MB per 100 sessions): "
        + ", ".join(f"{k} {v / 2**20 * per_100:+.2f}" for k, v in sorted(by_owner.items()))
    )
    print(f"the {args.top} sites that grew most:")
    for stat in sorted(diff, key=lambda s: s.size_diff, reverse=True)[: args.top]:
        print(
            f"  {stat.size_diff / 1024 * per_100:+9.1f} KiB/100  {stat.count_diff:+6d} blocks  {where(stat)}"
        )


if __name__ == "__main__":
    main()
