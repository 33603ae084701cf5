"""MadoHub Memory: a local-first, human-gated long-term memory for AI agents."""

__version__ = "0.1.0"
