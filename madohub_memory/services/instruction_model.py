"""The ``instruction`` flag on phrasings no cue was written for: a learned verdict.

The cue scorer (:mod:`madohub_memory.extraction.instructions`) knows the phrasings it was
written against and little else: on the blind set of round 3 it found 0.30 of the
injections and flagged 7.5 % of the hard negatives. This model reads each sentence of a
candidate as a sentence embedding (USE multilingual: meaning, in English or Chinese,
whatever the wording), its word-class frames and the cues that fire
on it (:mod:`.instruction_features`), and weighs them with a logistic regression learned by
``bench/train_instruction_model.py`` from a corpus grouped by intent, validated with each
group held out whole. Weights ship in ``resources/extraction/instruction_model.json``.

A candidate is flagged when any of its sentences scores at least the frozen threshold, or
when one of six strong cues fires on it (override, exfiltration, leak, tamper, trust,
access). Any other cue hit is evidence, not a verdict: on round 3's blind set the cues
misfired on rules that keep a safeguard ("Auto-approve is off; I review every memory
myself."), so :func:`decide` keeps a cue's flag only when the model agrees (the review
service asks it for every draft and edit).

Why USE alone: round 4 froze with e5-small beside USE (blind set ``_injection_heldout5``,
measured once: recall 0.52, false positives 7.4 %), but e5 costs about 30 ms a sentence
against USE's 2, and run on every draft it cut an import of LoCoMo from ~500 to 75 turns/s
(``bench/ingest.py``); gating e5 to the sentences USE already scored high still left
240-350 turns/s. Retrained on the same data with USE alone (threshold 0.93 by the same
rule), it gives 0.50 / 1.3 % on the earlier blind sets held out whole, and on round 4's set,
after the fact, 0.40 / 6.8 % (the cue-era detector before round 4: 0.42 / 14.2 %). A drain
round scores its drafts' sentences in one batch (:func:`warm`), off the draining thread.
Measured in ``bench/safety.py`` (section ``injection``).
"""

from __future__ import annotations

import functools
import json
import re
from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from madohub_memory.core.lock_order import Level, OrderedLock

if TYPE_CHECKING:
    from collections.abc import Callable, Mapping
    from typing import TypeAlias

    import numpy as np

    from madohub_memory.services import Services

    Encoders: TypeAlias = Mapping[str, Callable[[list[str]], np.ndarray]]  # an embedder's name -> its encode

MAX_SENTENCES = 12
_SENTENCES = re.compile(r"(?<=[.!?;])\s+|(?<=[。！？；])|\n+")
_CACHE_SIZE = 4096
_cache: OrderedDict[str, tuple[float, bool]] = OrderedDict()  # sentence -> (score, a strong cue fired)
_lock = OrderedLock("the instruction model's sentence cache", Level.LEAF)


MODEL_FILE = "instruction_model.json"


@dataclass(frozen=True)
class TrainedModel:
    weights: np.ndarray  # over :data:`.instruction_features.FEATURES`
    bias: float
    threshold: float  # a sentence scoring at least this flags its text
    strong_cues: tuple[int, ...]  # feature columns of the cues that flag whatever the score
    info: dict[str, object]


@functools.lru_cache(maxsize=1)
def trained() -> TrainedModel:
    """The model shipped in ``resources/extraction/`` (read once)."""
    import numpy as np

    from madohub_memory.core.resources import resources_dir
    from madohub_memory.services.instruction_features import EMBEDDERS, FEATURES

    raw = json.loads((resources_dir() / "extraction" / MODEL_FILE).read_text(encoding="utf-8"))
    if tuple(raw["features"]) != FEATURES or tuple(raw["embedders"]) != EMBEDDERS:
        raise RuntimeError(f"{MODEL_FILE} was trained on other features: run bench/train_instruction_model.py")
    weights = np.asarray(raw["weights"], dtype=np.float64)
    info = {k: v for k, v in raw.items() if k not in ("weights", "features")}
    strong = tuple(FEATURES.index(f"cue:{name}") for name in raw["strong_cues"])
    return TrainedModel(weights, float(raw["bias"]), float(raw["threshold"]), strong, info)


