"""The layers of the package point one way and nothing imports in a circle.

``core`` ← ``games`` ← ``ai`` ← ``arena``/``cli``/``web``: the engines know nothing of the
players, the players nothing of the front ends. A game's terminal view and research codec
(``games/<game>/terminal.py``, ``research.py``) are reached only through the registry's
lazy hooks. Inside ``web``: ``store`` ← ``live`` ← ``learning`` ← ``front``.
"""

from __future__ import annotations

import subprocess
import sys
from functools import cache

import pytest
from import_graph import cycles, js_imports, python_imports, python_modules


@cache
def graph() -> dict[str, set[str]]:
    """The package's import graph, read once by the first test that asks (not when the
    tests are collected: every test process collects this file)."""
    return python_imports()


def _part(module: str, depth: int = 1) -> str:
    return ".".join(module.split(".")[1: 1 + depth])


def _edges(frm: str) -> list[tuple[str, str]]:
    return sorted((a, b) for a, bs in graph().items() if a == frm or a.startswith(frm + ".")
                  for b in bs)


def test_the_graph_is_read() -> None:
    """The reader finds the package's modules and their imports (a reader that finds
    nothing would pass every rule below)."""
    assert len(python_modules()) > 100
    assert "cardplaza.core.protocol" in graph()["cardplaza.games.piquet.state"]
    assert "cardplaza.web.live.tables" in graph()["cardplaza.web.live.session"]
    # imports inside functions count too
    assert "cardplaza.web.front.server" in graph()["cardplaza.cli.main"]
    assert js_imports()["table.js"] >= {"dom.js", "site.js", "games/generic.js"}


def test_no_import_circle_in_python() -> None:
    assert cycles(graph()) == []


def test_no_import_circle_in_the_front_end() -> None:
    assert cycles(js_imports()) == []


def test_cycle_finder_finds_a_circle() -> None:
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]


def test_core_imports_only_core() -> None:
    # The registry finds the game packages by importing ``cardplaza.games`` (the
    # namespace only) and each game by name.
    bad = [(a, b) for a, b in _edges("cardplaza.core")
           if _part(b) != "core" and b != "cardplaza.games"]
    assert bad == []


def test_generic_ai_knows_no_game_and_no_front_end() -> None:
    bad = [(a, b) for a, b in _edges("cardplaza.ai") if _part(b) not in ("core", "ai")]
    assert bad == []


HOOK_LAYERS = {"terminal": "cli", "research": "research"}


@pytest.mark.parametrize("game", sorted({_part(m, 2) for m in python_modules()
                                         if m.startswith("cardplaza.games.")
                                         and m.count(".") >= 2}))
def test_a_game_reaches_front_ends_only_from_its_hooks(game: str) -> None:
    """A game's modules import core, the generic AI and games only; its terminal view may
    use the terminal's view classes and its research codec the research core."""
    bad = []
    for a, b in _edges(f"cardplaza.{game}"):
        layer = _part(b)
        leaf = a.rsplit(".", 1)[-1]
        if layer in ("core", "ai", "games"):
            continue
        if HOOK_LAYERS.get(leaf) == layer:
            continue
        bad.append((a, b))
    assert bad == []


def test_terminal_views_and_research_codecs_only_through_the_registry() -> None:
    bad = [(a, b) for a, bs in graph().items() for b in bs
           if b.startswith("cardplaza.games.") and b.rsplit(".", 1)[-1] in HOOK_LAYERS]
    assert bad == []


def test_importing_a_game_loads_only_its_engine() -> None:
    """What registration loads is the pure engine: no player, terminal, research or web
    module comes with it."""
    code = ("import sys\n"
            "from cardplaza.core.registry import games\n"
            "games()\n"
            "print(sorted({m.split('.')[1] for m in sys.modules\n"
            "              if m.startswith('cardplaza.') and m != 'cardplaza.__main__'}))\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True).stdout
    assert out.strip() == "['core', 'games']"


# The two-hand winning streak ladder is a feature of the site (high scores, the level of
# the next game), kept by the engine's ``Streak`` rules.
FRONT_END_GAME_IMPORTS = {"cardplaza.games.pinochle2.streak"}


@pytest.mark.parametrize("front", ["arena", "cli", "web", "research", "texts"])
def test_front_ends_reach_games_through_the_registry(front: str) -> None:
    bad = [(a, b) for a, b in _edges(f"cardplaza.{front}")
           if _part(b) == "games" and b not in FRONT_END_GAME_IMPORTS]
    assert bad == []


def test_front_ends_do_not_import_each_other() -> None:
    allowed = {
        "arena": {"core", "ai", "games", "arena"},
        "research": {"core", "ai", "games", "research"},
        "texts": {"core", "texts"},
        "web": {"core", "ai", "games", "texts", "web"},
        # The command line starts the server and the load benchmark (``serve``,
        # ``loadtest``) from its entry point only.
        "cli": {"core", "ai", "games", "arena", "research", "texts", "cli"},
    }
    bad = []
    for front, ok in allowed.items():
        for a, b in _edges(f"cardplaza.{front}"):
            if _part(b) in ok or b == "cardplaza" or (
                    a == "cardplaza.cli.main" and _part(b) == "web"):
                continue
            bad.append((a, b))
    assert bad == []


WEB_LAYERS = ["settings", "errors", "store", "live", "learning", "front", "loadtest"]


def test_web_layers_point_one_way() -> None:
    """``store`` knows nothing of live tables, live tables nothing of learning or HTTP."""
    rank = {name: i for i, name in enumerate(WEB_LAYERS)}
    rank["errors"] = rank["settings"]
    bad = []
    for a, b in _edges("cardplaza.web"):
        if not b.startswith("cardplaza.web.") or a.count(".") < 2:
            continue
        pa, pb = _part(a, 2).split(".")[1], _part(b, 2).split(".")[1]
        if pa in rank and pb in rank and rank[pb] > rank[pa]:
            bad.append((a, b))
    assert bad == []


def test_live_tables_know_nothing_of_http() -> None:
    """Only the front door (``web.front``) and the load benchmark speak HTTP."""
    http_users = []
    for prefix in ("cardplaza.web.live", "cardplaza.web.store", "cardplaza.web.learning",
                   "cardplaza.web.settings", "cardplaza.web.errors"):
        for name, path in python_modules().items():
            if name == prefix or name.startswith(prefix + "."):
                text = path.read_text(encoding="utf-8")
                if "fastapi" in text or "starlette" in text:
                    http_users.append(name)
    assert "cardplaza.web.front.app" in python_modules()
    assert http_users == []
