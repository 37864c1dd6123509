"""``python -m cardplaza`` runs the command-line interface."""

from cardplaza.cli.main import main

main()
