"""Train the shipped extraction selector on every labelled dev project and write its weights.

The weights go to ``resources/extraction/selector.json`` (shipped inside the package and
read with importlib.resources). The same training, leaving each project out in turn, gives
the leave-one-project-out figures of ``bench/extraction_coding.py``; the shipped model is
trained on all projects. The run prints what it trained on and the thresholds it chose.

Usage: ``python bench/train_selector.py [--data DIR] [--out FILE] [--json]``.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from _common import print_report
from _gold_match import GOLD_FILE, load_gold
from _selector_training import labelled_units, project_of, record_passes, train
from extraction_coding import DEFAULT_DATA, project_files

OUT = Path(__file__).resolve().parents[1] / "resources" / "extraction" / "selector.json"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, default=DEFAULT_DATA, help="the eval/dev folder")
    parser.add_argument("--out", type=Path, default=OUT, help="where the weights go")
    parser.add_argument("--json", action="store_true", help="print one JSON document")
    args = parser.parse_args()
    if not args.data.is_dir():
        print_report({"skipped": f"evaluation data not found at {args.data}"}, args.json)
        return 0
    items = load_gold(GOLD_FILE)
    files = project_files(args.data, items)
    rows = {p: labelled_units(p, record_passes(paths), [i for i in items if project_of(i["file"]) == p])
            for p, paths in files.items()}
    model = train(rows)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(model, ensure_ascii=False, separators=(",", ":")) + "\n", encoding="utf-8")
    print_report({"written": str(args.out), **model["info"],
                  "threshold": model["threshold"], "cap_scale": model["cap_scale"], "pass_scale": model["pass_scale"],
                  "per_project_units": {p: [len(r), sum(bool(x.hits) for x in r)] for p, r in rows.items()}}, args.json)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
