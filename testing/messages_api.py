"""A loopback stand-in for the Anthropic Messages API that the real Claude Code binary talks to.

It answers streaming `POST /v1/messages` with server-sent events. A request that carries
`tools` (the session's main loop) gets the next scripted turn of tool calls, chosen by how
many assistant turns the conversation already holds, so a retried request gets the same
answer; once the script is used up it gets plain text. Requests without tools (titles,
side queries) get plain text. Every request body is recorded: it is exactly what the
model was given.
"""

from __future__ import annotations

import itertools
import json
import threading
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any


@dataclass(frozen=True)
class ToolCall:
    """One `tool_use` block the stand-in model sends: a tool name and its input."""

    name: str
    input: dict[str, Any]


def write(path: str, content: str) -> ToolCall:
    """A Write tool call."""
    return ToolCall("Write", {"file_path": path, "content": content})


def edit(path: str, old: str, new: str) -> ToolCall:
    """An Edit tool call replacing OLD by NEW once."""
    return ToolCall("Edit", {"file_path": path, "old_string": old, "new_string": new})


def read(path: str) -> ToolCall:
    """A Read tool call (the client refuses an Edit of a file not read in the session)."""
    return ToolCall("Read", {"file_path": path})


@dataclass(frozen=True)
class Recorded:
    """One request the client sent: its path and JSON body."""

    path: str
    body: dict[str, Any]

    @property
    def has_tools(self) -> bool:
        """Whether this is a main-loop request (it offers tools to the model)."""
        return bool(self.body.get("tools"))

    def text(self) -> str:
        """All text the model was given: system prompt and every message's text, joined."""
        parts: list[str] = []
        system = self.body.get("system")
        parts.extend(_texts(system))
        for message in self.body.get("messages", []):
            parts.extend(_texts(message.get("content")))
        return "\n".join(parts)


def _texts(content: Any) -> Iterator[str]:
    if isinstance(content, str):
        yield content
    elif isinstance(content, list):
        for block in content:
            if not isinstance(block, dict):
                continue
            if isinstance(block.get("text"), str):
                yield block["text"]
            elif block.get("type") == "tool_result":
                yield from _texts(block.get("content"))


@dataclass
class Script:
    """Turns of tool calls for main-loop requests; the final answer once they are used up."""

    turns: list[list[ToolCall]] = field(default_factory=list)
    final_text: str = "Done."


def _sse(event: str, data: dict[str, Any]) -> bytes:
    return f"event: {event}\ndata: {json.dumps(data)}\n\n".encode()


def _assistant_turns(body: dict[str, Any]) -> int:
    return sum(1 for m in body.get("messages", []) if m.get("role") == "assistant")


