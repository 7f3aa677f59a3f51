"""The import graph's contract (read from the source by scripts/import_graph.py): layers point down
(prompts <- models <- assistant <- assistant.evaluation <- ui, the web app and the CLI <- app.py), no two
modules import each other, and imports sit at the top of modules except where a heavy module is deferred on
purpose.

The four arrows from models/ up to assistant.settings / assistant.errors are the settings reads still to
move to the edge (issue 22): listed here so that no new one can come in unseen.
"""

from __future__ import annotations

from scripts.import_graph import read_graph

GRAPH = read_graph()

KNOWN_UPWARD: set[tuple[str, str]] = set()  # none: settings reach models as values (models/config.py)

# module -> why it imports some of the project's modules inside functions
DEFERRED = {
    "ui.cli.judge": "the judge-agreement command alone loads the benchmark (sklearn, statsmodels)",
    "ui.cli.bench": "`whichone bench list` and --help stay quick without sklearn and pycocotools",
    "ui.serve": "gradio loads only when the server starts, after the RAM upload folder is made",
    "ui.cli.serve": "the app and gradio load only for `whichone serve`, not for every command",
}


def test_no_module_imports_one_that_imports_it_back() -> None:
    assert GRAPH.circles() == []


def test_layers_point_down() -> None:
    assert GRAPH.upward() == KNOWN_UPWARD, sorted(GRAPH.upward())


def test_imports_sit_at_the_top_unless_deferred_on_purpose() -> None:
    assert set(GRAPH.local) <= set(DEFERRED), sorted(set(GRAPH.local) - set(DEFERRED))


def test_the_graph_reader_sees_local_and_upward_imports(tmp_path) -> None:
    """The reader itself, on a made-up tree: a function-local upward import and a circle are found."""
    for package in ("prompts", "models", "assistant", "ui"):
        (tmp_path / package).mkdir()
        (tmp_path / package / "__init__.py").write_text("")
    (tmp_path / "app.py").write_text("import ui\n")
    (tmp_path / "models" / "a.py").write_text("def f():\n    from assistant.b import x\n")
    (tmp_path / "assistant" / "b.py").write_text("from models.a import f\nx = 1\n")
    graph = read_graph(tmp_path)
    assert graph.upward() == {("models.a", "assistant.b")}
    assert graph.local == {"models.a": [("assistant.b", 2)]}
    assert graph.circles() == [["assistant.b", "models.a"]]
