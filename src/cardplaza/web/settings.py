"""Every limit and tunable of the server, one named setting each, with its default.

``cardplaza serve`` exposes the common ones as options; :class:`Settings` holds them all and
is what :func:`cardplaza.web.front.app.create_app` takes. Each limit has a test under ``tests/web``.
"""

from __future__ import annotations

import dataclasses
import json
import os
from dataclasses import dataclass, field
from typing import Any


def default_ai_workers() -> int:
    """One computer-player process per core this process may use."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except (AttributeError, OSError):
        return max(1, os.cpu_count() or 1)


SERVE_SWITCH_INTERVAL = 0.001
"""The thread switch interval a served process runs with (:attr:`Settings.switch_interval`).
At 200 busy two-hand tables on two cores, the server's own time from a person's action
arriving to its state sent was shorter at the 95th percentile than with Python's 5 ms in
each of seven paired runs, at the same processor time per action."""

PACES: dict[str, float] = {"slow": 2.0, "normal": 1.0, "fast": 0.4, "instant": 0.0}
"""Computer pause of each pace as a multiple of the server's ``computer_pause``."""


@dataclass(frozen=True)
class Settings:
    """The server's settings (all in seconds, bytes or counts)."""

    # -- pace ------------------------------------------------------------------------------
    computer_pause: float = 0.6
    """The "normal" pace: least time between a computer's play and the action before it."""
    pace_min_seconds: float = 0.0
    """No pace gives a shorter computer pause than this."""
    pace_max_seconds: float = 5.0
    """No pace gives a longer computer pause than this."""

    # -- computer players ---------------------------------------------------------------
    ai_workers: int = field(default_factory=default_ai_workers)
    """Computer-player worker processes of this server process."""
    ai_deadline_seconds: float = 8.0
    """A decision not back this long after it was asked for is made by the level's quick
    policy instead (and logged)."""
    ai_kill_seconds: float = 30.0
    """A worker still busy with one task this long is killed and replaced."""
    fixed_computers: bool = True
    """A game of one person against computers is played by computers whose decisions depend
    only on the deal, their seat's view and the decision point (no clock, no memory between
    decisions, no quick stand-in when a worker is slow: :mod:`cardplaza.web.live.fixed`), so
    any such game can become a challenge whose friend meets the very same computers, and a
    seed with the same play replays the same game. Their iteration budgets bound each
    decision instead of a clock. Daily deals and challenges are always played so; False
    brings back the timed computers for ordinary tables (and no challenges from them)."""
    ai_nice: int = 0
    """Scheduling niceness added to the computers' worker processes. At the event loop's
    own (0), a flood of messages the loop must refuse cannot slow a computer's move; the
    analysis workers sit below both (``analysis_nice``)."""
    analysis_workers: int = field(default_factory=lambda: max(1, default_ai_workers() - 1))
    """Worker processes of this server process for hints, helpers and reviews: a pool of
    their own, so a computer's move never waits behind them in a queue."""
    analysis_nice: int = 15
    """Niceness added to the analysis workers: above ``ai_nice``, so when the processor is
    short an analysis yields it to the computers' moves."""
    analysis_cache_positions: int = 96
    """Positions per table whose analysis (a hint's or a helper's) the server keeps, so the
    same position asked again and the review show the same numbers; the oldest go first."""
    analysis_queue: int = 8
    """Analyses waiting or running in this process at once; more are refused
    (``analysis_busy``)."""
    analysis_per_second: float = 4.0
    """Hints, helpers and reviews this process starts per second on average, from all
    clients together (a server-wide token bucket; beyond it ``analysis_busy``)."""
    analysis_burst: int = 16
    """Hints, helpers and reviews this process may start at once."""
    hints_per_minute_per_address: float = 40.0
    """Hints, helpers and reviews one client address may ask for per minute on average."""
    hints_burst_per_address: int = 20
    """Hints, helpers and reviews one client address may ask for at once."""
    hints_per_minute_per_player: float = 30.0
    """Hints, helpers and reviews asked for per minute on average at the tables of one
    player."""
    hints_burst_per_player: int = 15
    """Hints, helpers and reviews asked for at once at the tables of one player."""
    ai_prestart: bool = False
    """Start the workers with the server (``serve`` does) rather than on first use."""
    ai_preload: tuple[str, ...] = ()
    """``module:function`` names each worker calls when it starts (warm-ups, extra games)."""
    ai_warm_up: bool = True
    """``serve`` has each worker compile or load the search kernels when it starts."""
    kernel_watch_seconds: float = 5.0
    """While some search kernels are not yet in the disk cache (the computer processes
    compile them in the background), how often the server looks again; until they are all
    there, the lobby says the computer players are being prepared."""
    ai_ready_seconds: float = 30.0
    """With ``ai_prestart``: how long the server waits at start for its computer-player
    and analysis processes to say they are ready (``serve`` prints its address after
    that, so the first game's computers and hints are there at once)."""

    # -- frames and messages ---------------------------------------------------------------
    ws_max_size: int = 65_536
    """Largest WebSocket message in bytes (uvicorn refuses larger frames while reading)."""
    http_max_body: int = 65_536
    """Largest HTTP request body in bytes (checked while reading)."""
    json_max_depth: int = 16
    """Deepest nesting of arrays and objects in a client message."""
    json_max_int: int = 2**53
    """Largest magnitude of a whole number in a client message (besides seeds)."""
    rate_per_second: float = 20.0
    """Messages per second a connection may send on average (token bucket refill)."""
    rate_burst: int = 40
    """Messages a connection may send at once (token bucket size)."""
    rate_strikes: int = 20
    """Refused messages (over the rate) after which the connection is closed."""
    address_rate_per_second: float = 60.0
    """Messages per second all connections from one client address may send together on
    average (a token bucket shared by them, so many connections add up to no more)."""
    address_rate_burst: int = 120
    """Messages all connections from one client address may send at once."""
    connections_per_minute_per_address: float = 120.0
    """WebSocket connections one client address may open per minute on average; beyond
    it (or while the address's message budget is spent) a new connection is refused before
    it is accepted."""
    connections_burst_per_address: int = 60
    """WebSocket connections one client address may open at once."""
    player_rate_per_second: float = 40.0
    """Messages per second all connections at the tables of one player (the key that
    opened them) may send together on average."""
    player_rate_burst: int = 80
    """Messages all connections at one player's tables may send at once."""
    send_queue: int = 32
    """Messages waiting for one client; a client whose queue is full is dropped."""
    send_timeout_seconds: float = 10.0
    """A send to one client taking longer than this drops that client (one timer per
    client looks every half of it, so it is dropped within one and a half times this)."""

    # -- tables ------------------------------------------------------------------------------
    max_open_tables_per_address: int = 40
    """Tables created from one client address within ``open_window_seconds`` that are not
    finished (abandoned ones count too); checked in the transaction that stores a table."""
    tables_per_minute_per_address: float = 6.0
    """Tables (and new player keys) one client address may create per minute on average
    (a token bucket shared by all its requests)."""
    tables_burst_per_address: int = 20
    """Tables (and new player keys) one client address may create at once."""
    tables_per_minute_per_player: float = 4.0
    """Tables one player key may create per minute on average."""
    tables_burst_per_player: int = 12
    """Tables one player key may create at once."""
    max_open_tables_per_player: int = 10
    """Unfinished tables of one player key; a new one beyond it abandons the oldest."""
    open_window_seconds: float = 6 * 3600.0
    """How long an unfinished table counts as open for the limits above."""
    max_live_tables: int = 5_000
    """Tables held in memory by this process; idle ones are evicted first."""
    idle_seconds: float = 900.0
    """A table nobody is connected to and no computer is playing leaves memory after this
    long (it is reloaded from the log on the next join)."""
    sweep_seconds: float = 30.0
    """How often idle tables are looked for."""

    # -- playing with friends ------------------------------------------------------------
    invite_seconds: float = 24 * 3600.0
    """An invite link and its room code work this long (and for as long as the room's game
    is being played); the host can revoke them sooner."""
    room_code_length: int = 7
    """Characters of a room code (from :data:`cardplaza.web.live.rooms.CODE_ALPHABET`)."""
    room_lookups_per_minute: float = 30.0
    """Invite and room-code lookups one client address may make a minute (codes are short:
    this keeps guessing them hopeless)."""
    max_rooms_per_player: int = 20
    """Rooms one player key may make within ``open_window_seconds``."""
    max_rooms_per_address: int = 40
    """Rooms one client address may make within ``open_window_seconds``."""
    standin_seconds: int = 60
    """When a person's connection drops at a table with other people, a computer plays
    their seat after this long (until they come back); the host may choose 30–180."""
    standin_min_seconds: int = 30
    """The shortest stand-in wait a host may choose."""
    standin_max_seconds: int = 180
    """The longest stand-in wait a host may choose."""
    turn_choices: tuple[int, ...] = (15, 30, 60)
    """Seconds a host may give each decision (the turn timer; off unless chosen): when
    they run out a computer makes that decision for the person."""
    undo_request_seconds: float = 60.0
    """An undo request at a table with several people lapses after this long without
    every answer."""
    max_spectators: int = 50
    """People who may watch one table at once (a room's watch link); more are refused."""
    talk_per_minute: float = 6.0
    """Table-talk phrases one seat may send a minute (a burst of as many, then one every
    ``60 / talk_per_minute`` seconds); more are refused (``talk_limited``)."""

    # -- ratings -------------------------------------------------------------------------
    rating_provisional_games: int = 10
    """A rating is marked provisional for its first this many games."""
    leaderboard_min_games: int = 5
    """Games a player needs before the leaderboard lists them."""
    leaderboard_page_size: int = 25
    """Players on one leaderboard page."""
    leaderboard_total_seconds: float = 10.0
    """How long a leaderboard's count of listed players is reused before it is counted
    again (counting every listed player on every page view costs the most)."""
    rating_history: int = 100
    """Rated games a player page charts (the latest)."""
    rating_recent_games: int = 10
    """Rated games a player page lists (the latest)."""

    # -- the action log and the server's own log --------------------------------------
    log_batch_max: int = 64
    """Most actions written in one transaction: appends that arrive while one is being
    written share the next (group commit)."""
    log_batch_seconds: float = 0.0
    """Least time between two transactions of the action log: an action stored sooner
    after the last transaction waits for the rest of it, and the actions arriving
    meanwhile share its transaction (a commit costs more than a row). Adds up to this to
    an action's round trip; 0 (the default: at 50 busy tables a gap of 8 ms saved no
    measurable processor time and added 6 ms to the median round trip) writes a batch as
    soon as the last one is done, the appends that came meanwhile together."""
    log_on_loop: bool = False
    """SQLite: write the action log's batches on the event loop when no wait is needed
    (saves a hop to the writing thread; the loop then stops for each write). Off: the
    writing thread writes every batch and the loop goes on meanwhile."""
    health_peak_seconds: float = 1.0
    """``/healthz`` reads the processes' peak memory from ``/proc`` at most this often (a
    probe in between tells the last reading): a load balancer's frequent probes cost the
    server little."""
    log_level: str = "info"
    """The server log's level (``debug`` adds a line for every action)."""

    gc_schedule: bool = False
    """Garbage collection on the server's schedule (``serve`` sets it; see
    :mod:`cardplaza.web.live.collector`)."""
    gc_full_seconds: float = 300.0
    """With ``gc_schedule``, how often the full pass over every object runs."""
    switch_interval: float = 0.0
    """The interpreter's thread switch interval of the process while the server runs
    (``sys.setswitchinterval``), in seconds; 0 leaves Python's own (5 ms). ``serve`` sets
    :data:`SERVE_SWITCH_INTERVAL` unless it is given (``0.005`` is Python's own). The
    action log's writing thread gives the interpreter lock up around every database call
    and must get it back from the event loop each time; a busy loop keeps it up to this
    long before it yields."""

    # -- several processes -----------------------------------------------------------------
    heartbeat_seconds: float = 1.0
    """How often a server process renews its heartbeat row."""
    lease_seconds: float = 6.0
    """A process whose heartbeat is older than this is taken for dead: its tables are free."""
    relay_host: str = "127.0.0.1"
    """Address the internal relay listener binds (other processes forward clients there)."""
    relay_port: int = 0
    """First port the relay listener tries (0: any free port)."""
    relay_auth_seconds: float = 30.0
    """A relay connection's proof holds this long either side of the listener's clock (keep
    the hosts' clocks in sync); each proof opens one connection."""
    advertise: str = ""
    """Host other processes use to reach this one's relay (default ``relay_host``)."""

    # -- security ------------------------------------------------------------------------------
    allowed_origins: tuple[str, ...] = ()
    """Origins (``https://host``) allowed to open WebSockets besides the served host itself;
    ``"*"`` allows any."""
    streak_seeds: bool = False
    """Let requests choose the deal of streak games (tests only: a known deal would let a
    player look up the computer's cards)."""

    def replace(self, **changes: Any) -> Settings:
        """A copy with some settings changed."""
        return dataclasses.replace(self, **changes)

    def to_json(self) -> str:
        """JSON text of the settings (to hand them to other processes)."""
        return json.dumps(dataclasses.asdict(self))

    @classmethod
    def from_json(cls, text: str) -> Settings:
        """Inverse of :meth:`to_json`."""
        data = json.loads(text)
        data["allowed_origins"] = tuple(data.get("allowed_origins", ()))
        data["ai_preload"] = tuple(data.get("ai_preload", ()))
        data["turn_choices"] = tuple(data.get("turn_choices", (15, 30, 60)))
        return cls(**data)

    def pause_for(self, pace: str) -> float:
        """The computer pause of a pace, clamped to the pace bounds."""
        seconds = self.computer_pause * PACES[pace]
        return min(max(seconds, self.pace_min_seconds), self.pace_max_seconds)
