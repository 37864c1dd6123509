"""Helpers for driving the front end like a person would."""

from __future__ import annotations

import base64
import json
import math
import time
from pathlib import Path
from typing import Any

SHOTS = Path(__file__).resolve().parents[2] / "artifacts" / "screenshots"
SPOTS_JS = (Path(__file__).resolve().parent / "card_spots.js").read_text(encoding="utf-8")
TOUCH = 28
"""Pixels of a card's face a fingertip needs, across and down."""


def shot(page: Any, name: str, full_page: bool = True, folder: Path = SHOTS) -> Path:
    """Save a screenshot (the whole page, or the viewport) as ``folder/name.png``.

    The browser encodes the PNG for speed (the same pixels, files about 1.7 times as
    large): Playwright's own screenshot spends about 0.3 s of the browser's processor on
    each one's compression, four times as much, and the browser tests take hundreds."""
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"{name}.png"
    session = getattr(page, "cdp_session", None)
    if session is None:
        session = page.cdp_session = page.context.new_cdp_session(page)
    params: dict[str, Any] = {"format": "png", "optimizeForSpeed": True}
    if full_page:
        width, height = page.evaluate(
            "() => [document.documentElement.scrollWidth, document.documentElement.scrollHeight]")
        view = page.viewport_size or {"width": 0, "height": 0}
        params["captureBeyondViewport"] = True
        params["clip"] = {"x": 0, "y": 0, "width": math.ceil(max(width, view["width"])),
                          "height": math.ceil(max(height, view["height"])), "scale": 1}
    path.write_bytes(base64.b64decode(session.send("Page.captureScreenshot", params)["data"]))
    return path


def start_from_lobby(page: Any, base: str, game: str, options: dict[str, Any],
                     seed: int = 1) -> None:
    """Open the lobby, pick the game, set options through the controls, press Start.

    The lobby deals at random; the table request it sends is given ``seed`` on its way,
    so every browser test plays a known deal.
    """
    seeded: list[int] = []

    def with_seed(route: Any) -> None:
        request = route.request
        if request.method != "POST":
            route.continue_()
            return
        body = json.loads(request.post_data or "{}")
        body["seed"] = seed
        seeded.append(seed)
        route.continue_(post_data=json.dumps(body))

    page.route("**/api/tables", with_seed)
    if "?" not in base:
        page.goto(f"{base}/#/")
    else:
        page.goto(f"{base}#/")
    page.click(f'a[href="#/game/{game}"]')
    page.wait_for_selector("#start-btn")
    for name, value in options.items():
        el = page.locator(name if name.startswith("#") else f'[name="{name}"]')
        if isinstance(value, bool):
            el.set_checked(value)
        elif el.evaluate("e => e.tagName") == "SELECT":
            el.select_option(str(value))
        else:
            el.fill(str(value))
    page.click("#start-btn")
    page.wait_for_selector(".table-view[data-step]")
    page.unroute("**/api/tables", with_seed)
    assert seeded == [seed], "the lobby's table request was not seen"


def step_of(page: Any) -> int:
    return int(page.get_attribute(".table-view", "data-step") or -1)


def wait_change(page: Any, step: int) -> None:
    """Wait until the table moved past ``step`` or the game ended."""
    page.wait_for_function(
        "s => { const v = document.querySelector('.table-view');"
        " return v && (Number(v.dataset.step) > s || v.dataset.terminal === '1'"
        " || document.querySelector('#continue-btn')"
        " || document.querySelector('.status .err').textContent !== ''); }",
        arg=step)


def click(loc: Any, timeout: float = 15_000, card: bool | None = None) -> None:
    """Click an element where a person would: a card of an overlapping hand by its corner
    (``card`` says whether it is one when the caller knows; else the element is asked)."""
    if card is None:
        card = bool(loc.evaluate("e => e.classList.contains('card')"))
    if card:
        loc.click(position={"x": 12, "y": 22}, timeout=timeout)
    else:
        loc.click(timeout=timeout)


MOVES = [".hand .card.legal:not(.selectable)", "#pass-btn", ".trump-btn", ".dock .btn.action",
         ".dock .btn.primary:not([disabled]):not(.action-confirm)", ".hand .card.selectable"]
"""What :func:`my_move` looks for, in order (the last: a choice of several cards)."""
MOVE_JS = """sels => {
  const v = document.querySelector('.table-view');
  return [v ? Number(v.dataset.step ?? -1) : -1,
          sels.findIndex(s => document.querySelector(s) !== null)];
}"""


