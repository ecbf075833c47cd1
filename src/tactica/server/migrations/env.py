"""Alembic environment: always run with a connection handed over by ``storage.migrate``."""

from __future__ import annotations

from alembic import context

from tactica.server.storage import metadata

connection = context.config.attributes.get("connection")
if connection is None:  # pragma: no cover - only ``storage.migrate`` runs these migrations
    raise RuntimeError("run the tracker's migrations through tactica.server.storage.migrate()")
context.configure(connection=connection, target_metadata=metadata, render_as_batch=True)
with context.begin_transaction():
    context.run_migrations()
