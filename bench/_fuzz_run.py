"""Feed ``bench/_fuzz.py`` inputs to every importer in this process; print JSON.

Run by ``bench/reliability.py`` with ``PYTHONPATH`` pointing at the code under test. A
*traceback* is an exception that escapes the importer (``ingest_paths`` for transcripts,
``transfer.import_file`` for exports) other than a one-sentence ``UserError``, or an
error the code had to log with its traceback (a file reported as an internal error).
"""

from __future__ import annotations

import argparse
import json
import logging
import sys
import tempfile
import time
import traceback
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _fuzz import inputs, seeds


class _Tracebacks(logging.Handler):
    """Counts log records that carry a traceback (the code caught a bug and logged it)."""

    def __init__(self) -> None:
        super().__init__(logging.ERROR)
        self.count = 0
        self.signatures: Counter[str] = Counter()

    def emit(self, record: logging.LogRecord) -> None:
        if record.exc_info:
            self.count += 1
            exc = record.exc_info[1]
            self.signatures[f"logged {type(exc).__name__}: {str(exc)[:80]}"] += 1


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--n", type=int, default=200)
    parser.add_argument("--seed", type=int, default=14)
    args = parser.parse_args()

    from madohub_memory.core.errors import UserError
    from madohub_memory.services import Services

    logged = _Tracebacks()
    logging.getLogger("madohub_memory").addHandler(logged)
    report = {}
    with tempfile.TemporaryDirectory() as tmp:
        for fmt, (suffix, _content) in seeds().items():
            started = time.perf_counter()
            escaped = 0
            signatures: Counter[str] = Counter()
            before = logged.count
            count = 0
            for number, data in enumerate(inputs(fmt, args.n, args.seed)):
                count += 1
                path = Path(tmp) / f"{fmt}-{number}{suffix}"
                path.write_bytes(data)
                db = Path(tmp) / f"{fmt}-{number}.db"
                try:
                    with Services.open(db) as svc:
                        if fmt == "export":
                            svc.transfer.import_file(path)
                        else:
                            svc.ingest.ingest_paths([str(path)], format="auto" if number % 2 else fmt,
                                                    extract=False)
                except UserError:
                    pass
                except BaseException as exc:
                    escaped += 1
                    frame = traceback.extract_tb(exc.__traceback__)[-1]
                    signatures[f"{type(exc).__name__} at {Path(frame.filename).name}:{frame.lineno}"] += 1
                finally:
                    path.unlink(missing_ok=True)
                    for side in Path(tmp).glob(f"{fmt}-{number}.db*"):
                        side.unlink(missing_ok=True)
            report[fmt] = {
                "inputs": count, "tracebacks": escaped + (logged.count - before),
                "escaped": escaped, "logged": logged.count - before,
                "signatures": dict(signatures.most_common(8)),
                "seconds": round(time.perf_counter() - started, 1),
            }
    report["logged_signatures"] = dict(logged.signatures.most_common(8))
    print(json.dumps(report))


if __name__ == "__main__":
    main()
