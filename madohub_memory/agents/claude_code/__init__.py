"""Claude Code: settings hooks and MCP registration, its transcripts, its hook entry, the
doctor's checks, the compaction read-back."""
