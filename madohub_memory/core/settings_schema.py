"""Every setting the product knows: its type, default and validation.

Settings live in the database (so a change made in the dashboard reaches the workers and
the MCP server without a restart); this registry is the single place that says what a key
means. Unknown keys are rejected. Other capabilities add their keys here.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from madohub_memory.core.errors import ValidationError
from madohub_memory.core.vocab import KINDS


@dataclass(frozen=True)
class Setting:
    key: str
    default: Any
    parse: Callable[[Any], Any]
    help: str


def _bool(value: Any) -> bool:
    if isinstance(value, bool):
        return value
    text = str(value).strip().lower()
    if text in {"1", "true", "yes", "on"}:
        return True
    if text in {"0", "false", "no", "off"}:
        return False
    raise ValidationError(f"{value!r} is not a yes/no value: use true or false.")


def _int_range(low: int, high: int) -> Callable[[Any], int]:
    def parse(value: Any) -> int:
        try:
            number = int(str(value).strip())
        except ValueError:
            raise ValidationError(f"{value!r} is not a whole number.") from None
        if not low <= number <= high:
            raise ValidationError(f"{number} is out of range: use {low} to {high}.")
        return number

    return parse


def _float_range(low: float, high: float) -> Callable[[Any], float]:
    def parse(value: Any) -> float:
        try:
            number = float(str(value).strip())
        except ValueError:
            raise ValidationError(f"{value!r} is not a number.") from None
        if not low <= number <= high:
            raise ValidationError(f"{number} is out of range: use {low} to {high}.")
        return number

    return parse


def _kinds(value: Any) -> list[str]:
    items = value if isinstance(value, list) else str(value).split(",")
    kinds = [str(k).strip().lower() for k in items if str(k).strip()]
    for kind in kinds:
        if kind not in KINDS:
            raise ValidationError(f"Unknown kind {kind!r}: use any of {', '.join(KINDS)}.")
    return [k for k in KINDS if k in kinds]


def _text(value: Any) -> str:
    return str(value).strip()


def _choice(*choices: str) -> Callable[[Any], str]:
    def parse(value: Any) -> str:
        text = str(value).strip()
        if text not in choices:
            raise ValidationError(f"{text!r} is not allowed: use one of {', '.join(choices)}.")
        return text

    return parse


def _persona(value: Any) -> str:
    text = str(value).strip()
    if not text or ":" in text or any(ch.isspace() for ch in text):
        raise ValidationError(f"Persona name {value!r} must be one word without ':'.")
    return text


SETTINGS: dict[str, Setting] = {
    s.key: s
    for s in [
        Setting("auto_approve.enabled", False, _bool, "Promote candidates without review."),
        Setting("auto_approve.min_seen", 3, _int_range(1, 1000), "Minimum times seen."),
        Setting("auto_approve.min_confidence", 0.8, _float_range(0.0, 1.0), "Minimum confidence."),
        Setting(
            "auto_approve.excluded_kinds", ["decision", "postmortem"], _kinds,
            "Kinds never auto-approved (comma-separated).",
        ),
        Setting("archive_days", 30, _int_range(1, 3650), "Archive pending candidates untouched this long."),
        Setting("persona", "default", _persona, "Active persona: the default namespace persona:<name>."),
        Setting("extraction.backend", "offline", _choice("offline", "llm"), "Extractor to use."),
        Setting("extraction.llm.base_url", "http://127.0.0.1:11434/v1", _text, "OpenAI-compatible endpoint."),
        Setting("extraction.llm.model", "qwen2.5:7b", _text, "Model name for the LLM extractor."),
        Setting("extraction.llm.api_key_env", "OPENAI_API_KEY", _text, "Environment variable with the API key."),
        Setting("embedding.model", "use-multilingual", _text, "Embedding model for recall and dedup."),
        Setting("ui.language", "system", _choice("system", "en", "zh_CN"), "Dashboard language."),
    ]
}


def parse_setting(key: str, value: Any) -> Any:
    setting = SETTINGS.get(key)
    if setting is None:
        raise ValidationError(f"Unknown setting {key!r}: see `madohub-memory settings list`.")
    return setting.parse(value)
