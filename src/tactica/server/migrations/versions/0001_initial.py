"""The first schema: tables, their append-only command log, access grants.

Revision ID: 0001
Revises:
Create Date: 2026-11-29
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "tactica_tables",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("title", sa.String(200), nullable=False),
        sa.Column("ruleset", sa.String(64), nullable=False),
        sa.Column("source", sa.Text, nullable=False),
        sa.Column("seed", sa.BigInteger, nullable=False),
        sa.Column("origin", sa.String(200), nullable=False, server_default=""),
        sa.Column("version", sa.Integer, nullable=False, server_default="0"),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_table(
        "tactica_log",
        sa.Column(
            "table_id",
            sa.String(32),
            sa.ForeignKey("tactica_tables.id", ondelete="CASCADE"),
            primary_key=True,
        ),
        sa.Column("seq", sa.Integer, primary_key=True),
        sa.Column("kind", sa.String(16), nullable=False),
        sa.Column("command", sa.Text, nullable=True),
        sa.Column("author", sa.String(200), nullable=False, server_default=""),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_table(
        "tactica_grants",
        sa.Column("token", sa.String(64), primary_key=True),
        sa.Column(
            "table_id", sa.String(32), sa.ForeignKey("tactica_tables.id", ondelete="CASCADE"), nullable=False
        ),
        sa.Column("role", sa.String(16), nullable=False),
        sa.Column("scope", sa.Text, nullable=False, server_default="[]"),
        sa.Column("label", sa.String(200), nullable=False, server_default=""),
    )
    op.create_index("ix_tactica_grants_table_id", "tactica_grants", ["table_id"])


def downgrade() -> None:
    op.drop_index("ix_tactica_grants_table_id", "tactica_grants")
    op.drop_table("tactica_grants")
    op.drop_table("tactica_log")
    op.drop_table("tactica_tables")
