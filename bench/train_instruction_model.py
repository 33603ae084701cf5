"""Train the instruction model (round 4) and write ``resources/extraction/instruction_model.json``.

    python bench/train_instruction_model.py --check     # held-out validation only (writes nothing)
    python bench/train_instruction_model.py             # validation, then train on everything and write

What it reads, per sentence: the sentence's USE multilingual embedding (meaning, in English or Chinese, whatever the wording), its word-class frames
(``extraction/instruction_frames.py``) and which steering cues fire on it
(``extraction/instructions.py``). The cues are *features* here, not a verdict: on round 3's
blind set they alone flagged 7.5 % of the hard negatives, so a cue hit no longer flags by
itself. Model: L2-regularised logistic regression (Newton's method, deterministic).

Data, each a *group* written in one sitting (all in ``bench/``): the cue corpus
(``_injection_corpus``, ``_injection_rules``), the extra training text (``_injection_train``),
the four blind sets of earlier rounds (``_injection_heldout.py`` … ``_injection_heldout4.py``:
each measured once on its own freeze, now spent) and round 4's families
(``_injection_families``: one intent, or one kind of ordinary text, per family).

Validation, the figure that predicts a blind set: every blind set and every family is held
out *whole* in turn (train on all other groups, score the held-out group), so no paraphrase
or Chinese twin of a test item is in training. Reported: recall and false positives on the
pooled held-out blind sets (their hard negatives are written to mirror their injections), on
the held-out families, and the false-positive rate on user sentences of the dev sessions
(measured only, ``--dev``, never trained on). The threshold is the lowest at which the false
positives on the held-out blind sets' hard negatives *and* on the dev sentences stay at or
under 2 %: :data:`THRESHOLD` 0.93 (USE alone; at 0.9 the blind sets' negatives were at
2.3 %). Round 4 froze with e5-small beside USE at 0.9 (0.595 / 1.9 % here, 0.52 / 7.4 % on
its blind set); e5 was then dropped for its cost at import (see
``services/instruction_model.py``) and the model retrained, threshold by the same rule.
:data:`STRONG_CUES`: the cues whose hit flags whatever the model says (they name an
act no ordinary rule asks for: drop earlier instructions, send data out, leak, tamper with a
record, obey others' text, grant access). Letting every cue flag when the model scored 0.5 or
0.7 kept every corpus injection but added two blind hard negatives (2.6 %); these six add
recall on the blind sets (0.579 to 0.595) at the same 1.9 %. Round 4 froze with both, chosen
from this report (``--check --dev``) before any set was written against it.

Rounds (issue 25), each measured once on a set written after its freeze: round 1 (aa8032a)
0.42 recall / 3 % false positives, round 2 (9149d59) 0.60 / 7 %, round 3 (ffd3900) 0.425 /
8.75 % (``_injection_heldout4.py``, now training data). Round 4 froze in the commit
"Injection detector frozen (round 4)"; its validation above (0.595 / 1.9 % on the blind sets
held out whole, 0.45 / 13 % on the families) is what to expect of the next blind set, not
the in-sample rates ``bench/safety.py`` prints under ``trained_on``.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from madohub_memory.services.instruction_features import CUE_NAMES, EMBEDDERS, FEATURES, sentence_features

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "resources" / "extraction" / "instruction_model.json"
L2 = 30.0
THRESHOLD = 0.93
STRONG_CUES = ("override", "exfiltration", "leak", "tamper", "trust", "access")
GRID = (0.5, 0.7, 0.8, 0.85, 0.9, 0.93, 0.95)
DEV_DATA = Path("/work/shared/eval/dev")
BLIND = ("heldout1", "heldout2", "heldout3", "heldout4")


def groups() -> list[tuple[str, list[str], list[str]]]:
    """(name, injections, others) of every group written in one sitting."""
    import _injection_heldout2 as h2
    import _injection_heldout3 as h3
    import _injection_heldout4 as h4
    from _injection_corpus import HELD_OUT_INJECTIONS, HELD_OUT_RULES, INJECTIONS, RULES
    from _injection_families import HARD_NEGATIVE_FAMILIES, INJECTION_FAMILIES
    from _injection_train import TRAIN_INJECTIONS, TRAIN_NON_INJECTIONS

    out = [("corpus", INJECTIONS, RULES), ("train", TRAIN_INJECTIONS, TRAIN_NON_INJECTIONS),
           ("heldout1", HELD_OUT_INJECTIONS, HELD_OUT_RULES),
           ("heldout2", h2.INJECTIONS_AFTER_FREEZE, h2.HARD_NEGATIVES),
           ("heldout3", h3.INJECTIONS_AFTER_FREEZE, h3.HARD_NEGATIVES),
           ("heldout4", h4.INJECTIONS_AFTER_FREEZE, h4.HARD_NEGATIVES)]
    out += [(f"injection:{name}", texts, []) for name, texts in INJECTION_FAMILIES.items()]
    out += [(f"negative:{name}", [], texts) for name, texts in HARD_NEGATIVE_FAMILIES.items()]
    return out


def features(texts: list[str], cache: Path | None = None) -> np.ndarray:
    """Feature rows of ``texts``; with ``cache``, vectors already embedded there are reused
    (a folder of ``MODEL.json`` files mapping text to vector, written back after)."""
    from madohub_memory.recall.embeddings import get_embedder

    vectors = []
    for name in EMBEDDERS:
        known: dict[str, list[float]] = {}
        path = cache / f"{name}.json" if cache else None
        if path is not None and path.exists():
            known = json.loads(path.read_text(encoding="utf-8"))
        todo = [t for t in dict.fromkeys(texts) if t not in known]
        if todo:
            known.update(zip(todo, get_embedder(name).encode(todo).astype(float).tolist(), strict=True))
            if path is not None:
                path.parent.mkdir(parents=True, exist_ok=True)
                path.write_text(json.dumps(known, ensure_ascii=False), encoding="utf-8")
        vectors.append(np.array([known[t] for t in texts], dtype=np.float64))
    return sentence_features(texts, vectors)


def fit(x: np.ndarray, y: np.ndarray, l2: float = L2, iters: int = 10) -> tuple[np.ndarray, float]:
    """Weights and bias on the raw features (standardised inside, folded back out)."""
    mu = x.mean(0)
    sd = x.std(0) + 1e-3
    z = np.hstack([(x - mu) / sd, np.ones((len(x), 1))])
    w = np.zeros(z.shape[1])
    ridge = l2 * np.eye(z.shape[1])
    ridge[-1, -1] = 0.0
    for _ in range(iters):
        p = 1.0 / (1.0 + np.exp(-np.clip(z @ w, -30, 30)))
        hessian = (z * (p * (1 - p))[:, None]).T @ z + ridge
        w -= np.linalg.solve(hessian, z.T @ (p - y) + ridge @ w)
    weights = w[:-1] / sd
    return weights, float(w[-1] - weights @ mu)


def predict(x: np.ndarray, weights: np.ndarray, bias: float) -> np.ndarray:
    return np.asarray(1.0 / (1.0 + np.exp(-np.clip(x @ weights + bias, -30, 30))))


def _rates(flagged: np.ndarray, y: np.ndarray) -> dict[str, Any]:
    return {"recall": round(float(flagged[y == 1].mean()), 3) if (y == 1).any() else None,
            "false_positive_rate": round(float(flagged[y == 0].mean()), 3) if (y == 0).any() else None,
            "injections": int((y == 1).sum()), "hard_negatives": int((y == 0).sum())}


def strong_cue(x: np.ndarray) -> np.ndarray:
    """Rows on which one of :data:`STRONG_CUES` fires."""
    return np.asarray(np.any(x[:, [FEATURES.index(f"cue:{c}") for c in STRONG_CUES]] > 0, axis=1))


def flagged_by(prob: np.ndarray, strong: np.ndarray, threshold: float) -> np.ndarray:
    """The product's rule: the model scores at least ``threshold``, or a strong cue fires."""
    return np.asarray((prob >= threshold) | strong)


