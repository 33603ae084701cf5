"""The store on a PostgreSQL server (team memory): the same interface as the SQLite ``Store``.

Only :mod:`.dsn` is imported eagerly by other modules (it has no psycopg import); the rest
loads when a ``postgresql://`` address is opened.
"""
