"""A local HTTP server speaking the Hugging Face Hub's file API, enough for huggingface_hub's
`snapshot_download` (repo info, the recursive file tree, HEAD and ranged GET of /resolve/), with a gated
repository and files whose downloads break off halfway (a set number of times). Point HF_ENDPOINT at it."""

from __future__ import annotations

import hashlib
import json
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler
from pathlib import Path
from typing import Any
from urllib.parse import unquote, urlsplit

from tests.chat_server import serve_local


@dataclass
class Hub:
    repos: dict[str, dict[str, bytes]]
    gated: set[str] = field(default_factory=set)
    breaks: dict[str, int] = field(default_factory=dict)  # "repo/file": how many GETs stop halfway
    gets: list[tuple[str, str | None]] = field(default_factory=list)  # (path, Range header)
    lock: threading.Lock = field(default_factory=threading.Lock)
    unknown: list[str] = field(default_factory=list)  # requests for routes this server does not speak
    bytes_per_second: int | None = None  # serve file bodies this slowly (a first start's progress)

    @classmethod
    def from_folders(cls, folders: dict[str, Path], **options: Any) -> Hub:
        """Repositories made of local checkpoint folders (e.g. the tiny ones, served under real ids)."""
        repos = {
            repo: {str(f.relative_to(root)): f.read_bytes() for f in sorted(root.rglob("*")) if f.is_file()}
            for repo, root in folders.items()
        }
        return cls(repos=repos, **options)

    def sha(self, repo: str) -> str:
        return hashlib.sha1(repo.encode()).hexdigest()


def _handler(hub: Hub) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def log_message(self, *args: Any) -> None:
            pass

        def _json(self, status: int, payload: Any, headers: dict[str, str] | None = None) -> None:
            data = json.dumps(payload).encode()
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            for k, v in (headers or {}).items():
                self.send_header(k, v)
            self.end_headers()
            if self.command != "HEAD":  # a HEAD answer has no body (one would desync a kept-alive connection)
                self.wfile.write(data)

        def _route(self) -> tuple[str, str, str, str] | None:
            """(kind, repo, revision, rest) for /api/models/{repo}/revision/{rev},
            /api/models/{repo}/tree/{rev} and /{repo}/resolve/{rev}/{file}, and the same for a dataset
            repository (/api/datasets/..., /datasets/{repo}/resolve/...)."""
            path = unquote(urlsplit(self.path).path).strip("/").split("/")
            api = path[:2] in (["api", "models"], ["api", "datasets"])
            if api and len(path) >= 6 and path[4] in ("revision", "tree"):
                return path[4], "/".join(path[2:4]), path[5], "/".join(path[6:])
            if path[:1] == ["datasets"]:  # a dataset repository's files: /datasets/{repo}/resolve/...
                path = path[1:]
            if len(path) >= 5 and path[2] == "resolve":
                return "resolve", "/".join(path[:2]), path[3], "/".join(path[4:])
            return None

        def _refuse(self, repo: str) -> bool:
            if repo not in hub.repos:
                self._json(404, {"error": "Repository not found"}, {"X-Error-Code": "RepoNotFound"})
                return True
            if repo in hub.gated:
                self._json(
                    403, {"error": f"Access to model {repo} is restricted."}, {"X-Error-Code": "GatedRepo"}
                )
                return True
            return False

        def do_GET(self) -> None:  # noqa: N802 - http.server's name
            self._serve(body=True)

        def do_HEAD(self) -> None:  # noqa: N802
            self._serve(body=False)

        def _serve(self, body: bool) -> None:
            route = self._route()
            if route is None:
                hub.unknown.append(self.path)
                self._json(404, {"error": "not found"})
                return
            kind, repo, _revision, rest = route
            if self._refuse(repo):
                return
            files, sha = hub.repos[repo], hub.sha(repo)
            if kind == "revision":
                self._json(200, {"id": repo, "sha": sha, "siblings": [{"rfilename": f} for f in files]})
            elif kind == "tree":
                tree = [
                    {"type": "file", "path": f, "size": len(d), "oid": hashlib.sha1(d).hexdigest()}
                    for f, d in sorted(files.items())
                ]
                self._json(200, tree)
            else:
                self._file(repo, rest, files, sha, body)

        def _file(self, repo: str, name: str, files: dict[str, bytes], sha: str, body: bool) -> None:
            if name not in files:
                self._json(404, {"error": "Entry not found"}, {"X-Error-Code": "EntryNotFound"})
                return
            data = files[name]
            start = 0
            ranged = self.headers.get("Range")
            if body:
                with hub.lock:
                    hub.gets.append((f"{repo}/{name}", ranged))
            if ranged and ranged.startswith("bytes="):
                start = int(ranged[6:].split("-")[0] or 0)
            part = data[start:]
            self.send_response(206 if start else 200)
            self.send_header("Content-Length", str(len(part)))
            self.send_header("ETag", f'"{hashlib.sha1(data).hexdigest()}"')
            self.send_header("X-Repo-Commit", sha)
            self.send_header("Accept-Ranges", "bytes")
            if start:
                self.send_header("Content-Range", f"bytes {start}-{len(data) - 1}/{len(data)}")
            self.end_headers()
            if not body:
                return
            key = f"{repo}/{name}"
            if hub.breaks.get(key, 0) > 0:
                hub.breaks[key] -= 1
                self.wfile.write(part[: len(part) // 2])
                self.wfile.flush()
                self.close_connection = True
                self.connection.shutdown(2)  # the connection drops halfway through
                return
            if not hub.bytes_per_second:
                self.wfile.write(part)
                return
            chunk = max(1, hub.bytes_per_second // 10)
            for offset in range(0, len(part), chunk):
                self.wfile.write(part[offset : offset + chunk])
                self.wfile.flush()
                time.sleep(0.1)

    return Handler


@contextmanager
def serve_hub(hub: Hub) -> Iterator[str]:
    """Serve `hub` on 127.0.0.1 (a free port); yields its endpoint URL."""
    with serve_local(_handler(hub)) as url:
        yield url
