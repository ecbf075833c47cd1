"""Live updates: every write to a table is published to the people watching it (server-sent events).

Writers run in worker threads; watchers are asyncio tasks. :meth:`Hub.publish` hands each message to
the watcher's own event loop (``call_soon_threadsafe``), so neither side ever blocks the other. A
watcher that falls far behind gets one ``sync`` message instead of the backlog: it must fetch the
state again, which is always correct.
"""

from __future__ import annotations

import asyncio
import threading
from typing import Any

BACKLOG = 256


class Subscription:
    def __init__(self, table_id: str, loop: asyncio.AbstractEventLoop) -> None:
        self.table_id = table_id
        self.loop = loop
        self.queue: asyncio.Queue[dict[str, Any]] = asyncio.Queue()

    def _push(self, msg: dict[str, Any]) -> None:  # runs on self.loop
        if self.queue.qsize() >= BACKLOG:
            while not self.queue.empty():
                self.queue.get_nowait()
            msg = {"type": "sync", "version": msg.get("version")}
        self.queue.put_nowait(msg)

    async def get(self) -> dict[str, Any]:
        return await self.queue.get()


class Hub:
    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._subs: dict[str, set[Subscription]] = {}

    def subscribe(self, table_id: str) -> Subscription:
        """Call from the watcher's event loop."""
        sub = Subscription(table_id, asyncio.get_running_loop())
        with self._lock:
            self._subs.setdefault(table_id, set()).add(sub)
        return sub

    def unsubscribe(self, sub: Subscription) -> None:
        with self._lock:
            subs = self._subs.get(sub.table_id)
            if subs is not None:
                subs.discard(sub)
                if not subs:
                    del self._subs[sub.table_id]

    def watchers(self, table_id: str) -> int:
        with self._lock:
            return len(self._subs.get(table_id, ()))

    def publish(self, table_id: str, msg: dict[str, Any]) -> None:
        """Thread-safe; never blocks."""
        with self._lock:
            subs = list(self._subs.get(table_id, ()))
        for sub in subs:
            try:
                sub.loop.call_soon_threadsafe(sub._push, msg)
            except RuntimeError:  # that watcher's loop is closed: it is gone
                self.unsubscribe(sub)
