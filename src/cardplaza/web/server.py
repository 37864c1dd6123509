"""Entry points of the web server (``cardplaza serve`` calls :func:`serve`)."""

from cardplaza.web import create_app, serve

__all__ = ["create_app", "serve"]