class MessagesStandIn:
    """The server: start it, point `ANTHROPIC_BASE_URL` at `url`, read `requests` after."""

    def __init__(self) -> None:
        self.script = Script()
        self.requests: list[Recorded] = []
        # Called before the first main-loop answer of a session (after its SessionStart
        # hooks ran): tests use a barrier here to line up sessions on two machines.
        self.gate: Callable[[], object] | None = None
        self._lock = threading.Lock()
        self._ids = itertools.count(1)
        self._server = ThreadingHTTPServer(("127.0.0.1", 0), self._handler())
        self._server.daemon_threads = True
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)

    @property
    def url(self) -> str:
        """The base URL to give the client."""
        host, port = self._server.server_address[:2]
        return f"http://{host!s}:{port}"

    def start(self) -> MessagesStandIn:
        """Serve in a background thread."""
        self._thread.start()
        return self

    def stop(self) -> None:
        """Stop serving."""
        self._server.shutdown()
        self._server.server_close()

    def play(self, *turns: Sequence[ToolCall], final_text: str = "Done.") -> None:
        """Script the next session's main loop and forget what was recorded so far."""
        with self._lock:
            self.script = Script([list(t) for t in turns], final_text)
            self.requests = []

    def main_requests(self) -> list[Recorded]:
        """The recorded requests that offered tools (what the session's model saw)."""
        with self._lock:
            return [r for r in self.requests if r.has_tools]

    def _record(self, path: str, body: dict[str, Any]) -> None:
        with self._lock:
            self.requests.append(Recorded(path, body))

    def _events(self, body: dict[str, Any]) -> Iterator[bytes]:
        turn = _assistant_turns(body)
        with self._lock:
            script = self.script
            gate = self.gate if body.get("tools") and turn == 0 else None
            if gate is not None:
                self.gate = None  # once per session, even when the client retries
        if gate is not None:
            gate()
        calls = script.turns[turn] if body.get("tools") and turn < len(script.turns) else []
        model = str(body.get("model", "claude-stand-in"))
        yield _sse(
            "message_start",
            {
                "type": "message_start",
                "message": {
                    "id": f"msg_standin_{next(self._ids)}",
                    "type": "message",
                    "role": "assistant",
                    "model": model,
                    "content": [],
                    "stop_reason": None,
                    "stop_sequence": None,
                    "usage": {"input_tokens": 1, "output_tokens": 1},
                },
            },
        )
        if calls:
            for index, call in enumerate(calls):
                block: dict[str, Any] = {"type": "tool_use", "id": f"toolu_{next(self._ids):06d}"}
                block.update({"name": call.name, "input": {}})
                yield _sse(
                    "content_block_start",
                    {"type": "content_block_start", "index": index, "content_block": block},
                )
                delta = {"type": "input_json_delta", "partial_json": json.dumps(call.input)}
                yield _sse(
                    "content_block_delta",
                    {"type": "content_block_delta", "index": index, "delta": delta},
                )
                yield _sse("content_block_stop", {"type": "content_block_stop", "index": index})
            stop = "tool_use"
        else:
            text = script.final_text if body.get("tools") else "Memory sync session"
            yield _sse(
                "content_block_start",
                {
                    "type": "content_block_start",
                    "index": 0,
                    "content_block": {"type": "text", "text": ""},
                },
            )
            yield _sse(
                "content_block_delta",
                {
                    "type": "content_block_delta",
                    "index": 0,
                    "delta": {"type": "text_delta", "text": text},
                },
            )
            yield _sse("content_block_stop", {"type": "content_block_stop", "index": 0})
            stop = "end_turn"
        yield _sse(
            "message_delta",
            {
                "type": "message_delta",
                "delta": {"stop_reason": stop, "stop_sequence": None},
                "usage": {"output_tokens": 1},
            },
        )
        yield _sse("message_stop", {"type": "message_stop"})

    def _handler(self) -> type[BaseHTTPRequestHandler]:
        stand_in = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, format: str, *args: Any) -> None:
                """Quiet: the recorded requests are the log."""

            def _json(self, status: int, data: dict[str, Any]) -> None:
                payload = json.dumps(data).encode()
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(payload)))
                self.end_headers()
                self.wfile.write(payload)

            def do_GET(self) -> None:
                self._json(200, {})

            def do_HEAD(self) -> None:
                self.send_response(200)
                self.send_header("Content-Length", "0")
                self.end_headers()

            def do_POST(self) -> None:
                length = int(self.headers.get("Content-Length") or 0)
                raw = self.rfile.read(length) if length else b""
                try:
                    body = json.loads(raw or b"{}")
                except json.JSONDecodeError:
                    body = {"unparsed": raw.decode("utf-8", "replace")}
                path = self.path.split("?", 1)[0]
                stand_in._record(path, body)
                if path.endswith("/count_tokens"):
                    self._json(200, {"input_tokens": 1})
                    return
                if not path.endswith("/v1/messages"):
                    self._json(200, {})
                    return
                if not body.get("stream"):
                    self._json(200, _non_streaming(stand_in, body))
                    return
                self.send_response(200)
                self.send_header("Content-Type", "text/event-stream")
                self.send_header("Cache-Control", "no-cache")
                self.send_header("Connection", "close")
                self.end_headers()
                for chunk in stand_in._events(body):
                    self.wfile.write(chunk)
                    self.wfile.flush()
                self.close_connection = True

        return Handler


def _non_streaming(stand_in: MessagesStandIn, body: dict[str, Any]) -> dict[str, Any]:
    """A whole message for the rare request that does not stream: plain text only."""
    return {
        "id": f"msg_standin_{next(stand_in._ids)}",
        "type": "message",
        "role": "assistant",
        "model": str(body.get("model", "claude-stand-in")),
        "content": [{"type": "text", "text": "Memory sync session"}],
        "stop_reason": "end_turn",
        "stop_sequence": None,
        "usage": {"input_tokens": 1, "output_tokens": 1},
    }
