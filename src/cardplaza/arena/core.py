"""Paired-deal matches between computer levels.

Every deal is played once per seat assignment: the same deal (same seed) is replayed with
the seats rotated so each player holds each hand, which removes most of the luck of the
cards from the comparison. For a pair (A, B) the lineups alternate A, B around the table
(both A, B, A, … and B, A, B, …) and every distinct rotation of them is played.

The margin of one game is A's mean return minus B's mean return over the seats each
holds, taken from ``returns()`` at the game's end — for games made of several deals (a
piquet partie, a game to a target) that is the whole game's final score difference. The
per-deal margin is the mean over the deal's seat assignments. A game counts as a win for
the player holding its winning seats (the game's ``winners()``, which knows rules such as a
Pinochle bidder's priority over a higher score), a draw when both hold some.

With ``unit="deal"`` a game made of several deals is measured one deal at a time: each
game stops when its first deal is over and the margin comes from the points of that deal,
given by the game's ``first_deal_returns`` hook (``state -> per-seat points | None``); the
player with the larger mean of those points wins it. Single deals are far less noisy than
whole parties and several times cheaper to play.

Results are reproducible from the seed: deal ``d`` uses game seed ``seed + d`` and each
player's seed and random stream are derived from the deal seed, seat and assignment, so
the outcome does not depend on the number of worker processes.

A player named ``SOURCE:LEVEL`` is played by a seat program (:mod:`cardplaza.arena.external`),
typically a level of another checkout (``baseline:expert`` against ``expert``); it is
seeded exactly as a player of this checkout would be, so the same code on both sides
plays the same games.
"""

from __future__ import annotations

import math
import multiprocessing
import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from cardplaza.ai.player import Player, computer_player
from cardplaza.arena.external import RemoteSeat, Sources, check_sources, program, split_player
from cardplaza.core.options import options_to_dict
from cardplaza.core.protocol import GameState
from cardplaza.core.registry import get_game

Progress = Callable[[int, int], None]
"""Called with (tasks done, total tasks) as deals finish."""


@dataclass
class PairResult:
    """Outcome of one pair of players over paired deals (margins from A's side)."""

    a: str
    b: str
    deals: int
    games: int
    mean_margin: float
    ci95: float
    wins: int
    draws: int
    losses: int
    margins: list[float] = field(default_factory=list)

    @property
    def score_rate(self) -> float:
        """A's share of the points: (wins + draws / 2) / games."""
        return (self.wins + self.draws / 2) / self.games if self.games else 0.0

    def to_json(self) -> dict[str, Any]:
        """JSON-ready dict."""
        return {
            "a": self.a, "b": self.b, "deals": self.deals, "games": self.games,
            "mean_margin_per_deal": self.mean_margin, "ci95": self.ci95,
            "ci95_low": self.mean_margin - self.ci95, "ci95_high": self.mean_margin + self.ci95,
            "wins": self.wins, "draws": self.draws, "losses": self.losses,
            "win_rate": self.wins / self.games if self.games else 0.0,
            "score_rate": self.score_rate, "margins": self.margins,
        }


@dataclass
class ArenaResult:
    """Every pair's result and, for three or more players, Bradley–Terry ratings."""

    game: str
    options: dict[str, Any]
    players: list[str]
    deals: int
    seed: int
    pairs: list[PairResult]
    unit: str
    ratings: dict[str, float] | None
    anchor: str | None
    seconds: float
    interrupted: bool = False
    """True when the run was stopped early (Ctrl-C): only the first ``deals`` count."""
    sources: dict[str, dict[str, Any]] = field(default_factory=dict)
    """Seat programs used: per source name its ``command`` and ``cardplaza`` location."""

    def pair(self, a: str, b: str) -> PairResult:
        """The result of ``a`` against ``b`` (margins from ``a``'s side)."""
        for p in self.pairs:
            if (p.a, p.b) == (a, b):
                return p
            if (p.a, p.b) == (b, a):
                return PairResult(a, b, p.deals, p.games, -p.mean_margin, p.ci95, p.losses,
                                  p.draws, p.wins, [-m for m in p.margins])
        raise KeyError(f"no pair {a} vs {b}")

    def to_json(self) -> dict[str, Any]:
        """JSON-ready dict."""
        return {
            "format": "cardplaza-arena/1", "game": self.game, "options": self.options,
            "players": self.players, "deals": self.deals, "seed": self.seed,
            "unit": self.unit,
            "margin": "mean over seat assignments of (A's mean return - B's mean return) at "
                      + ("the end of the game's first deal (that deal's points)"
                         if self.unit == "deal" else "the end of the game") + ", per deal",
            "pairs": [p.to_json() for p in self.pairs],
            "ratings": self.ratings, "rating_scale": "Bradley-Terry, Elo points",
            "anchor": self.anchor, "seconds": self.seconds, "interrupted": self.interrupted,
            "sources": self.sources,
        }


