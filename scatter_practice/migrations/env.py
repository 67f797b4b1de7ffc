"""Alembic's environment for the class store: run programmatically by scatter_practice.classroom (never an .ini).

The store passes its open connection in ``config.attributes["connection"]``; the upgrade runs inside the
store's own transaction (it holds the lock that keeps two replicas from migrating at once).
"""

from alembic import context

connection = context.config.attributes["connection"]
context.configure(connection=connection, target_metadata=None, transactional_ddl=True)
context.run_migrations()