def validate(x: np.ndarray, y: np.ndarray, group: np.ndarray, dev: np.ndarray | None) -> dict[str, Any]:
    """Each blind set and each family held out whole; rates per threshold of :data:`GRID`."""
    held = [g for g in dict.fromkeys(group) if g in BLIND or ":" in g]
    prob = np.full(len(y), np.nan)
    for name in held:
        test = group == name
        w, b = fit(x[~test], y[~test])
        prob[test] = predict(x[test], w, b)
    blind = np.isin(group, BLIND)
    family = np.char.find(group.astype(str), ":") >= 0
    w, b = fit(x, y)
    fitted = predict(x, w, b)
    dev_prob = predict(dev, w, b) if dev is not None else None
    cue = strong_cue(x)
    dev_cue = strong_cue(dev) if dev is not None else None
    report: dict[str, Any] = {}
    for th in GRID:
        flagged = flagged_by(prob, cue, th)
        row: dict[str, Any] = {"blind_sets_pooled": _rates(flagged[blind], y[blind]),
               "families_pooled": _rates(flagged[family], y[family]),
               "per_group": {g: _rates(flagged[group == g], y[group == g]) for g in held}}
        if dev_prob is not None and dev_cue is not None:
            row["dev_user_sentences_false_positive_rate"] = round(float(flagged_by(dev_prob, dev_cue, th).mean()), 3)
        row["in_sample_cue_corpus"] = _rates(flagged_by(fitted, cue, th)[group == "corpus"], y[group == "corpus"])
        report[str(th)] = row
    return report


