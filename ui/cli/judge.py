"""`whichone judge-agreement`: a judge measured against labelled responses. The benchmark code (sklearn,
statsmodels) loads inside the command, so that no other command waits for it."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated

import typer

from ui.cli.errors import user_errors


@user_errors
def judge_agreement_command(
    judge: Annotated[
        str,
        typer.Option(
            help="`rules` (gated), `rules-ungated`, a VLM registry name (LLM judge), or `rules+MODEL` "
            "(rules, then MODEL)."
        ),
    ] = "rules",
    labelled: Annotated[
        Path | None, typer.Option(help="Labelled JSONL (default: the papers' examples).")
    ] = None,
    task: Annotated[
        str | None, typer.Option(help="A judge question (default: every one in the file).")
    ] = None,
    as_json: Annotated[
        bool, typer.Option("--json", help="Print JSON: per question n, coverage, kappas, intervals, items.")
    ] = False,
    max_new_tokens: Annotated[
        int | None, typer.Option(help="An LLM judge's reply length (default: per judge question).")
    ] = None,
) -> None:
    """Measure a judge against labelled responses: Cohen's kappa and a confusion matrix."""
    from assistant.evaluation.judges import (
        agreement_json,
        create_judge,
        format_agreement,
        judge_agreement,
        judge_settings,
        load_labelled,
    )
    from assistant.evaluation.records import json_safe

    items = load_labelled(labelled)
    tasks = [task] if task else sorted({str(item["task"]) for item in items})
    chosen = create_judge(judge, settings=judge_settings(max_new_tokens))
    if as_json:
        report = json_safe(agreement_json(chosen, items, tasks, labelled))  # NaN -> null
        typer.echo(json.dumps(report, indent=1, allow_nan=False))
        return
    for name in tasks:
        typer.echo(f"== {name}")
        typer.echo(format_agreement(judge_agreement(chosen, items, name)))
