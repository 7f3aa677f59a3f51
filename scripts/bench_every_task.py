"""One small run of every benchmark task, each printed as its paper's table: a smoke check that every
paper's load -> prompts -> responses -> judge -> metrics -> table path runs, offline, in a few minutes.

The data are the fixtures in the published formats (tests/eval_fixtures.py; RAcQUEt's images served over
local HTTP as the real ones are), the model is the tiny random SmolVLM ("tiny": its words are noise, so
most judgements are "unknown"), the judge the rule judge, localisation the blobs pointer. Nothing here is a
result about a real model: run `whichone bench run TASK --model NAME` on the published data for that.

With --sample, each task runs on the bundled sample instead (`--data sample`: 5 photos in each released
layout, assistant/evaluation/samples.py), with no server and WHICHONE_OFFLINE=1, as the Benchmark tab does
without the published data.

Run: .venv/bin/python scripts/bench_every_task.py [--limit 6] [--out runs/every-task] [--sample]
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from assistant.evaluation.report import markdown_table  # noqa: E402
from assistant.evaluation.runner import RunConfig, run_benchmark  # noqa: E402
from assistant.evaluation.tasks import all_tasks  # noqa: E402
from assistant.settings import install as install_settings  # noqa: E402
from tests import eval_fixtures as fx  # noqa: E402


def main() -> None:
    install_settings()
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--limit", type=int, default=6)
    parser.add_argument("--out", type=Path, default=Path("runs/every-task"))
    parser.add_argument("--sample", action="store_true", help="run on the bundled samples, offline")
    args = parser.parse_args()
    if args.sample:
        os.environ["WHICHONE_OFFLINE"] = "1"
        run_all({task: "sample" for task in all_tasks()}, args)
        return
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        (root / "racquet").mkdir()
        (root / "saliency").mkdir()
        with fx.serve_folder(root / "racquet") as base, fx.serve_folder(root / "saliency") as saliency_base:
            racquet = fx.make_racquet(root / "racquet", base, n_images=12, missing=0)
            data = {
                "racquet-general": racquet["general"],
                "racquet-bias": racquet["bias"],
                "racquet-saliency": fx.make_racquet_saliency(root / "saliency", saliency_base),
                "vq-focusambiguity": fx.make_focus_ambiguity(root / "vqfa", n=24),
                "aqua": fx.make_aqua(root / "aqua", n_per_level=5),
                "clearvqa": fx.make_clearvqa(root / "clearvqa", n=6),
            }
            run_all(
                {t.name: str(data[t.name if t.name in data else t.dataset]) for t in all_tasks().values()},
                args,
            )


def run_all(data: dict[str, str], args: argparse.Namespace) -> None:
    """One run of every task on data[task], each printed as its paper's table."""
    for task in all_tasks().values():
        options: dict[str, Any] = {"judge": "rules" if task.default_judge != "none" else None}
        if task.kind.name == "localise":
            options.update(models=["blobs"], segmenter="none")
        elif task.kind.name == "probability":
            options.update(models=["smolvlm-tiny"])
        else:
            options.update(models=["tiny"], pointer="blobs")
        config = RunConfig(
            task=task.name,
            data=data[task.name],
            limit=args.limit,
            out_dir=args.out / task.name,
            cache_path=args.out / "cache.sqlite",
            max_new_tokens=16,
            progress=False,
            **options,
        )
        result = run_benchmark(config)
        print(f"## {task.name} ({', '.join(config.models)})\n")
        print(markdown_table(result.task, result.summary))


if __name__ == "__main__":
    main()
