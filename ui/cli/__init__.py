"""`whichone` on the command line: the typer app, one module per command or group of commands (ask, models,
judge, serve, selfcheck, perf, bench), registered here in the order `whichone --help` lists them.

A user-facing failure (bad image, empty question, model not available, server down) prints one line to
stderr and exits with status 2, never a traceback (ui/cli/errors.py).
"""

from __future__ import annotations

import typer

from assistant.settings import install as install_settings
from ui.cli.ask import ask, focus, parse_grounding_command
from ui.cli.bench import bench_app
from ui.cli.judge import judge_agreement_command
from ui.cli.models import download_command, list_models_command, list_settings_command, list_stacks_command
from ui.cli.perf import perf
from ui.cli.selfcheck import selfcheck_command
from ui.cli.serve import serve


def _configure() -> None:
    """Before any command: models/ read WHICHONE_* through the settings (nothing does this on import)."""
    install_settings()


app = typer.Typer(
    name="whichone",
    callback=_configure,
    help="An ambiguity-aware visual question answering assistant.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    # plain help: rich's panels print flags as `--yes <bool>` and draw boxes a screen reader spells out
    rich_markup_mode=None,
)

app.command()(ask)
app.command()(focus)
app.command("parse-grounding")(parse_grounding_command)
app.command("models")(list_models_command)
app.command("stacks")(list_stacks_command)
app.command("download")(download_command)
app.command("settings")(list_settings_command)
app.command("judge-agreement")(judge_agreement_command)
app.command()(serve)
app.command("selfcheck")(selfcheck_command)
app.command("perf")(perf)
app.add_typer(bench_app, name="bench")
