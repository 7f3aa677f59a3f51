"""RAcQUEt Table 1 (racquet-saliency) end to end, and focus-localisation's Table 3 prompt variants.

Saliency runs on scenes with known shapes (tests/eval_fixtures.py: SALIENCY_LAYOUTS) answered by a scripted
model, judged by the rule judge, and mapped by the blobs pointer, so every number is known beforehand; the
`whichone bench` command runs it with the tiny model too.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from assistant.evaluation.datasets import DatasetUnavailable
from assistant.evaluation.own_pipeline import focus_phrase
from assistant.evaluation.papers.racquet.saliency import random_pick
from assistant.evaluation.runner import RunConfig, RunError, run_benchmark
from models import registry
from models.errors import ModelUnavailable
from prompts import render_prompt
from tests import eval_fixtures as fx
from ui.cli import app


@pytest.fixture
def cache_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    path = tmp_path / "cache"
    monkeypatch.setenv("WHICHONE_CACHE_DIR", str(path))
    monkeypatch.delenv("WHICHONE_OFFLINE", raising=False)
    return path


@pytest.fixture(scope="module")
def saliency_data(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """The saliency jsonl, its images served over HTTP as RAcQUEt's are."""
    root = tmp_path_factory.mktemp("saliency")
    with fx.serve_folder(root) as base:
        yield fx.make_racquet_saliency(root, base)


def _config(data: Path, tmp_path: Path, **kw: Any) -> RunConfig:
    defaults: dict[str, Any] = dict(
        task="racquet-saliency",
        models=["scripted"],
        judge="rules",
        data=str(data),
        out_dir=tmp_path / "out",
        cache_path=tmp_path / "cache.sqlite",
        pointer="blobs",
        progress=False,
        vlm_factory=lambda name: fx.ScriptedVLM(fx.saliency_answers(), name=name),
    )
    defaults.update(kw)
    return RunConfig(**defaults)


# ------------------------------------------------------------------------------------------ racquet-saliency


def test_saliency_end_to_end_matches_the_hand_computed_table(
    saliency_data: Path, cache_dir: Path, tmp_path: Path
) -> None:
    config = _config(saliency_data, tmp_path, seed=3)
    result = run_benchmark(config)
    # lines 6 and 7 have no usable referents: counted, named, left out
    assert "2 of 7 example(s) lack referents and are left out" in result.notes
    assert any("line 7: 'referents' box 0" in n for n in result.notes)
    by_id = {r.id: r for r in result.records}
    assert sorted(by_id) == ["0", "1", "2", "3", "4"]
    classes = {i: r.judgement["racquet_class"] for i, r in by_id.items()}
    assert classes == {"0": "C", "1": "B", "2": "B", "3": "A", "4": "C"}
    # the pointer found each named colour's shape exactly; the A answer was never pointed at
    assert by_id["0"].parts["saliency"]["box"] == [10.0, 10.0, 70.0, 70.0]
    assert [by_id[i].parts["saliency"]["chosen"] for i in "012"] == [0, 2, 1]  # red, green, red
    assert [by_id[i].parts["saliency"]["hit"] for i in "012"] == [True, False, True]
    assert "saliency" not in by_id["3"].parts
    assert by_id["4"].parts["saliency"]["unmapped"] == "no pointer hit"  # nothing yellow in the scene
    m = result.summary.results[0].metrics
    assert (m["n_responses"], m["n_single"], m["n"], m["n_unmatched"]) == (5, 4, 3, 1)
    assert m["model_rate"] == pytest.approx(2 / 3)
    # random baseline: "apart" and "swapped" have 2 of 3 salient referents, "one-salient" 1 of 3
    assert m["random_rate"] == pytest.approx((2 / 3 + 1 / 3 + 2 / 3) / 3)
    salient = [{0, 1}, {0}, {1, 2}]  # per mapped example 0, 1, 2: largest U centre-most
    rand = [random_pick(3, f"racquet-general/all/{i}", 3) in salient[i] for i in range(3)]
    model = [True, False, True]
    pairs = list(zip(model, rand, strict=True))
    table = [[pairs.count((mh, rh)) for rh in (True, False)] for mh in (True, False)]
    assert m["table"] == table and m["seed"] == 3
    # 5 answers and 4 pointings (the four B/C answers), all cached
    assert result.model_calls == 9
    text = (result.out_dir / "table.md").read_text()
    assert "| Responses (% of mapped B/C) | 66.7 |" in text and "| Random (%) | 55.6 |" in text
    assert "| B/C responses not mapped | 1 (no pointer hit: 1) |" in text
    assert "| B/C of judged responses (classes) | 4 / 5 (A: 1, B: 2, C: 2) |" in text
    assert "seeded by --seed (3)" in text and "pointer `blobs`" in text
    summary = json.loads((result.out_dir / "summary.json").read_text())
    assert summary["pointer"] == "blobs" and summary["results"][0]["metrics"]["table"] == table
    again = run_benchmark(config)
    assert again.model_calls == 0 and again.summary == result.summary and again.records == result.records
    # another seed: other simulated picks, the same model outcomes (--seed also seeds generation, so the
    # model is asked again; the pointer's hits for the same texts come from the cache)
    other = run_benchmark(_config(saliency_data, tmp_path, seed=4, out_dir=tmp_path / "seed4"))
    om = other.summary.results[0].metrics
    assert other.model_calls == 5 and om["model_rate"] == m["model_rate"] and om["seed"] == 4
    rand4 = [random_pick(4, f"racquet-general/all/{i}", 3) in salient[i] for i in range(3)]
    assert [row[0] + row[1] for row in om["table"]] == [2, 1] and om["table"][0][0] + om["table"][1][
        0
    ] == sum(rand4)


