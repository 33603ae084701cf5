"""Record a real Codex CLI rollout file for the tests and the format notes.

Usage: .venv/bin/python scripts/record_codex_rollout.py [--out tests/fixtures/codex]

Runs the pinned ``node_modules/.bin/codex`` offline against the scripted Responses server
(tests/responses_server.py), set up with ``madohub-memory setup codex``, through two turns:
a correction in Chinese, a failing test run, a stated root cause, a passing run, a call of
our MCP ``remember`` tool, then ``codex exec resume`` with auto-compaction forced (a tiny
``model_auto_compact_token_limit``) so the file holds a ``compacted`` record. The file
Codex wrote is copied with the temporary folder replaced by ``/home/dev`` and Codex's own
built-in instruction texts (thousands of characters of OpenAI's prompt, in
``session_meta.base_instructions``, ``developer`` messages and ``world_state``) replaced by
a placeholder; every other byte is as the CLI wrote it.
"""

from __future__ import annotations

import argparse
import json
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))

from codex_client import codex_home, configure, run_codex  # noqa: E402
from responses_server import ResponsesServer, function_call, message  # noqa: E402

OMITTED = "[omitted from the fixture: Codex's built-in instructions]"
SUMMARY = (
    "## Progress\n- Fixed the failing order total test: settings.py lacked the TAX entry, so tax defaulted to 0.\n"
    "## Key decisions\n- Read the tax rate from settings.TAX, not from the environment, so tests and production agree.\n"
    "## Constraints and user preferences\n- Run make lint before every commit; never commit with --no-verify.\n"
    "## Next steps\n- Wait for the user's next request.\n"
)


def script() -> list[Any]:
    def remember(request: Any) -> list[dict[str, Any]]:
        return [{"type": "function_call", "name": "remember", "namespace": "mcp__madohub",
                 "arguments": json.dumps({"content": "用户要求提交前先跑 make lint，不要用 --no-verify。",
                                          "kind": "preference", "namespace": "workspace:shop"}, ensure_ascii=False)}]

    return [
        [message("Let me run the tests first."),
         function_call("exec_command", {"cmd": "echo 'FAILED tests/test_orders.py::test_total - 2 failed, 5 passed'; "
                                               "exit 1"})],
        [message("The root cause is that settings.py is missing the TAX entry, so the tax rate defaults to 0."),
         function_call("exec_command", {"cmd": "echo '7 passed in 0.4s'"})],
        remember,
        [message("Fixed: settings.py now defines TAX and all 7 tests pass.")],
        [message("Noted: SQLite stays for the demo. Adding the CHANGELOG entry."),
         function_call("exec_command", {"cmd": "printf '## Unreleased\\n- Fix order totals\\n' >> CHANGELOG.md"})],
        [message("Done: CHANGELOG.md has the entry.")],
    ]


def sanitise(value: Any, root: str) -> Any:
    if isinstance(value, str):
        return value.replace(root, "/home/dev")
    if isinstance(value, list):
        return [sanitise(v, root) for v in value]
    if isinstance(value, dict):
        return {k: sanitise(v, root) for k, v in value.items()}
    return value


def _omit(record: dict[str, Any]) -> dict[str, Any]:
    payload = record.get("payload")
    if not isinstance(payload, dict):
        return record
    if record.get("type") == "session_meta" and isinstance(payload.get("base_instructions"), dict):
        payload["base_instructions"] = {"text": OMITTED}
    if record.get("type") == "world_state":
        record["payload"] = {"omitted": OMITTED}
    if payload.get("type") == "message" and payload.get("role") == "developer":
        for part in payload.get("content") or []:
            if isinstance(part, dict) and "text" in part:
                part["text"] = OMITTED
    if record.get("type") == "compacted" and isinstance(payload.get("replacement_history"), list):
        for item in payload["replacement_history"]:
            if isinstance(item, dict) and item.get("role") == "developer":
                for part in item.get("content") or []:
                    if isinstance(part, dict) and "text" in part:
                        part["text"] = OMITTED
    return record


def record(binary: Path, out: Path) -> Path:
    with tempfile.TemporaryDirectory(prefix="codex-record-", ignore_cleanup_errors=True) as tmp:
        target = codex_home(Path(tmp))
        with ResponsesServer(script(), summary=SUMMARY) as server:
            configure(target, server.base_url)
            subprocess.run([sys.executable, "-m", "madohub_memory", "--db", str(Path(tmp) / "memory.db"),
                            "setup", "codex"], env=target.env, check=True, capture_output=True)
            required = ("mcp_servers.madohub.required=true",)
            run_codex(binary, target, "以后提交前一律先跑 make lint，不要用 --no-verify。Please fix the failing order "
                      "total test.", overrides=required)
            run_codex(binary, target, "We decided to keep SQLite for the demo because the installer must stay "
                      "dependency-free. Add a CHANGELOG entry.", resume=True,
                      overrides=(*required, "model_auto_compact_token_limit=50"))
        (rollout,) = target.rollouts()
        lines = []
        for raw in rollout.read_text(encoding="utf-8").splitlines():
            data = sanitise(_omit(json.loads(raw)), tmp)
            lines.append(json.dumps(data, ensure_ascii=False, separators=(",", ":")))
        out.mkdir(parents=True, exist_ok=True)
        target_file = out / rollout.name
        target_file.write_text("\n".join(lines) + "\n", encoding="utf-8")
        shutil.copymode(rollout, target_file)
        return target_file


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=ROOT / "tests" / "fixtures" / "codex")
    parser.add_argument("--codex", type=Path, default=ROOT / "node_modules" / ".bin" / "codex")
    args = parser.parse_args()
    print(record(args.codex, args.out))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
