"""Helpers every search kernel may call: bit counts on card masks and Python's generator.

Kernel modules import these functions; :mod:`cardplaza.ai.compiled` compiles them with
the kernels that call them. Values stay below 2**63, so Python ints and int64 agree.

The generator is Python's own Mersenne Twister (MT19937) as ``random.Random`` runs it,
with its state in an array of 625 ints (624 words and the position, the layout of
``random.Random.getstate()``; see :func:`cardplaza.ai.compiled.mt_state`). A kernel that
deals from it draws exactly the numbers ``random.Random`` would: :func:`mt_below` is
``randrange(n)`` and :func:`mt_shuffle` is ``random.shuffle``. So a search moved into a
kernel keeps the decisions of its pure-Python form, and the Python form of the kernel is
the reference for the compiled one.

>>> import random
>>> from cardplaza.ai.compiled import mt_state
>>> rng = random.Random(7)
>>> state = mt_state(rng)
>>> [mt_below(state, 10) for _ in range(5)] == [rng.randrange(10) for _ in range(5)]
True
"""

from __future__ import annotations

from typing import Any

Buf = Any
"""An int64 array (compiled) or a list of ints (Python) the caller provides."""

KERNEL_HELPERS = True
"""Marks this module's functions as kernel helpers (compiled with the kernels)."""

M32 = 0xFFFFFFFF
MT_N = 624
MT_M = 397
MT_UPPER = 0x80000000
MT_LOWER = 0x7FFFFFFF
MT_MATRIX = 0x9908B0DF


def popcount(x: int) -> int:
    """Set bits of a non-negative mask below 2**63."""
    x = x - ((x >> 1) & 0x5555555555555555)
    x = (x & 0x3333333333333333) + ((x >> 2) & 0x3333333333333333)
    x = (x + (x >> 4)) & 0x0F0F0F0F0F0F0F0F
    x = x + (x >> 8)
    x = x + (x >> 16)
    x = x + (x >> 32)
    return x & 0x7F


def low(x: int) -> int:
    """Index of the lowest set bit of a non-empty mask."""
    return popcount((x & -x) - 1)


def bit_length(x: int) -> int:
    """``int.bit_length`` of a non-negative number below 2**63."""
    x |= x >> 1
    x |= x >> 2
    x |= x >> 4
    x |= x >> 8
    x |= x >> 16
    x |= x >> 32
    return popcount(x)


def _mt_word(mt: Buf, a: int, b: int, c: int) -> int:
    y = (mt[a] & MT_UPPER) | (mt[b] & MT_LOWER)
    out = mt[c] ^ (y >> 1)
    if y & 1:
        out ^= MT_MATRIX
    return int(out)


def mt_next(mt: Buf) -> int:
    """The next 32-bit word of the generator (``genrand_uint32``)."""
    i = int(mt[MT_N])
    if i >= MT_N:
        for k in range(MT_N - MT_M):
            mt[k] = _mt_word(mt, k, k + 1, k + MT_M)
        for k in range(MT_N - MT_M, MT_N - 1):
            mt[k] = _mt_word(mt, k, k + 1, k + MT_M - MT_N)
        mt[MT_N - 1] = _mt_word(mt, MT_N - 1, 0, MT_M - 1)
        i = 0
    y = int(mt[i])
    mt[MT_N] = i + 1
    y ^= y >> 11
    y ^= (y << 7) & 0x9D2C5680
    y ^= (y << 15) & 0xEFC60000
    y ^= y >> 18
    return y


def mt_skip(mt: Buf, words: int) -> None:
    """Draw and drop ``words`` words (``getrandbits(32 * words)`` when only the stream's
    position matters)."""
    for _ in range(words):
        mt_next(mt)


def mt_below(mt: Buf, n: int) -> int:
    """``randrange(n)`` for ``0 < n < 2**32`` (rejection on ``n.bit_length()`` bits)."""
    k = bit_length(n)
    r = mt_next(mt) >> (32 - k)
    while r >= n:
        r = mt_next(mt) >> (32 - k)
    return r


def mt_shuffle(mt: Buf, x: Buf, count: int) -> None:
    """``random.shuffle`` of the first ``count`` items of ``x``."""
    for i in range(count - 1, 0, -1):
        j = mt_below(mt, i + 1)
        t = x[i]
        x[i] = x[j]
        x[j] = t
