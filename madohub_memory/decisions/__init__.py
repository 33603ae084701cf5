"""Decision memory: which option a user picks at recurring decision points.

Pure logic only (no SQL, no Qt): label normalisation and decision-point keys
(:mod:`.labels`), the observation model and tiers (:mod:`.model`), power-law decay and
expiry (:mod:`.decay`), the statistics (:mod:`.stats`), the recommendation engine
(:mod:`.engine`), ask-or-decide (:mod:`.asking`) and the Claude Code ``AskUserQuestion``
parser (:mod:`.transcript`). Storage is in ``store/decisions.py``; the use cases that
every front end shares are in ``services/decisions.py``.
"""
