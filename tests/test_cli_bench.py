"""`whichone bench`: the two must-show commands end to end on fixtures the tests make, with the tiny model;
the second run of each is served entirely from the cache (0 model calls, shown in the output)."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from ui.cli import app

# The tiny model's replies are noise: short is enough, and the rules read none of them, which fails a run by
# default (--max-unknown-rate); these tests read the run's files, so they accept it.
FAST = ["--max-new-tokens", "8", "--no-progress", "--max-unknown-rate", "1"]


def _bench(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(app, ["bench", *args])
    if result.exception and not isinstance(result.exception, SystemExit):
        raise result.exception
    return result.exit_code, result.stdout, result.stderr


def _calls(stdout: str) -> tuple[int, int]:
    match = re.search(r"model calls: (\d+) \(cache hits: (\d+)\)", stdout)
    assert match, stdout
    return int(match.group(1)), int(match.group(2))


def test_bench_list_names_every_task() -> None:
    code, out, _ = _bench("list")
    assert code == 0
    for name in (
        "racquet-general",
        "racquet-bias",
        "focus-recognition",
        "focus-localisation",
        "aqua-strategy",
        "aqua-clarification",
        "clearvqa-clarification",
        "whichone-strategy",
    ):
        assert re.search(rf"^{name} ", out, re.M), name
    assert "VQ-FocusAmbiguity Table 2" in out and "RAcQUEt Fig. 3" in out


def test_must_show_focus_recognition_then_cached(bench_env, bench_data, tmp_path: Path) -> None:
    args = [
        "run",
        "focus-recognition",
        "--model",
        "tiny",
        "--limit",
        "20",
        "--data",
        str(bench_data["vqfa"]),
        "--out",
        str(tmp_path / "out"),
        "--cache",
        str(tmp_path / "cache.sqlite"),
        *FAST,
    ]
    code, out, err = _bench(*args)
    assert code == 0, err
    assert "| Model | Prompt | Acc. | F1 | Pos. | UR | n | Errors |" in out
    for label in ("ZS", "ZS-CoT", "ZS-ECoT", "FS", "FS-ECoT"):
        assert f"| tiny | {label} |" in out
    assert _calls(out) == (100, 0)  # 20 examples x 5 prompts
    assert "20 examples (a seeded sample: --limit 20, seed 0)." in out and "None" not in out
    summary = json.loads((tmp_path / "out" / "summary.json").read_text())
    assert [r["metrics"]["n"] for r in summary["results"]] == [20] * 5
    for r in summary["results"]:
        m = r["metrics"]
        assert abs(m["positive_rate_all"] + m["negative_rate_all"] + m["undecided_rate"] - 1) < 1e-9
    assert (tmp_path / "out" / "confusion.png").stat().st_size > 1000

    code, again, err = _bench(*args)
    assert code == 0, err
    assert _calls(again) == (0, 100)
    table = again.split("examples:")[0]
    assert table == out.split("examples:")[0]  # same numbers from the cache


def test_must_show_racquet_general_rules_then_cached(bench_env, bench_data, tmp_path: Path) -> None:
    args = [
        "run",
        "racquet-general",
        "--model",
        "tiny",
        "--judge",
        "rules",
        "--limit",
        "20",
        "--data",
        str(bench_data["general"]),
        "--out",
        str(tmp_path / "out"),
        "--cache",
        str(tmp_path / "cache.sqlite"),
        *FAST,
    ]
    code, out, err = _bench(*args)
    assert code == 0, err
    assert "| Model | Prompt | Explicit (A) | Implicit (B) | High risk (C) |" in out
    # 20 questions x 3 prompts; the question whose image answers 404 fails alone, for each prompt
    assert _calls(out) == (57, 0)
    assert "examples: 20; items: 60; errors: 3" in out
    assert "model calls: 57 (cache hits: 0); 1 of 20 examples failed: image unavailable\n" in out
    assert "Warning" not in out  # 3 of 60 items failed: 5%, under the 10% that warns
    assert "image unavailable" in err and "HTTP 404" in err
    code, again, err = _bench(*args)
    assert code == 0, err
    assert _calls(again) == (0, 57)
    assert "model calls: 0 (cache hits: 57); 1 of 20 examples failed: image unavailable\n" in again
    assert (tmp_path / "out" / "classes.png").is_file() and (tmp_path / "out" / "table.md").is_file()
    # the table and summary.json name the judge and its agreement on the frozen held-out set only (its
    # file, size and hash, kappa with its interval, coverage), never an in-sample figure
    line = next(x for x in again.splitlines() if x.startswith("Judge: rules; agreement"))
    printed = printed_heldout()  # the set, its per-question sizes and hash (test_judges checks it is frozen)
    named = f"(held-out {printed['name']}, n={printed['racquet_class']}, sha256 {printed['sha256'][:8]})"
    assert "racquet_class kappa" in line and named in line, line
    assert "racquet_cot kappa" in line and "95% CI" in line and "coverage" in line
    assert "in-sample" not in line
    # beside it, the judge the paper used and its agreement with people
    assert (
        "The paper's own judge: Meta-Llama-3-70B-Instruct, Cohen's kappa with people 0.94 on the classes "
        "and 0.76 on CoT mentions." in again
    )
    summary = json.loads((tmp_path / "out" / "summary.json").read_text())
    sets = {(r["task"], r["set"]): r for r in summary["judge_agreement"]}
    assert {s for _, s in sets} == {"held-out"}
    assert sets[("racquet_class", "held-out")]["n"] == printed["racquet_class"]
    assert sets[("racquet_cot", "held-out")]["n"] == printed["racquet_cot"]
    assert len(sets[("racquet_cot", "held-out")]["kappa_ci"]) == 2
    code = summary["provenance"]["code"]
    assert code.get("git_commit") or code.get("package_version")


def printed_heldout() -> dict[str, Any]:
    """The held-out set printed as agreement (judges.LABELLED_SETS): file name, sha256, items per task."""
    from collections import Counter

    from assistant.evaluation.judges import LABELLED_SETS, labelled_set_facts, load_labelled

    ((_, (path,)),) = LABELLED_SETS
    return {**labelled_set_facts(path), **Counter(str(r["task"]) for r in load_labelled(path))}


def test_a_run_where_every_example_failed_says_so_beside_model_calls_0(
    bench_env, bench_data, tmp_path: Path
) -> None:
    # five questions whose images the server does not have (404): nothing can be asked
    data = tmp_path / "racquet_general.jsonl"
    lines = [
        {"id": i, "image_url": f"{bench_data['base_url']}/img/gone_{i}.jpg", "question": "What is it?"}
        for i in range(5)
    ]
    data.write_text("".join(json.dumps(line) + "\n" for line in lines))
    args = ["run", "racquet-general", "--model", "tiny", "--variant", "direct", "--data", str(data)]
    args += ["--out", str(tmp_path / "out"), "--cache", str(tmp_path / "cache.sqlite"), *FAST]
    code, out, err = _bench(*args)
    # a run with no result exits non-zero (a script must not read its table as one), with one line
    assert code == 1, (out, err)
    said = "error: every item failed; 5 of 5 examples failed: image unavailable. The run has no result."
    assert said in err
    # not to be read as a fully cached rerun, which also makes 0 calls
    assert "model calls: 0 (cache hits: 0); 5 of 5 examples failed: image unavailable\n" in out
    assert "examples: 5; items: 5; errors: 5" in out
    assert "; 5 examples (all)." in out and "limit None" not in out
    assert "**Warning: all 5 items failed**" in out
    assert (tmp_path / "out" / "summary.json").is_file()
    assert "**Warning: all 5 items failed**" in (tmp_path / "out" / "table.md").read_text()


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["run", "nope", "--model", "tiny"], "error: there is no task 'nope'"),
        (
            ["run", "racquet-general", "--model", "tiny", "--data", "/nonexistent/racquet"],
            "error: there is no RAcQUEt",
        ),
        (["run", "racquet-general"], "error: name at least one --model"),
        (
            ["run", "racquet-general", "--model", "tiny", "--judge", "none", "--data", "{general}"],
            "needs a judge",
        ),
        (
            ["run", "racquet-general", "--model", "tiny", "--variant", "zero", "--data", "{general}"],
            "no variant 'zero'",
        ),
    ],
)
def test_bad_commands_print_one_line(
    args: list[str], message: str, bench_env, bench_data, tmp_path: Path
) -> None:
    args = [a.replace("{general}", str(bench_data["general"])) for a in args]
    code, out, err = _bench(*args, "--cache", str(tmp_path / "c.sqlite"), "--out", str(tmp_path / "o"))
    assert code == 2
    assert message in err and len(err.strip().splitlines()) == 1, err


def test_a_damaged_cache_is_one_line_and_stays_as_it_was(bench_env, bench_data, tmp_path: Path) -> None:
    damaged = tmp_path / "responses.sqlite"
    damaged.write_bytes(b"SQLite format 3\x00" + b"\x07" * 300)  # a truncated, overwritten database
    before = damaged.read_bytes()
    code, out, err = _bench(
        "run", "focus-recognition", "--model", "tiny", "--limit", "2", "--data", str(bench_data["vqfa"]),
        "--cache", str(damaged), "--out", str(tmp_path / "o"),
    )  # fmt: skip
    assert code == 2, (out, err)
    assert "response cache" in err and "cannot be read" in err and "move it aside" in err, err
    assert len(err.strip().splitlines()) == 1 and "Traceback" not in err
    assert damaged.read_bytes() == before  # nothing already cached is lost by trying


def test_bench_fetch_downloads_a_tasks_images_ahead_then_the_run_works_offline(
    bench_env, bench_data, tmp_path: Path, monkeypatch
) -> None:
    import shutil

    from assistant.evaluation.fetch import ImageFetcher

    shutil.rmtree(ImageFetcher().cache_dir, ignore_errors=True)  # a first fetch, from nothing
    args = ["fetch", "racquet-general", "--data", str(bench_data["general"]), "--limit", "6", "--no-progress"]
    code, out, err = _bench(*args)
    # 6 examples of the seeded sample: each image fetched once (two questions may share one image: the
    # second finds it cached), the fixture's one 404 image failing if it is among them
    line = next(x for x in out.splitlines() if x.startswith("racquet-general: 6 examples"))
    cached, fetched = (
        int(n) for n in re.search(r"; (\d+) images already cached; (\d+) fetched", line).groups()
    )
    failed = (
        int(m.group(1)) if (m := re.search(r"; (\d+) failed \(first: could not download image", line)) else 0
    )
    assert fetched >= 1 and cached + fetched + failed == 6
    assert code == (1 if failed else 0) and (failed or "runs of it work offline" in out)
    # a rerun resumes: everything fetched before is cached, nothing is fetched again
    code2, again, _ = _bench(*args)
    line = next(x for x in again.splitlines() if x.startswith("racquet-general: 6 examples"))
    assert f"{cached + fetched} images already cached; 0 fetched" in line and code2 == code
    # offline, a run of those examples asks the model for every fetched one
    monkeypatch.setenv("WHICHONE_OFFLINE", "1")
    run = [
        "run",
        "racquet-general",
        "--model",
        "tiny",
        "--judge",
        "rules",
        "--variant",
        "direct",
        "--limit",
        "6",
    ]
    run += ["--data", str(bench_data["general"]), "--out", str(tmp_path / "out")]
    run += ["--cache", str(tmp_path / "cache.sqlite"), *FAST]
    code3, table, err3 = _bench(*run)
    assert code3 == 0, err3
    assert f"examples: 6; items: 6; errors: {failed}" in table


def test_bench_fetch_without_a_task_or_with_an_unknown_one_is_one_line() -> None:
    code, _, err = _bench("fetch")
    assert code == 2 and "Missing argument 'TASK'" in err
    code, _, err = _bench("fetch", "nope", "--no-progress")
    assert code == 2 and "there is no task 'nope'" in err