OLD_PART = "data-left-behind"
DRAWN_JS = f"""() => {{ const m = document.querySelector('main');
  return !!m && m.children.length > 0 && !m.querySelector(':scope > [{OLD_PART}]')
    && !!m.querySelector('h1, h2'); }}"""
"""The page at the new address is drawn: none of the last page's parts is left in ``main``
and a heading is there."""


def goto_drawn(page: Any, url: str) -> None:
    """Go to ``url`` and wait until its page is drawn. An address that changes only its hash
    keeps the last page on screen until the new one's data came, so the last page's parts
    are marked first and the wait is for them to be gone."""
    page.evaluate(f"() => document.querySelectorAll('main > *')"
                  f".forEach(e => e.setAttribute('{OLD_PART}', ''))")
    page.goto(url)
    page.wait_for_function(DRAWN_JS)


def my_move(page: Any) -> bool:
    """Make one move with the mouse: a legal card, else pass, else a button; True if moved."""
    # One look at the page gives the step and the first kind of move it offers.
    step, found = page.evaluate(MOVE_JS, MOVES)
    if 0 <= found < len(MOVES) - 1:
        click(page.locator(MOVES[found]).first, card=found == 0)
        wait_change(page, step)
        return True
    if found == len(MOVES) - 1:
        # A choice of several cards: pick until the confirmation is possible, then confirm.
        for _ in range(20):
            if page.locator(".action-confirm:not([disabled])").count():
                page.locator(".action-confirm").click()
                wait_change(page, step)
                return True
            card = page.locator(".hand .card.selectable:not(.selected)")
            if not card.count():
                break
            try:
                click(card.first, timeout=3_000)
            except Exception:  # the table was drawn again under the pointer: look again
                continue
    return False


MISALIGNED_JS = """() => [...document.querySelectorAll('table.result')].flatMap((table) => {
  const head = table.tHead ? table.tHead.rows[0] : null;
  const row = table.tBodies.length ? table.tBodies[0].rows[0] : null;
  if (!head || !row) return [];
  return [...head.cells].flatMap((th, i) => {
    const cell = row.cells[i];
    if (!cell || !th.textContent.trim()) return [];
    const over = getComputedStyle(th).textAlign, under = getComputedStyle(cell).textAlign;
    return over === under ? [] : [`${th.textContent.trim()}: ${over} over ${under}`];
  });
})"""
"""Result tables' column headings not aligned as the column's first row is (a heading over
figures aligned left, say), as ``heading: its alignment over the cell's``."""


SHOWS_JS = """() => document.querySelector('.dialog.end') ? 'end'
  : document.querySelector('#continue-btn') ? 'continue'
  : document.querySelector('.table-view')?.dataset.myTurn === '1' ? 'turn' : ''"""
"""What the table asks for now: the game's end, Continue after a hand, the player's turn,
or nothing yet."""


def play_to_end(page: Any, limit: float = 240.0, on_summary: Any = None) -> None:
    """Play every turn until the game-end dialog shows; hand summaries are looked at by
    ``on_summary(page)`` (if given), then dismissed with Continue."""
    deadline = time.time() + limit
    new_hand = False
    while time.time() < deadline:
        shows = page.evaluate(SHOWS_JS)
        if shows == "end":
            return
        if shows == "continue":
            if on_summary is not None:
                on_summary(page)
            page.click("#continue-btn")
            new_hand = True
            continue
        if shows == "turn":
            if new_hand:  # the first decision of a new hand: no word of the last trick
                line = page.query_selector(".status .event")
                event = line.inner_text() if line else ""
                assert not event.strip(), f"the new hand shows {event!r}"
                new_hand = False
            if my_move(page):
                continue
        page.wait_for_function(
            "() => document.querySelector('.dialog.end') || document.querySelector('#continue-btn')"
            " || document.querySelector('.table-view')?.dataset.myTurn === '1'")
    raise AssertionError("the game did not end in time")


def new_page(browser: Any, width: int = 1280, height: int = 800, locale: str = "en-US",
             pace: str = "instant", reduced_motion: bool = False) -> Any:
    """A page in a fresh context (own localStorage) with a pace of play chosen in advance
    (``instant`` keeps the tests fast; a choice made on the page later survives reloads)."""
    ctx = browser.new_context(viewport={"width": width, "height": height}, locale=locale,
                              reduced_motion="reduce" if reduced_motion else "no-preference")
    ctx.add_init_script(
        "if (localStorage.getItem('cardplaza.pace') === null)"
        f" localStorage.setItem('cardplaza.pace', JSON.stringify({json.dumps(pace)}));"
        "if (localStorage.getItem('cardplaza.sound') === null)"
        " localStorage.setItem('cardplaza.sound', 'false');")
    page = ctx.new_page()
    page.set_default_timeout(15_000)
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.js_errors = errors
    return page


