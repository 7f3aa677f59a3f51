"""The app's public API through gradio_client, against the real server (tiny VLM, blobs pointer)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.ui_support import FOUR_SHAPES, TWO_SHAPES, box_centre, draw_scene, running_app

pytestmark = pytest.mark.slow

gradio_client = pytest.importorskip("gradio_client")
from gradio_client import Client, handle_file  # noqa: E402
from gradio_client.exceptions import AppError  # noqa: E402

PUBLIC = {"/ask", "/choose", "/click", "/hint", "/start_over", "/models"}


@pytest.fixture(scope="module")
def server() -> Iterator[str]:
    with running_app(WHICHONE_MAX_UPLOAD="1mb") as url:  # a small limit, so the test file is small
        yield url


@pytest.fixture(scope="module")
def scenes(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    folder = tmp_path_factory.mktemp("scenes")
    return {"four": draw_scene(folder / "four.png"), "two": draw_scene(folder / "two.png", TWO_SHAPES)}


def client(url: str) -> Client:
    return Client(url, verbose=False)


def leftmost_top_id(reply: dict) -> int:
    return min(reply["candidates"], key=lambda c: (c["box"][1] > 240, c["box"][0]))["id"]


def test_only_the_documented_endpoints_are_public(server: str) -> None:
    info = client(server).view_api(print_info=False, return_format="dict")
    names = set(info["named_endpoints"])
    assert names == PUBLIC, names
    assert not info["unnamed_endpoints"]


def test_models_endpoint_reports_the_loaded_models_and_device(server: str) -> None:
    result = client(server).predict(api_name="/models")
    loaded = {(m["kind"], m["name"].split(" ")[0]): m for m in result["loaded"]}
    assert ("vlm", "tiny") in loaded and ("pointer", "blobs") in loaded
    assert loaded[("vlm", "tiny")]["device"] == "cpu"
    names = {(r["kind"], r["name"]) for r in result["registry"]}
    assert {("vlm", "tiny"), ("pointer", "blobs"), ("segmenter", "sam-vit-b")} <= names


def test_four_shapes_clarify_then_choose_click_and_hint(server: str, scenes: dict[str, Path]) -> None:
    c = client(server)
    first = c.predict(handle_file(str(scenes["four"])), "What colour is the square?", api_name="/ask")
    assert first["strategy"] == "clarify" and first["level"] == 3
    assert "Which one do you mean?" in first["reply"]
    assert len(first["candidates"]) == 4
    # Every candidate box covers one drawn square.
    drawn = [box_centre(b) for b, _ in FOUR_SHAPES]
    for cand in first["candidates"]:
        x0, y0, x1, y1 = cand["box"]
        assert sum(x0 <= x <= x1 and y0 <= y <= y1 for x, y in drawn) == 1
    assert first["timings_s"]["total"] > 0 and first["model_calls"]["vlm"] >= 1

    second = c.predict(2, api_name="/choose")
    assert second["resolved_region"] == 2 and second["strategy"] == "answer"
    assert "(number 2)" in second["reply"]

    target = next(r for r in first["candidates"] if r["id"] == 3)
    x0, y0, x1, y1 = target["box"]
    third = c.predict((x0 + x1) / 2, (y0 + y1) / 2, api_name="/click")
    assert third["resolved_region"] == 3

    fourth = c.predict("the one on the top left", api_name="/hint")
    assert fourth["resolved_region"] == leftmost_top_id(first)


def test_two_shapes_enumerate_and_another_question_reuses_the_photo(
    server: str, scenes: dict[str, Path]
) -> None:
    c = client(server)
    first = c.predict(handle_file(str(scenes["two"])), "What colour is the square?", api_name="/ask")
    assert first["strategy"] == "enumerate" and first["level"] == 2
    assert sorted(first["referents"]) == [1, 2]
    again = c.predict(None, "Is the square big?", api_name="/ask")  # no image: the session's photo
    assert len(again["candidates"]) == 2


def test_user_errors_come_back_as_one_line_and_keep_the_session(server: str, scenes: dict[str, Path]) -> None:
    c = client(server)
    with pytest.raises(AppError, match="Ask a question about a photo first"):
        c.predict(1, api_name="/choose")
    with pytest.raises(AppError, match="add a photo first"):
        c.predict(None, "What is this?", api_name="/ask")
    c.predict(handle_file(str(scenes["four"])), "What colour is the square?", api_name="/ask")
    with pytest.raises(AppError, match="There is no region number 9"):
        c.predict(9, api_name="/choose")
    with pytest.raises(AppError, match="outside the photo"):
        c.predict(5000, 5000, api_name="/click")
    with pytest.raises(AppError, match="type a question"):
        c.predict(None, "   ", api_name="/ask")
    # After all that the session still answers about its photo.
    assert c.predict(1, api_name="/choose")["resolved_region"] == 1
    assert c.predict(api_name="/start_over") == {"ok": True}
    with pytest.raises(AppError, match="add a photo first"):
        c.predict(None, "What is this?", api_name="/ask")


def test_a_tiny_image_is_refused_with_a_clear_message(server: str, tmp_path: Path) -> None:
    from PIL import Image

    path = tmp_path / "dot.png"
    Image.new("RGB", (4, 4), "red").save(path)
    with pytest.raises(AppError, match="too small"):
        client(server).predict(handle_file(str(path)), "What is this?", api_name="/ask")


def test_clients_do_not_share_a_conversation(server: str, scenes: dict[str, Path]) -> None:
    a, b = client(server), client(server)
    a.predict(handle_file(str(scenes["four"])), "What colour is the square?", api_name="/ask")
    with pytest.raises(AppError, match="Ask a question about a photo first"):
        b.predict(1, api_name="/choose")
    b.predict(handle_file(str(scenes["two"])), "What colour is the square?", api_name="/ask")
    assert a.predict(4, api_name="/choose")["resolved_region"] == 4  # a still has four candidates
    with pytest.raises(AppError, match="no region number 4"):
        b.predict(4, api_name="/choose")


def test_uploads_over_the_size_limit_are_refused(server: str, tmp_path: Path) -> None:
    import numpy as np
    from PIL import Image

    path = tmp_path / "noise.png"  # random pixels do not compress: about 1.4 MB
    Image.fromarray(np.random.default_rng(0).integers(0, 255, (700, 700, 3), dtype=np.uint8)).save(path)
    assert path.stat().st_size > 1_000_000
    with pytest.raises(Exception, match="(?i)file size|too large|413"):
        client(server).predict(handle_file(str(path)), "What is this?", api_name="/ask")
