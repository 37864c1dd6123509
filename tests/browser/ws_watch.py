"""What the server tells a page over its WebSockets, seen from the test."""

from __future__ import annotations

import json
import time
from typing import Any

from cardplaza.core.delta import rebuild


def watch_messages(page: Any, times: list[float] | None = None,
                   sent: list[dict[str, Any]] | None = None) -> list[dict[str, Any]]:
    """Every message the page receives on any of its sockets, state messages made whole
    (rebuilt from the deltas per socket), in order; with ``times``, the moment each one
    arrived (``time.perf_counter``); with ``sent``, every message the page sends."""
    seen: list[dict[str, Any]] = []

    def on_socket(ws: Any) -> None:
        last: dict[str, Any] = {}

        def frame(payload: Any) -> None:
            msg = json.loads(payload)
            if msg.get("type") == "state":
                msg = rebuild(last.get("msg"), msg)
                if msg is None:
                    return
                last["msg"] = msg
            seen.append(msg)
            if times is not None:
                times.append(time.perf_counter())

        ws.on("framereceived", frame)
        if sent is not None:
            ws.on("framesent", lambda payload: sent.append(json.loads(payload)))

    page.on("websocket", on_socket)
    return seen


def states(seen: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The state messages among them."""
    return [m for m in seen if m.get("type") == "state"]
