"""Reading and changing settings (stored in the database, validated by the registry)."""

from __future__ import annotations

import json
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

    def get(self, key: str) -> Any:
        if key not in SETTINGS:
            raise ValidationError("Unknown setting {key!r}: see `madohub-memory settings list`.", key=key)
        value = setting_rows.get_raw(self.svc.store, key)
        return SETTINGS[key].default if value is None else value

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
        changes = self.svc.changelog
        with changes.batch():
            before = setting_rows.get_raw(self.svc.store, key)
            setting_rows.set_raw(self.svc.store, key, parsed, self.svc.clock.now_iso())
            changes.record(
                "setting", key, "set", actor,
                None if before is None else {"value": before}, {"value": parsed},
            )
        return parsed
