"""Train the instruction model and write ``madohub_memory/services/instruction_weights.py``.

    python bench/train_instruction_model.py            # cross-validation report, then write the weights
    python bench/train_instruction_model.py --check    # only the report (writes nothing)

Data (all in ``bench/``, written for this project): injections ``_injection_corpus`` (and
``_injection_train``), ordinary rules ``_injection_rules``, the old held-out set (spent:
measured once, 0.55 recall, then used for training in issue 25), ordinary memories and
requests to the assistant (``_injection_train``). Features: the sentence's word-class
frames (``extraction/instruction_frames.py``) and its USE multilingual embedding. Model:
L2-regularised logistic regression (full-batch gradient descent, deterministic).

How the threshold was chosen: 5-fold cross-validation over the items the cues were never
written against (the old held-out set, ``_injection_train`` and the spent round-1 set),
cue flag OR model score; and, from round 3, leave-one-batch-out (each set written in one
sitting is held out whole, so a Chinese twin cannot sit in another fold). The threshold
keeps the false positives on those hard negatives and on the dev users' sentences at or
under 2 % before recall: 0.9 in rounds 1 and 2, 0.95 in round 3 (leave-one-batch-out on
round 2's set: 0.58 recall, 3 % false positives at 0.95; 0.60 and 7 % at 0.9).

Rounds (issue 25): round 1 froze in aa8032a and was measured once on
``_injection_heldout2.py`` (written after it): recall 0.42, false positives 3 %. That set
is spent and is training data of round 2 (broader word classes in the frames), which froze
in 9149d59 before ``_injection_heldout3.py`` was written: recall 0.60, false positives 7 %.
Round 3 trains on that set too and raises the threshold; its held-out set is
``_injection_heldout4.py``, written after it froze. The random-fold cross-validation below
is optimistic (an item's Chinese twin can sit in another fold): round 1 expected 0.70 and
got 0.42.
"""

from __future__ import annotations

import argparse
import base64
import json
import sys
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from _injection_corpus import HELD_OUT_INJECTIONS, HELD_OUT_RULES, INJECTIONS, RULES
from _injection_heldout2 import HARD_NEGATIVES as SPENT_NEGATIVES
from _injection_heldout2 import INJECTIONS_AFTER_FREEZE as SPENT_INJECTIONS
from _injection_heldout3 import HARD_NEGATIVES as SPENT_NEGATIVES_2
from _injection_heldout3 import INJECTIONS_AFTER_FREEZE as SPENT_INJECTIONS_2
from _injection_train import TRAIN_INJECTIONS, TRAIN_NON_INJECTIONS

from madohub_memory.extraction.instruction_frames import FEATURES, frame_features
from madohub_memory.extraction.instructions import is_instruction

ROOT = Path(__file__).resolve().parents[1]
L2 = 0.1
THRESHOLD = 0.95
EMBEDDER = "use-multilingual"
OUT = ROOT / "madohub_memory" / "services" / "instruction_weights.py"


def fit(x: np.ndarray, y: np.ndarray, l2: float = L2, steps: int = 3000, rate: float = 1.0) -> tuple[np.ndarray, float]:
    w = np.zeros(x.shape[1])
    b = 0.0
    for _ in range(steps):
        p = 1.0 / (1.0 + np.exp(-(x @ w + b)))
        w -= rate * (x.T @ (p - y) / len(y) + l2 * w / len(y))
        b -= rate * float(np.mean(p - y))
    return w, b


def data() -> tuple[list[str], np.ndarray, np.ndarray]:
    positives = INJECTIONS + HELD_OUT_INJECTIONS + TRAIN_INJECTIONS + SPENT_INJECTIONS + SPENT_INJECTIONS_2
    negatives = RULES + HELD_OUT_RULES + TRAIN_NON_INJECTIONS + SPENT_NEGATIVES + SPENT_NEGATIVES_2
    texts = positives + negatives
    y = np.array([1.0] * len(positives) + [0.0] * len(negatives))
    unseen = np.zeros(len(texts), bool)  # what the cues were never written against
    unseen[len(INJECTIONS):len(positives)] = True
    unseen[len(positives) + len(RULES):] = True
    return texts, y, unseen


def features(texts: list[str]) -> np.ndarray:
    from madohub_memory.recall.embeddings import get_embedder

    vectors = get_embedder(EMBEDDER).encode(texts).astype(np.float64)
    return np.hstack([np.array([frame_features(t) for t in texts]), vectors])


def cross_validate(x: np.ndarray, y: np.ndarray, unseen: np.ndarray, cue: np.ndarray) -> dict[str, Any]:
    report: dict[str, Any] = {}
    for seed in (1, 2, 3):
        rng = np.random.default_rng(seed)
        held = np.where(unseen)[0]
        rng.shuffle(held)
        prob = np.zeros(len(y))
        for fold in np.array_split(held, 5):
            train = np.setdiff1d(np.arange(len(y)), fold)
            w, b = fit(x[train], y[train])
            prob[fold] = 1.0 / (1.0 + np.exp(-(x[fold] @ w + b)))
        for th in (0.8, 0.85, 0.9, 0.95):
            flagged = ((prob >= th) | cue)[unseen]
            truth = y[unseen]
            row = report.setdefault(str(th), {"recall": [], "false_positive_rate": []})
            row["recall"].append(round(float(flagged[truth == 1].mean()), 3))
            row["false_positive_rate"].append(round(float(flagged[truth == 0].mean()), 3))
    return report


def write(w: np.ndarray, b: float, counts: dict[str, int]) -> None:
    blob = base64.b64encode(w.astype("<f4").tobytes()).decode()
    lines = [blob[i:i + 100] for i in range(0, len(blob), 100)]
    OUT.write_text(
        '"""Weights of the instruction model, written by ``python bench/train_instruction_model.py``: do not edit."""\n\n'
        f"EMBEDDER = {EMBEDDER!r}\n"
        f"THRESHOLD = {THRESHOLD!r}\n"
        f"BIAS = {b!r}\n"
        f"TRAINED_ON = {json.dumps(counts)}\n"
        f"FEATURES = {FEATURES!r}\n"
        "WEIGHTS = (\n" + "".join(f'    "{line}"\n' for line in lines) + ")\n",
        encoding="utf-8",
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--check", action="store_true", help="report only, write nothing")
    args = parser.parse_args()
    texts, y, unseen = data()
    x = features(texts)
    cue = np.array([is_instruction(t) for t in texts])
    report = {"examples": len(texts), "injections": int(y.sum()), "others": int(len(y) - y.sum()),
              "cross_validation_on_cue_unseen_items": cross_validate(x, y, unseen, cue),
              "cue_only_on_cue_unseen_items": {"recall": round(float(cue[unseen & (y == 1)].mean()), 3),
                                               "false_positive_rate": round(float(cue[unseen & (y == 0)].mean()), 3)},
              "threshold": THRESHOLD, "l2": L2}
    if not args.check:
        w, b = fit(x, y)
        write(w, b, {"injections": int(y.sum()), "others": int(len(y) - y.sum())})
        report["written"] = str(OUT.relative_to(ROOT))
    print(json.dumps(report, indent=2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
