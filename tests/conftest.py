"""Hypothesis profiles: reproducible examples by default, fresh ones on request.

``HYPOTHESIS_PROFILE=explore make unit`` draws new random examples (and remembers any
failure in the local example database); the default profile draws the same examples on
every run, so a change is judged by the same cases each time.
"""

from __future__ import annotations

import os

from hypothesis import settings

settings.register_profile("repeatable", derandomize=True)
settings.register_profile("explore", derandomize=False)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "repeatable"))
