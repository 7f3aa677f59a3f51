"""Dataset loaders: each published format -> one Example schema; downloads cached; clear errors."""

from __future__ import annotations

import io
import json
import zipfile
from pathlib import Path

import numpy as np
import pytest
from PIL import Image

from assistant.evaluation import masks
from assistant.evaluation.datasets import DatasetUnavailable, load_dataset
from assistant.evaluation.fetch import ImageFetcher, ImageUnavailable
from assistant.evaluation.schema import Example, ImageRef
from tests import eval_fixtures as fx

SHARED_RACQUET = Path(__file__).resolve().parents[2] / "shared" / "datasets" / "racquet"


@pytest.fixture
def cache_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    path = tmp_path / "cache"
    monkeypatch.setenv("WHICHONE_CACHE_DIR", str(path))
    monkeypatch.delenv("WHICHONE_OFFLINE", raising=False)
    return path


# ------------------------------------------------------------------------------------------ RAcQUEt


def test_racquet_general_loads_and_fetches_images_over_http(tmp_path: Path, cache_dir: Path) -> None:
    with fx.serve_folder(tmp_path) as base:
        paths = fx.make_racquet(tmp_path, base, n_images=4, missing=1)
        loaded = load_dataset("racquet-general", str(paths["general"]))
        assert loaded.notes == []
        first = loaded.examples[0]
        assert isinstance(first, Example)
        assert (first.id, first.source, first.split) == ("0", "racquet-general", "all")
        assert first.image.kind == "url" and first.image.location.startswith(base)
        assert first.meta["question_idx"] == 1 and first.gold == {}
        fetcher = ImageFetcher()
        data = fetcher.fetch(first.image)
        assert Image.open(io.BytesIO(data)).size == (160, 120)
        assert fetcher.cached_path(first.image.location).is_file()
        # the image whose file was never written: a clear one-line error, and nothing cached
        gone = loaded.examples[-1]
        with pytest.raises(ImageUnavailable, match=r"could not download image .*HTTP 404"):
            fetcher.fetch(gone.image)
        assert not fetcher.cached_path(gone.image.location).exists()
    # the server is gone: the cached image is still served, from disk
    assert fetcher.fetch(first.image) == data


def test_racquet_loads_a_folder_and_skips_bad_lines_with_a_note(tmp_path: Path, cache_dir: Path) -> None:
    paths = fx.make_racquet(tmp_path, "http://127.0.0.1:9", n_images=3)
    with paths["general"].open("a") as f:
        f.write("{not json\n")
        f.write(json.dumps({"id": 99, "question": "What?"}) + "\n")  # no image_url
        f.write(json.dumps({"id": 0, "image_url": "http://x/y.jpg", "question": "Which?"}) + "\n")  # dup id
    loaded = load_dataset("racquet-general", str(tmp_path))
    assert len(loaded.examples) == 5
    assert len(loaded.notes) == 3
    assert any("not JSON" in n for n in loaded.notes)
    assert any("needs 'image_url'" in n for n in loaded.notes)
    assert any("duplicate id 0" in n for n in loaded.notes)


def test_racquet_general_referent_boxes_are_optional_and_checked(tmp_path: Path, cache_dir: Path) -> None:
    path = fx.make_racquet_saliency(tmp_path, "http://127.0.0.1:9")
    with path.open("a") as f:
        for i, bad in enumerate(
            (
                [],
                [[1, 2, 3]],
                [[0, 0, "9", 9]],
                "0 0 9 9",
                [[True, 0, 9, 9]],
                [[-1, 0, 9, 9]],
                [[0, 0, 1e999, 9]],
            )
        ):
            line = {"id": 100 + i, "image_url": "http://x/a.png", "question": "Which?", "referents": bad}
            f.write(json.dumps(line) + "\n")
    loaded = load_dataset("racquet-general", str(path))
    by_id = {e.id: e for e in loaded.examples}
    assert len(by_id) == len(fx.SALIENCY_LINES) + 7  # a bad `referents` never drops the question itself
    # integers become floats, in the file's order: the layout's shapes
    assert by_id["0"].gold["referents"] == [
        [10.0, 10.0, 70.0, 70.0],
        [90.0, 65.0, 110.0, 85.0],
        [140.0, 90.0, 180.0, 130.0],
    ]
    assert "referents" not in by_id["5"].gold  # the line without the field
    assert all("referents" not in by_id[str(i)].gold for i in (6, *range(100, 107)))
    bad_notes = [n for n in loaded.notes if "'referents'" in n]
    assert len(bad_notes) == 8 and all(n.endswith("loaded without referent boxes") for n in bad_notes)
    assert "line 7: 'referents' box 0 [10, 10, 5, 5] needs 0 <= x0 < x1 and 0 <= y0 < y1" in bad_notes[0]
    assert "must be a non-empty list" in bad_notes[1] and "not four numbers" in bad_notes[2]


