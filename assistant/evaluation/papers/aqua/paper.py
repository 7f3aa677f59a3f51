"""AQuA (Jeong et al.): does a response's strategy fit the question's ambiguity level (0 answer, 1 infer,
2 enumerate, 3 clarify; Table 2, Fig. 5), and does a hint turn get the right answer (Table 4)?

Data: Hugging Face `jihyoung/AQuA`, published as one `datasets` save_to_disk folder per split (`train/` with
`state.json`, `dataset_info.json` and `data-0000N-of-00003.arrow`: read with `load_from_disk`), or a local
copy: that layout, one save_to_disk folder or DatasetDict, or parquet / arrow / jsonl files of the same
features. The columns read (image, question, level; answer, hint, clarified_answer) are the ones the paper
describes; the repository's dataset_info.json was not readable from here to confirm them. Tasks:
aqua-strategy, aqua-clarification, and whichone-strategy (whichone's own pipeline as one more row of
Table 2).

Gold fields: "level" (0-3), "answer" (reference response, when the release has it), "hint" and
"clarified_answer" (the second turn of the clarification subset, when present).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import assistant.evaluation.papers.aqua.metrics as metrics
from assistant.errors import WhichoneError
from assistant.evaluation.benchmark import (
    GREEDY_256,
    Layout,
    MetricsContext,
    Paper,
    RunItem,
    Scoring,
    Subset,
    Task,
    Variant,
    default_judge_input,
)
from assistant.evaluation.dataset_base import (
    DatasetLoad,
    DatasetSpec,
    DatasetUnavailable,
    materialise,
    plain_value,
)
from assistant.evaluation.fetch import (
    default_cache_dir,
    offline,
)
from assistant.evaluation.kinds import VQA_KIND, TwoTurn
from assistant.evaluation.papers.aqua.judge import (
    FACTUAL,
    PASS_AFTER_CLARIFICATION,
    QUESTIONS,
    STRATEGY_JUDGED,
)
from assistant.evaluation.papers.aqua.kinds import PIPELINE_KIND
from assistant.evaluation.records import ResponseRecord, ResultRow, RunSummary
from assistant.evaluation.samples import PHOTO_SET, PHOTOS
from assistant.evaluation.schema import Example, ImageRef
from assistant.evaluation.table_format import metric_rows, pct, rated_pct
from assistant.types import STRATEGY_FOR_LEVEL
from models.errors import first_line

AQUA_HUB_ID = "jihyoung/AQuA"


def _hf_dataset_from_path(path: Path, split: str) -> Any:
    """A `datasets.Dataset` for `split` from a save_to_disk folder, parquet / arrow / jsonl files."""
    import datasets as hf

    if (path / "dataset_dict.json").is_file():
        dd = hf.load_from_disk(str(path))
        if split not in dd:
            raise DatasetUnavailable(f"{path} has splits {', '.join(dd)}; not {split!r}")
        return dd[split]
    if (path / "state.json").is_file():  # one Dataset written by save_to_disk
        return hf.load_from_disk(str(path))
    if (path / split / "state.json").is_file():  # the Hub's layout: one save_to_disk folder per split
        return hf.load_from_disk(str(path / split))
    if path.is_file():
        files = [path]
    else:
        files = [p for ext in ("parquet", "arrow", "jsonl") for p in sorted(path.rglob(f"*.{ext}"))]
        files = [
            p
            for p in files
            if p.name.startswith(split) or f"/{split}/" in p.as_posix() or p.parent.name == split
        ] or ([] if len(files) != 1 else files)
    if not files:
        raise DatasetUnavailable(f"no {split} data (save_to_disk folder, parquet, arrow or jsonl) in {path}")
    builder = {"parquet": "parquet", "arrow": "arrow", "jsonl": "json"}[files[0].suffix.lstrip(".")]
    return hf.load_dataset(
        builder, data_files=[str(f) for f in files], split="train", cache_dir=str(default_cache_dir() / "hf")
    )


def _from_the_hub(split: str) -> Any:
    """The published split. The Hub repository holds one `save_to_disk` folder per split
    (`{split}/state.json`, `dataset_info.json`, `data-0000N-of-0000M.arrow`); only that folder is downloaded
    (huggingface_hub, resumable, into the cache) and read with `datasets.load_from_disk`, as it was written.
    A repository without such folders is read by `datasets.load_dataset`, in case it is republished as
    parquet."""
    import datasets as hf
    from huggingface_hub import HfApi, snapshot_download

    cache = default_cache_dir() / "hf"
    root = Path(
        snapshot_download(
            AQUA_HUB_ID, repo_type="dataset", allow_patterns=[f"{split}/*"], cache_dir=str(cache)
        )
    )
    if (root / split / "state.json").is_file():
        return hf.load_from_disk(str(root / split))
    files = HfApi().list_repo_files(AQUA_HUB_ID, repo_type="dataset")
    folders = sorted({f.split("/")[0] for f in files if f.endswith("/state.json")})
    if folders:
        raise DatasetUnavailable(f"AQuA on the Hub has the splits {', '.join(folders)}; not {split!r}")
    return hf.load_dataset(AQUA_HUB_ID, split=split, cache_dir=str(cache))


def _image_ref_from_hf(value: Any, label: str, base: Path | None) -> ImageRef | None:
    """An ImageRef from a `datasets` Image column read with decode=False: {"bytes", "path"}."""
    if isinstance(value, dict):
        if value.get("bytes"):
            return ImageRef("bytes", label or str(value.get("path") or ""), data=value["bytes"])
        if value.get("path"):
            p = Path(value["path"])
            return ImageRef("path", str(p if p.is_absolute() or base is None else base / p))
    if isinstance(value, str) and value:
        p = Path(value)
        return ImageRef("path", str(p if p.is_absolute() or base is None else base / p))
    return None


def load_aqua(data: str | Path | None = None, split: str = "test") -> DatasetLoad:
    import datasets as hf

    notes: list[str] = []
    base: Path | None = None
    if data is None and offline():
        raise DatasetUnavailable(
            f"AQuA comes from Hugging Face {AQUA_HUB_ID} and WHICHONE_OFFLINE is set; "
            "pass --data PATH to a local copy"
        )
    try:
        if data is None:
            ds = _from_the_hub(split)
        else:
            base = materialise(data, "AQuA data")
            ds = _hf_dataset_from_path(base, split)
            base = base if base.is_dir() else base.parent
    except WhichoneError:
        raise
    except Exception as exc:  # datasets raises many kinds (ConnectionError, FileNotFoundError, ...)
        where = AQUA_HUB_ID if data is None else str(data)
        raise DatasetUnavailable(
            f"could not load AQuA ({split}) from {where}: {first_line(exc)}"
            + ("; pass --data PATH to a local copy" if data is None else "")
        ) from exc
    missing = {"image", "question", "level"} - set(ds.column_names)
    if missing:
        raise DatasetUnavailable(f"AQuA data lacks the field(s) {', '.join(sorted(missing))}")
    if isinstance(ds.features.get("image"), hf.Image):
        ds = ds.cast_column("image", hf.Image(decode=False))  # bytes now, pixels only when a run needs them
    examples = []
    for index, row in enumerate(ds):
        filename = str(row.get("filename") or "")
        ref = _image_ref_from_hf(row["image"], filename, base)
        level = row.get("level")
        question = row.get("question")
        if ref is None or not isinstance(question, str) or not question.strip():
            notes.append(f"AQuA {split} row {index}: no image or question; skipped")
            continue
        try:
            level = int(level)
        except (TypeError, ValueError):
            notes.append(f"AQuA {split} row {index}: level {level!r} is not 0-3; skipped")
            continue
        if level not in (0, 1, 2, 3):
            notes.append(f"AQuA {split} row {index}: level {level} is not 0-3; skipped")
            continue
        gold: dict[str, Any] = {"level": level}
        for name, key in (("answer", "answer"), ("hint", "hint"), ("clarified_answer", "clarified_answer")):
            if isinstance(row.get(key), str) and row[key].strip():
                gold[name] = row[key].strip()
        meta = {k: plain_value(v) for k, v in row.items() if k not in ("image", "question", "level", *gold)}
        meta = {k: v for k, v in meta.items() if v is not None}
        ex_id = str(row["id"]) if row.get("id") not in (None, "") else f"{split}-{index}"
        examples.append(Example(ex_id, ref, question.strip(), "aqua", split, gold, meta))
    return DatasetLoad("aqua", split, examples, notes)


@dataclass(frozen=True)
class _SampleColumns:
    answer: str
    hint: str = ""  # level 3: the user's clarification
    clarified_answer: str = ""


# the bundled sample's AQuA columns, by photo (assistant/evaluation/samples.py)
_SAMPLE_COLUMNS = {
    "cat.jpg": _SampleColumns("yellow"),
    "rocket.jpg": _SampleColumns("white"),
    "three-coins.jpg": _SampleColumns("a king's"),
    "coins.jpg": _SampleColumns("a king's", "The coin at the top left.", "king"),
    "three-people.jpg": _SampleColumns("a flight suit", "The woman on the left.", "flight suit"),
}


def _sample(root: Path) -> None:
    """The bundled sample in the Hub's layout (assistant/evaluation/samples.py): one save_to_disk folder
    per split, the photo embedded, level from the strategy each example photo shows."""
    import datasets as hf

    names = ("image", "filename", "level", "question", "answer", "hint", "clarified_answer")
    columns: dict[str, list[object]] = {k: [] for k in names}
    for photo in PHOTO_SET:
        columns["image"].append({"bytes": (PHOTOS / photo.file).read_bytes(), "path": None})
        columns["filename"].append(photo.file)
        columns["level"].append(photo.level)
        columns["question"].append(photo.question)
        own = _SAMPLE_COLUMNS[photo.file]
        columns["answer"].append(own.answer)
        columns["hint"].append(own.hint)
        columns["clarified_answer"].append(own.clarified_answer)
    text = hf.Value("string")
    features = hf.Features(
        {
            "image": hf.Image(),
            "filename": text,
            "level": hf.Value("int64"),
            "question": text,
            "answer": text,
            "hint": text,
            "clarified_answer": text,
        }
    )
    dataset = hf.Dataset.from_dict(columns, features=features)
    for split in ("train", "validation", "test"):
        dataset.save_to_disk(str(root / split))


DATASETS: tuple[DatasetSpec, ...] = (
    DatasetSpec(
        "aqua",
        ("train", "validation", "test"),
        "test",
        f"https://huggingface.co/datasets/{AQUA_HUB_ID}",
        lambda d, s: load_aqua(d, s),
        sample=_sample,
    ),
)


_AQUA_VARIANTS = (
    Variant("base", "Base", "aqua_direct"),
    Variant("cot", "CoT", "aqua_cot"),
    Variant("strategy", "Strategy prompting", "aqua_strategy"),
)


# ------------------------------------------------------------------------------------------ scoring

# where a whichone-strategy record's "aqua_strategy" came from
JUDGED, SELF_REPORTED = "judged", "self-reported"
_LEVEL_OF_STRATEGY = {s.value: int(level) for level, s in STRATEGY_FOR_LEVEL.items()}
_STRATEGY_OF_LEVEL = {level: s for s, level in _LEVEL_OF_STRATEGY.items()}
_LEVELS = "(0 answer, 1 infer, 2 enumerate, 3 clarify)"


def _fits_level(record: ResponseRecord, gold_masks: Sequence[dict[str, Any]]) -> bool:
    level = _LEVEL_OF_STRATEGY.get(str(record.judgement.get("aqua_strategy")))
    return level is not None and level == record.gold.get("level")


def _gold_strategy(record: ResponseRecord) -> str | None:
    level = record.gold.get("level")
    return None if level is None else _STRATEGY_OF_LEVEL.get(int(level))


def _stated_strategy(item: RunItem, judged: bool) -> dict[str, Any]:
    """whichone's pipeline states its own strategy ("pipeline_strategy"), but an AQuA row is scored on the
    strategy a judge reads in the response text. With a judge, "aqua_strategy" is that judged strategy and
    the stated one is scored beside it ("self_reported"); without a judge, "aqua_strategy" is the stated
    one and "strategy_source" says so, for the table to label the row."""
    stated = item.parts["pipeline"]["strategy"]
    out: dict[str, Any] = {
        "pipeline_strategy": stated,
        "strategy_source": JUDGED if judged else SELF_REPORTED,
    }
    if not judged:
        out["aqua_strategy"] = stated
    return out


def _hint_input(question: str, item: RunItem) -> dict[str, Any]:
    """The PASS judge reads the hint and the reference answer beside the final response."""
    gold = item.example.gold
    return {
        **default_judge_input(question, item),
        "hint": gold.get("hint"),
        "reference": gold.get("clarified_answer") or gold.get("answer"),
    }


STRATEGY = Scoring(
    name="aqua-strategy",
    right_means="the response's strategy fits the gold level " + _LEVELS,
    is_right=_fits_level,
    asks=(STRATEGY_JUDGED, FACTUAL),
    judged_label=STRATEGY_JUDGED.name,
    gold_label=_gold_strategy,
)
PIPELINE_STRATEGY = Scoring(
    name="pipeline-strategy",
    right_means="the strategy of whichone's response fits the gold level " + _LEVELS + ", as the judge "
    "read it from the text (without a judge: the strategy the pipeline itself stated)",
    is_right=_fits_level,
    asks=(STRATEGY_JUDGED, FACTUAL),
    direct=_stated_strategy,
    judged_label=STRATEGY_JUDGED.name,
    gold_label=_gold_strategy,
    judge_optional=True,
)
# Table 4's rule; ClearVQA is scored by it too (papers/clearvqa.py)
PASS_AFTER_HINT = Scoring(
    name="pass",
    right_means="the judge says PASS: the answer after the clarification matches the reference",
    is_right=lambda record, gold_masks: record.judgement.get("aqua_clarification") == "PASS",
    asks=(PASS_AFTER_CLARIFICATION,),
    judge_input=_hint_input,
    judged_label=PASS_AFTER_CLARIFICATION.name,
)


# ------------------------------------------------------------------------------------------ aggregation


def _strategy(task: Task, records: list[ResponseRecord], context: MetricsContext) -> dict[str, Any]:
    """Table 2 / Fig. 5: strategic accuracy per level and overall, the confusion, and factual consistency
    (always there: unknown for every item the judge did not rate; the rule judge cannot see the image)."""
    levels = [int(r.gold["level"]) for r in records]
    predicted = [r.judged("aqua_strategy") for r in records]
    out = metrics.aqua_strategy_metrics(levels, predicted)
    if task.scoring is PIPELINE_STRATEGY:
        sources = {r.judgement.get("strategy_source") for r in records} - {None}
        # None when no answered item says (all failed): the report then goes by the run's judge
        out["strategy_source"] = SELF_REPORTED if SELF_REPORTED in sources else JUDGED if sources else None
        # the pipeline's own strategy, scored the same way, beside the judged one
        stated = [r.judged("pipeline_strategy") for r in records]
        out["self_reported"] = metrics.aqua_strategy_metrics(levels, stated)
    factual = [r.judged("aqua_factual") for r in records]
    out["factual"] = metrics.factual_consistency(factual)
    return out


def _pass_rate(task: Task, records: list[ResponseRecord], context: MetricsContext) -> dict[str, Any]:
    """Table 4: PASS rate after one hint turn (unknown counts as not passed)."""
    return metrics.pass_rate([r.judged("aqua_clarification") for r in records])


def _layout_aqua_strategy(task: Task, summary: RunSummary) -> Layout:
    # whichone-strategy: judged from the response text like every AQuA row when a judge was given,
    # with the pipeline's own stated strategy beside it; without a judge only the stated one exists
    pipeline = task.scoring is PIPELINE_STRATEGY
    judged = not pipeline or judged_strategy(summary)
    self_column = ["Overall (self-reported)"] if pipeline and judged else []
    header = [
        "Model",
        "Prompt",
        "Level 0",
        "Level 1",
        "Level 2",
        "Level 3",
        "Overall",
        *self_column,
        "Unk",
        "Factual consistency",
        "Factual unknown",
        "n",
        "Errors",
    ]
    rows = [_strategy_row(r, bool(self_column)) for r in summary.results]
    title, extra = _strategy_title_and_notes(summary, pipeline, judged)
    return title, header, rows, extra


def _strategy_row(r: ResultRow, self_column: bool) -> list[str]:
    m = r.metrics
    per = m.get("per_level", {})
    fc = m.get("factual")
    stated = [pct((m.get("self_reported") or {}).get("overall"))] if self_column else []
    return [
        r.model,
        r.label,
        *(pct(per.get(str(lv), per.get(lv))) for lv in range(4)),
        pct(m.get("overall")),
        *stated,
        pct(m.get("unknown_rate")),
        rated_pct(fc, "rate"),
        pct(fc.get("unknown")) if fc else "-",
        str(m.get("n", 0)),
        str(r.errors),
    ]


def _strategy_title_and_notes(summary: RunSummary, pipeline: bool, judged: bool) -> tuple[str, list[str]]:
    extra: list[str] = []
    if any(
        (r.metrics.get("factual") or {}).get("unknown") == 1.0 for r in summary.results if r.metrics.get("n")
    ):
        extra.append(
            "Factual consistency (AQuA Section 4.2) needs a judge that sees the image: an LLM judge "
            "(`--judge` with a VLM or server); the rule judge leaves it unknown."
        )
    title = "AQuA strategic accuracy (%), as Table 2"
    if pipeline and judged:
        title = (
            "whichone strategic accuracy (%), as AQuA Table 2: the strategy judged from the response "
            "text, as for every AQuA row; beside it, the pipeline's own stated strategy"
        )
    elif pipeline:
        title = (
            "whichone strategic accuracy (%), AQuA Table 2 layout: SELF-REPORTED strategy (no judge), "
            "not comparable with AQuA rows judged from the response text"
        )
    if pipeline:
        extra.append(
            "Strategy: judged from whichone's response text (comparable with the AQuA rows); "
            "self-reported: the strategy the pipeline itself stated."
            if judged
            else "Strategy: the pipeline's own stated strategy, as no judge was given; run with "
            "--judge rules or an LLM judge for the number comparable with the AQuA rows."
        )
    return title, extra


def _layout_pass_rate(task: Task, summary: RunSummary) -> Layout:
    extra: list[str] = []
    header = ["Model", "Prompt", "PASS rate", "Unknown", "n", "Errors"]
    rows = [
        [*row[:2], rated_pct(r.metrics, "rate"), *row[3:]]
        for r, row in zip(summary.results, metric_rows(summary.results, pct, "rate", "unknown"), strict=True)
    ]
    return "Two-turn clarification PASS rate (%), as AQuA Table 4", header, rows, extra


def judged_strategy(summary: RunSummary) -> bool:
    """Whether a whichone-strategy run's strategies were judged from the text (a judge was given)."""
    sources = {r.metrics.get("strategy_source") for r in summary.results}
    if sources - {None}:
        return SELF_REPORTED not in sources
    return bool(summary.judge)  # no answered item says which: the run's judge does


