"""Alembic's migration scripts for the store (``env.py`` and ``versions/``)."""
