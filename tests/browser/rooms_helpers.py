"""Helpers for rooms in the browser: the host makes a room from the lobby, friends join by
the invite link or the room code, and everybody plays until the game's end."""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any

from cp_browser import SHOWS_JS, my_move, shot

PHONE = (360, 740)
DESKTOP = (1280, 800)


def wait_version(page: Any, before: str | None) -> None:
    page.wait_for_function(
        "v => document.querySelector('.room')?.dataset.version !== v", arg=before)


def make_room(host: Any, base: str, game: str, options: dict[str, Any],
              computers: dict[int, str], level: str, name: str = "Hana") -> dict[str, str]:
    """From the lobby: the game's options, "Play with friends", the table's computer level
    and the seats given to computers. The room's code and invite link."""
    host.goto(f"{base}/#/game/{game}")
    host.wait_for_selector("#friends-btn")
    host.fill("#opt-player", name)
    for opt, value in options.items():
        el = host.locator(f'[name="{opt}"]')
        if isinstance(value, bool):
            el.set_checked(value)
        elif el.evaluate("e => e.tagName") == "SELECT":
            el.select_option(str(value))
        else:
            el.fill(str(value))
    host.click("#friends-btn")
    host.wait_for_selector(".room[data-room] #room-code")
    if not host.is_visible("#room-level"):  # the settings folded away on a phone
        host.click(".settings-box summary")
    if host.input_value("#room-level") != level:
        before = host.get_attribute(".room", "data-version")
        host.select_option("#room-level", level)
        wait_version(host, before)
    for seat, lv in computers.items():
        before = host.get_attribute(".room", "data-version")
        host.select_option(f"#seat-kind-{seat}", f"computer:{lv}")
        wait_version(host, before)
    return {"code": host.inner_text("#room-code"), "link": host.input_value("#room-link"),
            "room": str(host.get_attribute(".room", "data-room"))}


@dataclass
class Joining:
    """What a friend did to get from the invite to the table."""

    taps: int = 0
    server_ms: float = 0.0
    table_ms: float = 0.0
    requests: list[str] = field(default_factory=list)
    started: float = 0.0


def watch_server_time(page: Any, joining: Joining) -> None:
    """Add up the server's time (request sent → first byte of the answer) of the page's
    API calls."""

    def done(request: Any) -> None:
        if "/api/" not in request.url:
            return
        t = request.timing
        if t["responseStart"] >= 0 and t["requestStart"] >= 0:
            joining.server_ms += t["responseStart"] - t["requestStart"]
            joining.requests.append(request.url.split("/api/", 1)[1])

    page.on("requestfinished", done)

    def socket(ws: Any) -> None:
        sent: list[float] = []

        def out(payload: Any) -> None:
            if '"join"' in str(payload) and not sent:
                sent.append(time.perf_counter())

        def back(payload: Any) -> None:
            if sent and '"state"' in str(payload) and not joining.table_ms:
                # seen from the test process: an upper bound of the server's time
                joining.table_ms = 1000 * (time.perf_counter() - sent[0])
                joining.server_ms += joining.table_ms
                joining.requests.append("ws join")

        ws.on("framesent", out)
        ws.on("framereceived", back)

    page.on("websocket", socket)


SERVER_BOUND = 180.0
"""Seconds a page may wait on the server's answers (the bound the suite gives a started
server to answer at all): a loaded machine answers late, but answers."""
QUIET = 15.0
"""Seconds a page may go on without the expected drawing once it waits for nothing."""


def in_flight(page: Any) -> set[Any]:
    """The page's requests to the server not yet answered (watched from the first call)."""
    pending: set[Any] | None = getattr(page, "cp_pending", None)
    if pending is None:
        live: set[Any] = set()

        def sent(request: Any) -> None:
            live.add(request)

        def over(request: Any) -> None:
            live.discard(request)

        page.on("request", sent)
        page.on("requestfinished", over)
        page.on("requestfailed", over)
        page.cp_pending = live
        pending = live
    return pending