def test_saliency_without_referents_is_a_one_line_error(cache_dir: Path, tmp_path: Path) -> None:
    paths = fx.make_racquet(tmp_path / "plain", "http://127.0.0.1:9", n_images=3)  # as published: no boxes
    with pytest.raises(DatasetUnavailable) as info:
        run_benchmark(_config(paths["general"], tmp_path))
    message = str(info.value)
    assert "\n" not in message
    assert message.startswith("racquet-general (all) has no examples with referents")
    assert "'referents' field, a list of [x0, y0, x1, y1] boxes in image pixels" in message


def test_unknown_pointer_fails_before_any_answer(
    saliency_data: Path, cache_dir: Path, tmp_path: Path
) -> None:
    with pytest.raises(ModelUnavailable, match="there is no pointer named 'nope'"):
        run_benchmark(_config(saliency_data, tmp_path, pointer="nope"))
    assert not (tmp_path / "out").exists()


def test_whichone_bench_racquet_saliency_with_the_tiny_model(
    bench_env: Path, saliency_data: Path, tmp_path: Path
) -> None:
    args = [
        "bench",
        "run",
        "racquet-saliency",
        "--model",
        "tiny",
        "--judge",
        "rules",
        "--data",
        str(saliency_data),
        "--out",
        str(tmp_path / "out"),
        "--cache",
        str(tmp_path / "cache.sqlite"),
        "--max-new-tokens",
        "8",
        "--no-progress",
    ]
    first = CliRunner().invoke(app, args)
    assert first.exit_code == 0, first.stderr
    assert "RAcQUEt Table 1" in first.stdout and "| Responses (% of mapped B/C) |" in first.stdout
    # the tiny model's answers are noise: whatever their classes, all five are judged and counted
    assert re.search(r"\| B/C of judged responses \(classes\) \| \d / 5 \(", first.stdout)
    assert "pointer `vlm-boxes`" in first.stdout
    calls = re.search(r"model calls: (\d+) \(cache hits: (\d+)\)", first.stdout)
    assert calls and int(calls.group(1)) >= 5  # five answers, and the tiny VLM pointing at B/C answers
    again = CliRunner().invoke(app, args)
    assert again.exit_code == 0 and "model calls: 0 " in again.stdout
    assert again.stdout.split("examples:")[0] == first.stdout.split("examples:")[0]
    # the published format without boxes: one line on stderr, exit 2
    plain = fx.make_racquet(tmp_path / "plain", "http://127.0.0.1:9", n_images=2)["general"]
    failed = CliRunner().invoke(app, [*args[:7], "--data", str(plain), *args[9:]])
    assert failed.exit_code == 2
    assert failed.stderr.startswith("error: racquet-general (all) has no examples with referents")
    assert failed.stderr.count("\n") == 1


