"""Run a module under cProfile timing CPU rather than the wall clock.

``python -m cardplaza.web.loadtest.cpuprofile FILE -m MODULE [ARGS…]`` runs ``MODULE`` as
``python -m`` would, with the profiler's timer the CPU time of the thread it profiles
(``time.thread_time``: the event loop's thread), and writes the statistics to ``FILE`` when
the module returns or is interrupted (``python -m pstats FILE``). Time spent waiting —
for the network, for a worker, asleep — is then not counted, so the statistics show where
the processor went. The other threads (the action log's writer, the database's pool) are
not profiled.
"""

from __future__ import annotations

import cProfile
import runpy
import sys
import time


def main(argv: list[str] | None = None) -> None:
    """Profile ``-m MODULE ARGS…`` into the file named first."""
    args = list(sys.argv[1:] if argv is None else argv)
    if len(args) < 3 or args[1] != "-m":
        raise SystemExit("usage: python -m cardplaza.web.loadtest.cpuprofile FILE "
                         "-m MODULE [ARGS…]")
    out, module, rest = args[0], args[2], args[3:]
    sys.argv = [module, *rest]
    profiler = cProfile.Profile(time.thread_time)
    profiler.enable()
    try:
        runpy.run_module(module, run_name="__main__", alter_sys=True)
    finally:
        profiler.disable()
        profiler.dump_stats(out)


if __name__ == "__main__":
    main()
