"""The database: ``models`` (every table, SQLAlchemy 2) and ``schema_version`` (the check the
migrations' env, ``migrations/env.py``, runs first). Imports only the extensions."""
