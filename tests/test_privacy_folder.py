"""Where uploads go: a private RAM folder when /dev/shm has room, else Gradio's default folder."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from ui import privacy


@pytest.fixture
def fake_shm(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.delenv("GRADIO_TEMP_DIR", raising=False)
    monkeypatch.setattr(privacy, "MEMORY_ROOT", tmp_path)
    return tmp_path


def test_a_tmpfs_with_room_gets_a_private_folder(fake_shm: Path, monkeypatch) -> None:
    monkeypatch.setattr(privacy, "MIN_MEMORY_FREE", 1)
    folder = privacy.use_memory_temp_dir()
    assert folder is not None and Path(folder).parent == fake_shm
    assert os.environ["GRADIO_TEMP_DIR"] == folder and oct(os.stat(folder).st_mode & 0o777) == "0o700"


def test_a_nearly_full_tmpfs_is_not_used(fake_shm: Path, monkeypatch) -> None:
    monkeypatch.setattr(privacy, "MIN_MEMORY_FREE", 2**62)  # more than any disk has free
    assert privacy.use_memory_temp_dir() is None
    assert "GRADIO_TEMP_DIR" not in os.environ and list(fake_shm.iterdir()) == []


# ---------------------------------------------------------------- stale folders and the sweep


def test_stale_folders_of_dead_servers_go_and_live_ones_stay(tmp_path: Path, monkeypatch) -> None:
    import subprocess
    import sys
    import time

    dead = subprocess.run(
        [sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True, text=True
    )
    folders = {}
    for name, owner in (("dead", dead.stdout.strip()), ("live", str(os.getpid())), ("garbled", "not-a-pid")):
        folder = tmp_path / f"{privacy.FOLDER_PREFIX}{name}"
        (folder / "abc").mkdir(parents=True)
        (folder / "abc" / "photo.png").write_bytes(b"x")
        privacy.owner_file(folder).write_text(owner)
        folders[name] = folder
    old_unowned = tmp_path / f"{privacy.FOLDER_PREFIX}old"
    old_unowned.mkdir()
    (old_unowned / "photo.png").write_bytes(b"x")
    past = time.time() - privacy.STALE_UNOWNED_S - 60
    os.utime(old_unowned / "photo.png", (past, past))
    os.utime(old_unowned, (past, past))
    new_unowned = tmp_path / f"{privacy.FOLDER_PREFIX}new"
    new_unowned.mkdir()
    other = tmp_path / "somebody-elses"
    other.mkdir()

    removed = set(privacy.remove_stale_folders(tmp_path))
    assert removed == {folders["dead"], folders["garbled"], old_unowned}
    assert folders["live"].is_dir() and new_unowned.is_dir() and other.is_dir()


def test_sweep_removes_staging_files_and_unopened_uploads_only(tmp_path: Path, monkeypatch) -> None:
    import time

    from ui.upload_quota import UploadLedger

    monkeypatch.setenv("GRADIO_TEMP_DIR", str(tmp_path))
    old = time.time() - 3600

    def make(relative: str, age: float | None = None) -> Path:
        path = tmp_path / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(b"data")
        if age is not None:
            os.utime(path, (age, age))
        return path

    staging_old, staging_new = make("tmpold123", old), make("tmpnew456")
    unopened, opened, fresh = make("h1/unopened.png"), make("h2/opened.png"), make("h3/fresh.png")
    output = make("h4/overlay.png", old)  # an app output: not an upload, left to its own deletion
    ledger = UploadLedger()
    ledger.add("client", [str(unopened), str(opened)])
    ledger._entries[str(unopened)].at = old  # uploaded an hour ago
    ledger._entries[str(opened)].at = old
    ledger.add("client", [str(fresh)])

    removed = privacy.sweep([str(opened)], ledger.older_than, ledger.forget)
    assert removed == 2
    assert not staging_old.exists() and not unopened.exists() and not unopened.parent.exists()
    assert staging_new.exists() and opened.exists() and fresh.exists() and output.exists()
    assert len(ledger) == 2  # the unopened one is forgotten; the opened and the fresh stay counted
    assert ledger.client_bytes("client") == 8


def test_an_upload_of_an_examples_own_file_is_everyones_copy_and_stays(tmp_path: Path, monkeypatch) -> None:
    """H15: a visitor uploads a photo to try's own file (same bytes and name), which lands where Gradio keeps
    the shared copy every visitor's example click opens; neither the sweep nor a full folder deletes it."""
    import time

    from ui.example_photos import example_photos
    from ui.upload_quota import UploadLedger

    monkeypatch.setenv("GRADIO_TEMP_DIR", str(tmp_path))
    photo = example_photos()[0]
    shared = tmp_path / "h5" / photo.path.name
    shared.parent.mkdir()
    shared.write_bytes(photo.path.read_bytes())
    stranger = tmp_path / "h6" / "mine.png"
    stranger.parent.mkdir()
    stranger.write_bytes(b"not an example")
    ledger = UploadLedger()
    ledger.add("visitor", [str(shared), str(stranger)])
    for entry in ledger._entries.values():
        entry.at = time.time() - 3600  # uploaded an hour ago, never opened

    assert privacy.sweep([], ledger.older_than, ledger.forget) == 1
    assert shared.read_bytes() == photo.path.read_bytes() and not stranger.exists()
    assert len(ledger) == 0  # both forgotten by the ledger: the example's copy is not the visitor's upload

    ledger.add("visitor", [str(shared)])
    ledger._entries[str(shared)].at = time.time() - 3600
    assert privacy.free_unopened(10**9, [], ledger.older_than, ledger.forget, min_age_s=0) == 0
    assert shared.exists() and len(ledger) == 0
