"""Compiled search kernels: plain-Python functions over int card masks, compiled by numba.

A game writes its search kernels as ordinary Python functions in a module of their own,
in the subset numba compiles (ints, loops, arrays and tuples of ints, calls to the other
functions of the module), and registers them with :func:`kernels`::

    KERNELS = kernels("pinochle4-play-out", __name__, {
        "play_out_many": "void(int64[:, ::1], int64[::1], int64[:, ::1])",
    })

``KERNELS.play_out_many`` is then the compiled function, or the module's own Python
function when compilation is switched off (``CARDPLAZA_NO_JIT=1``) or numba is missing —
the same code either way, so the Python function stays the reference that tests compare
against (``KERNELS.entry(name, compiled)`` picks a form explicitly). The compiled functions
release the GIL. Module-level tuples of ints (and of equal-length tuples of ints) are
handed to numba as constant ``int64`` arrays, tuples of floats as ``float64`` arrays; the
Python path keeps the tuples. Array arguments are passed to the Python path as lists and
written back afterwards, so Python-int arithmetic is used there (a caller may pass lists
itself, e.g. a large table kept between calls: they are used as they are).

Compiled code is cached on disk in the user's cache directory (``$CARDPLAZA_KERNEL_CACHE``,
else ``$XDG_CACHE_HOME/cardplaza/kernels`` or ``~/.cache/cardplaza/kernels``; a temporary
directory when none is writable), one folder per kernel set and version of its tables, so
a fresh process loads kernels in milliseconds. A folder of a kernel set that no process has
loaded for ``STALE_DAYS`` days (an older version's) is removed when the set is next built.
:func:`warm_up` compiles (or loads) every kernel of the given games; the server runs it in
the background at start (:func:`warm_up_in_background`) and the command line before a
computer player thinks.
A game lists its kernel module in its spec's ``kernels`` hook (``"module:ATTRIBUTE"``).
"""

from __future__ import annotations

import contextlib
import hashlib
import importlib
import logging
import os
import shutil
import tempfile
import threading
import time
import types
from collections.abc import Callable, Iterable, Mapping
from pathlib import Path
from typing import Any

log = logging.getLogger("cardplaza.kernels")

NO_JIT_ENV = "CARDPLAZA_NO_JIT"
"""Set to ``1`` to run every kernel as plain Python (the reference implementation)."""
CACHE_ENV = "CARDPLAZA_KERNEL_CACHE"
"""Directory for the compiled-kernel cache (default: the user's cache directory)."""

STALE_DAYS = 30
"""Days after which a kernel set's cache folder that no process loaded is removed."""
USED_STAMP = ".used"
"""File in a cache folder whose modification time says when a process last loaded it."""

_LOCK = threading.RLock()
_SETS: dict[str, KernelSet] = {}
_WHILE_COMPILING = threading.Event()
"""Set while :func:`warm_up_while_serving` compiles: kernels not ready yet run as Python."""


def jit_enabled() -> bool:
    """True when kernels are compiled (numba importable and not switched off)."""
    if os.environ.get(NO_JIT_ENV, "") not in ("", "0"):
        return False
    try:
        import numba  # noqa: F401
    except ImportError:  # pragma: no cover - numba is a dependency
        return False
    return True


def cache_dir() -> Path:
    """A writable directory for compiled kernels (created if needed)."""
    chosen = os.environ.get(CACHE_ENV)
    if chosen:
        candidates = [Path(chosen)]
    else:
        xdg = os.environ.get("XDG_CACHE_HOME")
        base = Path(xdg) if xdg else Path.home() / ".cache"
        candidates = [base / "cardplaza" / "kernels"]
    candidates.append(Path(tempfile.gettempdir()) / f"cardplaza-kernels-{os.getuid()}")
    for path in candidates:
        try:
            path.mkdir(parents=True, exist_ok=True)
            probe = path / f".probe-{os.getpid()}"
            probe.write_text("ok")
            probe.unlink()
            return path
        except OSError:
            continue
    raise OSError("no writable directory for compiled kernels")


def _as_array(value: Any) -> Any:
    """A module-level tuple of ints (or of equal-length int tuples) as an int64 array; of
    floats (or of equal-length float tuples) as a float64 array."""
    import numpy as np

    if isinstance(value, tuple) and value:
        for kind, dtype in ((int, np.int64), (float, np.float64)):
            if all(type(v) is kind for v in value):
                return np.array(value, dtype=dtype)
            if all(isinstance(v, tuple) and v and all(type(x) is kind for x in v)
                   for v in value) and len({len(v) for v in value}) == 1:
                return np.array(value, dtype=dtype)
    return None


