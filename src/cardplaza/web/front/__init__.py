"""The front door: the FastAPI app (HTTP routes, the WebSocket endpoint, the static front end)
and the process runner of ``cardplaza serve``.

:mod:`.app` builds the app and its lobby routes, :mod:`.records` the record, replay and
statistics routes, :mod:`.rooms` the room routes (invites, seats, watch links),
:mod:`.ratings` the leaderboard and player pages, :mod:`.daily` the daily deal and
challenges, :mod:`.pages` the fairness pages and the verification of a record; :mod:`.server`
runs one process or several on one port. Nothing below this package knows about HTTP.
"""