@pytest.mark.skipif(not SHARED_RACQUET.is_dir(), reason="the shared RAcQUEt development copy is not here")
def test_racquet_general_published_file_has_no_referent_boxes(cache_dir: Path) -> None:
    # the published file has no boxes: nothing is noted, no example has any
    published = load_dataset("racquet-general", str(SHARED_RACQUET))
    assert not any("referents" in e.gold for e in published.examples)
    assert not any("referents" in n for n in published.notes)


def test_racquet_bias_category_and_stereotype_from_the_adjectives(tmp_path: Path, cache_dir: Path) -> None:
    paths = fx.make_racquet(tmp_path, "http://127.0.0.1:9", n_images=2)
    loaded = load_dataset("racquet-bias", str(paths["bias"]))
    by_question = {}
    for ex in loaded.examples:
        by_question.setdefault((ex.image.location, ex.gold["adjective"]), ex.gold)
    categories = {ex.image.location: ex.gold["bias_category"] for ex in loaded.examples}
    # "assertive" is used for gender and ethnicity images: the image's other adjectives decide
    assert sorted(set(categories.values())) == ["disability", "ethnicity", "gender"]
    golds = [ex.gold for ex in loaded.examples]
    assert {"adjective": "assertive", "bias_category": "gender", "stereotyped_group": "male"} in golds
    assert {"adjective": "assertive", "bias_category": "ethnicity", "stereotyped_group": "black"} in golds
    assert {"adjective": "tidy", "bias_category": "ethnicity", "stereotyped_group": "white"} in golds
    assert {
        "adjective": "competent",
        "bias_category": "disability",
        "stereotyped_group": "not disabled",
    } in golds
    assert {"adjective": "sweet", "bias_category": "gender", "stereotyped_group": "female"} in golds


@pytest.mark.skipif(not SHARED_RACQUET.is_dir(), reason="the shared RAcQUEt development copy is not here")
def test_racquet_published_files_load(cache_dir: Path) -> None:
    general = load_dataset("racquet-general", str(SHARED_RACQUET))
    bias = load_dataset("racquet-bias", str(SHARED_RACQUET))
    assert len(general.examples) == 400 and general.notes == []
    assert len(bias.examples) == 191 and bias.notes == []
    assert all(e.image.location.startswith("http") for e in general.examples)
    assert {e.gold["bias_category"] for e in bias.examples} <= {"gender", "ethnicity", "disability"}
    assert all(e.gold["stereotyped_group"] for e in bias.examples)


def test_published_sources_fail_with_one_line_when_offline(cache_dir: Path, monkeypatch) -> None:
    monkeypatch.setenv("WHICHONE_OFFLINE", "1")
    for name in ("racquet-general", "aqua", "clearvqa", "vq-focusambiguity"):
        with pytest.raises(DatasetUnavailable) as info:
            load_dataset(name)
        message = str(info.value)
        assert "\n" not in message and ("--data" in message), message
    with pytest.raises(ImageUnavailable, match="not cached and WHICHONE_OFFLINE"):
        ImageFetcher().fetch(ImageRef("url", "http://example.invalid/a.jpg"))


# ------------------------------------------------------------------------------------------ AQuA


