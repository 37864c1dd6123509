"""Arena seats played by another program: a level of another checkout, or an outside bot.

A player named ``SOURCE:LEVEL`` (e.g. ``baseline:expert``) is played by the program of
``SOURCE``, which speaks the seat protocol of :mod:`cardplaza.arena.seat_driver` over its
standard input and output. Sources are named on the command line:

* ``--baseline DIR`` / ``--checkout NAME=DIR``: another checkout of Card Plaza; its own
  interpreter (``DIR/.venv/bin/python``, or ``DIR`` itself when it is a Python executable)
  runs this package's ``seat_driver.py``, which rebuilds each position with that
  checkout's engine and lets that checkout's level decide;
* ``--program NAME=COMMAND``: any program speaking the protocol (an outside bot).

The program is handed the game record (game, options, seed, actions) and the seat: it is
trusted, as it could work out every hand. The driver shipped here gives the player only
its seat's observation, as the arena does with its own players.
"""

from __future__ import annotations

import atexit
import json
import os
import shlex
import subprocess
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from cardplaza.arena import seat_driver

Command = tuple[str, ...]
"""The argument vector that starts a seat program."""

Sources = Mapping[str, Command]
"""Seat programs by source name (the part before ``:`` in a player name)."""


def split_player(name: str) -> tuple[str | None, str]:
    """``(source, level)`` of a player name; the source is ``None`` for a level of this
    checkout.

    >>> split_player("baseline:expert")
    ('baseline', 'expert')
    >>> split_player("strong")
    (None, 'strong')
    """
    source, sep, level = name.partition(":")
    return (source, level) if sep else (None, name)


def checkout_command(path: str | Path) -> Command:
    """The command running the seat driver with another checkout's Python.

    ``path`` is a checkout (its ``.venv/bin/python`` is used) or a Python executable.
    """
    p = Path(path).expanduser()
    python = p / ".venv" / "bin" / "python" if p.is_dir() else p
    if not python.exists():
        raise ValueError(f"{path}: no Python found (expected a checkout with .venv/bin/python "
                         "— run `make .venv/.installed` there — or a Python executable)")
    return (str(python), "-P", str(Path(seat_driver.__file__).resolve()))


def parse_sources(baseline: str | None = None, checkouts: Sequence[str] = (),
                  programs: Sequence[str] = ()) -> dict[str, Command]:
    """Sources from the command line's ``--baseline``, ``--checkout NAME=DIR`` and
    ``--program NAME=COMMAND`` values."""
    out: dict[str, Command] = {}
    pairs: list[tuple[str, str, bool]] = []
    if baseline:
        pairs.append(("baseline", baseline, True))
    for text, is_checkout in [*((c, True) for c in checkouts), *((p, False) for p in programs)]:
        name, sep, value = text.partition("=")
        if not sep or not name.strip() or not value.strip():
            raise ValueError(f"{text!r} must look like NAME=" + ("DIR" if is_checkout
                                                                 else "COMMAND"))
        pairs.append((name.strip(), value.strip(), is_checkout))
    for name, value, is_checkout in pairs:
        if ":" in name or "," in name:
            raise ValueError(f"source name {name!r} may not contain ':' or ','")
        if name in out:
            raise ValueError(f"source {name!r} is given twice")
        out[name] = checkout_command(value) if is_checkout else tuple(shlex.split(value))
    return out


class SeatProgram:
    """A running seat program: one request line, one answer line."""

    def __init__(self, command: Command) -> None:
        self.command = command
        self.next_id = 0
        try:
            self.proc = subprocess.Popen(list(command), stdin=subprocess.PIPE,
                                         stdout=subprocess.PIPE, text=True, bufsize=1)
        except OSError as exc:
            raise RuntimeError(f"cannot start seat program {shlex.join(command)}: {exc}") \
                from None
        hello = self.request({"type": "hello"})
        if hello.get("protocol") != seat_driver.PROTOCOL:
            raise RuntimeError(f"{shlex.join(command)} does not speak {seat_driver.PROTOCOL}")
        self.origin = str(hello.get("cardplaza", ""))

    def request(self, msg: dict[str, Any]) -> dict[str, Any]:
        """Send one request and return the answer; ``RuntimeError`` on an error answer."""
        stdin, stdout = self.proc.stdin, self.proc.stdout
        assert stdin is not None and stdout is not None
        try:
            stdin.write(json.dumps(msg) + "\n")
            stdin.flush()
            line = stdout.readline()
        except OSError:
            line = ""
        if not line:
            raise RuntimeError(f"seat program {shlex.join(self.command)} stopped "
                               f"(exit code {self.proc.poll()})")
        answer: dict[str, Any] = json.loads(line)
        if answer.get("type") == "error":
            raise RuntimeError(f"seat program {shlex.join(self.command)}: "
                               f"{answer.get('message')}")
        return answer

    def close(self) -> None:
        """End the program (it stops at the end of its input)."""
        if self.proc.poll() is None:
            if self.proc.stdin is not None:
                self.proc.stdin.close()
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        if self.proc.stdout is not None:
            self.proc.stdout.close()


_RUNNING: dict[tuple[int, Command], SeatProgram] = {}


def program(command: Command) -> SeatProgram:
    """The running program of ``command`` in this process (started on first use).

    Keyed by process id: arena workers forked from a parent start their own.
    """
    key = (os.getpid(), command)
    running = _RUNNING.get(key)
    if running is None or running.proc.poll() is not None:
        running = _RUNNING[key] = SeatProgram(command)
    return running


@atexit.register
def close_programs() -> None:
    """End the seat programs this process started."""
    pid = os.getpid()
    for key in [k for k in _RUNNING if k[0] == pid]:
        _RUNNING.pop(key).close()


def check_sources(game: str, players: Sequence[str], sources: Sources) -> dict[str, str]:
    """Raise ``ValueError`` unless every ``SOURCE:LEVEL`` player names a known source that
    offers that level for ``game``; returns where each source's ``cardplaza`` lives."""
    origins: dict[str, str] = {}
    for name in players:
        source, level = split_player(name)
        if source is None:
            continue
        if source not in sources:
            known = ", ".join(sorted(sources)) or "none given (use --baseline DIR)"
            raise ValueError(f"player {name!r}: unknown source {source!r}; sources: {known}")
        try:
            prog = program(sources[source])
            levels = prog.request({"type": "levels", "game": game})["levels"]
        except RuntimeError as exc:
            raise ValueError(str(exc)) from None
        if level not in levels:
            raise ValueError(f"player {name!r}: {source} offers no level {level!r} for "
                             f"{game}; levels: {', '.join(levels)}")
        origins[source] = prog.origin
    return origins


class RemoteSeat:
    """One seat of one arena game, played by a seat program."""

    def __init__(self, prog: SeatProgram, game: str, options: dict[str, Any], seed: int,
                 seat: int, level: str, player_seed: int, rng_seed: int) -> None:
        self.prog = prog
        self.id = prog.next_id
        prog.next_id += 1
        self.sent = 0
        prog.request({"type": "new", "id": self.id, "game": game, "options": options,
                      "seed": seed, "seat": seat, "level": level,
                      "player_seed": player_seed, "rng_seed": rng_seed})

    def decide(self, record: Sequence[dict[str, Any]]) -> Any:
        """The program's action (JSON form) after the game's ``record`` so far."""
        new = list(record[self.sent:])
        self.sent = len(record)
        return self.prog.request({"type": "act", "id": self.id, "actions": new})["action"]

    def close(self) -> None:
        """Forget the game in the program."""
        if self.prog.proc.poll() is None:
            self.prog.request({"type": "close", "id": self.id})
