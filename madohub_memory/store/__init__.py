"""SQLite persistence: the only package that writes SQL.

One file in WAL mode, shared by the GUI, the workers, the MCP server and the CLI,
possibly from several processes at once.
"""

from madohub_memory.store.database import Store
from madohub_memory.store.opening import open_store

__all__ = ["Store", "open_store"]