def _to_python(value: Any) -> Any:
    import numpy as np

    return value.tolist() if isinstance(value, np.ndarray) else value


def _write_back(target: Any, value: Any) -> None:
    import numpy as np

    if isinstance(target, np.ndarray) and isinstance(value, list):
        target[...] = np.asarray(value, dtype=target.dtype).reshape(target.shape)


class KernelSet:
    """The registered kernels of one module, compiled on first use or by :meth:`compile`."""

    def __init__(self, name: str, module: str, entries: Mapping[str, str]) -> None:
        self.name = name
        self.module = module
        self.entries = dict(entries)
        self._compiled: dict[str, Callable[..., Any]] | None = None
        self.seconds = 0.0
        """Time the last :meth:`compile` took (loading from the disk cache included)."""

    def python(self, entry: str) -> Callable[..., Any]:
        """The plain-Python function of an entry (the reference implementation)."""
        fn: Callable[..., Any] = getattr(importlib.import_module(self.module), entry)
        return fn

    def __getattr__(self, entry: str) -> Callable[..., Any]:
        if entry.startswith("_") or entry not in self.__dict__.get("entries", {}):
            raise AttributeError(entry)
        if not jit_enabled():
            return self.reference(entry)
        if self._compiled is None and _WHILE_COMPILING.is_set():
            # The kernels are being compiled in the background: the same search runs as
            # Python meanwhile (within the caller's time cap) instead of waiting for them.
            return self.reference(entry)
        return self.compile()[entry]

    @property
    def ready(self) -> bool:
        """True once the compiled entries are loaded in this process."""
        return self._compiled is not None

    def entry(self, entry: str, compiled: bool | None = None) -> Callable[..., Any]:
        """An entry point in a chosen form: compiled (``True``; its Python form anyway when
        compilation is switched off), the Python reference (``False``), or as configured
        (``None``, like attribute access)."""
        if compiled is None or compiled:
            return getattr(self, entry)  # type: ignore[no-any-return]
        if entry not in self.entries:
            raise AttributeError(entry)
        return self.reference(entry)

    def reference(self, entry: str) -> Callable[..., Any]:
        """The Python function of an entry, called like the compiled one: array arguments
        go in as lists of Python ints and are written back afterwards."""
        fn = self.python(entry)

        def call(*args: Any) -> Any:
            plain = [_to_python(a) for a in args]
            out = fn(*plain)
            for a, p in zip(args, plain, strict=True):
                _write_back(a, p)
            return out

        return call

    def compile(self) -> dict[str, Callable[..., Any]]:
        """Compile (or load from the disk cache) every entry; the compiled functions."""
        if self._compiled is not None:
            return self._compiled
        with _LOCK:
            if self._compiled is None:
                start = time.perf_counter()
                self._compiled = self._build()
                self.seconds = time.perf_counter() - start
        return self._compiled

    def cache_folder(self) -> Path:
        """Where the compiled entries are kept on disk: named by the numba version, the
        code and the tables, so it is the same folder in every process until one changes."""
        return self._sources()[2]

    def _sources(self) -> tuple[list[str], dict[str, dict[str, Any]], Path]:
        import numba

        modules = _modules_used(self.module)
        digest = hashlib.sha256(numba.__version__.encode())
        namespaces = {name: _namespace(name, digest) for name in modules}
        return modules, namespaces, cache_dir() / f"{self.name}-{digest.hexdigest()[:16]}"

    def _build(self) -> dict[str, Callable[..., Any]]:
        import numba
        from numba.core import config

        modules, namespaces, folder = self._sources()
        settings = vars(config)  # numba reads CACHE_DIR when a dispatcher is created
        old = settings["CACHE_DIR"]
        settings["CACHE_DIR"] = str(folder)
        try:
            jitted: dict[str, dict[str, Any]] = {}
            for name in reversed(modules):  # helpers first, the kernel module last
                names = namespaces[name]
                for key, value in list(names.items()):
                    if _is_helper(value, name):
                        names[key] = jitted[value.__module__][value.__name__]
                own: dict[str, Any] = {}
                for key, fn in _own_functions(name).items():
                    clone = types.FunctionType(fn.__code__, names, fn.__name__,
                                               fn.__defaults__, fn.__closure__)
                    clone.__qualname__ = fn.__qualname__
                    clone.__module__ = fn.__module__
                    own[key] = names[key] = numba.njit(cache=True, nogil=True)(clone)
                jitted[name] = own
            entries = jitted[self.module]
            # Every function the entries call is a dispatcher now: compile the entries.
            for key, sig in self.entries.items():
                entries[key].compile(sig)
            built = {key: entries[key] for key in self.entries}
        finally:
            settings["CACHE_DIR"] = old
        remove_stale(self.name, folder)
        return built


