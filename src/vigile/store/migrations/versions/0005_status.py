"""Each encounter's status as of its last record (turn, outcome, who is out or detected) and
when it was last played: what the encounter list shows without replaying anything.

Revision ID: 0005
Revises: 0004
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision: str = "0005"
down_revision: str | None = "0004"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    # Plain ALTER TABLE on both databases: SQLite adds (3.2) and drops (3.35) a column in place,
    # where a batch would copy the table and trip on the tables that refer to it.
    op.add_column("encounters", sa.Column("status", sa.Text(), nullable=True))
    op.add_column("encounters", sa.Column("played", sa.DateTime(timezone=True), nullable=True))


def downgrade() -> None:
    op.drop_column("encounters", "played")
    op.drop_column("encounters", "status")
