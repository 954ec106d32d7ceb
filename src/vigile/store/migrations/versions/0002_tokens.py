"""Access tokens to an encounter, stored as SHA-256 digests.

Revision ID: 0002
Revises: 0001
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision: str = "0002"
down_revision: str | None = "0001"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    op.create_table(
        "tokens",
        sa.Column("digest", sa.String(64), nullable=False),
        sa.Column("encounter_id", sa.String(32), nullable=False),
        sa.Column("role", sa.String(8), nullable=False),
        sa.Column("character", sa.String(200), nullable=True),
        sa.Column("created", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["encounter_id"],
            ["encounters.id"],
            name="fk_tokens_encounter_id_encounters",
            ondelete="RESTRICT",
        ),
        sa.PrimaryKeyConstraint("digest", name="pk_tokens"),
    )
    op.create_index("ix_tokens_encounter_id", "tokens", ["encounter_id"])


def downgrade() -> None:
    op.drop_index("ix_tokens_encounter_id", table_name="tokens")
    op.drop_table("tokens")