def remove_stale(name: str, current: Path, days: float = STALE_DAYS) -> list[Path]:
    """Stamp ``current`` as used now and remove the other cache folders of the kernel set
    ``name`` that no process has loaded for ``days`` days; the folders removed."""
    with contextlib.suppress(OSError):  # a read-only cache still loads
        (current / USED_STAMP).touch()
    cutoff = time.time() - days * 86400
    removed = []
    for folder in current.parent.glob(f"{name}-*"):
        version = folder.name[len(name) + 1:]  # 16 hex digits, as ``_sources`` names it
        if folder == current or not folder.is_dir() or len(version) != 16 \
                or version.strip("0123456789abcdef"):
            continue
        stamp = folder / USED_STAMP
        try:
            used = (stamp if stamp.exists() else folder).stat().st_mtime
        except OSError:
            continue
        if used < cutoff:
            shutil.rmtree(folder, ignore_errors=True)
            removed.append(folder)
    if removed:
        log.info("compiled search kernels: removed %d cache folder(s) of %s unused for %g "
                 "days", len(removed), name, days)
    return removed


def _own_functions(module: str) -> dict[str, types.FunctionType]:
    mod = importlib.import_module(module)
    return {k: v for k, v in vars(mod).items()
            if isinstance(v, types.FunctionType) and v.__module__ == module}


def _is_helper(value: Any, module: str) -> bool:
    """A function imported from a helper module (one that sets ``KERNEL_HELPERS``)."""
    if not isinstance(value, types.FunctionType) or value.__module__ == module:
        return False
    source = importlib.import_module(value.__module__)
    return bool(getattr(source, "KERNEL_HELPERS", False))


def _modules_used(module: str) -> list[str]:
    """``module`` and, after it, every helper module its kernels call into."""
    out = [module]
    k = 0
    while k < len(out):
        for value in vars(importlib.import_module(out[k])).values():
            if _is_helper(value, out[k]) and value.__module__ not in out:
                out.append(value.__module__)
        k += 1
    return out


def _namespace(module: str, digest: Any) -> dict[str, Any]:
    """A copy of the module's globals with its int tables as arrays; feeds ``digest``
    with the tables and the code, so a changed table gets a new cache folder."""
    names = dict(vars(importlib.import_module(module)))
    for key in sorted(names):
        arr = _as_array(names[key])
        if arr is not None:
            names[key] = arr
            digest.update(key.encode() + arr.tobytes() + str(arr.shape).encode())
    for key, fn in sorted(_own_functions(module).items()):
        digest.update(key.encode() + _code_bytes(fn.__code__))
    return names


def _code_bytes(code: types.CodeType) -> bytes:
    """The byte code and constants of ``code``, the same in every process: nested code
    objects by their own bytes (their repr holds an address), sets in sorted order (their
    order follows the per-process string hash)."""
    parts = [code.co_code]
    for const in code.co_consts:
        if isinstance(const, types.CodeType):
            parts.append(_code_bytes(const))
        elif isinstance(const, frozenset):
            parts.append(repr(sorted(const, key=repr)).encode())
        else:
            parts.append(repr(const).encode())
    return b"\x00".join(parts)


def mt_state(rng: Any) -> Any:
    """The Mersenne Twister state of a ``random.Random`` as an int64 array (625 ints) for
    the kernels' generator (:mod:`cardplaza.ai.kernel_bits`)."""
    import numpy as np

    return np.array(rng.getstate()[1], dtype=np.int64)


def set_mt_state(rng: Any, state: Any) -> None:
    """Put a kernel's generator state back into ``rng``: it goes on exactly where the
    kernel stopped drawing."""
    version, _internal, gauss = rng.getstate()
    words = state.tolist() if hasattr(state, "tolist") else [int(x) for x in state]
    rng.setstate((version, tuple(words), gauss))


def kernels(name: str, module: str, entries: Mapping[str, str]) -> KernelSet:
    """Register the kernels of ``module``: ``entries`` maps each entry point to its numba
    signature; every other function of the module is compiled as a helper."""
    with _LOCK:
        found = _SETS.get(name)
        if found is None:
            found = _SETS[name] = KernelSet(name, module, entries)
        return found


