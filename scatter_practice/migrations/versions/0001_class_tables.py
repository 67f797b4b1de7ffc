"""The class store's first tables: classes, students, answers, refused guesses.

Revision ID: 0001
Revises:
Create Date: 2026-11-28
"""

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "classes",
        sa.Column("code", sa.String(16), primary_key=True),
        sa.Column("key_hash", sa.String(64), nullable=False),  # SHA-256 of the teacher key, hex
        sa.Column("level", sa.Integer, nullable=False),
        sa.Column("n", sa.Integer, nullable=False),
        sa.Column("seed", sa.BigInteger, nullable=False),
        sa.Column("mode", sa.String(32), nullable=False),
        sa.Column("created", sa.Float, nullable=False),  # seconds since the epoch (UTC)
        sa.Column("active", sa.Float, nullable=False),  # the latest join or answer
        sa.Column("ended", sa.Float, nullable=True),
    )
    op.create_table(
        "students",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("code", sa.String(16), sa.ForeignKey("classes.code", ondelete="CASCADE"), nullable=False),
        sa.Column("name", sa.String(40), nullable=False),
        sa.Column("name_key", sa.String(40), nullable=False),  # casefolded: one "Sam" a class
        sa.Column("joined", sa.Float, nullable=False),
        sa.UniqueConstraint("code", "name_key", name="uq_students_code_name"),
    )
    op.create_table(
        "answers",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("code", sa.String(16), sa.ForeignKey("classes.code", ondelete="CASCADE"), nullable=False),
        sa.Column("student", sa.String(32), sa.ForeignKey("students.id", ondelete="CASCADE"), nullable=False),
        sa.Column("exercise", sa.Integer, nullable=False),
        sa.Column("step", sa.Integer, nullable=False),  # -1: the whole output
        sa.Column("try_no", sa.Integer, nullable=False),
        sa.Column("scored", sa.Boolean, nullable=False),
        sa.Column("answer", sa.Text, nullable=False),  # JSON: the output, or {"cell": [...], "value": v}
        sa.Column("result", sa.String(8), nullable=False),  # right, allowed, wrong
        sa.Column("kinds", sa.Text, nullable=False),  # JSON list of the misconceptions named
        sa.Column("at", sa.Float, nullable=False),
        sa.UniqueConstraint("student", "exercise", "step", "try_no", name="uq_answers_try"),
    )
    op.create_index("ix_answers_code", "answers", ["code", "exercise"])
    op.create_table(
        "refusals",  # wrong class codes and teacher keys, per client, for the rate limit
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("client", sa.String(64), nullable=False),
        sa.Column("at", sa.Float, nullable=False),
    )
    op.create_index("ix_refusals_client", "refusals", ["client", "at"])


def downgrade() -> None:
    op.drop_table("refusals")
    op.drop_table("answers")
    op.drop_table("students")
    op.drop_table("classes")
