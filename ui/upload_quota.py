"""Uploads: who sent them, how many bytes each client holds, and which session may open each one.

- `UploadLedger` records every upload Gradio accepted (path -> the client that sent it, when) and grants
  that client one opening of it per upload. Gradio names an upload by its bytes (a folder per SHA-256), so
  two sessions uploading the same photo share a path, and anyone who has the same photo can work the path
  out: a path alone proves nothing. A session may open an upload only by spending a grant its own client
  got by uploading it (ui.uploads.UploadGate), and a session's start over deletes a shared file only when
  no other live session holds it (ui.state).
- `UploadBudget` counts upload bytes as they arrive, per client and in total, so that a chunked request
  (no Content-Length), a request of many files or many requests in parallel cannot pass the caps: bytes are
  reserved before they are passed on, and the request is cut off the moment it would pass a cap.
"""

from __future__ import annotations

import threading
import time
from collections import Counter
from collections.abc import Callable, Collection
from dataclasses import dataclass, field
from pathlib import Path


@dataclass
class _Entry:
    client: str
    at: float
    grants: Counter[str] = field(default_factory=Counter)  # client -> openings left


@dataclass
class UploadLedger:
    """Uploads Gradio received: path -> (client, time, grants). Thread-safe; forgets a path once deleted."""

    _entries: dict[str, _Entry] = field(default_factory=dict)
    _lock: threading.Lock = field(default_factory=threading.Lock)

    def add(self, client: str, paths: Collection[str]) -> None:
        now = time.time()
        with self._lock:
            for path in paths:
                entry = self._entries.get(path)
                if entry is None:
                    entry = self._entries[path] = _Entry(client, now)
                entry.client, entry.at = client, now
                entry.grants[client] += 1

    def claim(self, path: str, client: str) -> bool:
        """Spend one of `client`'s openings of `path`; False when it has none (it never uploaded it)."""
        with self._lock:
            entry = self._entries.get(path)
            if entry is None or entry.grants[client] <= 0:
                return False
            entry.grants[client] -= 1
            return True

    def awaited(self, path: str) -> bool:
        """Whether an upload of `path` waits to be opened (a grant not yet spent): someone sent these bytes
        again, so the file is theirs now too."""
        with self._lock:
            entry = self._entries.get(path)
            return entry is not None and any(n > 0 for n in entry.grants.values())

    def client_bytes(self, client: str) -> int:
        """Bytes of this client's uploads that are still on disk (forgetting the ones that are gone)."""
        total = 0
        with self._lock:
            for path, entry in list(self._entries.items()):
                if entry.client != client:
                    continue
                try:
                    total += Path(path).stat().st_size
                except OSError:
                    del self._entries[path]
        return total

    def older_than(self, seconds: float) -> list[str]:
        """Paths uploaded more than `seconds` ago, oldest first."""
        cutoff = time.time() - seconds
        with self._lock:
            old = [(e.at, p) for p, e in self._entries.items() if e.at < cutoff]
        return [p for _, p in sorted(old)]

    def forget(self, path: str) -> None:
        with self._lock:
            self._entries.pop(path, None)

    def __len__(self) -> int:
        with self._lock:
            return len(self._entries)


LEDGER = UploadLedger()


class OverBudget(Exception):
    """An upload would pass a cap: `status` (413) and the sentence the client gets."""

    def __init__(self, status: int, detail: str) -> None:
        super().__init__(detail)
        self.status = status
        self.detail = detail


CLIENT_FULL = "You have too many photos uploaded at once; start over or wait a few minutes."
SERVER_FULL = "The server holds too many uploads now; try again in a few minutes."


class UploadBudget:
    """Bytes of uploads in flight, reserved as they arrive, on top of what is already held.

    `held_total()` is what the upload folder holds now; `held_by(client)` what that client's finished
    uploads hold; `make_room(bytes)` may free uploads that nobody opened (returns the bytes freed).
    All reservations happen on the server's event loop between awaits, so parallel requests see each
    other's reservations: none is accepted on room another has already taken. `held_total()` walks the
    folder, so it is measured at most once a second, and again after any upload ends (its bytes move from
    in flight to held then): not once per arriving chunk.

    The last `total_cap // 5` of the folder is kept for light clients, those holding at most
    `client_cap // 5` with this upload (one phone photo): a few addresses each filling its own cap reach
    only four fifths of the folder, so a visitor's photo still fits (H7 of issue 31: 11 addresses had
    locked everyone out)."""

    def __init__(
        self,
        client_cap: int,
        total_cap: int,
        held_total: Callable[[], int],
        held_by: Callable[[str], int],
        make_room: Callable[[int], int] = lambda needed: 0,
    ) -> None:
        self.client_cap = client_cap
        self.total_cap = total_cap
        self.light_bytes = client_cap // 5
        self.light_reserve = total_cap // 5
        self.held_total = held_total
        self.held_by = held_by
        self.make_room = make_room
        self.in_flight: Counter[str] = Counter()
        self._held: tuple[float, int] | None = None  # (when measured, bytes)

    def _held_total(self) -> int:
        now = time.monotonic()
        if self._held is None or now - self._held[0] > 1.0:
            self._held = (now, self.held_total())
        return self._held[1]

    def reserve(self, client: str, size: int) -> None:
        """Reserve `size` more bytes for `client`, or raise OverBudget (nothing reserved)."""
        if size <= 0:
            return
        mine = self.held_by(client) + self.in_flight[client] + size
        if mine > self.client_cap:
            raise OverBudget(413, CLIENT_FULL)
        cap = self.total_cap if mine <= self.light_bytes else self.total_cap - self.light_reserve
        over = self._held_total() + sum(self.in_flight.values()) + size - cap
        if over > 0:
            self._held = None  # measure again after making room
            if self.make_room(over) < over:
                raise OverBudget(413, SERVER_FULL)
        self.in_flight[client] += size

    def release(self, client: str, size: int) -> None:
        self._held = None  # an upload ended: what the folder holds changed
        self.in_flight[client] -= size
        if self.in_flight[client] <= 0:
            del self.in_flight[client]