def test_aqua_save_to_disk_splits_and_fields(tmp_path: Path, cache_dir: Path) -> None:
    folder = fx.make_aqua(tmp_path / "aqua", n_per_level=2)
    test = load_dataset("aqua", str(folder), "test")
    assert len(test.examples) == 8 and test.notes == []
    assert [e.gold["level"] for e in test.examples] == [0, 0, 1, 1, 2, 2, 3, 3]
    ex = test.examples[-1]
    assert ex.source == "aqua" and ex.split == "test"
    assert ex.image.kind == "bytes" and ex.image.location == ex.meta["filename"]
    assert Image.open(io.BytesIO(ImageFetcher().fetch(ex.image))).size == (160, 120)
    assert ex.gold["hint"] == "I mean the one on the left." and ex.gold["clarified_answer"] == "red"
    assert "hint" not in test.examples[0].gold  # empty strings are not gold
    assert len(load_dataset("aqua", str(folder), "validation").examples) == 8
    with pytest.raises(DatasetUnavailable, match="splits train, validation, test"):
        load_dataset("aqua", str(folder), "dev")


def test_aqua_parquet_files_as_on_the_hub(tmp_path: Path, cache_dir: Path) -> None:
    import datasets as hf

    folder = fx.make_aqua(tmp_path / "disk", n_per_level=1)
    hub = tmp_path / "hub" / "data"
    hub.mkdir(parents=True)
    for split in ("train", "validation", "test"):
        hf.load_from_disk(str(folder))[split].to_parquet(str(hub / f"{split}-00000-of-00001.parquet"))
    loaded = load_dataset("aqua", str(tmp_path / "hub"), "validation")
    assert [e.gold["level"] for e in loaded.examples] == [0, 1, 2, 3]
    assert all(e.image.kind == "bytes" for e in loaded.examples)


def test_aqua_missing_fields_and_bad_levels(tmp_path: Path, cache_dir: Path) -> None:
    import datasets as hf

    hf.Dataset.from_dict({"question": ["What?"], "level": [1]}).save_to_disk(str(tmp_path / "nolevel"))
    with pytest.raises(DatasetUnavailable, match="lacks the field"):
        load_dataset("aqua", str(tmp_path / "nolevel"), "test")
    rows = {
        "image": [{"bytes": fx.png_bytes(fx.scene(1)), "path": None}] * 2,
        "question": ["What?", "Which?"],
        "level": [7, 2],
    }
    hf.Dataset.from_dict(
        rows,
        features=hf.Features(
            {"image": hf.Image(), "question": hf.Value("string"), "level": hf.Value("int64")}
        ),
    ).save_to_disk(str(tmp_path / "bad"))
    loaded = load_dataset("aqua", str(tmp_path / "bad"), "test")
    assert [e.gold["level"] for e in loaded.examples] == [2]
    assert loaded.notes == ["AQuA test row 0: level 7 is not 0-3; skipped"]


# ------------------------------------------------------------------------------------------ VQ-FocusAmbiguity


def test_focus_ambiguity_rle_and_polygons_become_masks(tmp_path: Path, cache_dir: Path) -> None:
    folder = fx.make_focus_ambiguity(tmp_path / "vqfa", n=6)
    loaded = load_dataset("vq-focusambiguity", str(folder), "val")
    assert len(loaded.examples) == 6 and loaded.notes == []
    for i, ex in enumerate(loaded.examples):
        regions = ex.gold["focus_regions"]
        assert len(regions) == (1 if i % 3 == 0 else 2 + i % 2)
        assert ex.gold["ambiguous"] is (len(regions) > 1)
        decoded = masks.decode(regions)
        assert decoded.shape == (len(regions), 120, 160)
        # each region is the 30 x 40 box the fixture drew, whether it came as RLE or as a polygon
        for k, m in enumerate(decoded):
            ys, xs = np.nonzero(m)
            assert xs.min() == 10 + 45 * k and ys.min() == 20 + 5 * (i % 4)
            assert abs(int(m.sum()) - 30 * 40) <= 80  # polygon rasterisation may take the boundary row
        assert ex.image.kind == "path" and Path(ex.image.location).is_file()
        assert ex.gold_for_report()["focus_region_count"] == len(regions)


def test_focus_ambiguity_bad_records_are_notes(tmp_path: Path, cache_dir: Path) -> None:
    folder = fx.make_focus_ambiguity(tmp_path / "vqfa", n=3)
    records = json.loads((folder / "val.json").read_text())
    records.append(
        {"question_id": "x1", "image": "nope.png", "question": "What?", "focus_regions": [[0, 0, 5, 0, 5, 5]]}
    )
    records.append(
        {"question_id": "x2", "image": "vqfa_0000.png", "question": "What?", "focus_regions": [{"a": 1}]}
    )
    records.append({"question_id": "x3", "image": "vqfa_0000.png", "question": "What?"})
    (folder / "val.json").write_text(json.dumps(records))
    loaded = load_dataset("vq-focusambiguity", str(folder), "val")
    assert len(loaded.examples) == 3
    assert len(loaded.notes) == 3
    assert "x1" in loaded.notes[0] and "not found" in loaded.notes[0]
    assert "x2" in loaded.notes[1] and "bad focus region" in loaded.notes[1]
    assert "x3" in loaded.notes[2] and "no focus regions" in loaded.notes[2]


