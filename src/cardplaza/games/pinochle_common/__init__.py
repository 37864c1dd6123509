"""What the Pinochle games (single-deck partnership and cut-throat, double-deck) share:
the text and JSON forms of their actions, and the pieces of their terminal views that read
the same observation fields. This package registers no game of its own."""
