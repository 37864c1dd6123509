"""Reading an HTTP request's JSON body within the limits (size, nesting, numbers)."""

from __future__ import annotations

import json
from typing import Any

from fastapi import Request

from cardplaza.web.errors import WebError
from cardplaza.web.live.client import raise_shape
from cardplaza.web.settings import Settings


class BodyTooLarge(Exception):
    """A request body went over the limit while being read."""


async def read_json(request: Request, settings: Settings, big_seed: bool = False) -> Any:
    """The request's JSON body (``{}`` when empty): ``body_too_large``, ``bad_json``,
    ``too_deep`` or ``number_too_large`` otherwise. With ``big_seed`` a top-level ``seed``
    may be as large as a deal seed (2^128)."""
    try:
        body = await request.body()
    except BodyTooLarge:
        raise WebError("body_too_large", limit=settings.http_max_body) from None
    try:
        data = json.loads(body) if body else {}
    except RecursionError:
        raise WebError("too_deep", limit=settings.json_max_depth) from None
    except ValueError:
        raise WebError("bad_json") from None
    if big_seed and isinstance(data, dict):
        raise_shape({k: v for k, v in data.items() if k != "seed"}, settings)
    else:
        raise_shape(data, settings)
    return data


__all__ = ["BodyTooLarge", "read_json"]
