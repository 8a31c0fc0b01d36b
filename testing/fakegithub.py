"""A local stand-in for the GitHub REST API: the three pull-request endpoints memsync calls.

As GitHub does, it lists the open pull requests of a head unless asked for `state=all` (then
newest first), refuses a second open pull request for one head but not a new one after a
closed one, and answers with the head as `{"ref", "sha"}`. `close` plays the buttons.
"""

from __future__ import annotations

import contextlib
import json
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any
from urllib.parse import parse_qs, urlsplit

TOKEN = "ghp_test-token-never-printed"
CLOSED_AT = "2026-11-23T10:15:00Z"


@dataclass
class FakeGitHub:
    """The three endpoints memsync calls, with pull requests kept in memory."""

    pulls: dict[int, dict[str, Any]] = field(default_factory=dict)
    requests: list[tuple[str, str, dict[str, str], Any]] = field(default_factory=list)
    status_override: int | None = None
    # Per method, an answer to give instead (status, body): a malformed API's.
    answers: dict[str, tuple[int, Any]] = field(default_factory=dict)
    url: str = ""
    # Seconds to wait before answering: a GitHub that hangs.
    delay: float = 0.0

    def handle(self, method: str, path: str, headers: dict[str, str], payload: Any) -> Any:
        self.requests.append((method, path, headers, payload))
        if self.delay:
            time.sleep(self.delay)
        if self.status_override is not None:
            return self.status_override, {"message": "Bad credentials"}
        if headers.get("authorization") != f"Bearer {TOKEN}":
            return 401, {"message": "Requires authentication"}
        if method in self.answers:
            return self.answers[method]
        parts = urlsplit(path)
        if not parts.path.startswith("/repos/acme/team-memory/pulls"):
            return 404, {"message": "Not Found"}
        rest = parts.path.removeprefix("/repos/acme/team-memory/pulls").strip("/")
        if method == "GET" and not rest:
            query = parse_qs(parts.query)
            head, state = query["head"][0], query.get("state", ["open"])[0]
            listed = [
                self._shown(pr)
                for _, pr in sorted(self.pulls.items(), reverse=True)
                if f"acme:{pr['head']}" == head and state in ("all", pr["state"])
            ]
            return 200, listed[: int(query.get("per_page", ["30"])[0])]
        if method == "POST" and not rest:
            if any(
                pr["head"] == payload["head"] and pr["state"] == "open"
                for pr in self.pulls.values()
            ):
                return 422, {
                    "message": "Validation Failed",
                    "errors": [{"message": "A pull request already exists"}],
                }
            number = max(self.pulls, default=0) + 1
            pr = {**payload, "number": number, "state": "open"}
            pr["html_url"] = f"https://github.com/acme/team-memory/pull/{number}"
            self.pulls[number] = pr
            return 201, pr
        if method == "PATCH" and rest.isdigit():
            self.pulls[int(rest)].update(payload)
            return 200, self.pulls[int(rest)]
        return 405, {"message": "unexpected"}

    def close(self, number: int, sha: str, *, merged: bool = False, when: str = CLOSED_AT) -> None:
        """Close pull request NUMBER (merged, or not) WHEN, its branch then at commit SHA."""
        self.pulls[number].update(
            state="closed", closed_at=when, merged_at=when if merged else None, head_sha=sha
        )

    @staticmethod
    def _shown(pr: dict[str, Any]) -> dict[str, Any]:
        """PR as the API lists it: the head a ref and its commit."""
        shown = {k: v for k, v in pr.items() if k != "head_sha"}
        return {**shown, "head": {"ref": pr["head"], "sha": pr.get("head_sha")}}


@contextmanager
def serve_fake_github() -> Iterator[FakeGitHub]:
    """Serve a FakeGitHub on 127.0.0.1 (its `url`) for the duration of the block."""
    fake = FakeGitHub()

    class Handler(BaseHTTPRequestHandler):
        def _serve(self) -> None:
            length = int(self.headers.get("Content-Length") or 0)
            payload = json.loads(self.rfile.read(length)) if length else None
            headers = {k.lower(): v for k, v in self.headers.items()}
            status, answer = fake.handle(self.command, self.path, headers, payload)
            data = json.dumps(answer).encode()
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            # The client may have given up waiting (a deadline test).
            with contextlib.suppress(BrokenPipeError, ConnectionResetError):
                self.wfile.write(data)

        do_GET = do_POST = do_PATCH = _serve

        def log_message(self, format: str, *args: Any) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=server.serve_forever, args=(0.05,), daemon=True)
    thread.start()
    fake.url = f"http://127.0.0.1:{server.server_address[1]}"
    yield fake
    server.shutdown()
    server.server_close()
