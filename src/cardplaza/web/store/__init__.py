"""Storage: the database schema and its migrations (:mod:`.storage`), the group-committed
action log (:mod:`.action_log`), statistics queries (:mod:`.results`), rooms
(:mod:`.rooms`), ratings and leaderboards (:mod:`.ratings`), the daily deal (:mod:`.daily`)
and a throw-away PostgreSQL cluster for tests and load runs (:mod:`.pgtemp`).

Storage knows nothing of sessions, tables in memory or HTTP.
"""
