"""Game packages; each registers itself with :mod:`cardplaza.core.registry` on import."""
