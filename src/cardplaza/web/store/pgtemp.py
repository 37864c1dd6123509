"""A throw-away PostgreSQL cluster (``initdb`` + ``pg_ctl``) for tests and load runs.

Needs the PostgreSQL server binaries (Debian: ``postgresql``); as root the cluster runs as
the ``postgres`` user. Nothing is kept: the data directory goes when the context ends.
"""

from __future__ import annotations

import glob
import os
import shutil
import socket
import subprocess
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path


def binary(name: str) -> str | None:
    """Path of a PostgreSQL server program, or ``None``."""
    found = sorted(glob.glob(f"/usr/lib/postgresql/*/bin/{name}"))
    return found[-1] if found else shutil.which(name)


def available() -> bool:
    """True when ``initdb`` and ``pg_ctl`` are installed."""
    return binary("initdb") is not None and binary("pg_ctl") is not None


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@contextmanager
def temporary_postgres() -> Iterator[str]:
    """A running cluster on a free loopback port; yields its SQLAlchemy URL."""
    initdb, pg_ctl = binary("initdb"), binary("pg_ctl")
    if initdb is None or pg_ctl is None:
        raise RuntimeError("PostgreSQL server binaries (initdb, pg_ctl) are not installed")
    root = os.geteuid() == 0
    base = Path(tempfile.mkdtemp(prefix="cardplaza-pg-"))
    data = base / "data"
    port = _free_port()

    def run(*cmd: str) -> None:
        full = ["runuser", "-u", "postgres", "--", *cmd] if root else list(cmd)
        subprocess.run(full, check=True, capture_output=True, timeout=120)

    if root:
        shutil.chown(base, "postgres", "postgres")
    run(initdb, "-D", str(data), "-U", "postgres", "--auth=trust", "-E", "UTF8", "-N")
    run(pg_ctl, "-D", str(data), "-l", str(base / "log.txt"), "-w", "-o",
        f"-p {port} -k {base} -c listen_addresses=127.0.0.1 -c fsync=off "
        f"-c max_connections=200", "start")
    try:
        yield f"postgresql+psycopg://postgres@127.0.0.1:{port}/postgres"
    finally:
        run(pg_ctl, "-D", str(data), "-m", "immediate", "stop")
        shutil.rmtree(base, ignore_errors=True)