def registered() -> dict[str, KernelSet]:
    """Every kernel set registered so far, by name."""
    return dict(_SETS)


def warm_up(games: Iterable[str] | None = None) -> dict[str, float]:
    """Compile or load every kernel of ``games`` (default: every game); seconds per set.

    Imports each game's ``kernels`` hook first, so the sets register themselves. Does
    nothing (an empty dict) when compilation is switched off.
    """
    from cardplaza.core.registry import games as all_games
    from cardplaza.core.registry import get_game

    specs = all_games().values() if games is None else [get_game(g) for g in games]
    for spec in specs:
        if "kernels" in spec.hooks:
            spec.hook("kernels")
    if not jit_enabled():
        return {}
    out: dict[str, float] = {}
    for name, kset in sorted(registered().items()):
        kset.compile()
        out[name] = kset.seconds
    return out


def warm_up_in_background(games: Iterable[str] | None = None) -> threading.Thread:
    """Run :func:`warm_up` in a daemon thread, logging when the kernels are ready."""
    chosen = None if games is None else list(games)

    def run() -> None:
        start = time.perf_counter()
        try:
            sets = warm_up(chosen)
        except Exception:  # a failed warm-up leaves compilation to the first use
            log.exception("compiled search kernels: warm-up failed")
            return
        finally:
            _WHILE_COMPILING.clear()
        if sets:
            try:
                where = str(cache_dir())
            except OSError:  # gone since (the kernels are loaded: nothing else needs it)
                where = "no longer writable"
            log.info("compiled search kernels ready (%s) in %.1f s, cache %s",
                     ", ".join(sets), time.perf_counter() - start, where)
        else:
            log.info("compiled search kernels switched off: the search runs as Python")

    thread = threading.Thread(target=run, name="cardplaza-kernel-warm-up", daemon=True)
    thread.start()
    return thread


def warm_up_while_serving(games: Iterable[str] | None = None) -> threading.Thread:
    """Load now every kernel set already compiled in the disk cache (seconds), and compile
    the others in the background while this process goes on serving: until that is over, a
    kernel set not ready yet runs as its Python reference (the same search, within the
    callers' time caps), so no decision waits for a compiler. The log says when the kernels
    are ready. A computer-player process calls it when it starts, before it says it is
    ready.
    """
    for kset in cached_sets(games):
        kset.compile()
    _WHILE_COMPILING.set()
    return warm_up_in_background(games)


def all_cached(games: Iterable[str] | None = None) -> bool:
    """True when every kernel set of ``games`` (default: every game) is compiled into the
    disk cache, so a process starting now loads them without a compiler (also True when
    compilation is switched off)."""
    cached = cached_sets(games)
    if not jit_enabled():
        return True
    return len(cached) == len(registered())


def cached_sets(games: Iterable[str] | None = None) -> list[KernelSet]:
    """The kernel sets of ``games`` (default: every game) that a process has already
    compiled into the disk cache, so loading them takes no compiler (none when compilation
    is switched off)."""
    from cardplaza.core.registry import games as all_games
    from cardplaza.core.registry import get_game

    specs = all_games().values() if games is None else [get_game(g) for g in games]
    for spec in specs:
        if "kernels" in spec.hooks:
            spec.hook("kernels")
    if not jit_enabled():
        return []
    return [kset for _, kset in sorted(registered().items())
            if (kset.cache_folder() / USED_STAMP).exists()]


def compiling() -> bool:
    """True while a background warm-up still has kernel sets to load in this process."""
    return _WHILE_COMPILING.is_set()


def _compile_one(game: str) -> dict[str, float]:
    return warm_up([game])


def compile_all(games: Iterable[str] | None = None, jobs: int | None = None
                ) -> dict[str, float]:
    """Compile (or load) every game's kernels into the disk cache, one process per game
    (``jobs`` at a time, default one per core); seconds per kernel set. Run once by the
    app's setup, so the computer players never compile while someone plays."""
    import concurrent.futures
    import multiprocessing

    from cardplaza.core.registry import games as all_games
    from cardplaza.core.registry import get_game

    names = sorted(all_games()) if games is None else list(games)
    names = [g for g in names if "kernels" in get_game(g).hooks]
    if not jit_enabled() or not names:
        return {}
    out: dict[str, float] = {}
    context = multiprocessing.get_context("spawn")
    with concurrent.futures.ProcessPoolExecutor(jobs or os.cpu_count() or 1,
                                                mp_context=context) as pool:
        for found in pool.map(_compile_one, names):
            out.update(found)
    return out