def wait_drawn(page: Any, selector: str) -> None:
    """Wait for ``selector`` as long as the page still waits for the server (up to
    :data:`SERVER_BOUND`), and :data:`QUIET` seconds more once it waits for nothing: a slow
    server is waited for, a page that is stuck with all its answers in fails early, with
    what it shows."""
    pending = in_flight(page)
    deadline = time.time() + SERVER_BOUND
    idle_since: float | None = None
    while True:
        try:
            page.wait_for_selector(selector, timeout=500)
            return
        except Exception:  # not there yet (Playwright's timeout)
            pass
        now = time.time()
        idle_since = None if pending else (idle_since or now)
        if now > deadline or (idle_since is not None and now - idle_since > QUIET):
            shown = page.inner_text("main")[:400] if page.query_selector("main") else ""
            raise AssertionError(f"{selector} never shown ({len(pending)} requests unanswered);"
                                 f" the page shows: {shown!r}")


def join_by_link(friend: Any, link: str, seat: int, name: str,
                 joining: Joining | None = None, shot_as: str | None = None) -> Joining:
    """Open the invite link, give a name, take ``seat``: each tap counted."""
    joining = joining or Joining()
    joining.started = time.perf_counter()
    in_flight(friend)
    # The page's loading is waited for by wait_drawn, as long as the server is answering.
    friend.goto(link, wait_until="commit")
    joining.taps += 1  # opening the link
    return sit(friend, seat, name, joining, shot_as)


def join_by_code(friend: Any, base: str, code: str, seat: int, name: str,
                 joining: Joining | None = None, shot_as: str | None = None) -> Joining:
    """Type the room code into the lobby's box, then as by the link."""
    joining = joining or Joining()
    joining.started = time.perf_counter()
    in_flight(friend)
    friend.goto(f"{base}/#/", wait_until="commit")
    wait_drawn(friend, "#room-code-input")
    friend.click("#room-code-input")
    friend.fill("#room-code-input", code.lower())  # typed as a person might
    joining.taps += 1
    if shot_as is not None:
        shot(friend, shot_as + "_lobby_code", full_page=False)
    friend.click("#room-code-btn")
    joining.taps += 1
    return sit(friend, seat, name, joining, shot_as)


def sit(friend: Any, seat: int, name: str, joining: Joining,
        shot_as: str | None = None) -> Joining:
    wait_drawn(friend, f"#sit-{seat}")
    if shot_as is not None:
        shot(friend, shot_as + "_seat_choice")
    if friend.input_value("#join-name") != name:
        if friend.evaluate("() => document.activeElement?.id") == "join-name":
            friend.keyboard.type(name)  # the field waits with the cursor in it: no tap
        else:
            friend.click("#join-name")
            friend.fill("#join-name", name)
            joining.taps += 1  # the name field (then typing)
    friend.click(f"#sit-{seat}")
    joining.taps += 1
    friend.wait_for_selector(".room .room-wait")
    return joining


def host_sees(host: Any, name: str) -> None:
    host.wait_for_function(
        "n => [...document.querySelectorAll('.room-seat .occupant')]"
        ".some(e => e.textContent.includes(n))", arg=name, timeout=10_000)


def start(host: Any, pages: list[Any]) -> None:
    host.wait_for_selector("#room-start:not([disabled])")
    host.click("#room-start")
    for pg in pages:
        pg.wait_for_selector(".table-view[data-step]", timeout=20_000)


def play_together(pages: dict[str, Any], limit: float = 400.0,
                  shots: dict[str, Any] | None = None,
                  first_hand: bool = False) -> dict[str, int]:
    """Every person plays their turns (and continues after each hand's summary) until
    every page shows the game's end (with ``first_hand``: the first hand's summary or the
    end). The moves each made."""
    deadline = time.time() + limit
    moves = dict.fromkeys(pages, 0)
    done: set[str] = set()
    while len(done) < len(pages):
        if time.time() >= deadline:
            for name, pg in pages.items():
                shot(pg, f"FAILED_play_together_{name}", full_page=False)
            raise AssertionError(("the game did not end in time", moves, done))
        moved = False
        for name, pg in pages.items():
            if name in done:
                continue
            shows = pg.evaluate(SHOWS_JS)
            if shows == "end":
                done.add(name)
                continue
            if shows == "continue":
                if first_hand:
                    done.add(name)
                    continue
                if shots is not None and name in shots and "summary" not in shots:
                    shots["summary"] = shot(pg, shots[name] + "_summary", full_page=False)
                pg.click("#continue-btn")
                moved = True
                continue
            if shows == "turn":
                try:
                    if my_move(pg):
                        moves[name] += 1
                        moved = True
                except Exception:  # the table moved on under the pointer: look again
                    continue
        if not moved:
            time.sleep(0.05)
    return moves
