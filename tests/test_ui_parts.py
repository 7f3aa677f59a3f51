"""The UI's parts without a browser: overlay drawing, click mapping, privacy of uploads, the model pool,
and the ask handlers' error paths, in-process on the real tiny VLM and blobs pointer."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import gradio as gr
import numpy as np
import pytest
from PIL import Image

from assistant.types import Candidates, Region
from models.base import Ability, ModelBase
from models.errors import ModelUnavailable
from models.types import Box
from tests.ui_support import FOUR_SHAPES, REPO, box_centre, draw_scene
from ui.engine import ModelChoice, ModelPool
from ui.handlers import AskHandlers
from ui.overlay import MAX_OVERLAY_SIDE, alt_text, colour_for, draw_overlay, overlay_scale
from ui.privacy import forget_files
from ui.state import UIState

CHOICE = ModelChoice("tiny", "blobs", None)


def square_region(
    rid: int, box: tuple[int, int, int, int], size: tuple[int, int], mask: bool = True
) -> Region:
    m = None
    if mask:
        m = np.zeros((size[1], size[0]), dtype=bool)
        m[box[1] : box[3], box[0] : box[2]] = True
    return Region(id=rid, box=Box(*map(float, box)), label="square", mask=m, description=f"square {rid}")


# ---------------------------------------------------------------- overlay


def test_overlay_fills_masks_numbers_regions_and_leaves_the_rest() -> None:
    size = (400, 300)
    image = Image.new("RGB", size, (255, 255, 255))
    regions = [
        square_region(1, (20, 20, 180, 180), size),
        square_region(2, (220, 40, 380, 200), size, mask=False),
    ]
    out = np.asarray(draw_overlay(image, Candidates(regions, size)))
    assert out.shape == (300, 400, 3)
    assert (out[250, 10] == 255).all()  # outside every region: untouched
    inside = out[40, 40].astype(int)  # in mask 1, away from badge and outline: tinted towards its colour
    expected = 255 * 0.65 + np.array(colour_for(1)) * 0.35
    assert np.abs(inside - expected).max() <= 2
    assert (out[20, 100] == 0).all()  # the black outer edge of mask 1
    assert (out[40, 220] == 0).all()  # region 2 has no mask: its box is outlined in black
    # The badge: a white patch with black (border and digit) pixels at the region's centre.
    badge = out[90:110, 90:110]
    assert (badge == 255).all(axis=2).any() and (badge == 0).all(axis=2).any()


def test_overlay_is_scaled_down_for_the_browser_and_clicks_map_back() -> None:
    size = (3000, 2000)
    scale = overlay_scale(size)
    assert scale == pytest.approx(MAX_OVERLAY_SIDE / 3000)
    out = draw_overlay(
        Image.new("RGB", size, "white"), Candidates([square_region(1, (0, 0, 50, 50), size)], size)
    )
    assert out.size == (MAX_OVERLAY_SIDE, round(2000 * scale))
    # No candidates: the picture only, scaled the same way.
    assert draw_overlay(Image.new("RGB", size, "white"), None).size == out.size


def test_alt_text_lists_every_region_by_number() -> None:
    size = (100, 100)
    cands = Candidates(
        [square_region(1, (0, 0, 10, 10), size), square_region(2, (50, 50, 60, 60), size)], size
    )
    assert alt_text(cands) == "Your photo with 2 numbered regions marked: 1: square 1; 2: square 2."
    assert "No candidate regions" in alt_text(None)


# ---------------------------------------------------------------- privacy


def test_forget_files_deletes_only_inside_gradios_temp_folder(tmp_path: Path, monkeypatch) -> None:
    root = tmp_path / "gradio"
    (root / "abc").mkdir(parents=True)
    inside, outside = root / "abc" / "photo.png", tmp_path / "keep.png"
    inside.write_bytes(b"x")
    outside.write_bytes(b"x")
    monkeypatch.setenv("GRADIO_TEMP_DIR", str(root))
    forget_files([str(inside), str(outside), str(root / "missing.png")])
    assert not inside.exists() and outside.exists()


@pytest.mark.skipif(not Path("/dev/shm").is_dir(), reason="no /dev/shm tmpfs on this machine")
def test_importing_changes_nothing_and_serving_makes_the_ram_folder_before_gradio() -> None:
    """Issue 34: importing the interfaces sets no variable, makes no folder and loads no gradio; the
    server's start (ui.serve.main, whose first step this runs) makes the private RAM folder before gradio
    is imported, so even Gradio's import-time folder is it. The whole start: tests/test_cli.py's serve."""
    env = {k: v for k, v in os.environ.items() if k != "GRADIO_TEMP_DIR"}
    code = (
        "import os, sys, glob; g = '/dev/shm/whichone-gradio-*'; shm = set(glob.glob(g));"
        "import ui, ui.cli, ui.serve, app;"
        "print('gradio' in sys.modules, 'GRADIO_TEMP_DIR' in os.environ, set(glob.glob(g)) == shm);"
        "ui.serve.use_memory_temp_dir(); import gradio.route_utils as r; d = os.environ['GRADIO_TEMP_DIR'];"
        "print(d, r.DEFAULT_TEMP_DIR == d, oct(os.stat(d).st_mode & 0o777))"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], cwd=REPO, env=env, capture_output=True, text=True, check=True
    )
    imported, named, made = out.stdout.splitlines()[0].split()
    assert (imported, named, made) == ("False", "False", "True")
    folder, same, mode = out.stdout.splitlines()[1].split()
    assert folder.startswith("/dev/shm/whichone-gradio-") and same == "True" and mode == "0o700"
    assert not Path(folder).exists()  # removed at exit


# ---------------------------------------------------------------- model pool and handlers


@pytest.fixture(scope="module")
def pool() -> ModelPool:
    pool = ModelPool()
    pool.load(CHOICE)
    return pool


def test_pool_loads_each_model_once_and_reports_device(pool: ModelPool) -> None:
    from assistant.pipeline import AssistantConfig

    a, b = pool.assistant(CHOICE, AssistantConfig()), pool.assistant(CHOICE, AssistantConfig())
    assert a.vlm is b.vlm and a.grounder is b.grounder
    rows = {(m.kind, m.name): m for m in pool.loaded()}
    assert rows[("vlm", "tiny")].device == "cpu" and ("pointer", "blobs") in rows


def test_pool_remembers_an_unavailable_model_with_its_message(pool: ModelPool) -> None:
    bad = ModelChoice("no-such-model", "blobs", None)
    with pytest.raises(ModelUnavailable, match="no-such-model"):
        pool.load(bad)
    assert "no-such-model" in pool.errors[bad]
    assert not pool.is_loaded(bad) and pool.is_loaded(CHOICE)


def final(outputs) -> tuple:
    *_, last = outputs
    return last


def test_handlers_error_keeps_the_session_and_clicks_map_through_the_overlay_scale(
    pool: ModelPool, tmp_path: Path, monkeypatch
) -> None:
    monkeypatch.setenv("GRADIO_TEMP_DIR", str(tmp_path))
    handlers = AskHandlers(pool)
    state = UIState(choice=CHOICE)
    chat, *_ = final(handlers.ask(None, "What colour is the square?", state))
    assert chat[-1]["content"] == "⚠️ Please add a photo first."  # an error line, no exception

    # A 2560 x 1920 scene: the overlay is half size, so a click at overlay pixels maps back x2.
    big = [(tuple(4 * c for c in box), colour) for box, colour in FOUR_SHAPES]
    path = draw_scene(tmp_path / "big.png", big, size=(2560, 1920))
    chat, overlay, options, explain, status, _undo, state = final(
        handlers.ask(str(path), "What colour is the square?", state)
    )
    assert "Which one do you mean" in chat[-1]["content"] and len(options["choices"]) == 4
    # The overlay is written into the temp folder as the session's own file (deleted with the upload).
    overlay_file = Path(overlay["value"])
    assert overlay_file.parent.parent == tmp_path and str(overlay_file) in state.files
    assert (
        overlay["visible"]
        and Image.open(overlay_file).size == (1280, 960)
        and "4 numbered regions" in overlay["alt_text"]
    )
    assert state.overlay_scale == pytest.approx(1280 / 2048)  # working image: longer side 2048
    working_scale = 2048 / 2560
    cx, cy = box_centre(big[1][0])  # the blue square, in file pixels
    ox, oy = cx * working_scale * state.overlay_scale, cy * working_scale * state.overlay_scale
    event = gr.SelectData(None, {"index": [ox, oy], "value": None, "selected": True})
    chat, *_rest = final(handlers.click(state, event))
    picked = state.session.last_reply.resolved_region
    region = state.session.candidates.by_id(picked)
    assert region.box.contains(cx * working_scale, cy * working_scale)
    assert f"(number {picked})" in chat[-1]["content"]

    # Start over forgets the photo and deletes its upload.
    handlers.start_over(state)
    assert state.session.image is None and not path.exists() and state.chat == []
    assert not overlay_file.exists() and not overlay_file.parent.exists()


# ---------------------------------------------------------------- streaming replies


def _chat_updates(outputs: list[tuple]) -> list[str]:
    """The newest chat message of each update that changes only the chat (a reply growing)."""
    texts = []
    for chat, *rest, _state in outputs:
        if isinstance(chat, list) and all(
            isinstance(v, dict) and v.get("__type__") == "update" for v in rest
        ):
            texts.append(chat[-1]["content"])
    return texts


@pytest.mark.parametrize("interval", [0.0, None], ids=["every-piece", "throttled"])
def test_ask_and_choose_stream_the_reply_then_show_the_final_view(
    pool: ModelPool, tmp_path: Path, monkeypatch, interval
) -> None:
    import ui.turns
    from tests.ui_support import FOUR_SHAPES
    from ui.gpu import GAUGE

    monkeypatch.setenv("GRADIO_TEMP_DIR", str(tmp_path))
    if interval is not None:
        monkeypatch.setattr(ui.turns, "STREAM_INTERVAL_S", interval)
    handlers = AskHandlers(pool)
    state = UIState(choice=CHOICE)
    calls_before = GAUGE.snapshot()["calls"]

    # One square: the answer strategy, one model call that streams.
    one = draw_scene(tmp_path / "one.png", FOUR_SHAPES[:1])
    outputs = list(handlers.ask(str(one), "What colour is the square?", state))
    chat, overlay, options, explain, status, _undo, state = outputs[-1]
    reply = state.session.last_reply
    assert reply.strategy.value == "answer" and chat[-1]["content"] == reply.text
    assert overlay["visible"] and "**Strategy:** answer" in explain and "ready" in status
    assert outputs[0][0][-1]["content"] == "…"  # "thinking", before the model's first piece
    streamed = _chat_updates(outputs[1:-1])
    assert len(streamed) == len(outputs) - 2  # between "thinking" and the final view: only the chat
    print(f"\nask: {len(streamed)} chat updates while the reply streamed (interval {interval})")
    if interval == 0.0:  # every piece shows: several updates, each a longer start of the reply
        assert len(streamed) >= 3, streamed
    assert all(reply.text.startswith(t) for t in streamed), streamed
    assert chat[0] == {"role": "user", "content": "What colour is the square?"} and len(chat) == 2

    # Four squares: clarify (no model call, no streaming), then choose number 2: "About ...", streamed,
    # with the user's turn ("Number 2") already above the growing reply.
    four = draw_scene(tmp_path / "four.png")
    handlers.open_photo(str(four), state)
    list(handlers.ask(str(four), "What colour is the square?", state))
    outputs = list(handlers.choose(2, state))
    chat, *_rest, state = outputs[-1]
    reply = state.session.last_reply
    assert reply.resolved_region == 2 and chat[-1]["content"] == reply.text
    assert chat[-2] == {"role": "user", "content": "Number 2"}
    growing = _chat_updates(outputs[1:-1])
    assert len(growing) == len(outputs) - 2
    print(f"choose: {len(growing)} chat updates while the reply streamed")
    if interval == 0.0:
        assert len(growing) >= 3, growing
    for output in outputs[1:-1]:
        partial = output[0]
        assert partial[-2] == {"role": "user", "content": "Number 2"}
        assert reply.text.startswith(partial[-1]["content"])
    snapshot = GAUGE.snapshot()
    assert snapshot["in_flight"] == 0 and snapshot["calls"] == calls_before + 3  # each turn counted once


def test_a_reply_that_breaks_while_streaming_becomes_one_error_line(
    pool: ModelPool, tmp_path: Path, monkeypatch
) -> None:
    from assistant.pipeline import Assistant
    from models.errors import ModelTimeout
    from ui.gpu import GAUGE

    class BreaksMidway(ModelBase):
        name = "breaks"
        ABILITIES = frozenset({Ability.STREAM})

        def generate(self, messages, settings=None) -> str:
            return "0"

        def generate_batch(self, conversations, settings=None) -> list[str]:
            return ["0" for _ in conversations]

        def generate_stream(self, messages, settings=None):
            yield "It is"
            yield " red"
            raise ModelTimeout("the model server stopped sending its reply for 5 s")

        def describe(self) -> dict:
            return {"name": self.name}

    monkeypatch.setenv("GRADIO_TEMP_DIR", str(tmp_path))
    handlers = AskHandlers(pool)
    state = UIState(choice=CHOICE)
    four = draw_scene(tmp_path / "four.png")
    list(handlers.ask(str(four), "What colour is the square?", state))
    chat_before = list(state.chat)
    grounder = pool.assistant(CHOICE, state.config).grounder
    monkeypatch.setattr(pool, "assistant", lambda choice, config: Assistant(BreaksMidway(), grounder, config))
    import ui.turns

    monkeypatch.setattr(ui.turns, "STREAM_INTERVAL_S", 0.0)
    outputs = list(handlers.choose(2, state))
    shown = [o[0][-1]["content"] for o in outputs[:-1]]
    assert shown[0] == "…" and shown[-1].endswith("(number 2): It is red")  # it streamed, then broke
    chat, *_rest, status, _undo, state = outputs[-1]
    assert chat == [
        *chat_before,
        {"role": "assistant", "content": "⚠️ the model server stopped sending its reply for 5 s"},
    ]
    # The error shows under the conversation; the conversation itself is kept as it was.
    assert state.chat == chat_before and "Error:" in status
    assert state.session.question == "What colour is the square?"  # the session is kept
    assert GAUGE.snapshot()["in_flight"] == 0


def test_closing_a_streaming_handler_early_ends_the_model_call(
    pool: ModelPool, tmp_path: Path, monkeypatch
) -> None:
    import threading

    import ui.turns
    from tests.ui_support import FOUR_SHAPES
    from ui.gpu import GAUGE

    monkeypatch.setenv("GRADIO_TEMP_DIR", str(tmp_path))
    monkeypatch.setattr(ui.turns, "STREAM_INTERVAL_S", 0.0)
    handlers = AskHandlers(pool)
    state = UIState(choice=CHOICE)
    one = draw_scene(tmp_path / "one.png", FOUR_SHAPES[:1])
    events = handlers.ask(str(one), "What colour is the square?", state)
    assert next(events)[0][-1]["content"] == "…"
    next(events)  # the first piece of the reply: the model is streaming now
    events.close()  # the browser went away
    assert GAUGE.snapshot()["in_flight"] == 0
    assert not [t for t in threading.enumerate() if t.name.startswith(("whichone-reply", "whichone-stream-"))]


def test_loaded_models_never_show_a_server_path(tmp_path: Path) -> None:
    from ui.engine import shown_model_id

    assert shown_model_id("Qwen/Qwen2.5-VL-3B-Instruct") == "Qwen/Qwen2.5-VL-3B-Instruct"
    assert shown_model_id("/root/.cache/whichone/tiny/qwen2_5_vl") == "local checkpoint qwen2_5_vl"
    assert shown_model_id("~/models/mine") == "local checkpoint mine"
    (tmp_path / "ckpt").mkdir()
    assert shown_model_id(str(tmp_path / "ckpt")) == "local checkpoint ckpt"


def test_badges_are_legible_on_a_phone_and_never_cover_a_small_object_whole() -> None:
    from ui.overlay import PHONE_WIDTH_CSS_PX, badge_font_px, badge_layout

    # Twenty-four coins of 24 x 24 px in a 1280 x 960 photo, in a 6 x 4 grid with room between them.
    size = (1280, 960)
    regions = [
        square_region(
            i + 1,
            (100 + 200 * (i % 6), 150 + 200 * (i // 6), 124 + 200 * (i % 6), 174 + 200 * (i // 6)),
            size,
        )
        for i in range(24)
    ]
    candidates = Candidates(regions, size)
    # The number is at least 18 CSS px tall where the page shows the overlay smallest (a phone's width).
    assert badge_font_px(size) * PHONE_WIDTH_CSS_PX / size[0] >= 17.5
    rects = badge_layout(candidates, size, 1.0)
    for region, rect in zip(regions, rects, strict=True):
        b = region.box
        covered = rect[0] <= b.x0 and rect[1] <= b.y0 and rect[2] >= b.x1 and rect[3] >= b.y1
        others = [r for r in rects if r is not rect]
        assert not covered, (region.id, rect)
        assert not any(o[0] <= b.x0 and o[1] <= b.y0 and o[2] >= b.x1 and o[3] >= b.y1 for o in others), (
            region.id
        )
        assert rect[0] >= 0 and rect[2] <= size[0] and rect[1] >= 0 and rect[3] <= size[1]
    # A big region keeps its number on it.
    big = Candidates([square_region(1, (100, 100, 900, 800), size)], size)
    ((x0, y0, x1, y1),) = badge_layout(big, size, 1.0)
    assert 100 < x0 < x1 < 900 and 100 < y0 < y1 < 800
    # The drawn picture has the badges and leader lines (white and black pixels beside each coin).
    out = np.asarray(draw_overlay(Image.new("RGB", size, (128, 128, 128)), candidates))
    assert (out == 255).all(axis=2).sum() > 24 * 500