def sentences(text: str) -> list[str]:
    """The sentences of ``text`` the model reads (at most :data:`MAX_SENTENCES`, each cut to 400)."""
    parts = [p.strip() for p in _SENTENCES.split(text) if p and p.strip()]
    return [p[:400] for p in parts if len(p) >= 8][:MAX_SENTENCES] or ([text.strip()[:400]] if text.strip() else [])


def _encode(texts: list[str], model: str, svc: Services | None, given: Encoders | None = None) -> np.ndarray:
    """``model``'s vectors of ``texts``: through ``given`` (resolved beforehand, for a thread
    that must not read the database), else the database's vector cache of that model (the
    one semantic dedup fills with USE, so a one-sentence draft is embedded once for both),
    else the bare model."""
    if given is not None and model in given:
        return given[model](texts)
    if svc is not None:
        return cached_encoders(svc)[model](texts)
    from madohub_memory.recall.embeddings import get_embedder

    return get_embedder(model).encode(texts)


def cached_encoders(svc: Services) -> Encoders:
    """Each embedder of the model as the database's vector cache of it. Resolved on the
    caller's thread (finding the cache reads the database); the functions it returns touch
    only the cache, so a worker thread may call them."""
    from madohub_memory.recall.vector_cache import vector_cache
    from madohub_memory.services.instruction_features import EMBEDDERS

    return {name: vector_cache(svc.store, name).embed for name in EMBEDDERS}


def _sentence_results(items: Sequence[str], svc: Services | None,
                      given: Encoders | None = None) -> list[tuple[float, bool]]:
    """(score, a strong cue fired) of each sentence, through the per-process cache."""
    model = trained()
    with _lock:
        known = {s: _cache[s] for s in items if s in _cache}
    todo = [s for s in dict.fromkeys(items) if s not in known]
    if todo:
        import numpy as np

        from madohub_memory.services.instruction_features import EMBEDDERS, sentence_features

        features = sentence_features(todo, [_encode(todo, name, svc, given) for name in EMBEDDERS])
        probs = 1.0 / (1.0 + np.exp(-np.clip(features @ model.weights + model.bias, -30, 30)))
        strong = np.any(features[:, list(model.strong_cues)] > 0, axis=1)
        for sentence, prob, cue in zip(todo, probs, strong, strict=True):
            known[sentence] = (float(prob), bool(cue))
        with _lock:
            _cache.update((s, known[s]) for s in todo)
            while len(_cache) > _CACHE_SIZE:
                _cache.popitem(last=False)
    return [known[s] for s in items]


def sentence_scores(items: Sequence[str], svc: Services | None = None) -> list[float]:
    """The model's probability that each sentence steers the agent or the reviewer."""
    return [prob for prob, _cue in _sentence_results(items, svc)]


def warm(texts: Sequence[str], svc: Services | None = None, given: Encoders | None = None) -> None:
    """Score the sentences of many texts in one batch (a drain round's drafts); ``given``:
    see :func:`cached_encoders`."""
    pending = [s for text in texts for s in sentences(text)]
    if pending:
        _sentence_results(pending, svc, given)


def score(text: str, svc: Services | None = None) -> float:
    """The highest sentence score of ``text`` (0 for empty text)."""
    parts = sentences(text)
    return max(sentence_scores(parts, svc), default=0.0)


def model_flags(text: str, svc: Services | None = None) -> bool:
    """True when a sentence of ``text`` scores at least the frozen threshold, or one of the
    strong cues fires on it (an act no ordinary rule asks for: drop earlier instructions, send
    data out, tamper with a record, obey others' text, grant access)."""
    if not text or not text.strip():
        return False
    model = trained()
    return any(prob >= model.threshold or strong for prob, strong in _sentence_results(sentences(text), svc))


def flags_instruction(text: str, svc: Services | None = None) -> bool:
    """True when ``text`` tries to steer the agent or the reviewer (the model's verdict; the
    cues are among what it reads)."""
    return model_flags(text, svc)


def decide(text: str, flags: set[str], svc: Services | None = None) -> set[str]:
    """``flags`` with ``instruction`` set by the model's verdict on ``text``: added where the
    model flags a phrasing no cue knows, dropped where only a cue fired and the model, which
    reads that cue too, does not agree (on blind sets a cue alone misfired on ordinary rules)."""
    out = set(flags) - {"instruction"}
    if model_flags(text, svc):
        out.add("instruction")
    return out
