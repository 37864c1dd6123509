"""Game options as frozen dataclasses: conversion to and from dicts and ``key=value`` text.

Each game's ``Options`` is a frozen dataclass whose field types are ``bool``, ``int``,
``str``, ``float``, ``tuple[str, ...]`` or a ``Literal`` of such values, and whose
``__post_init__`` raises ``ValueError`` on invalid combinations.
"""

from __future__ import annotations

import dataclasses
import typing
from typing import Any, Literal, TypeVar, get_args, get_origin, get_type_hints

T = TypeVar("T")

_TRUE = {"1", "true", "yes", "on"}
_FALSE = {"0", "false", "no", "off"}


_AS_DICT: dict[Any, tuple[dict[str, Any], bool]] = {}
_AS_DICT_MOST = 512
"""Options values whose dict :func:`options_to_dict` keeps (every observation carries its
game's options; a process sees few distinct ones)."""


def options_to_dict(options: Any) -> dict[str, Any]:
    """JSON-ready dict of an options dataclass (tuples become lists); a new dict on every
    call, made from one kept per options value (frozen, so it never changes)."""
    try:
        kept = _AS_DICT.get(options)
    except TypeError:  # an options class that cannot be hashed is converted every time
        kept = None
    if kept is None:
        out: dict[str, Any] = {}
        lists = False
        for f in dataclasses.fields(options):
            value = getattr(options, f.name)
            if isinstance(value, tuple):
                value = list(value)
                lists = True
            out[f.name] = value
        kept = (out, lists)
        try:
            if len(_AS_DICT) >= _AS_DICT_MOST:
                _AS_DICT.clear()
            _AS_DICT[options] = kept
        except TypeError:
            pass
    base, lists = kept
    if lists:
        return {k: list(v) if isinstance(v, list) else v for k, v in base.items()}
    return base.copy()


def _coerce(name: str, hint: Any, value: Any) -> Any:
    origin = get_origin(hint)
    if origin is Literal:
        choices = get_args(hint)
        for choice in choices:
            if value == choice or (isinstance(value, str) and str(choice) == value):
                return choice
        raise ValueError(f"option {name} must be one of {', '.join(map(str, choices))}; "
                         f"got {value!r}")
    if origin in (tuple, typing.Tuple):  # noqa: UP006 - runtime check on both spellings
        if isinstance(value, str):
            value = [v for v in value.split("/") if v]
        if not isinstance(value, list | tuple):
            raise ValueError(f"option {name} must be a list")
        inner = get_args(hint)[0]
        return tuple(_coerce(name, inner, v) for v in value)
    if hint is bool:
        if isinstance(value, bool):
            return value
        if isinstance(value, str) and value.lower() in _TRUE | _FALSE:
            return value.lower() in _TRUE
        raise ValueError(f"option {name} must be on or off; got {value!r}")
    if hint is int:
        if isinstance(value, bool):
            raise ValueError(f"option {name} must be a whole number; got {value!r}")
        try:
            return int(value)
        except (TypeError, ValueError):
            raise ValueError(f"option {name} must be a whole number; got {value!r}") from None
    if hint is float:
        try:
            return float(value)
        except (TypeError, ValueError):
            raise ValueError(f"option {name} must be a number; got {value!r}") from None
    if hint is str:
        if not isinstance(value, str):
            raise ValueError(f"option {name} must be text; got {value!r}")
        return value
    return value


_HINTS: dict[type[Any], dict[str, Any]] = {}


def _hints(cls: type[Any]) -> dict[str, Any]:
    """The resolved field types of an options class (resolving them is slow; they never
    change)."""
    hints = _HINTS.get(cls)
    if hints is None:
        hints = _HINTS[cls] = get_type_hints(cls)
    return hints


def options_from_dict(cls: type[T], data: dict[str, Any]) -> T:
    """Build ``cls`` from a dict, coercing strings; unknown keys raise ``ValueError``."""
    if not isinstance(data, dict):
        raise ValueError("options must be an object of name: value pairs")
    hints = _hints(cls)
    names = {f.name for f in dataclasses.fields(cls)}  # type: ignore[arg-type]
    unknown = sorted(set(data) - names)
    if unknown:
        raise ValueError(f"unknown option{'s' if len(unknown) > 1 else ''}: "
                         f"{', '.join(unknown)}; "
                         f"known: {', '.join(sorted(names))}")
    kwargs = {k: _coerce(k, hints[k], v) for k, v in data.items()}
    return cls(**kwargs)


def parse_options_text(cls: type[T], text: str | None) -> T:
    """Options from ``"key=value,key=value"`` text (list values separated by ``/``)."""
    data: dict[str, Any] = {}
    for part in (text or "").split(","):
        part = part.strip()
        if not part:
            continue
        key, sep, value = part.partition("=")
        if not sep:
            raise ValueError(f"option {part!r} must look like name=value")
        data[key.strip().replace("-", "_")] = value.strip()
    return options_from_dict(cls, data)


def describe_options(cls: type[Any]) -> list[tuple[str, str, str]]:
    """``(name, type, default)`` rows for help texts."""
    hints = _hints(cls)
    rows = []
    for f in dataclasses.fields(cls):
        hint = hints[f.name]
        if get_origin(hint) is Literal:
            kind = " | ".join(map(str, get_args(hint)))
        else:
            kind = getattr(hint, "__name__", str(hint))
        default = f.default if f.default is not dataclasses.MISSING else (
            f.default_factory() if f.default_factory is not dataclasses.MISSING else "")
        rows.append((f.name, kind, str(default)))
    return rows