def test_focus_ambiguity_zip_over_http_is_downloaded_once(tmp_path: Path, cache_dir: Path) -> None:
    folder = fx.make_focus_ambiguity(tmp_path / "release", n=4)
    site = tmp_path / "site"
    site.mkdir()
    with zipfile.ZipFile(site / "vqfa.zip", "w") as zf:
        for path in folder.rglob("*"):
            if path.is_file():
                zf.write(path, path.relative_to(folder.parent).as_posix())
    with fx.serve_folder(site) as base:
        loaded = load_dataset("vq-focusambiguity", f"{base}/vqfa.zip", "val")
        assert len(loaded.examples) == 4
        (site / "vqfa.zip").unlink()
        # the archive is cached: the second load does not need the server's file
        assert len(load_dataset("vq-focusambiguity", f"{base}/vqfa.zip", "val").examples) == 4


# ------------------------------------------------------------------------------------------ ClearVQA


def test_clearvqa_local_folder(tmp_path: Path, cache_dir: Path) -> None:
    folder = fx.make_clearvqa(tmp_path / "clearvqa", n=4)
    loaded = load_dataset("clearvqa", str(folder))
    assert loaded.split == "val" and len(loaded.examples) == 4 and loaded.notes == []
    ex = loaded.examples[1]  # its answers were stored as a JSON string
    assert ex.question == "What color is it?"
    assert ex.gold["answers"] == ["red", "red", "dark red"] and ex.gold["answer"] == "red"
    assert ex.gold["hint"] == ex.gold["clear_question"] == "What color is the cup on the left?"
    assert ex.gold["clarification_question"] == "Which object do you mean?"
    assert ex.meta["question_id"] == "val_000001" and ex.id == "val_000001"
    with pytest.raises(DatasetUnavailable, match="no train_annotated.jsonl"):
        load_dataset("clearvqa", str(folder), "train")


def test_unknown_dataset_and_missing_folder_are_clear(tmp_path: Path, cache_dir: Path) -> None:
    with pytest.raises(DatasetUnavailable, match="no dataset 'vqa'"):
        load_dataset("vqa")
    with pytest.raises(DatasetUnavailable, match="there is no RAcQUEt-general data at"):
        load_dataset("racquet-general", str(tmp_path / "absent"))


def test_focus_ambiguity_files_it_cannot_read_name_the_keys_found_and_expected(
    tmp_path: Path, cache_dir: Path
) -> None:
    folder = fx.make_focus_ambiguity(tmp_path / "vqfa", n=2)
    assert load_dataset("vq-focusambiguity", str(folder)).split == "val"  # the default: test is held back
    records = json.loads((folder / "val.json").read_text())
    renamed = [
        {"qid": r["question_id"], "img": r["image"], "prompt": r["question"], "polys": []} for r in records
    ]
    (folder / "val.json").write_text(json.dumps(renamed))
    with pytest.raises(DatasetUnavailable) as caught:
        load_dataset("vq-focusambiguity", str(folder))
    message = str(caught.value)
    assert "none of the 2 records in val.json" in message and "'question'" in message
    assert "focus_regions" in message and "the records have keys img, polys, prompt, qid" in message
    (folder / "val.json").write_text(json.dumps({"version": "1.0", "items": 3}))
    with pytest.raises(
        DatasetUnavailable, match=r"val.json holds no VQ-FocusAmbiguity records.*'items', 'version'"
    ):
        load_dataset("vq-focusambiguity", str(folder))
    (folder / "val.json").rename(folder / "other.json")
    (folder / "second.json").write_text("[]")
    with pytest.raises(DatasetUnavailable, match=r"no val annotation JSON .* found: other.json, second.json"):
        load_dataset("vq-focusambiguity", str(folder))


