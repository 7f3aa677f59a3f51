"""What opening a 79-megapixel photo of each Pillow mode costs: peak resident memory of a fresh process.

    .venv/bin/python scripts/decode_memory.py [FOLDER]

Writes one 79-MP file per mode (16-bit grey PNG, palette PNG with transparency, CMYK JPEG, LA PNG, RGB
JPEG) to FOLDER (a temp folder by default; they compress to a few hundred KB), then opens each with
assistant.images.load_image in its own process and prints the process's peak RSS minus its RSS before.
"""

from __future__ import annotations

import subprocess
import sys
import tempfile
from pathlib import Path

WIDTH, HEIGHT = 10_000, 7_900  # 79 million pixels, under the 80 MP refusal
MODES = {"I;16": "png", "P+transparency": "png", "CMYK": "jpg", "LA": "png", "RGB": "jpg"}


def make(folder: Path, mode: str, ext: str) -> Path:
    from PIL import Image

    path = folder / f"{mode.replace(';', '').replace('+', '-')}.{ext}"
    if path.exists():
        return path
    base = mode.split("+")[0]
    image = Image.new(base, (WIDTH, HEIGHT))
    if mode == "P+transparency":
        image.putpalette([0, 0, 0, 255, 0, 0] * 128)
        image.save(path, transparency=0)
    else:
        image.save(path)
    return path


def measure(path: Path) -> str:
    code = (
        "import resource, sys\n"
        "from assistant.images import load_image\n"
        "before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss\n"
        "image = load_image(sys.argv[1])\n"
        "peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss\n"
        "print(f'{image.size[0]}x{image.size[1]} +{(peak - before) / 1024:.0f} MB peak')\n"
    )
    command = [sys.executable, "-c", code, str(path)]
    done = subprocess.run(command, capture_output=True, text=True, check=False)
    return (done.stdout or done.stderr).strip().splitlines()[-1]


def main() -> None:
    folder = Path(sys.argv[1]) if len(sys.argv) > 1 else Path(tempfile.mkdtemp(prefix="decode-memory-"))
    folder.mkdir(parents=True, exist_ok=True)
    print(f"{'mode':16} {'file KB':>8}  working image, peak RSS growth while opening")
    for mode, ext in MODES.items():
        path = make(folder, mode, ext)
        print(f"{mode:16} {path.stat().st_size // 1024:>8}  {measure(path)}", flush=True)


if __name__ == "__main__":
    main()