def next_frame(page: Any) -> None:
    """Wait until the page has laid out and painted twice (after a resize)."""
    page.evaluate("() => new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)))")


def switch_language(page: Any, to: str) -> None:
    """Switch the table's language with its bar button and wait until the page is in ``to``."""
    page.click(".table-bar .lang-toggle")
    page.wait_for_function("l => document.documentElement.lang === l", arg=to)


def set_language(page: Any, lang: str) -> None:
    """Switch the language through the page's own module (works under an open dialog and
    on pages without the table's bar)."""
    page.evaluate("l => import('/static/i18n.js').then(m => m.setLang(l))", lang)
    page.wait_for_function("l => document.documentElement.lang === l", arg=lang)
    next_frame(page)


def tap_every_card(page: Any, lang: str) -> int:
    """Each card of the hand shows at least :data:`TOUCH` px across and down, and a tap in
    the middle of what shows of it chooses that card and no other, and a second tap there
    takes it back; Clear takes back what was chosen. Returns the number of cards."""
    ids = [int(x) for x in page.eval_on_selector_all(".hand .card",
                                                     "els => els.map(e => e.dataset.id)")]
    spots = page.evaluate(SPOTS_JS)
    assert [int(s["id"]) for s in spots] == ids
    narrow = [(i, s["width"], s["height"]) for i, s in enumerate(spots)
              if s["width"] < TOUCH or s["height"] < TOUCH]
    assert not narrow, f"{lang}: cards showing less than {TOUCH} px: {narrow}"
    for i, s in enumerate(spots):
        page.mouse.click(s["x"], s["y"])
        page.wait_for_function("i => document.querySelectorAll('.hand .card')[i]"
                               "?.getAttribute('aria-pressed') === 'true'", arg=i)
        pressed = page.eval_on_selector_all(
            ".hand .card", "els => els.map(e => e.getAttribute('aria-pressed'))")
        assert pressed == ["true" if k == i else "false" for k in range(len(ids))], (lang, i)
        # A second tap on the same spot takes the card back.
        page.mouse.click(s["x"], s["y"])
        page.wait_for_selector(".hand .card.selected", state="detached")
    # The Clear button takes back every card chosen.
    page.mouse.click(spots[0]["x"], spots[0]["y"])
    page.wait_for_selector(".hand .card.selected")
    page.click("#pick-clear")
    page.wait_for_selector(".hand .card.selected", state="detached")
    return len(ids)


def phone_drawer(page: Any, content: str, opener: str) -> None:
    """Resize to a phone and make sure the drawer holding ``content`` is open (a phone
    shows drawers one at a time: ``opener`` opens it if it is not the one shown)."""
    page.set_viewport_size({"width": 360, "height": 740})
    next_frame(page)
    if not page.locator(f".drawer-body:not([hidden]) {content}").count():
        page.click(opener)


FITS_JS = (Path(__file__).resolve().parent / "fits.js").read_text(encoding="utf-8")



def layout_problems(page: Any) -> list[str]:
    """What a person would have to scroll for, or could not read: [] when all is in view."""
    next_frame(page)
    problems: list[str] = page.evaluate(FITS_JS)
    return problems


SERIOUS = {"serious", "critical"}


def axe_serious(page: Any) -> list[str]:
    """The serious and critical accessibility violations axe-core finds on the page now
    (axe is bundled with ``axe-playwright-python``: nothing downloads)."""
    from axe_playwright_python.sync_playwright import DEFAULT_OPTIONS, Axe

    next_frame(page)
    # axe-core (half a megabyte of script) is put into each document once: a page that only
    # changes its hash keeps it between scans.
    if not page.evaluate("() => typeof window.axe?.run === 'function'"):
        page.evaluate(Axe().axe_script)
    response = page.evaluate("options => axe.run(options)", DEFAULT_OPTIONS)
    return [f"{v['id']} ({v['impact']}): " + "; ".join(n["target"][0] if n["target"] else "?"
                                                     for n in v["nodes"][:4])
            for v in response["violations"] if v.get("impact") in SERIOUS]