def seat_assignments(seats: int) -> list[tuple[int, ...]]:
    """Distinct seat → player-index (0 = A, 1 = B) assignments for a paired deal.

    >>> seat_assignments(2)
    [(0, 1), (1, 0)]
    >>> seat_assignments(4)
    [(0, 1, 0, 1), (1, 0, 1, 0)]
    """
    out: list[tuple[int, ...]] = []
    for first in (0, 1):
        base = [(first + s) % 2 for s in range(seats)]
        for r in range(seats):
            lineup = tuple(base[(s + r) % seats] for s in range(seats))
            if lineup not in out:
                out.append(lineup)
    return out


def _game_margin(returns: Sequence[float], lineup: Sequence[int]) -> float:
    a = [r for r, p in zip(returns, lineup, strict=True) if p == 0]
    b = [r for r, p in zip(returns, lineup, strict=True) if p == 1]
    return sum(a) / len(a) - sum(b) / len(b)


UNITS = ("game", "deal")
"""What one arena deal is: a whole game, or only the first deal of a game of several."""


def _outcome(margin: float, winners: Sequence[int] | None, lineup: Sequence[int]) -> int:
    """1, 0 or -1: A won, drew or lost (by the winning seats, else by the margin)."""
    if winners is None:
        return (margin > 0) - (margin < 0)
    a_won = any(lineup[s] == 0 for s in winners)
    b_won = any(lineup[s] == 1 for s in winners)
    return int(a_won) - int(b_won)


def play_game(game: str, options: Any, deal_seed: int, lineup: Sequence[int],
              levels: Sequence[str], tag: int = 0, unit: str = "game",
              sources: Sources | None = None) -> tuple[float, ...]:
    """Play one game with ``levels[lineup[seat]]`` at each seat; its returns.

    With ``unit="deal"`` play stops when the first deal is over and the returns are that
    deal's points per seat (the game's ``first_deal_returns`` hook). Players named
    ``SOURCE:LEVEL`` are played by the seat programs of ``sources``.
    """
    return _play(game, options, deal_seed, lineup, levels, tag, unit, sources)[0]


def _play(game: str, options: Any, deal_seed: int, lineup: Sequence[int],
          levels: Sequence[str], tag: int, unit: str, sources: Sources | None = None,
          ) -> tuple[tuple[float, ...], tuple[int, ...] | None]:
    """:func:`play_game`'s returns and the winning seats (``None`` for a first deal)."""
    spec = get_game(game)
    first_deal = spec.hook("first_deal_returns") if unit == "deal" else None
    state: GameState = spec.new_game(options, deal_seed)
    base = (deal_seed * 1_000_003 + tag * 7919) & 0xFFFFFFFFFFFF
    n = state.num_players
    players: list[Player | None] = [None] * n
    remote: list[RemoteSeat | None] = [None] * n
    rngs = [random.Random(base * 17 + s) for s in range(n)]
    record: list[dict[str, Any]] | None = None
    defaults = options_to_dict(spec.options_type())
    changed = {k: v for k, v in options_to_dict(state.options).items() if defaults.get(k) != v}
    try:
        for s in range(n):
            source, level = split_player(levels[lineup[s]])
            if source is None:
                players[s] = computer_player(game, level, base + 31 * s + 1)
                continue
            if sources is None or source not in sources:
                raise ValueError(f"no seat program for source {source!r}")
            record = []
            remote[s] = RemoteSeat(program(sources[source]), game, changed, deal_seed, s,
                                   level, base + 31 * s + 1, base * 17 + s)
        return _play_loop(state, players, remote, rngs, record, first_deal, deal_seed)
    finally:
        for r in remote:
            if r is not None:
                r.close()