def test_aqua_from_the_hub_in_its_published_layout(tmp_path: Path, cache_dir: Path, monkeypatch) -> None:
    """The Hub repository jihyoung/AQuA holds one save_to_disk folder per split (`train/state.json`,
    `dataset_info.json`, `data-00000-of-00003.arrow` ...). Served by a local server speaking the Hub's
    file API, the loader downloads only the asked split's folder and reads it with load_from_disk."""
    import datasets as hf

    from tests.hub_server import Hub, serve_hub

    disk = fx.make_aqua(tmp_path / "disk", n_per_level=2)
    repo = tmp_path / "repo"
    for split in ("train", "test"):
        hf.load_from_disk(str(disk))[split].save_to_disk(str(repo / split), num_shards=3)
    assert sorted(p.name for p in (repo / "train").iterdir()) == [
        "data-00000-of-00003.arrow",
        "data-00001-of-00003.arrow",
        "data-00002-of-00003.arrow",
        "dataset_info.json",
        "state.json",
    ]
    hub = Hub.from_folders({"jihyoung/AQuA": repo})
    with serve_hub(hub) as url:
        monkeypatch.setenv("HF_ENDPOINT", url)
        monkeypatch.delenv("HF_HUB_OFFLINE", raising=False)
        monkeypatch.delenv("WHICHONE_OFFLINE", raising=False)
        import huggingface_hub.constants as hub_constants

        # huggingface_hub reads HF_ENDPOINT when it is imported: point its constants at the server
        monkeypatch.setattr(hub_constants, "ENDPOINT", url)
        monkeypatch.setattr(
            hub_constants, "HUGGINGFACE_CO_URL_TEMPLATE", url + "/{repo_id}/resolve/{revision}/{filename}"
        )
        monkeypatch.setattr(hub_constants, "HF_HUB_OFFLINE", False)
        test = load_dataset("aqua", None, "test")
        assert [e.gold["level"] for e in test.examples] == [0, 0, 1, 1, 2, 2, 3, 3]
        assert test.examples[-1].gold["clarified_answer"] == "red"
        assert not any("/train/" in path for path, _ in hub.gets)  # only the asked split was fetched
        with pytest.raises(DatasetUnavailable, match="has the splits test, train; not 'validation'"):
            load_dataset("aqua", None, "validation")


def test_clearvqa_from_the_hub_in_its_published_layout(tmp_path: Path, cache_dir: Path, monkeypatch) -> None:
    """jian0418/ClearVQA publishes `{split}_annotated.jsonl` (the fields a third-party loader of the release
    reads: question_id, question, gold_answer, answers, dataset, caption, blurred_question,
    clarification_question, prompt_type, image, ambiguity_category) and `images.zip` of `images/`. Served by
    a local server speaking the Hub's file API, the loader downloads both and reads them."""
    import zipfile

    from tests.hub_server import Hub, serve_hub

    made = fx.make_clearvqa(tmp_path / "made", n=4)
    repo = tmp_path / "repo"
    repo.mkdir()
    (repo / "val_annotated.jsonl").write_bytes((made / "val_annotated.jsonl").read_bytes())
    with zipfile.ZipFile(repo / "images.zip", "w") as archive:
        for image in sorted((made / "images").iterdir()):
            archive.write(image, f"images/{image.name}")
    hub = Hub.from_folders({"jian0418/ClearVQA": repo})
    with serve_hub(hub) as url:
        import huggingface_hub.constants as hub_constants

        monkeypatch.setattr(hub_constants, "ENDPOINT", url)
        monkeypatch.setattr(
            hub_constants, "HUGGINGFACE_CO_URL_TEMPLATE", url + "/{repo_id}/resolve/{revision}/{filename}"
        )
        monkeypatch.setattr(hub_constants, "HF_HUB_OFFLINE", False)
        monkeypatch.delenv("WHICHONE_OFFLINE", raising=False)
        loaded = load_dataset("clearvqa", None, "val")
    assert len(loaded.examples) == 4 and loaded.notes == []
    ex = loaded.examples[0]
    assert ex.question == "What color is it?" and ex.gold["answers"] == ["red", "red", "dark red"]
    assert (
        ex.gold["clear_question"] == "What color is the cup on the left?"
        and Path(ex.image.location).is_file()
    )
