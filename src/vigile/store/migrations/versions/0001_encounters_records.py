"""Encounters and their append-only records.

Revision ID: 0001
Revises:
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision: str = "0001"
down_revision: str | None = None
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    op.create_table(
        "encounters",
        sa.Column("id", sa.String(32), nullable=False),
        sa.Column("name", sa.String(200), nullable=False),
        sa.Column("ruleset", sa.String(40), nullable=False),
        sa.Column("source", sa.String(200), nullable=False),
        sa.Column("scenario", sa.Text(), nullable=False),
        sa.Column("scenario_format", sa.String(8), nullable=False),
        sa.Column("seed", sa.BigInteger(), nullable=False),
        sa.Column("dice", sa.String(8), nullable=False),
        sa.Column("created", sa.DateTime(timezone=True), nullable=False),
        sa.Column("archived", sa.Boolean(), server_default=sa.false(), nullable=False),
        sa.Column("last_seq", sa.Integer(), server_default="0", nullable=False),
        sa.PrimaryKeyConstraint("id", name="pk_encounters"),
    )
    op.create_table(
        "records",
        sa.Column("encounter_id", sa.String(32), nullable=False),
        sa.Column("seq", sa.Integer(), nullable=False),
        sa.Column("kind", sa.String(40), nullable=False),
        sa.Column("payload", sa.Text(), nullable=False),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["encounter_id"],
            ["encounters.id"],
            name="fk_records_encounter_id_encounters",
            ondelete="RESTRICT",
        ),
        sa.PrimaryKeyConstraint("encounter_id", "seq", name="pk_records"),
    )


def downgrade() -> None:
    op.drop_table("records")
    op.drop_table("encounters")
