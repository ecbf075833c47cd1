"""Alembic migrations of the tracker's schema (run by :func:`tactica.server.storage.migrate`)."""
