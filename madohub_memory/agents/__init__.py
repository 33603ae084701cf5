"""One room per coding agent: everything about connecting one agent to memory lives in
``agents/<agent>/`` (``claude_code/``, ``codex/``); what several agents share sits here.

A module's layer follows its role, by its file name (``tests/test_architecture.py`` enforces
it, and refuses a file whose role it does not know):

- reading the agent's session files (``transcript``, ``rollout``, ``rollout_items``,
  ``remember_calls``): the ingest layer; the questions the agent asked the person and their
  answers (``questions``): the decisions layer;
- set-up and uninstall, status for the doctor, the guide, the compaction read-back, where the
  agent keeps its sessions (``setup``, ``status``, ``guide``, ``config_files``,
  ``compaction_readback``, ``sessions``): the services layer;
- what the agent runs on its events and what the command line prints (``hook``, ``notify``,
  ``setup_command``): the front-end layer; the command line keeps only their argparse wiring.

The packages themselves import nothing, so that a hook loads only the modules it uses.
"""
