"""Live tables: the authoritative game states and everything that keeps them moving.

- :mod:`.tables` — :class:`~.tables.LiveTable` and :class:`~.tables.TableManager`: seats,
  applying actions (each one appended to the action log before anyone hears of it),
  computer turns, table ownership (leases), per-seat messages built from observations.
- :mod:`.client` — a connection's sending side (bounded queue) and the checks on incoming
  messages; :mod:`.session` — its receiving side: limits and the handler of each WebSocket
  message type (``join``, ``act``, ``state``, ``settings``, ``ping``; more register with
  :func:`.session.handler`).
- :mod:`.relay` / :mod:`.relay_server` — reaching a table another process owns.
- :mod:`.workers` / :mod:`.computer` — computer decisions in worker processes.
- :mod:`.rooms` (rooms with friends: seats, invites, spectators), :mod:`.together`
  (shared tables: stand-ins, the turn timer, undo requests), :mod:`.talk` (table talk).
- :mod:`.budgets` (message and connection budgets per address and player),
  :mod:`.ratings` (rating updates after a game), :mod:`.daily` and :mod:`.fixed` (the daily
  deal and challenges on fixed deals).
- :mod:`.extras` (seat helpers), :mod:`.gameinfo` (the lobby's game descriptions),
  :mod:`.names`, :mod:`.streaks`, :mod:`.collector` (scheduled garbage collection).

Live tables know nothing of HTTP; they store through :mod:`cardplaza.web.store`.
"""
