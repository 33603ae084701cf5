"""The MCP front end: a stdio server over :mod:`madohub_memory.services`."""
