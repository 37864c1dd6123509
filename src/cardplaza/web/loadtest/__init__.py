"""Load benchmarks against a real server: ``cardplaza loadtest`` (:mod:`.generator`) and the
single-table round-trip measurement (:mod:`.measure`).
"""
