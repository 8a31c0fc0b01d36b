"""A loopback TCP proxy that adds latency per direction and can refuse, stall or drop.

Modes (switch at any time with `set_mode`):
- ``pass``: forward everything, each chunk delayed by ``delay_up`` (client -> server)
  or ``delay_down`` (server -> client), order kept.
- ``refuse``: nothing listens on the port (clients get "connection refused").
- ``stall``: after ``after_bytes`` bytes in ``direction``, stop forwarding on new
  connections and hold them open (the peer sees a silent network).
- ``drop``: like stall, but reset both sides (RST) at that point.
- ``blackhole``: accept and never answer (same as stall at 0 bytes both ways).

Everything runs in one asyncio loop on a daemon thread; ``stop`` (or the lifetime
timer) ends it. Only 127.0.0.1 is used.
"""

from __future__ import annotations

import asyncio
import contextlib
import socket
import struct
import threading
import time
from collections.abc import Coroutine, Iterator
from dataclasses import dataclass
from typing import Any


@dataclass
class ProxyStats:
    """Counters for what went through the proxy."""

    connections: int = 0
    bytes_up: int = 0
    bytes_down: int = 0
    stalled: int = 0
    dropped: int = 0


class DelayProxy:
    """Forward 127.0.0.1:port to 127.0.0.1:target_port with per-direction delay and faults."""

    def __init__(
        self,
        target_port: int,
        *,
        delay_up: float = 0.0,
        delay_down: float = 0.0,
        lifetime: float = 3600.0,
    ) -> None:
        self.target_port = target_port
        self.delay_up = delay_up
        self.delay_down = delay_down
        self.lifetime = lifetime
        self.mode = "pass"
        self.direction = "down"
        self.after_bytes = 0
        self.port = 0
        self.stats = ProxyStats()
        self._loop: asyncio.AbstractEventLoop | None = None
        self._server: asyncio.AbstractServer | None = None
        self._thread: threading.Thread | None = None
        self._writers: set[asyncio.StreamWriter] = set()
        self._ready = threading.Event()
        self._stopped = threading.Event()

    # --- control (any thread) ---

    def start(self) -> DelayProxy:
        """Start listening on a free loopback port."""
        self._thread = threading.Thread(target=self._run, name="delay-proxy", daemon=True)
        self._thread.start()
        if not self._ready.wait(10):
            raise RuntimeError("proxy did not start")
        return self

    def url(self, name: str) -> str:
        """git:// URL of repository NAME through the proxy."""
        return f"git://127.0.0.1:{self.port}/{name}"

    def set_mode(self, mode: str, *, direction: str = "down", after_bytes: int = 0) -> None:
        """Switch the fault mode for new connections (pass, refuse, stall, drop, blackhole)."""
        if mode not in ("pass", "refuse", "stall", "drop", "blackhole"):
            raise ValueError(mode)
        self.direction, self.after_bytes = direction, after_bytes
        self._call(self._apply_mode(mode))

    def set_delay(self, up: float, down: float) -> None:
        """Change the one-way delays."""
        self.delay_up, self.delay_down = up, down

    def reset_all(self) -> None:
        """Reset every open connection (RST)."""
        self._call(self._reset_all())

    def stop(self) -> None:
        """Close everything and end the loop thread."""
        if self._loop is None or self._stopped.is_set():
            return
        with contextlib.suppress(RuntimeError):
            self._call(self._shutdown())
        self._stopped.set()
        if self._thread is not None:
            self._thread.join(timeout=5)

    def __enter__(self) -> DelayProxy:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    def _call(self, coro: Coroutine[Any, Any, None]) -> None:
        assert self._loop is not None
        future = asyncio.run_coroutine_threadsafe(coro, self._loop)
        future.result(timeout=10)

    # --- the loop ---

    def _run(self) -> None:
        loop = asyncio.new_event_loop()
        self._loop = loop
        try:
            loop.run_until_complete(self._main())
        finally:
            with contextlib.suppress(Exception):
                loop.run_until_complete(loop.shutdown_asyncgens())
            loop.close()
            self._stopped.set()

    async def _main(self) -> None:
        await self._listen()
        self._done = asyncio.Event()
        self._ready.set()
        with contextlib.suppress(asyncio.TimeoutError):
            await asyncio.wait_for(self._done.wait(), timeout=self.lifetime)
        await self._close_all()

    async def _listen(self) -> None:
        sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind(("127.0.0.1", self.port))
        self.port = sock.getsockname()[1]
        self._server = await asyncio.start_server(self._handle, sock=sock, backlog=256)

    async def _apply_mode(self, mode: str) -> None:
        if mode == "refuse" and self._server is not None:
            self._server.close()
            await self._server.wait_closed()
            self._server = None
        elif mode != "refuse" and self._server is None:
            await self._listen()
        self.mode = mode

    async def _reset_all(self) -> None:
        for writer in list(self._writers):
            _reset(writer)

    async def _shutdown(self) -> None:
        self._done.set()

    async def _close_all(self) -> None:
        if self._server is not None:
            self._server.close()
        for writer in list(self._writers):
            _reset(writer)
        current = asyncio.current_task()
        pending = [t for t in asyncio.all_tasks() if t is not current]
        for task in pending:
            task.cancel()
        await asyncio.gather(*pending, return_exceptions=True)

    async def _handle(self, client_r: asyncio.StreamReader, client_w: asyncio.StreamWriter) -> None:
        # A cancelled handler would make asyncio log a traceback at shutdown: end quietly.
        with contextlib.suppress(asyncio.CancelledError):
            await self._serve(client_r, client_w)

    async def _serve(self, client_r: asyncio.StreamReader, client_w: asyncio.StreamWriter) -> None:
        self.stats.connections += 1
        mode, direction, limit = self.mode, self.direction, self.after_bytes
        self._writers.add(client_w)
        if mode == "blackhole":
            mode, direction, limit = "stall", "both", 0
        try:
            server_r, server_w = await asyncio.open_connection("127.0.0.1", self.target_port)
        except OSError:
            _reset(client_w)
            self._writers.discard(client_w)
            return
        self._writers.add(server_w)
        fault = mode if mode in ("stall", "drop") else None
        up = self._pipe(
            client_r, server_w, "up", fault if direction in ("up", "both") else None, limit
        )
        down = self._pipe(
            server_r, client_w, "down", fault if direction in ("down", "both") else None, limit
        )
        tasks = [asyncio.ensure_future(up), asyncio.ensure_future(down)]
        try:
            await asyncio.wait(tasks, return_when=asyncio.FIRST_EXCEPTION)
            await asyncio.gather(*tasks, return_exceptions=True)
        finally:
            for writer in (client_w, server_w):
                self._writers.discard(writer)
                with contextlib.suppress(Exception):
                    writer.close()

    async def _pipe(
        self,
        reader: asyncio.StreamReader,
        writer: asyncio.StreamWriter,
        direction: str,
        fault: str | None,
        limit: int,
    ) -> None:
        queue: asyncio.Queue[tuple[float, bytes]] = asyncio.Queue()
        sender = asyncio.ensure_future(self._send(queue, writer))
        passed = 0
        try:
            while True:
                data = await reader.read(65536)
                if fault is not None and passed + len(data) >= limit:
                    data = data[: max(0, limit - passed)]
                    if data:
                        await queue.put((self._due(direction), data))
                    await queue.join()
                    if fault == "drop":
                        self.stats.dropped += 1
                        for w in list(self._writers):
                            if w is writer:
                                _reset(w)
                        _reset(writer)
                        raise ConnectionResetError("dropped by proxy")
                    self.stats.stalled += 1
                    # Hold the connection open and silent until the proxy stops.
                    await asyncio.Event().wait()
                if not data:
                    break
                passed += len(data)
                if direction == "up":
                    self.stats.bytes_up += len(data)
                else:
                    self.stats.bytes_down += len(data)
                await queue.put((self._due(direction), data))
            await queue.put((self._due(direction), b""))
            await sender
        finally:
            if not sender.done():
                sender.cancel()

    def _due(self, direction: str) -> float:
        return time.monotonic() + (self.delay_up if direction == "up" else self.delay_down)

    async def _send(
        self, queue: asyncio.Queue[tuple[float, bytes]], writer: asyncio.StreamWriter
    ) -> None:
        while True:
            due, data = await queue.get()
            wait = due - time.monotonic()
            if wait > 0:
                await asyncio.sleep(wait)
            try:
                if not data:
                    if writer.can_write_eof():
                        writer.write_eof()
                    queue.task_done()
                    return
                writer.write(data)
                await writer.drain()
            except (ConnectionError, OSError):
                queue.task_done()
                return
            queue.task_done()


def _reset(writer: asyncio.StreamWriter) -> None:
    """Close with RST (SO_LINGER 0), so the peer sees 'connection reset'."""
    sock = writer.get_extra_info("socket")
    if sock is not None:
        with contextlib.suppress(OSError):
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
    with contextlib.suppress(Exception):
        writer.transport.abort()


@contextlib.contextmanager
def delay_proxy(
    target_port: int, rtt: float = 0.0, lifetime: float = 3600.0
) -> Iterator[DelayProxy]:
    """A running proxy with RTT split evenly between the two directions."""
    proxy = DelayProxy(target_port, delay_up=rtt / 2, delay_down=rtt / 2, lifetime=lifetime).start()
    try:
        yield proxy
    finally:
        proxy.stop()
