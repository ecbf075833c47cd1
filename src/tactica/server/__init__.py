"""The combat tracker: durable tables (storage), their rules (tracker), an HTTP API and web page
(app), live updates (hub) and a terminal front end (terminal). See docs/tracker.md.

A *table* is one fight: its encounter file, plus the append-only log of what was done to it. Its
state is always the replay of that log; nothing else is stored.
"""
