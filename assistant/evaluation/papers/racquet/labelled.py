"""RAcQUEt's labelled sets: the responses the paper itself classifies (the judges' default set, whose lines
name no judge question: they are all `racquet_class`), and this project's RAcQUEt dev set. The files are
in assistant/evaluation/data/ (who wrote them, when, how: its README.md)."""

from pathlib import Path

DATA_DIR = Path(__file__).resolve().parents[2] / "data"
PAPER_LABELLED = DATA_DIR / "racquet_labelled.jsonl"
# the question of a labelled line that names none (the paper's own set has no "task")
PAPER_LABELLED_QUESTION = "racquet_class"
# a dev / regression set, written by this project and labelled before rule changes
HELDOUT_LABELLED = DATA_DIR / "racquet_heldout.jsonl"
