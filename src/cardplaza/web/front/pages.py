"""The site's own pages: ``GET /api/pages/{name}?lang=en|ja`` → ``{name, lang, html}``
(:mod:`cardplaza.texts.sitepages`; ``not_found`` for an unknown page)."""

from __future__ import annotations

import functools

from fastapi import FastAPI
from fastapi.responses import JSONResponse, Response

from cardplaza.texts.markdown import render
from cardplaza.texts.rulepages import language
from cardplaza.texts.sitepages import site_page_text
from cardplaza.web.errors import WebError


@functools.lru_cache(maxsize=16)
def _page_html(name: str, lang: str) -> str:
    """A page drawn as HTML (the pages ship with the package: drawn once each)."""
    return render(site_page_text(name, lang), lang)


def add_routes(app: FastAPI) -> None:
    """The HTTP routes of this module on the web app."""

    @app.get("/api/pages/{name}")
    def site_page(name: str, lang: str = "en") -> Response:
        lang = language(lang)
        try:
            html = _page_html(name[:40], lang)
        except FileNotFoundError:
            raise WebError("not_found") from None
        return JSONResponse({"name": name, "lang": lang, "html": html})
