"""Security round 3 (issue 31), the parts that need no server: who a client is (IPv6 by /64), the bound on
sessions per client, the decode budget in bytes and the reduction before conversion for every mode."""

from __future__ import annotations

import time

import pytest
from PIL import Image

from assistant.images import decoded_bytes, load_image
from ui.client_address import client_key, network_key
from ui.route_door import PAGE_ROUTES
from ui.session_bound import SessionBound, SessionRefused


def test_an_ipv6_client_is_its_64_and_an_ipv4_one_its_address() -> None:
    assert network_key("2001:db8:1:2:aaaa::1") == network_key("2001:db8:1:2:ffff::9") == "2001:db8:1:2::/64"
    assert network_key("2001:db8:1:3::1") != network_key("2001:db8:1:2::1")
    assert network_key("::ffff:10.0.0.7") == "10.0.0.7"
    assert client_key("127.0.0.3", []) == "127.0.0.3"


def test_a_burst_of_sessions_is_bounded_per_client_and_touches_no_other_client() -> None:
    forgotten: list[str] = []
    bound = SessionBound(per_client=3, idle_s=0.2, forget=forgotten.append)
    bound.admit("victim", "live")
    for number in range(3):
        bound.admit("attacker", f"a{number}")
    with pytest.raises(SessionRefused) as refused:
        bound.admit("attacker", "a3")  # at the bound, and none of its sessions is idle
    assert refused.value.status == 429
    with pytest.raises(SessionRefused) as stolen:
        bound.admit("attacker", "live")  # another client's session
    assert stolen.value.status == 404
    time.sleep(0.25)
    bound.admit("attacker", "a3")  # its least recently used idle session goes, nobody else's
    assert forgotten == ["a0"] and bound.owner("live") == "victim" and bound.count("attacker") == 3


def test_the_allow_list_names_no_side_door() -> None:
    allowed = {path for _, path in PAGE_ROUTES}
    for side_door in ("process_recording", "component_server", "stream", "deep_link", "monitoring", "proxy="):
        assert not [path for path in allowed if side_door in path], side_door


@pytest.mark.parametrize(
    ("mode", "per_pixel"), [("I;16", 2), ("P", 1), ("LA", 4), ("CMYK", 4), ("RGB", 4), ("L", 1), ("F", 4)]
)
def test_the_decode_budget_counts_bytes_by_mode(mode: str, per_pixel: int) -> None:
    assert decoded_bytes(Image.new(mode, (100, 50))) == 5000 * per_pixel


@pytest.mark.parametrize("mode", ["I;16", "P", "PA", "LA", "CMYK", "1", "I", "F"])
def test_a_big_image_of_any_mode_is_reduced_before_its_conversion(mode: str) -> None:
    image = Image.new(mode, (6000, 4000))
    if mode == "P":
        image.info["transparency"] = 0
    working = load_image(image)
    assert working.mode == "RGB" and max(working.size) == 2048


def test_saved_conversations_are_capped_in_count_and_size(monkeypatch, tmp_path) -> None:
    from assistant.errors import WhichoneError
    from models.catalog import ModelChoice
    from ui import conversation_log
    from ui.state import UIState

    monkeypatch.setenv("WHICHONE_SAVE_CONVERSATIONS", str(tmp_path))
    monkeypatch.setattr(conversation_log, "MAX_SAVED_CONVERSATIONS", 2)
    monkeypatch.setattr(conversation_log, "MAX_CONVERSATION_BYTES", 20_000)
    states = [UIState(choice=ModelChoice("tiny", "blobs", None)) for _ in range(3)]
    for state in states:
        conversation_log.remember(state, "ask", "What is it?", error="no photo")
    for state in states[:2]:
        conversation_log.set_saving(state, True, False)
    with pytest.raises(WhichoneError, match="at most 2 saved conversations"):
        conversation_log.set_saving(states[2], True, False)
    assert not states[2].save and len(list(tmp_path.iterdir())) == 2
    for _ in range(100):  # a long conversation stops being saved at the cap, and the turn goes on
        conversation_log.remember(states[0], "ask", "x" * 400, error="no photo")
    saved = tmp_path / states[0].conversation_id / conversation_log.CONVERSATION_FILE  # type: ignore[operator]
    assert saved.stat().st_size <= 20_000 and len(states[0].record) == 101


def test_a_file_gone_between_gradios_check_and_its_read_is_a_404_or_a_cut_answer_never_a_traceback() -> None:
    import asyncio

    from ui.gatekeeper import _gone_file_ends_quietly

    async def gone_before(scope, receive, send) -> None:  # Gradio checked it; it went before the answer
        raise FileNotFoundError("/dev/shm/whichone-gradio-x/ab/bomb.png")

    async def gone_after(scope, receive, send) -> None:  # Starlette sends its headers, then opens the file
        await send({"type": "http.response.start", "status": 200, "headers": []})
        raise FileNotFoundError("/dev/shm/whichone-gradio-x/ab/bomb.png")

    async def stat_gone(scope, receive, send) -> None:  # Starlette's FileResponse: its stat found nothing
        try:
            raise FileNotFoundError("/dev/shm/whichone-gradio-x/ab/bomb.png")
        except FileNotFoundError:
            raise RuntimeError("File at path /dev/shm/whichone-gradio-x/ab/bomb.png does not exist.")  # noqa: B904

    async def other_error(scope, receive, send) -> None:
        raise PermissionError("not this")

    async def other_runtime_error(scope, receive, send) -> None:
        raise RuntimeError("not this either")

    async def run(app) -> list[dict]:
        sent: list[dict] = []

        async def send(message) -> None:
            sent.append(message)

        async def receive() -> dict:
            return {"type": "http.disconnect"}

        await _gone_file_ends_quietly(app, {"type": "http", "path": "/gradio_api/file=x"}, receive, send)
        return sent

    before = asyncio.run(run(gone_before))
    assert before[0]["status"] == 404 and b"Not Found" in before[1]["body"]
    after = asyncio.run(run(gone_after))  # returns: uvicorn closes the unfinished answer, no traceback
    assert [m["type"] for m in after] == ["http.response.start"]
    stat = asyncio.run(run(stat_gone))
    assert stat[0]["status"] == 404 and b"Not Found" in stat[1]["body"]
    with pytest.raises(PermissionError):  # anything else is still the server's error
        asyncio.run(run(other_error))
    with pytest.raises(RuntimeError):
        asyncio.run(run(other_runtime_error))
