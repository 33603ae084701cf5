"""What model extraction costs: calls and tokens per transcript, with and without packing.

Usage: .venv/bin/python bench/llm_calls.py --json [PATH ...]

No model exists on a test machine, so a local stub endpoint (127.0.0.1, port 0) answers
every request with no memories and reports ``total_tokens`` = request bytes / 4. What is
measured is the request side, which the user pays for: how many calls the budget is
charged for a real transcript (packed: consecutive passes share one request up to about
24,000 characters; unpacked: one request per pass), and the tokens counted. Defaults to
the dev Claude Code session and the dev ChatGPT export.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
DEV = ROOT.parent / "shared" / "eval" / "dev"
DEFAULT_PATHS = [DEV / "claude_code" / "258c7280-ae70-4798-800f-63464d01a85d.jsonl",
                 DEV / "chatgpt_conversations_dev.json"]


def _serve() -> tuple[ThreadingHTTPServer, list[int]]:
    sizes: list[int] = []

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            body = self.rfile.read(int(self.headers["Content-Length"]))
            sizes.append(len(body))
            data = json.dumps({"choices": [{"message": {"content": '{"memories": []}'}}],
                               "usage": {"total_tokens": len(body) // 4}}).encode()
            self.send_response(200)
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        def log_message(self, *args: Any) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server, sizes


def measure(path: Path, packed: bool) -> dict[str, Any]:
    from madohub_memory.extraction import model_backend
    from madohub_memory.services import Services, extraction_backend

    server, sizes = _serve()
    defaults = model_backend.ModelExtractor.__init__.__kwdefaults__
    saved = defaults["max_request_chars"]
    defaults["max_request_chars"] = saved if packed else 1
    try:
        with tempfile.TemporaryDirectory() as folder, Services.open(Path(folder) / "m.db") as svc:
            svc.settings.set("extraction.backend", "llm")
            svc.settings.set("extraction.llm.base_url", f"http://127.0.0.1:{server.server_address[1]}/v1")
            svc.settings.set("extraction.llm.daily_calls", 0)
            svc.settings.set("extraction.llm.daily_tokens", 0)
            summary = svc.ingest.ingest_paths([str(path)])
            usage = extraction_backend.usage_today(svc)
    finally:
        defaults["max_request_chars"] = saved
        server.shutdown()
        server.server_close()
    return {"turns": summary["turns"]["new"], "calls": usage["calls"], "tokens": usage["tokens"],
            "largest_request_chars": max(sizes, default=0)}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("paths", nargs="*", type=Path)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    report = {}
    for path in args.paths or DEFAULT_PATHS:
        if not path.exists():
            print(f"llm_calls: {path} not found.", file=sys.stderr)
            return 1
        report[path.name] = {"packed": measure(path, True), "one_call_per_pass": measure(path, False)}
    print(json.dumps(report, indent=2 if not args.json else None))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
