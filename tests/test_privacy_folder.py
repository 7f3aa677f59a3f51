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
