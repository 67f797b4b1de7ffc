"""What the server holds for sessions: the bounded caches (cache.py), the reaper of left sessions (reaper.py),
the large-case stand-ins (large.py) and the developer's step log (step_times.py)."""
