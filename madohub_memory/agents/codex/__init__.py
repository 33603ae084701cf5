"""Codex CLI: config.toml (MCP server, notify), AGENTS.md guide, its rollout files and notify entry."""
