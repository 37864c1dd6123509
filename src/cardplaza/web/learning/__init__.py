"""Learning at the table: hints, decision helpers, undo and the post-game review
(:mod:`.handlers`, WebSocket messages), and the records and replay frames given to a seat
(:mod:`.records`).
"""
