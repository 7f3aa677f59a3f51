"""The Ask tab's photos to try: each file is small, openly licensed, described and credited (in the app
and docs/using-the-app.md, which the README links), shows a strategy, and only a byte-exact copy of one
passes the upload gate."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from PIL import Image

from assistant.errors import InputError
from assistant.types import Strategy
from ui.example_photos import EXAMPLES_DIR, example_photos, examples_markdown, is_example
from ui.uploads import Upload, UploadGate

PAGE = Path(__file__).resolve().parents[1] / "docs" / "using-the-app.md"
OPEN_LICENCES = {"CC0", "public domain", "no known copyright restrictions"}


def test_every_example_is_a_small_openly_licensed_described_photo() -> None:
    photos = example_photos()
    assert {p.file for p in photos} == {p.name for p in EXAMPLES_DIR.glob("*.jpg")}  # none unrecorded
    for photo in photos:
        assert photo.path.stat().st_size < 300_000, photo.file
        with Image.open(photo.path) as image:
            image.verify()
        assert set(photo.licence.split("; ")) <= OPEN_LICENCES, photo.licence
        assert len(photo.alt) > 40 and photo.alt.endswith("."), photo.file  # a sentence, not a file name
        assert photo.credit and photo.url.startswith("https://") and photo.question.endswith("?")
        assert len(photo.label()) <= 60  # Gradio cuts longer example labels


def test_the_examples_cover_every_strategy_and_the_bias_trap() -> None:
    shown = {p.shows for p in example_photos()}
    assert shown == set(Strategy)
    assert any("assertive" in p.question and "bias" in p.why for p in example_photos())


def test_the_page_text_and_the_docs_credit_every_photo() -> None:
    text, readme = examples_markdown(), PAGE.read_text(encoding="utf-8")
    for photo in example_photos():
        assert photo.alt in text and photo.credit in text and photo.url in text
        assert photo.file in readme and photo.url in readme, photo.file
        for credit in photo.credit.split("; "):
            assert credit in readme, credit


def test_the_gate_takes_gradios_copy_of_an_example_and_nothing_else(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("GRADIO_TEMP_DIR", str(tmp_path))
    gate = UploadGate(received=set())  # no upload made: only an example's copy may pass
    copy = tmp_path / "0123abcd" / "three-coins.jpg"
    copy.parent.mkdir()
    shutil.copyfile(example_photos()[2].path, copy)
    assert is_example(copy) and gate.check(str(copy)) == Upload(str(copy), is_example=True)

    altered = tmp_path / "4567" / "three-coins.jpg"  # same name, other bytes
    altered.parent.mkdir()
    altered.write_bytes(copy.read_bytes()[:-1] + b"\0")
    link = tmp_path / "link.jpg"  # a link in the folder to the original, outside the folder
    link.symlink_to(example_photos()[2].path)
    for path in (altered, link, example_photos()[2].path):
        with pytest.raises(InputError):
            gate.check(str(path))
    # the same altered file, once Gradio has received it as an upload: it passes, as the session's own
    assert UploadGate(received={str(altered)}).check(str(altered)) == Upload(str(altered), is_example=False)
