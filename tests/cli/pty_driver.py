"""Drive ``cardplaza`` through a pseudo-terminal, as a person at a real terminal would.

The program sees a terminal (colours, the "thinking…" line, prompts); the driver waits for
a prompt, answers it, and keeps the whole screen text (ANSI codes kept in ``raw``,
stripped in ``text``).
"""

from __future__ import annotations

import fcntl
import os
import re
import select
import signal
import subprocess
import sys
import termios
import time
from collections.abc import Sequence


def _own_terminal() -> None:
    """In the child: a new session whose controlling terminal is the pty (so Ctrl-C
    typed there sends SIGINT, as at a real terminal), with SIGINT handled as a login
    shell's child has it: a test run started in the background inherits it ignored."""
    os.setsid()
    fcntl.ioctl(0, termios.TIOCSCTTY, 0)
    signal.signal(signal.SIGINT, signal.SIG_DFL)


ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]|\x1b\][^\x07]*\x07|\r")


def strip_ansi(text: str) -> str:
    """Text without colour and cursor codes."""
    return ANSI.sub("", text)


class PtySession:
    """A ``cardplaza`` process on a pseudo-terminal."""

    def __init__(self, args: Sequence[str], env: dict[str, str] | None = None,
                 columns: int = 110) -> None:
        master, slave = os.openpty()
        full_env = dict(os.environ, TERM="xterm-256color", COLUMNS=str(columns), LINES="50",
                        PYTHONUNBUFFERED="1", LANG="C.UTF-8")
        # English unless a test asks otherwise, whatever the locale of the one running it.
        for name in ("NO_COLOR", "LC_ALL", "LC_MESSAGES"):
            full_env.pop(name, None)
        full_env.update(env or {})
        self.proc = subprocess.Popen([sys.executable, "-m", "cardplaza", *args],
                                     stdin=slave, stdout=slave, stderr=slave, env=full_env,
                                     close_fds=True, preexec_fn=_own_terminal)
        os.close(slave)
        self.fd = master
        self.raw = ""
        self._seen = 0
        self._clean = ""
        """``raw[:_done]`` without ANSI codes (a game's output is long: stripping all of
        it again at every look made a whole game's driving quadratic)."""
        self._done = 0

    @property
    def text(self) -> str:
        """Everything shown so far, without ANSI codes."""
        raw = self.raw
        end = len(raw)
        # A code still arriving (its last characters not read yet) waits for the rest.
        esc = raw.rfind("\x1b", self._done)
        if esc != -1 and ANSI.match(raw, esc) is None and end - esc < 256:
            end = esc
        if end > self._done:
            self._clean += strip_ansi(raw[self._done:end])
            self._done = end
        return self._clean + strip_ansi(raw[end:])

    def _read(self, timeout: float) -> bool:
        ready, _, _ = select.select([self.fd], [], [], timeout)
        if not ready:
            return False
        try:
            data = os.read(self.fd, 65536)
        except OSError:  # the program ended and the terminal closed
            data = b""
        if not data:
            raise EOFError
        self.raw += data.decode("utf-8", errors="replace")
        return True

    def expect(self, pattern: str, timeout: float = 60.0) -> re.Match[str]:
        """Wait until ``pattern`` appears after the last match; return the match."""
        regex = re.compile(pattern)
        deadline = time.monotonic() + timeout
        while True:
            text = self.text
            m = regex.search(text, self._seen)
            if m:
                self._seen = m.end()
                return m
            left = deadline - time.monotonic()
            if left <= 0:
                raise TimeoutError(f"no {pattern!r} in:\n{text[-3000:]}")
            try:
                self._read(min(left, 0.5))
            except EOFError:
                m = regex.search(self.text, self._seen)
                if m:
                    self._seen = m.end()
                    return m
                raise EOFError(f"ended without {pattern!r}:\n{self.text[-3000:]}") from None

    def since_last(self) -> str:
        """Text after the last match (read without waiting)."""
        while self._read(0.05):
            pass
        return self.text[self._seen:]

    def send(self, line: str) -> None:
        """Type a line and Enter."""
        os.write(self.fd, (line + "\r").encode())

    def interrupt(self) -> None:
        """Ctrl-C."""
        os.write(self.fd, b"\x03")

    def wait(self, timeout: float = 30.0) -> int:
        """Wait for the end (reading the rest of the output); the exit code."""
        deadline = time.monotonic() + timeout
        while self.proc.poll() is None and time.monotonic() < deadline:
            try:
                self._read(0.2)
            except EOFError:
                break
        code = self.proc.wait(max(0.1, deadline - time.monotonic()))
        try:
            while self._read(0.05):
                pass
        except EOFError:
            pass
        return code

    def close(self) -> None:
        """Stop the process if it still runs, and close the terminal."""
        if self.proc.poll() is None:
            os.killpg(self.proc.pid, signal.SIGTERM)
            self.proc.wait(10)
        os.close(self.fd)


PROMPT = r"(?:^|\n)> $|\(y/n\) $"


def play_through(session: PtySession, answer: str = "#1", limit: int = 2000,
                 extra: dict[int, str] | None = None) -> list[str]:
    """Answer every prompt with ``answer`` (or ``extra[k]`` at the k-th prompt) until the
    "Play again?" question, which is answered no. Returns the prompts' texts."""
    seen: list[str] = []
    for k in range(limit):
        m = session.expect(r"> $|\(y/n\) $", timeout=120)
        before = session.text[max(0, m.start() - 80):m.end()]
        seen.append(before)
        if "Play again?" in before:
            session.send("n")
            return seen
        session.send((extra or {}).get(k, answer))
    raise AssertionError("the game did not end")