def _play_loop(state: GameState, players: Sequence[Player | None],
               remote: Sequence[RemoteSeat | None], rngs: Sequence[random.Random],
               record: list[dict[str, Any]] | None, first_deal: Any, deal_seed: int,
               ) -> tuple[tuple[float, ...], tuple[int, ...] | None]:
    steps = 0
    while not state.is_terminal:
        seat = state.current_player
        legal = state.legal_actions()
        forced = len(legal) == 1
        if forced:
            action = legal[0]
        else:
            seat_program = remote[seat]
            if seat_program is not None:
                assert record is not None
                action = state.action_from_json(seat_program.decide(record))
                reason = state.illegal_reason(action)
                if reason is not None:
                    raise RuntimeError(f"seat program at seat {seat} chose an illegal "
                                       f"action: {reason}")
            else:
                player = players[seat]
                assert player is not None
                action = player.choose(state.observation(seat), legal, rngs[seat])
        if record is not None:
            record.append({"seat": seat, "action": state.action_to_json(action),
                           "forced": forced})
        state.apply(action)
        steps += 1
        if steps > 1_000_000:
            raise RuntimeError(f"{state.game_name} seed {deal_seed}: game does not end")
        if first_deal is not None:
            deal_points = first_deal(state)
            if deal_points is not None:
                return tuple(float(x) for x in deal_points), None
    return tuple(state.returns()), state.winners()


_Task = tuple[str, Any, int, int, str, str, int, str, Sources]
_Games = list[tuple[float, int]]
"""One deal's games as (margin, outcome) pairs, one per seat assignment."""


def _play_task(task: _Task) -> tuple[int, int, _Games]:
    game, options, pair_index, d, a, b, seed, unit, sources = task
    deal_seed = seed + d
    seats = get_game(game).new_game(options, deal_seed).num_players
    games: _Games = []
    for k, lineup in enumerate(seat_assignments(seats)):
        returns, winners = _play(game, options, deal_seed, lineup, (a, b), k, unit, sources)
        margin = _game_margin(returns, lineup)
        games.append((margin, _outcome(margin, winners, lineup)))
    return pair_index, d, games


def _summarise(a: str, b: str, per_deal_games: list[_Games]) -> PairResult:
    per_deal = [[m for m, _ in g] for g in per_deal_games]
    outcomes = [o for g in per_deal_games for _, o in g]
    deal_means = [sum(m) / len(m) for m in per_deal]
    n = len(deal_means)
    mean = sum(deal_means) / n if n else 0.0
    var = sum((x - mean) ** 2 for x in deal_means) / (n - 1) if n > 1 else 0.0
    ci = 1.96 * math.sqrt(var / n) if n > 1 else math.inf
    return PairResult(
        a=a, b=b, deals=n, games=len(outcomes), mean_margin=mean, ci95=ci,
        wins=outcomes.count(1), draws=outcomes.count(0), losses=outcomes.count(-1),
        margins=deal_means,
    )


def bradley_terry(players: Sequence[str], pairs: Sequence[PairResult],
                  anchor: str | None = None, iterations: int = 500) -> dict[str, float]:
    """Bradley–Terry strengths from wins (draws count half) on the Elo scale.

    Half a virtual win is added to each side of every pair so unbeaten players stay
    finite. The ``anchor`` (default: ``random`` if present, else the first player) is 0.
    """
    idx = {p: i for i, p in enumerate(players)}
    n = len(players)
    wins = [[0.0] * n for _ in range(n)]
    for pr in pairs:
        i, j = idx[pr.a], idx[pr.b]
        wins[i][j] += pr.wins + pr.draws / 2 + 0.5
        wins[j][i] += pr.losses + pr.draws / 2 + 0.5
    strength = [1.0] * n
    for _ in range(iterations):
        new = []
        for i in range(n):
            w = sum(wins[i])
            denom = sum((wins[i][j] + wins[j][i]) / (strength[i] + strength[j])
                        for j in range(n) if j != i and wins[i][j] + wins[j][i] > 0)
            new.append(w / denom if denom > 0 else strength[i])
        total = sum(new)
        strength = [s * n / total for s in new]
    if anchor is None:
        anchor = "random" if "random" in idx else players[0]
    ref = strength[idx[anchor]]
    return {p: 400 * math.log10(strength[idx[p]] / ref) for p in players}


