"""Every setting the product knows: its type, default and validation.

Settings live in the database (so a change made in the dashboard reaches the workers and
the MCP server without a restart); this registry is the single place that says what a key
means. Unknown keys are rejected. Other capabilities add their keys here.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from madohub_memory.core.errors import ValidationError, shown
from madohub_memory.core.vocab import KINDS, validate_namespace


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
    raise ValidationError("{value} is not a yes/no value: use true or false.", value=shown(value))


def _int_range(low: int, high: int) -> Callable[[Any], int]:
    def parse(value: Any) -> int:
        try:
            number = int(str(value).strip())
        except ValueError:
            raise ValidationError("{value} is not a whole number.", value=shown(value)) from None
        if not low <= number <= high:
            raise ValidationError(
                "{number} is out of range: use {low} to {high}.", number=number, low=low, high=high,
            )
        return number

    return parse


def _float_range(low: float, high: float) -> Callable[[Any], float]:
    def parse(value: Any) -> float:
        try:
            number = float(str(value).strip())
        except ValueError:
            raise ValidationError("{value} is not a number.", value=shown(value)) from None
        if not low <= number <= high:
            raise ValidationError(
                "{number} is out of range: use {low} to {high}.", number=number, low=low, high=high,
            )
        return number

    return parse


def _kinds(value: Any) -> list[str]:
    items = value if isinstance(value, list) else str(value).split(",")
    kinds = [str(k).strip().lower() for k in items if str(k).strip()]
    for kind in kinds:
        if kind not in KINDS:
            raise ValidationError(
                "Unknown kind {kind}: use any of {choices}.", kind=shown(kind), choices=', '.join(KINDS),
            )
    return [k for k in KINDS if k in kinds]


def _text(value: Any) -> str:
    return str(value).strip()


def _path_list(value: Any) -> list[str]:
    """Folder paths, as a list or one comma/newline-separated string (empty = the default)."""
    items = value if isinstance(value, list) else str(value).replace("\n", ",").split(",")
    return [str(p).strip() for p in items if str(p).strip()]


def _url(value: Any) -> str:
    text = str(value).strip()
    if not re.match(r"^https?://[^\s/]+", text):
        raise ValidationError(
            "{text!r} is not an http:// or https:// URL (e.g. http://127.0.0.1:11434/v1).", text=text,
        )
    return text.rstrip("/")


def _workspace_map(value: Any) -> dict[str, str]:
    """Folder prefix -> project name, as a mapping, a JSON object, or ``prefix=project`` items
    separated by commas or new lines (empty = no mapping)."""
    if isinstance(value, str) and value.strip().startswith("{"):
        try:
            value = json.loads(value)
        except ValueError:
            raise ValidationError("The workspace map is not valid JSON: use {\"/path\": \"project\"}.") from None
    if isinstance(value, dict):
        pairs = [(str(k), str(v)) for k, v in value.items()]
    else:
        pairs = []
        for item in str(value).replace("\n", ",").split(","):
            if not item.strip():
                continue
            prefix, sep, project = item.rpartition("=")
            if not sep:
                raise ValidationError(
                    "{item!r} is not prefix=project (e.g. ~/src/shop-x=shop).", item=item.strip(),
                )
            pairs.append((prefix, project))
    mapping: dict[str, str] = {}
    for prefix, project in pairs:
        prefix, project = prefix.strip(), project.strip()
        if not prefix.startswith(("/", "~")) and not (len(prefix) > 2 and prefix[1] == ":"):
            raise ValidationError(
                "Folder {prefix!r} must be an absolute path (or start with ~).", prefix=prefix,
            )
        if not project or "\n" in project:
            raise ValidationError("Folder {prefix} needs a project name after '='.", prefix=prefix)
        validate_namespace(f"workspace:{project}")
        mapping[prefix] = project
    return mapping


def _store_map(value: Any) -> dict[str, str]:
    """Namespace -> store (an absolute file path, ``~/…``, or a ``postgresql://`` DSN), as a
    mapping, a JSON object, or ``namespace=location`` items separated by commas or new lines."""
    from madohub_memory.core.locations import is_dsn

    if isinstance(value, str) and value.strip().startswith("{"):
        try:
            value = json.loads(value)
        except ValueError:
            raise ValidationError(
                "The store map is not valid JSON: use {\"workspace:shop\": \"/path/team.db\"}.") from None
    if isinstance(value, dict):
        pairs = [(str(k), str(v)) for k, v in value.items()]
    else:
        pairs = []
        for item in str(value).replace("\n", ",").split(","):
            if not item.strip():
                continue
            namespace, sep, location = item.partition("=")
            if not sep:
                raise ValidationError(
                    "{item} is not namespace=store (e.g. workspace:shop=/srv/team.db).", item=shown(item.strip()),
                )
            pairs.append((namespace, location))
    mapping: dict[str, str] = {}
    for namespace, location in pairs:
        if not namespace.strip():
            raise ValidationError("Every store needs a namespace before '=' (e.g. workspace:shop=/srv/team.db).")
        namespace, location = validate_namespace(namespace.strip()), location.strip()
        if not (is_dsn(location) or location.startswith(("/", "~")) or (len(location) > 2 and location[1] == ":")):
            raise ValidationError(
                "The store of {namespace} must be an absolute file path or a postgresql:// address.",
                namespace=namespace,
            )
        mapping[namespace] = location
    return mapping


def _choice(*choices: str) -> Callable[[Any], str]:
    def parse(value: Any) -> str:
        text = str(value).strip()
        if text not in choices:
            raise ValidationError(
                "{text} is not allowed: use one of {choices}.", text=shown(text), choices=', '.join(choices),
            )
        return text

    return parse


def _persona(value: Any) -> str:
    text = str(value).strip()
    if not text or ":" in text or any(ch.isspace() for ch in text):
        raise ValidationError("Persona name {value} must be one word without ':'.", value=shown(value))
    return text


def _person_name(value: Any) -> str:
    text = " ".join(str(value).split())
    if len(text) > 64:
        raise ValidationError("A name is at most 64 characters ({value} is longer).", value=shown(value))
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
        Setting("user.name", "", _person_name,
                "Your name on the changes you make ('approved by …'); $MADOHUB_USER overrides it; empty: your"
                " OS login. Ignored on a shared server, where your database role names you."),
        Setting("persona", "default", _persona, "Active persona: the default namespace persona:<name>."),
        Setting("extraction.backend", "offline", _choice("offline", "llm", "claude-code"),
                "Extractor: offline (built in), llm (OpenAI-compatible endpoint) or claude-code (claude -p)."),
        Setting("extraction.llm.base_url", "http://127.0.0.1:11434/v1", _url, "OpenAI-compatible endpoint."),
        Setting("extraction.llm.model", "qwen2.5:7b", _text, "Model name for the LLM extractor."),
        Setting("extraction.llm.api_key_env", "OPENAI_API_KEY", _text, "Environment variable with the API key."),
        Setting("extraction.llm.timeout", 120, _int_range(5, 3600), "Seconds to wait for one model reply."),
        Setting("extraction.llm.retries", 2, _int_range(0, 10), "Retries of a failed model call (with backoff)."),
        Setting("extraction.llm.daily_calls", 300, _int_range(0, 1_000_000),
                "Model calls per day for extraction, both backends (0 = no limit)."),
        Setting("extraction.llm.daily_tokens", 1_000_000, _int_range(0, 1_000_000_000),
                "Model tokens per day for extraction, both backends (0 = no limit)."),
        Setting("extraction.claude.executable", "claude", _text, "The Claude Code program for the claude-code backend."),
        Setting("extraction.claude.model", "haiku", _text,
                "Model for the claude-code backend (empty = Claude Code's default)."),
        Setting("workspace.map", {}, _workspace_map,
                "Folders that belong to a project, as prefix=project (beyond git repositories and worktrees)."),
        Setting("stores.map", {}, _store_map,
                "Namespaces kept in another store (a team file or server), as namespace=location."),
        Setting("embedding.model", "e5-small", _choice("use-multilingual", "e5-small", "minilm"),
                "Embedding model recall ranks with (use-multilingual, e5-small or minilm); a change re-embeds "
                "the memories in the background and recall switches once they are all done."),
        Setting("embedding.serving", "", _choice("", "use-multilingual", "e5-small", "minilm"),
                "The model recall ranks with now: set by the re-embedding when it completes (empty: the model "
                "the stored vectors are of)."),
        Setting("dedup.semantic", True, _bool, "Also treat near-paraphrases (embedding cosine) as duplicates."),
        Setting("dedup.threshold", 0.86, _float_range(0.5, 1.0), "Cosine at or above which two texts are equivalent."),
        Setting("recall.k", 10, _int_range(1, 100), "Memories returned by a recall."),
        Setting("recall.vector_k", 50, _int_range(1, 1000), "Vector-similarity candidates per recall."),
        Setting("recall.keyword_k", 50, _int_range(1, 1000), "Keyword (BM25) candidates per recall."),
        Setting("recall.recent_n", 5, _int_range(0, 100), "Most recently used memories added as candidates."),
        Setting("recall.vector_share", 0.6, _float_range(0.0, 1.0), "Share of vector similarity in the fused score."),
        Setting("recall.vector_share_chinese", 0.8, _float_range(0.0, 1.0),
                "Share of vector similarity for a query written in Chinese (its keyword match depends on word "
                "segmentation); a query in mixed scripts takes a blend by its share of Chinese words."),
        Setting("recall.freshness_share", 0.01, _float_range(0.0, 1.0),
                "How much weight x freshness moves the recall order (0: not at all, 1: a full multiplier)."),
        Setting("recall.session_budget_tokens", 1000, _int_range(50, 100000),
                "Token budget of the context an agent gets when a session starts."),
        Setting("recall.budget_tokens", 800, _int_range(50, 100000), "Token budget of a rendered recall."),
        Setting("decay.idle_days", 14, _int_range(1, 3650), "Days without a hit before weight drops."),
        Setting("decay.idle_weight", 0.5, _float_range(0.0, 1.0), "Weight of an idle memory."),
        Setting("decay.archive_days", 90, _int_range(1, 36500), "Archive memories never hit after this many days."),
        Setting("decay.transient_kinds", ["event"], _kinds, "Kinds that decay fast and expire (comma-separated)."),
        Setting("decay.ttl_days", 28, _int_range(1, 3650), "Days before a transient memory is evicted."),
        Setting("decay.max_active", 0, _int_range(0, 10_000_000), "Evict lowest-weight memories above this (0 = no cap)."),
        Setting("workers.watch_paths", [], _path_list,
                "Transcript folders the worker watches (empty = ~/.claude/projects and ~/.codex/sessions, those that exist)."),
        Setting("workers.watch_enabled", True, _bool, "Watch transcript folders for new or appended lines."),
        Setting("workers.drain_interval", 30, _int_range(5, 86400), "Seconds between extraction passes."),
        Setting("workers.watch_interval", 60, _int_range(5, 86400), "Seconds between folder scans."),
        Setting("workers.sweep_interval", 3600, _int_range(60, 604800), "Seconds between archive/auto-approve sweeps."),
        Setting("workers.backup_interval", 3600, _int_range(60, 86400), "Seconds between checks whether a daily backup is due."),
        Setting("workers.reembed_interval", 60, _int_range(10, 86400),
                "Seconds between checks whether memories need embedding with the chosen model."),
        Setting("backup.enabled", True, _bool, "Back the database up once a day (SQLite backup API)."),
        Setting("backup.keep", 7, _int_range(1, 1000), "Daily backups kept (older ones are deleted)."),
        Setting("backup.folder", "", _text, "Folder of the daily backups (empty = 'backups' next to the database)."),
        Setting("ui.language", "system", _choice("system", "en", "zh_CN"), "Dashboard language."),
        Setting("desktop.tray", True, _bool,
                "Pending count in the system tray, where there is one; closing the window keeps it running there."),
        Setting("desktop.notify", False, _bool, "Desktop notification when candidates arrive from agents or workers."),
        Setting("decisions.min_observations", 5, _int_range(1, 1000), "Decisions: personalise from N choices."),
        Setting("decisions.strong_observations", 20, _int_range(2, 100000), "Decisions: above M, test significance."),
        Setting("decisions.auto_resolve_p", 0.9, _float_range(0.5, 1.0), "Decisions: decide without asking at p >= this."),
        Setting("decisions.ask_band", 0.15, _float_range(0.0, 0.5), "Decisions: ask when |p - 0.5| <= this."),
        Setting("decisions.transient_ttl_days", 28, _int_range(1, 3650), "Decisions: transient choices expire."),
    ]
}


def parse_setting(key: str, value: Any) -> Any:
    setting = SETTINGS.get(key)
    if setting is None:
        raise ValidationError("Unknown setting {key}: see `madohub-memory settings list`.", key=shown(key))
    return setting.parse(value)
