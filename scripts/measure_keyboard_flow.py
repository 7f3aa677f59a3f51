"""Walk the whole ask flow by keyboard in Debian's Chromium against a running app and print the keys per
step (desktop 1280 px and phone 390 px), the focus after each step and what the live regions said (issue 33).

    WHICHONE_MODEL=tiny WHICHONE_POINTER=blobs WHICHONE_SEGMENTER=none GRADIO_SERVER_PORT=7950 python app.py
    python scripts/measure_keyboard_flow.py http://127.0.0.1:7950/ [--shortcuts] [--json out.json]
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
from dataclasses import asdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from playwright.sync_api import sync_playwright  # noqa: E402

from tests.keyboard_flow import RECORDER_JS, Step, Walk, table  # noqa: E402
from tests.ui_support import launch_chromium  # noqa: E402

VIEWPORTS = {"desktop 1280 px": (1280, 1000), "phone 390 px": (390, 844)}


def walk(url: str, width: int, height: int, shortcuts: bool) -> list[Step]:
    with sync_playwright() as p, tempfile.TemporaryDirectory() as profile:
        context = launch_chromium(p, Path(profile), viewport={"width": width, "height": height})
        context.add_init_script(RECORDER_JS)
        page = context.new_page()
        page.set_default_timeout(60_000)
        page.goto(url)
        try:
            return Walk(page, shortcuts=shortcuts).run()
        finally:
            context.close()


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("url")
    parser.add_argument("--shortcuts", action="store_true", help="use the page's Alt+Shift shortcuts")
    parser.add_argument("--json", type=Path, help="write every step (keys, focus, heard) here")
    args = parser.parse_args()
    rows = {name: walk(args.url, w, h, args.shortcuts) for name, (w, h) in VIEWPORTS.items()}
    print(table(rows))
    for name, steps in rows.items():
        print(f"\n## {name}: focus after each step")
        for step in steps:
            print(f"- {step.name}: {' '.join(step.keys) or '(no key)'} -> {step.focus}")
    print("\n## heard (desktop), per step")
    for step in rows[next(iter(rows))]:
        print(f"- {step.name}")
        for item in step.heard:
            print(f"    {item['t']:>7} ms {item['kind']:5} {item['region'][:30]:30} {item['text'][:150]}")
    if args.json:
        args.json.write_text(
            json.dumps({n: [asdict(s) for s in steps] for n, steps in rows.items()}, indent=1)
        )


if __name__ == "__main__":
    main()