def check_arena(game: str, players: Sequence[str], deals: int, unit: str = "game",
                sources: Sources | None = None) -> None:
    """Raise ``ValueError`` with a clear message when an arena cannot be run as asked.

    Players named ``SOURCE:LEVEL`` need ``SOURCE`` in ``sources``; their levels are
    checked by :func:`cardplaza.arena.external.check_sources` when the run starts.
    """
    spec = get_game(game)
    levels = list(players)
    if unit not in UNITS:
        raise ValueError(f"unknown unit {unit!r}; units: {', '.join(UNITS)}")
    if unit == "deal" and "first_deal_returns" not in spec.hooks:
        raise ValueError(f"{game} cannot be measured one deal at a time: use --unit game")
    if len(levels) < 2:
        raise ValueError("an arena needs at least two players")
    if len(set(levels)) != len(levels):
        raise ValueError("each player may appear only once")
    if deals < 1:
        raise ValueError("play at least one deal")
    known = ("random", *spec.levels)
    for name in levels:
        source, level = split_player(name)
        if source is not None:
            if source not in (sources or {}):
                given = ", ".join(sorted(sources or {})) or "none given (use --baseline DIR)"
                raise ValueError(f"player {name!r}: unknown source {source!r}; "
                                 f"sources: {given}")
            continue
        if level not in known:
            raise ValueError(f"unknown level {level!r} for {game}; levels: {', '.join(known)}")


def run_arena(game: str, players: Sequence[str], deals: int, seed: int = 0, jobs: int = 1,
              options: Any = None, progress: Progress | None = None,
              unit: str = "game", sources: Sources | None = None) -> ArenaResult:
    """Play every pair of ``players`` (level names) on ``deals`` paired deals.

    ``unit`` is ``"game"`` (play each game to its end) or ``"deal"`` (only its first deal,
    for games with a ``first_deal_returns`` hook). ``sources`` names the seat programs of
    players called ``SOURCE:LEVEL`` (:func:`cardplaza.arena.external.parse_sources`).
    Interrupting (Ctrl-C) returns the result of the deals every pair has finished.
    """
    check_arena(game, players, deals, unit, sources)
    srcs = dict(sources or {})
    origins = check_sources(game, players, srcs)
    from cardplaza.ai.compiled import warm_up

    warm_up([game])  # once here: forked workers inherit the compiled kernels
    spec = get_game(game)
    levels = list(players)
    opts = spec.options_type() if options is None else options
    pairs = [(i, j) for i in range(len(levels)) for j in range(i + 1, len(levels))]
    # Deal-major order, so an interrupted run has the first deals of every pair.
    tasks: list[_Task] = [(game, opts, k, d, levels[i], levels[j], seed, unit, srcs)
                          for d in range(deals) for k, (i, j) in enumerate(pairs)]
    results: dict[tuple[int, int], _Games] = {}
    start = time.perf_counter()
    total = len(tasks)
    if progress:
        progress(0, total)
    interrupted = False
    try:
        if jobs > 1:
            methods = multiprocessing.get_all_start_methods()
            ctx = multiprocessing.get_context("fork" if "fork" in methods else None)
            with ctx.Pool(jobs) as pool:
                for done, (k, d, games) in enumerate(
                        pool.imap_unordered(_play_task, tasks), 1):
                    results[(k, d)] = games
                    if progress:
                        progress(done, total)
        else:
            for done, task in enumerate(tasks, 1):
                k, d, games = _play_task(task)
                results[(k, d)] = games
                if progress:
                    progress(done, total)
    except KeyboardInterrupt:
        # Keep the deals every pair has completed (a prefix, so still reproducible).
        complete = 0
        while complete < deals and all((k, complete) in results for k in range(len(pairs))):
            complete += 1
        if not complete:
            raise
        deals = complete
        interrupted = True
    summaries = [_summarise(levels[i], levels[j], [results[(k, d)] for d in range(deals)])
                 for k, (i, j) in enumerate(pairs)]
    ratings = anchor = None
    if len(levels) >= 3:
        anchor = "random" if "random" in levels else levels[0]
        ratings = bradley_terry(levels, summaries, anchor)
    return ArenaResult(game=game, options=options_to_dict(opts), players=levels, deals=deals,
                       seed=seed, pairs=summaries, unit=unit, ratings=ratings, anchor=anchor,
                       seconds=time.perf_counter() - start, interrupted=interrupted,
                       sources={name: {"command": list(srcs[name]), "cardplaza": origin}
                                for name, origin in origins.items()})
