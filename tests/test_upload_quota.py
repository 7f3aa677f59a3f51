"""Uploads in memory: the ledger's openings, the byte budget, making room, and a start over that leaves a
file alone while somebody else's upload of the same bytes waits to be opened."""

from __future__ import annotations

import os
import time
from pathlib import Path

import pytest

from models.catalog import ModelChoice
from ui import privacy
from ui.state import LIVE, UIState
from ui.upload_quota import CLIENT_FULL, LEDGER, SERVER_FULL, OverBudget, UploadBudget, UploadLedger


def test_each_upload_opens_once_and_only_for_the_client_that_sent_it(tmp_path: Path) -> None:
    ledger = UploadLedger()
    path = str(tmp_path / "photo.png")
    ledger.add("10.0.0.1", [path])
    assert not ledger.claim(path, "10.0.0.2")  # another client: never
    assert ledger.awaited(path)
    assert ledger.claim(path, "10.0.0.1")
    assert not ledger.claim(path, "10.0.0.1")  # spent: a second session of the same client cannot
    assert not ledger.awaited(path)
    ledger.add("10.0.0.2", [path])  # the same bytes uploaded by someone else: an opening of their own
    assert ledger.claim(path, "10.0.0.2") and not ledger.claim("/nowhere", "10.0.0.2")


def test_the_budget_reserves_per_client_and_in_total_and_gives_back() -> None:
    held = {"a": 0}
    budget = UploadBudget(
        client_cap=100, total_cap=150, held_total=lambda: 0, held_by=lambda c: held.get(c, 0)
    )
    budget.reserve("a", 60)
    budget.reserve("b", 60)  # parallel: both in flight
    with pytest.raises(OverBudget) as too_much:
        budget.reserve("a", 41)
    assert too_much.value.status == 413 and too_much.value.detail == CLIENT_FULL
    with pytest.raises(OverBudget) as full:
        budget.reserve("c", 31)  # 120 in flight + 31 > 150
    assert full.value.detail == SERVER_FULL
    budget.release("b", 60)
    budget.reserve("c", 31)
    assert dict(budget.in_flight) == {"a": 60, "c": 31}


def test_a_full_folder_frees_old_unopened_uploads_first(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setenv("GRADIO_TEMP_DIR", str(tmp_path))
    ledger = UploadLedger()
    old, opened, fresh = (tmp_path / n / "p.png" for n in ("h1", "h2", "h3"))
    for path in (old, opened, fresh):
        path.parent.mkdir()
        path.write_bytes(os.urandom(1000))
    ledger.add("x", [str(old), str(opened), str(fresh)])
    for path in (old, opened):
        ledger._entries[str(path)].at = time.time() - 60
    freed = privacy.free_unopened(500, [str(opened)], ledger.older_than, ledger.forget, min_age_s=30)
    assert freed == 1000 and not old.exists() and opened.exists() and fresh.exists()
    assert privacy.held_bytes(tmp_path) == 2000
    (tmp_path / "staging-upload").write_bytes(b"x" * 5000)  # still arriving: the budget counts it itself
    assert privacy.held_bytes(tmp_path) == 2000


def test_start_over_keeps_a_file_that_was_uploaded_again_and_waits_to_be_opened(
    tmp_path: Path, monkeypatch
) -> None:
    monkeypatch.setenv("GRADIO_TEMP_DIR", str(tmp_path))
    shared = tmp_path / "abc" / "coins.png"
    shared.parent.mkdir()
    shared.write_bytes(b"photo")
    first = UIState(choice=ModelChoice("tiny", "blobs", None), files=[str(shared)])
    LIVE["first-session"] = first
    try:
        LEDGER.add("10.0.0.9", [str(shared)])  # a second visitor's upload of the same photo, not opened yet
        first.forget_photo()
        assert shared.exists()  # it is the second visitor's photo now too
        assert LEDGER.claim(str(shared), "10.0.0.9")
        second = UIState(choice=ModelChoice("tiny", "blobs", None), files=[str(shared)])
        second.forget_photo()
        assert not shared.exists()  # nobody else holds or awaits it
    finally:
        LIVE.pop("first-session", None)
        LEDGER.forget(str(shared))


def test_the_folder_is_measured_once_per_upload_not_once_per_chunk() -> None:
    walks = []

    def held() -> int:
        walks.append(1)
        return 0

    budget = UploadBudget(client_cap=10**9, total_cap=10**9, held_total=held, held_by=lambda c: 0)
    for _ in range(300):  # a 19 MB upload arrives in about 300 chunks of 64 KB
        budget.reserve("a", 65536)
    assert len(walks) == 1
    budget.release("a", 300 * 65536)  # the upload ended: measured again on the next one
    budget.reserve("b", 1)
    assert len(walks) == 2


def test_a_few_heavy_clients_cannot_lock_a_visitors_photo_out() -> None:
    """H7: eleven addresses each uploading up to its own cap reach four fifths of the folder; the last
    fifth stays for a client that holds one photo."""
    mib = 2**20
    held: dict[str, int] = {}
    budget = UploadBudget(
        client_cap=100 * mib,
        total_cap=1000 * mib,
        held_total=lambda: sum(held.values()),
        held_by=lambda c: held.get(c, 0),
    )
    refused = 0
    for n in range(11):
        attacker = f"10.0.0.{n}"
        for _ in range(10):  # 10 MB at a time, as many as each may
            try:
                budget.reserve(attacker, 10 * mib)
            except OverBudget as over:
                assert over.detail in (CLIENT_FULL, SERVER_FULL)
                refused += 1
                continue
            budget.release(attacker, 10 * mib)
            held[attacker] = held.get(attacker, 0) + 10 * mib
    heavy_total = sum(v for v in held.values() if v > 20 * mib)
    assert heavy_total == 800 * mib and sum(held.values()) == 860 * mib and refused == 24
    # (the three last could still take one photo's worth each: 10 more such addresses fill the reserve)
    budget.reserve("192.0.2.7", 15 * mib)  # a visitor's 15 MB photo
    budget.release("192.0.2.7", 15 * mib)
    held["192.0.2.7"] = 15 * mib
    with pytest.raises(OverBudget) as heavy:
        budget.reserve("192.0.2.7", 10 * mib)  # past one photo, the visitor is heavy too
    assert heavy.value.detail == SERVER_FULL
