"""Command-line interface and terminal play."""
