"""Settings named the way the Advanced tab names them, never by their raw key.

"Saved: Minimum times seen." reads as the field the person just changed; a key such as
``auto_approve.min_seen`` is for the CLI. A key with no label here (added later by another
part) is shown as its description from the settings registry.
"""

from __future__ import annotations

from PySide6.QtCore import QT_TRANSLATE_NOOP, QCoreApplication

LABELS = {
    "auto_approve.enabled": QT_TRANSLATE_NOOP("SettingLabels", "Auto-approve"),
    "auto_approve.min_seen": QT_TRANSLATE_NOOP("SettingLabels", "Minimum times seen"),
    "auto_approve.min_confidence": QT_TRANSLATE_NOOP("SettingLabels", "Minimum confidence"),
    "auto_approve.excluded_kinds": QT_TRANSLATE_NOOP("SettingLabels", "Never auto-approve"),
    "archive_days": QT_TRANSLATE_NOOP("SettingLabels", "Archive untouched candidates after"),
    "extraction.backend": QT_TRANSLATE_NOOP("SettingLabels", "Extraction backend"),
    "extraction.llm.base_url": QT_TRANSLATE_NOOP("SettingLabels", "Endpoint URL"),
    "extraction.llm.model": QT_TRANSLATE_NOOP("SettingLabels", "Model name"),
    "extraction.llm.api_key_env": QT_TRANSLATE_NOOP("SettingLabels", "API key environment variable"),
    "embedding.model": QT_TRANSLATE_NOOP("SettingLabels", "Embedding model"),
    "ui.language": QT_TRANSLATE_NOOP("SettingLabels", "Language"),
    "desktop.tray": QT_TRANSLATE_NOOP("SettingLabels", "System tray icon"),
    "desktop.notify": QT_TRANSLATE_NOOP("SettingLabels", "Desktop notifications"),
}


def setting_label(key: str) -> str:
    if key in LABELS:
        return QCoreApplication.translate("SettingLabels", str(LABELS[key]))
    from madohub_memory.core.settings_schema import SETTINGS

    spec = SETTINGS.get(key)
    return spec.help.rstrip(".") if spec is not None else key
