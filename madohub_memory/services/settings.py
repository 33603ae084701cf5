"""Reading and changing settings (stored in the database, validated by the registry)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any

from madohub_memory.core.errors import ValidationError
from madohub_memory.core.secrets import find_secrets
from madohub_memory.core.settings_schema import SETTINGS, parse_setting
from madohub_memory.store import settings as setting_rows

if TYPE_CHECKING:
    from madohub_memory.services import Services


class SettingsService:
    def __init__(self, svc: Services) -> None:
        self.svc = svc
        self._held: dict[str, Any] | None = None

    def get(self, key: str) -> Any:
        held = self._held
        if held is not None and key in held:
            return held[key]
        if key not in SETTINGS:
            raise ValidationError("Unknown setting {key!r}: see `madohub-memory settings list`.", key=key)
        value = setting_rows.get_raw(self.svc.store, key)
        value = SETTINGS[key].default if value is None else value
        if held is not None:
            held[key] = value
        return value

    @contextmanager
    def held(self) -> Iterator[None]:
        """Read each setting once inside the block instead of on every ``get``.

        For a batch of submits inside one write transaction (no other process can change a
        setting meanwhile): a submit reads five settings, a round submits hundreds of drafts;
        and for one recall, which reads about ten (one round trip instead of ten on a server).
        All of them are read in one query when the block starts. A ``set`` inside the block is
        seen by the next ``get``."""
        if self._held is not None:
            yield
            return
        stored = setting_rows.all_raw(self.svc.store)
        self._held = {key: spec.default if stored.get(key) is None else stored[key] for key, spec in SETTINGS.items()}
        try:
            yield
        finally:
            self._held = None

    def all(self) -> dict[str, Any]:
        return {key: self.get(key) for key in SETTINGS}

    def set(self, key: str, value: Any, actor: str = "human") -> Any:
        parsed = parse_setting(key, value)
        if find_secrets(json.dumps(parsed, ensure_ascii=False)):
            raise ValidationError(
                "Setting {key} would store a secret in plain text: keep keys and passwords in the "
                "environment (the LLM key is read from the variable named by extraction.llm.api_key_env).",
                key=key,
            )
        if key == "embedding.model":  # recall keeps the old vectors until the new ones are all there
            self.svc.embedding.pin_before_switch(parsed)
        changes = self.svc.changelog
        if self._held is not None:
            self._held.pop(key, None)
        with changes.batch():
            before = setting_rows.get_raw(self.svc.store, key)
            setting_rows.set_raw(self.svc.store, key, parsed, self.svc.clock.now_iso())
            changes.record(
                "setting", key, "set", actor,
                None if before is None else {"value": before}, {"value": parsed},
            )
        return parsed