# ----------------------------------------------------------------------------------------- focus-localisation


class _MolmoLike(fx.ScriptedVLM):
    """Answers every prompt with two Molmo2 points, and keeps the prompts it was sent."""

    def __init__(self) -> None:
        super().__init__({}, name="molmo-like")
        self.prompts: list[str] = []

    def generate(self, messages: Sequence[Any], settings: Any = None) -> str:
        self.prompts.append(messages[-1].text)
        return 'Step 1 ... <points coords="1 1 250 500 2 750 500">cup</points>'


@pytest.fixture
def molmo_like(monkeypatch: pytest.MonkeyPatch) -> _MolmoLike:
    """A pointer named `test-molmo` in the registry: Molmo point tags from a scripted VLM."""
    from models.vlm_pointer import VLMPointer

    vlm = _MolmoLike()
    spec = registry.ModelSpec(
        name="test-molmo",
        kind="pointer",
        description="scripted Molmo points (tests)",
        factory=lambda **_: VLMPointer(vlm, output="molmo", name="test-molmo"),
    )
    monkeypatch.setitem(registry._REGISTRY, ("pointer", "test-molmo"), spec)
    return vlm


def test_localisation_runs_the_papers_prompts_on_a_molmo_pointer(
    molmo_like: _MolmoLike, cache_dir: Path, tmp_path: Path
) -> None:
    folder = fx.make_focus_ambiguity(tmp_path / "vqfa", n=3)
    config = RunConfig(
        task="focus-localisation",
        models=["test-molmo"],
        data=str(folder),
        out_dir=tmp_path / "out",
        cache_path=tmp_path / "cache.sqlite",
        segmenter="none",
        progress=False,
    )
    result = run_benchmark(config)
    labels = [r.label for r in result.summary.results]
    assert labels == ["ZS", "ZS-CoT", "ZS-ECoT", "FS", "FS-ECoT", "whichone focus phrase"]
    assert result.model_calls == 18 and len(molmo_like.prompts) == 18  # 3 examples x 6 variants
    question = "What is on the table?"  # example 0's
    for variant in ("zs", "zs_cot", "zs_ecot", "fs", "fs_ecot"):
        sent = render_prompt(f"focus_localisation_{variant}", question=question)
        assert sent in molmo_like.prompts and "point" in sent and "“ambiguous”" not in sent
    phrase = render_prompt("point_molmo", phrase=focus_phrase(question))
    assert phrase in molmo_like.prompts  # whichone's own grounding: the pointer's own prompt
    zs = next(r for r in result.records if r.variant == "zs")
    assert "localisation" in zs.parts
    assert len(zs.parts["localisation"]["masks"]) == 2 and zs.parts["localisation"]["output"].startswith(
        "Step 1"
    )
    table = (result.out_dir / "table.md").read_text()
    for label in labels:
        assert f"| test-molmo | {label} |" in table
    again = run_benchmark(config)
    assert again.model_calls == 0 and again.summary == result.summary


def test_localisation_keeps_the_focus_phrase_variant_for_a_phrase_pointer(
    cache_dir: Path, tmp_path: Path
) -> None:
    folder = fx.make_focus_ambiguity(tmp_path / "vqfa", n=2)
    base: dict[str, Any] = dict(
        task="focus-localisation",
        models=["blobs"],
        data=str(folder),
        out_dir=tmp_path / "out",
        cache_path=tmp_path / "cache.sqlite",
        segmenter="none",
        progress=False,
    )
    result = run_benchmark(RunConfig(**base, variants=["zs", "focus-phrase"]))
    assert [r.variant for r in result.summary.results] == ["focus-phrase"]
    assert any("pointer blobs points at a phrase and takes no prompt" in n for n in result.notes)
    with pytest.raises(RunError, match="need a Molmo pointer .*choose --variant focus-phrase"):
        run_benchmark(RunConfig(**base, variants=["zs", "fs"]))