def _asks_for_clarification(example: Example) -> bool:
    return example.gold.get("level") == 3


# the clarification subset (Table 4): the level-3 questions, which call for a clarifying question
CLARIFICATION_SUBSET = Subset(_asks_for_clarification, "at level 3")


TASKS: tuple[Task, ...] = (
    Task(
        name="aqua-strategy",
        description="AQuA: does the response's strategy fit the ambiguity level (0 answer, 1 infer, "
        "2 enumerate, 3 clarify)? plus factual consistency",
        dataset="aqua",
        kind=VQA_KIND,
        variants=_AQUA_VARIANTS,
        scoring=STRATEGY,
        aggregate=_strategy,
        layout=_layout_aqua_strategy,
        reproduces="AQuA Table 2, Fig. 5",
        default_judge="rules",
        plots=("confusion",),
        settings=GREEDY_256,
    ),
    Task(
        name="aqua-clarification",
        description="AQuA two-turn clarification: level-3 question, the model's reply, a "
        "disambiguating hint, and PASS when the final answer matches the reference",
        dataset="aqua",
        kind=TwoTurn(),
        variants=(Variant("base", "Base", "aqua_direct"),),
        scoring=PASS_AFTER_HINT,
        aggregate=_pass_rate,
        layout=_layout_pass_rate,
        reproduces="AQuA Table 4",
        default_judge="rules",
        needs=("hint", "clarified_answer"),
        subset=CLARIFICATION_SUBSET,
        settings=GREEDY_256,
    ),
    Task(
        name="whichone-strategy",
        description="whichone itself as the model: its pipeline's strategy (answer / infer / "
        "enumerate / clarify) on AQuA, with the named VLM inside",
        dataset="aqua",
        kind=PIPELINE_KIND,
        variants=(Variant("whichone", "whichone pipeline", "aqua_direct"),),
        scoring=PIPELINE_STRATEGY,
        aggregate=_strategy,
        layout=_layout_aqua_strategy,
        reproduces="AQuA Table 2 / Fig. 5 layout, whichone as one more row",
        # judged from the reply text like every AQuA row (the pipeline's own strategy is kept beside)
        default_judge="rules",
        plots=("confusion",),
    ),
)


PAPER = Paper(
    name="aqua",
    title="AQuA (Jeong et al.)",
    judge="GPT-5-mini, 98.5% agreement with people on 400 judgements",
    datasets=DATASETS,
    tasks=TASKS,
    questions=QUESTIONS,
)