def dev_sentences(limit: int = 500) -> list[str]:
    """User sentences of the dev sessions (measured on, never trained on or copied)."""
    import random

    from extraction_quality import dev_transcript_texts

    from madohub_memory.services.instruction_model import sentences

    texts = [t for _s, role, t in dev_transcript_texts(DEV_DATA) if role == "user"]
    found = sorted({s for t in texts for s in sentences(t) if 15 <= len(s) <= 300 and not s.startswith("<")})
    random.Random(0).shuffle(found)
    return found[:limit]


def write(w: np.ndarray, b: float, counts: dict[str, int], validation: dict[str, Any]) -> None:
    model = {"about": "instruction model, written by bench/train_instruction_model.py: do not edit",
             "embedders": list(EMBEDDERS), "cues": list(CUE_NAMES), "features": list(FEATURES),
             "threshold": THRESHOLD, "strong_cues": list(STRONG_CUES), "l2": L2, "trained_on": counts, "validation_at_threshold": validation,
             "bias": round(b, 6), "weights": [round(float(v), 6) for v in w]}
    OUT.write_text(json.dumps(model, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")


def main() -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    parser.add_argument("--check", action="store_true", help="validation only, write nothing")
    parser.add_argument("--dev", action="store_true", help="also measure false positives on dev user sentences")
    parser.add_argument("--cache", type=Path, help="a folder to keep embedded vectors in between runs")
    args = parser.parse_args()
    texts: list[str] = []
    labels: list[float] = []
    names: list[str] = []
    for name, injections, others in groups():
        texts += injections + others
        labels += [1.0] * len(injections) + [0.0] * len(others)
        names += [name] * (len(injections) + len(others))
    y = np.array(labels)
    group = np.array(names)
    extra = dev_sentences() if args.dev else []
    x_all = features(texts + extra, args.cache)
    x, dev = x_all[:len(texts)], (x_all[len(texts):] if extra else None)
    report = validate(x, y, group, dev)
    at = report[str(THRESHOLD)]
    summary = {"examples": len(texts), "injections": int(y.sum()), "others": int(len(y) - y.sum()),
               "threshold": THRESHOLD, "strong_cues": list(STRONG_CUES), "l2": L2,
               "by_threshold": {th: {k: v for k, v in row.items() if k != "per_group"} for th, row in report.items()},
               "per_group_at_threshold": at["per_group"]}
    if not args.check:
        w, b = fit(x, y)
        write(w, b, {"injections": int(y.sum()), "others": int(len(y) - y.sum())},
              {k: v for k, v in at.items() if k != "per_group"})
        summary["written"] = str(OUT.relative_to(ROOT))
    print(json.dumps(summary, indent=1, ensure_ascii=False))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
