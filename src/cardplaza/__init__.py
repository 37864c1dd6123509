"""Card Plaza: classic trick-taking card games with exact engines and computer players."""

__version__ = "0.1.0"
