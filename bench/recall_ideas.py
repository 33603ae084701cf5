"""Every ranking idea tried for recall, measured on the same features (issue 12).

Why a separate bench: most ideas (z-score or rank fusion, other BM25 parameters, query
rewriting, pseudo-relevance feedback, whitening...) are not in the product, and trying
each through the service would mean shipping each. Here every memory and question is
embedded once (cached under ``--cache``), BM25 is recomputed in numpy from the FTS5 tokens
the product indexes (same tokenizer, same Chinese segmentation, same formula: it
reproduces FTS5's ``bm25()`` with k1 = 1.2, b = 0.75), and each idea is a scoring function
over one question's scope. ``bench/recall_quality.py`` measures the shipped ranking end to
end; its figures differ from the "shipped" row here by tie-breaking only.

LoCoMo is reported whole and as the declared split: ``train`` = conv-26 + conv-44 (the
only questions weights were fitted on), ``heldout`` = the three other conversations.
``chinese_tune`` is the Chinese tuning split; ``chinese`` is only measured.

Usage: ``python bench/recall_ideas.py --json [--minilm] [--only NAME,...]``
"""

from __future__ import annotations

import argparse
import hashlib
import json
import re
import sqlite3
import sys
from collections.abc import Callable
from datetime import date
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _recall_common import EVAL_DEV
from _recall_data import LOADERS, Question

from madohub_memory.recall import temporal
from madohub_memory.recall.embeddings import encode_queries, get_embedder
from madohub_memory.recall.ranking import word_count
from madohub_memory.store import fts_text

KS = (1, 5, 10)
TRAIN = ("conv-26", "conv-44")
LR_WEIGHTS = {"v": 0.6, "k": 0.4, "fit": 0.13, "len": 0.09}  # rounded fit on the train split


class Data:
    """One data set's memories and questions with every feature an idea needs."""

    def __init__(self, name: str, cache: Path, model: str = "use-multilingual") -> None:
        self.name = name
        self.items, self.qs = LOADERS[name]()
        self.cache = cache
        self.E = self.embed([it["content"] for it in self.items], model)
        self.Q = self.embed([q.text for q in self.qs], model, query=True)
        self.toks = fts_tokens([it["content"] for it in self.items])
        # A quoted query term goes through FTS5's tokenizer only (no Chinese segmentation).
        self.qterms = [[t for term in fts_text.query_terms(q.text) for t in fts_tokens([term], segment=False)[0]]
                       for q in self.qs]
        self.index(self.toks)
        self.ns = np.array([it["namespace"] for it in self.items])
        self.scope = {n: np.where(self.ns == n)[0] for n in set(self.ns)}
        turns = [set(it["turn_ids"]) for it in self.items]
        self.gold = [np.array([bool(t & q.gold) for t in turns]) for q in self.qs]
        self.dates = [date.fromisoformat(it["turn_date"][:10]) if it.get("turn_date") else None for it in self.items]
        self.windows = [temporal.query_window(q.text, _asked(q, self)) for q in self.qs]
        self.extra: dict[str, Any] = {}
        self.words = np.array([word_count(it["content"]) for it in self.items], dtype=float)

    def embed(self, texts: list[str], model: str = "use-multilingual", query: bool = False) -> np.ndarray:
        """Vectors of ``texts`` (``query``: embedded as search queries, which only e5 does
        differently), cached under ``--cache``."""
        side = "q" if query and model == "e5-small" else ""
        key = hashlib.sha1((model + side + "\0" + "\1".join(texts)).encode()).hexdigest()[:20]
        path = self.cache / f"{model}-{key}.npy"
        if path.exists():
            return np.load(path)
        embedder = get_embedder(model)
        vectors = encode_queries(embedder, texts) if query else embedder.encode(texts)
        np.save(path, vectors)
        return vectors

    def index(self, toks: list[list[str]]) -> None:
        self.ix = Index(toks)

    def bm25(self, qi: int, idx: np.ndarray, k1: float = 1.2, b: float = 0.75, local: bool = False,
             ix: Index | None = None) -> np.ndarray:
        return (ix or self.ix).bm25(self.qterms[qi], idx, k1, b, local)

    def coverage(self, qi: int, idx: np.ndarray) -> np.ndarray:
        return self.ix.coverage(self.qterms[qi], idx)


class Index:
    """Term counts of a set of token lists, scored like FTS5."""

    def __init__(self, toks: list[list[str]]) -> None:
        postings: dict[str, tuple[list[int], list[int]]] = {}
        for i, tl in enumerate(toks):
            counts: dict[str, int] = {}
            for t in tl:
                counts[t] = counts.get(t, 0) + 1
            for t, n in counts.items():
                docs, tfs = postings.setdefault(t, ([], []))
                docs.append(i)
                tfs.append(n)
        self.postings = {t: (np.array(d), np.array(f, dtype=float)) for t, (d, f) in postings.items()}
        self.vocab = {t: j for j, t in enumerate(self.postings)}
        self.n = len(toks)
        self.dl = np.array([len(t) for t in toks], dtype=float)
        self.df = np.array([len(self.postings[t][0]) for t in self.postings])

    def bm25(self, terms: list[str], idx: np.ndarray, k1: float = 1.2, b: float = 0.75,
             local: bool = False) -> np.ndarray:
        """FTS5's bm25(): idf = ln((N - n + 0.5) / (n + 0.5)) (at least 1e-6), over the whole
        index (or, ``local``, over the question's scope only)."""
        rows = idx if local else np.arange(self.n)
        n_docs, avg = len(rows), self.dl[rows].mean()
        out = np.zeros(self.n)
        for t in dict.fromkeys(terms):
            if t not in self.postings:
                continue
            docs, tf = self.postings[t]
            if local:
                keep = np.isin(docs, idx)
                docs, tf = docs[keep], tf[keep]
            n = len(docs)
            if n == 0:
                continue
            idf = max(1e-6, float(np.log((n_docs - n + 0.5) / (n + 0.5))))
            out[docs] += idf * tf * (k1 + 1) / (tf + k1 * (1 - b + b * self.dl[docs] / avg))
        return out[idx]

    def coverage(self, terms: list[str], idx: np.ndarray) -> np.ndarray:
        """IDF-weighted share of the query's terms a memory contains."""
        cover, total = np.zeros(len(idx)), 0.0
        for t in dict.fromkeys(terms):
            j = self.vocab.get(t)
            n = self.df[j] if j is not None else 0
            idf = max(1e-6, float(np.log((self.n - n + 0.5) / (n + 0.5))))
            total += idf
            if j is not None:
                has = np.zeros(self.n, bool)
                has[self.postings[t][0]] = True
                cover += has[idx] * idf
        return cover / total if total > 0 else cover


def _asked(q: Question, data: Data) -> date:
    if q.date:
        return date.fromisoformat(q.date[:10])
    dated = [d for d, it in zip(data.dates, data.items, strict=True) if d and it["namespace"] == q.namespace]
    return max(dated) if dated else date(2026, 11, 1)


def fts_tokens(texts: list[str], segment: bool = True) -> list[list[str]]:
    """The tokens the product's FTS5 index stores for each text (porter unicode61, Chinese
    segmented by ``fts_text.index_text`` unless ``segment`` is false)."""
    conn = sqlite3.connect(":memory:")
    conn.execute("CREATE VIRTUAL TABLE t USING fts5(x, tokenize = 'porter unicode61 remove_diacritics 2')")
    conn.execute("CREATE VIRTUAL TABLE v USING fts5vocab(t, 'instance')")
    conn.executemany("INSERT INTO t (rowid, x) VALUES (?, ?)",
                     [(i + 1, fts_text.index_text(x) if segment else x) for i, x in enumerate(texts)])
    out: list[list[str]] = [[] for _ in texts]
    for term, doc, _col, _off in conn.execute("SELECT term, doc, col, offset FROM v ORDER BY doc, offset"):
        out[doc - 1].append(term)
    conn.close()
    return out


# -- building blocks --------------------------------------------------------------------

Scorer = Callable[[Data, int, np.ndarray], np.ndarray]


def pool(c: np.ndarray, b: np.ndarray, vk: int = 50, kk: int = 50) -> np.ndarray:
    """Candidate set: vector top ``vk`` ∪ keyword top ``kk`` (as recall builds it)."""
    m = np.zeros(len(c), bool)
    m[np.argsort(-c)[:vk]] = True
    matched = np.where(b > 0)[0]
    m[matched[np.argsort(-b[matched])[:kk]]] = True
    return m


def maxnorm(x: np.ndarray, m: np.ndarray) -> np.ndarray:
    top = x[m].max() if m.any() else 0.0
    return np.maximum(x, 0) / top if top > 0 else np.zeros_like(x)


def znorm(x: np.ndarray, m: np.ndarray) -> np.ndarray:
    sd = x[m].std()
    return (x - x[m].mean()) / sd if sd > 0 else np.zeros_like(x)


def minmax(x: np.ndarray, m: np.ndarray) -> np.ndarray:
    lo, hi = x[m].min(), x[m].max()
    return (x - lo) / (hi - lo) if hi > lo else np.zeros_like(x)


def date_fit(d: Data, qi: int, idx: np.ndarray, m: np.ndarray) -> np.ndarray:
    window = d.windows[qi]
    if window is None:
        return np.zeros(len(idx))
    fit = np.array([temporal.fit(d.dates[i], window) for i in idx])
    return fit if (fit[m] > 0.5).any() else np.zeros(len(idx))


def fused(share: float = 0.6, norm: Callable = maxnorm, k1: float = 1.2, b: float = 0.75,
          fit: float = 0.0, length: float = 0.0, vk: int = 50, kk: int = 50, local: bool = False,
          qvec: Callable[[Data, int], np.ndarray] | None = None, cover: float = 0.0) -> Scorer:
    """share × norm(cosine) + (1 - share) × norm(BM25) [+ priors], over the candidate pool."""
    def score(d: Data, qi: int, idx: np.ndarray) -> np.ndarray:
        c = d.E[idx] @ (d.Q[qi] if qvec is None else qvec(d, qi))
        bm = d.bm25(qi, idx, k1, b, local)
        m = pool(c, bm, vk, kk)
        sh = share if bm[m].max() > 0 else 1.0
        kw = norm(bm, m)
        if cover:
            kw = (1 - cover) * kw + cover * d.coverage(qi, idx)
        s = sh * norm(c, m) + (1 - sh) * kw
        s = s + fit * date_fit(d, qi, idx, m) + length * np.log1p(np.minimum(d.words[idx], 64))
        return np.where(m, s, -np.inf)
    return score


def guarantee(base: Scorer, within: int = 3) -> Scorer:
    """Each single signal's best match placed within the top ``within`` (as shipped)."""
    def score(d: Data, qi: int, idx: np.ndarray) -> np.ndarray:
        s = base(d, qi, idx)
        c, bm = d.E[idx] @ d.Q[qi], d.bm25(qi, idx)
        order = [int(i) for i in np.argsort(-np.where(np.isfinite(s), s, -1e9), kind="stable") if np.isfinite(s[i])]
        sure = [int(np.argmax(c))] + ([int(np.argmax(bm))] if bm.max() > 0 else [])
        late = [i for i in dict.fromkeys(sure) if i in order and order.index(i) >= within]
        rest = [i for i in order if i not in late]
        cut = max(0, within - len(late))
        order = rest[:cut] + late + rest[cut:]
        out = np.full(len(s), -np.inf)
        out[order] = np.arange(len(order), 0, -1)
        return out
    return score


def times(base: Scorer, extra: Callable[[Data, int, np.ndarray], np.ndarray]) -> Scorer:
    def score(d: Data, qi: int, idx: np.ndarray) -> np.ndarray:
        s = base(d, qi, idx)
        return np.where(np.isfinite(s), s * extra(d, qi, idx), s)
    return score


def vector_only(qvec: Callable[[Data, int], np.ndarray] | None = None) -> Scorer:
    return lambda d, qi, idx: d.E[idx] @ (d.Q[qi] if qvec is None else qvec(d, qi))


def keyword_only(k1: float = 1.2, b: float = 0.75) -> Scorer:
    def score(d: Data, qi: int, idx: np.ndarray) -> np.ndarray:
        bm = d.bm25(qi, idx, k1, b)
        return np.where(bm > 0, bm, -np.inf)
    return score


# -- the ideas that need more than cosine and BM25 ---------------------------------------

_WH = re.compile(r"^\s*(what|when|where|who|whom|whose|which|why|how)(\s+(many|much|long|often|old|far))?"
                 r"\s+((kind|type|sort)\s+of\s+)?((do|does|did|is|are|was|were|has|have|had|can|could|will|would|should)\s+)?",
                 re.I)


def statement(text: str) -> str:
    """"When did Caroline go to the support group?" -> "Caroline go to the support group"."""
    return _WH.sub("", text.strip().rstrip("?？").strip(), count=1) or text


def keywords(text: str) -> str:
    return " ".join(fts_text.query_terms(text)) or text


def rewritten(how: Callable[[str], str], mix: float = 1.0) -> Callable[[Data, int], np.ndarray]:
    def qvec(d: Data, qi: int) -> np.ndarray:
        key = f"rw-{how.__name__}"
        if key not in d.extra:
            d.extra[key] = d.embed([how(q.text) for q in d.qs])
        return mix * d.extra[key][qi] + (1 - mix) * d.Q[qi]
    return qvec


def rocchio(alpha: float, top: int = 3) -> Scorer:
    def score(d: Data, qi: int, idx: np.ndarray) -> np.ndarray:
        c = d.E[idx] @ d.Q[qi]
        q = d.Q[qi] + alpha * d.E[idx][np.argsort(-c)[:top]].mean(axis=0)
        return d.E[idx] @ q
    return score


def mmr(base: Scorer, lam: float, top: int = 30) -> Scorer:
    """Maximal marginal relevance over the best ``top``: near-duplicates give way."""
    def score(d: Data, qi: int, idx: np.ndarray) -> np.ndarray:
        s = base(d, qi, idx)
        fin = np.where(np.isfinite(s))[0]
        order = fin[np.argsort(-s[fin])][:top]
        if len(order) == 0:
            return s
        rel = minmax(s[order], np.ones(len(order), bool))
        vecs = d.E[idx][order]
        chosen: list[int] = []
        rest = list(range(len(order)))
        while rest:
            sim = (vecs[rest] @ vecs[chosen].T).max(axis=1) if chosen else np.zeros(len(rest))
            j = rest[int(np.argmax(lam * rel[rest] - (1 - lam) * sim))]
            chosen.append(j)
            rest.remove(j)
        out = np.full(len(s), -np.inf)
        out[order[chosen]] = np.arange(len(chosen), 0, -1)
        return out
    return score


_NAME = re.compile(r"\b[A-Z][a-z]+\b")
_NOT_NAMES = {"What", "When", "Where", "Who", "Whom", "Whose", "Which", "Why", "How", "Did", "Does", "Do",
              "Is", "Are", "Was", "Were", "Has", "Have", "Had", "Can", "Could", "Would", "Will", "The", "In", "On",
              "I", "If", "My", "Any"}


def names_shared(d: Data, qi: int, idx: np.ndarray) -> np.ndarray:
    names = {w.lower() for w in _NAME.findall(d.qs[qi].text) if w not in _NOT_NAMES}
    if not names:
        return np.zeros(len(idx))
    return np.array([len(names & set(re.findall(r"[a-z]+", d.items[i]["content"].lower()))) / len(names)
                     for i in idx])


_TIME_WORDS = re.compile(r"\b(yesterday|today|tomorrow|recently|last|next|ago|weeks?|weekends?|months?|years?|"
                         r"monday|tuesday|wednesday|thursday|friday|saturday|sunday|january|february|march|april|"
                         r"may|june|july|august|september|october|november|december|(?:19|20)\d\d)\b|"
                         r"昨天|今天|明天|上周|去年|最近|月|号", re.I)
_WHEN = re.compile(r"^\s*(when|what (date|day|time|year|month))\b|什么时候|哪天|几号", re.I)


def when_marker(d: Data, qi: int, idx: np.ndarray) -> np.ndarray:
    if not _WHEN.search(d.qs[qi].text):
        return np.zeros(len(idx))
    return np.array([1.0 if _TIME_WORDS.search(d.items[i]["content"]) else 0.0 for i in idx])


def plus(base: Scorer, weight: float, feature: Callable[[Data, int, np.ndarray], np.ndarray]) -> Scorer:
    def score(d: Data, qi: int, idx: np.ndarray) -> np.ndarray:
        s = base(d, qi, idx)
        return np.where(np.isfinite(s), s + weight * feature(d, qi, idx), s)
    return score


def question_echo(factor: float) -> Callable[[Data, int, np.ndarray], np.ndarray]:
    """A memory that is one question (a reply echoing the user's question) holds no fact."""
    def f(d: Data, qi: int, idx: np.ndarray) -> np.ndarray:
        return np.array([factor if _one_question(d.items[i]["content"]) else 1.0 for i in idx])
    return f


def _one_question(text: str) -> bool:
    body = text.strip()
    return body.endswith(("?", "？")) and not re.search(r"[.!?。！？]", body[:-1].rstrip("?？"))


def rrf(k: int) -> Scorer:
    def score(d: Data, qi: int, idx: np.ndarray) -> np.ndarray:
        c, bm = d.E[idx] @ d.Q[qi], d.bm25(qi, idx)
        rc, rb = np.argsort(np.argsort(-c)), np.argsort(np.argsort(-bm))
        return 1 / (k + rc + 1) + np.where(bm > 0, 1 / (k + rb + 1), 0)
    return score


def calibrated(share: float, how: str) -> Scorer:
    """Raw cosine + an absolute keyword score: bm/(bm+5), or BM25 over its best possible."""
    def score(d: Data, qi: int, idx: np.ndarray) -> np.ndarray:
        c, bm = d.E[idx] @ d.Q[qi], d.bm25(qi, idx)
        m = pool(c, bm)
        if how == "saturated":
            kw = bm / (bm + 5.0)
        else:
            terms = [t for t in dict.fromkeys(d.qterms[qi]) if t in d.ix.vocab]
            best = sum(max(1e-6, float(np.log((d.ix.n - d.ix.df[d.ix.vocab[t]] + .5) / (d.ix.df[d.ix.vocab[t]] + .5))))
                       for t in terms) * 2.2
            kw = bm / best if best > 0 else bm * 0
        return np.where(m, share * c + (1 - share) * kw, -np.inf)
    return score


def transformed(kind: str, dims: int = 0, hybrid: bool = True) -> Scorer:
    """Vectors centred on the store's mean, or PCA-whitened (fitted on the memories only)."""
    def score(d: Data, qi: int, idx: np.ndarray) -> np.ndarray:
        key = f"{kind}-{dims}"
        if key not in d.extra:
            mu = d.E.mean(axis=0)
            e, q = d.E - mu, d.Q - mu
            if kind == "whiten":
                _, sv, vt = np.linalg.svd(e, full_matrices=False)
                scale = sv[:dims] / np.sqrt(len(e)) + 1e-3 * sv[0] / np.sqrt(len(e))
                e, q = e @ (vt[:dims].T / scale), q @ (vt[:dims].T / scale)
            d.extra[key] = (e / np.linalg.norm(e, axis=1, keepdims=True), q / np.linalg.norm(q, axis=1, keepdims=True))
        e, q = d.extra[key]
        c = e[idx] @ q[qi]
        if not hybrid:
            return c
        bm = d.bm25(qi, idx)
        m = pool(c, bm)
        sh = 0.6 if bm[m].max() > 0 else 1.0
        return np.where(m, sh * maxnorm(c, m) + (1 - sh) * maxnorm(bm, m), -np.inf)
    return score


def expanded(how: str) -> Scorer:
    """Memories indexed (words and vectors) with more text: their namespace, kind and date
    (``meta``), or, LoCoMo only, the text of the turn they came from (``turn``)."""
    def score(d: Data, qi: int, idx: np.ndarray) -> np.ndarray:
        if how not in d.extra:
            texts = [_expansion(d, it, how) for it in d.items]
            d.extra[how] = (d.embed(texts), Index(fts_tokens(texts)))
        e, ix = d.extra[how]
        c = e[idx] @ d.Q[qi]
        bm = d.bm25(qi, idx, ix=ix)
        m = pool(c, bm)
        sh = 0.6 if bm[m].max() > 0 else 1.0
        return np.where(m, sh * maxnorm(c, m) + (1 - sh) * maxnorm(bm, m), -np.inf)
    return score


_TURNS: dict[str, str] = {}


def _expansion(d: Data, item: dict[str, Any], how: str) -> str:
    if how == "meta":
        day = item.get("turn_date", "")[:10]
        when = date.fromisoformat(day).strftime("%-d %B %Y") if day else ""
        return f"{when} ({item['kind']}, {item['namespace']}): {item['content']}"
    if not _TURNS:
        for sample in json.loads((EVAL_DEV / "locomo_dev.json").read_text()):
            for key, turns in sample["conversation"].items():
                if key.startswith("session_") and isinstance(turns, list):
                    for t in turns:
                        _TURNS[f"{sample['sample_id']}:{t['dia_id']}"] = f"{t['speaker']}: {t['text']}"
    return item["content"] + " " + " ".join(_TURNS.get(t, "") for t in item["turn_ids"])


def minilm(weights: tuple[float, float, float]) -> Scorer:
    """USE, MiniLM and BM25, each max-normalised (weights in that order)."""
    def score(d: Data, qi: int, idx: np.ndarray) -> np.ndarray:
        if "minilm" not in d.extra:
            d.extra["minilm"] = (d.embed([it["content"] for it in d.items], "minilm"),
                                 d.embed([q.text for q in d.qs], "minilm"))
        e2, q2 = d.extra["minilm"]
        c1, c2, bm = d.E[idx] @ d.Q[qi], e2[idx] @ q2[qi], d.bm25(qi, idx)
        m = pool(np.maximum(c1, c2), bm)
        w = list(weights)
        if bm[m].max() <= 0:
            w = [w[0] / (w[0] + w[1] or 1), w[1] / (w[0] + w[1] or 1), 0.0]
        return np.where(m, w[0] * maxnorm(c1, m) + w[1] * maxnorm(c2, m) + w[2] * maxnorm(bm, m), -np.inf)
    return score


# -- fitting the shipped weights on the declared split ------------------------------------


def fit_weights(d: Data, questions: list[int]) -> dict[str, float]:
    """Logistic regression (numpy, L2) of "links to gold" on the four features of the shipped
    ranking, over the candidate pools of the training questions; normalised so v + k = 1."""
    rows, labels = [], []
    for qi in questions:
        idx = d.scope[d.qs[qi].namespace]
        c, bm = d.E[idx] @ d.Q[qi], d.bm25(qi, idx)
        m = pool(c, bm)
        feats = np.column_stack([maxnorm(c, m), maxnorm(bm, m), date_fit(d, qi, idx, m),
                                 np.log1p(np.minimum(d.words[idx], 64))])
        rows.append(feats[m])
        labels.append(d.gold[qi][idx][m])
    x = np.column_stack([np.vstack(rows), np.ones(sum(len(r) for r in rows))])
    y = np.concatenate(labels).astype(float)
    w = np.zeros(x.shape[1])
    for _ in range(50):  # Newton steps
        p = 1 / (1 + np.exp(-x @ w))
        grad = x.T @ (p - y) + 1.0 * np.r_[w[:-1], 0]
        hess = (x * (p * (1 - p))[:, None]).T @ x + np.diag(np.r_[np.ones(len(w) - 1), 0])
        w -= np.linalg.solve(hess, grad)
    scale = w[0] + w[1]
    return {name: round(float(v / scale), 3) for name, v in zip(("v", "k", "fit", "len"), w, strict=False)}


# -- running -------------------------------------------------------------------------------


def evaluate(d: Data, scorer: Scorer, questions: list[int] | None = None) -> str:
    hits = dict.fromkeys(KS, 0)
    chosen = range(len(d.qs)) if questions is None else questions
    for qi in chosen:
        idx = d.scope[d.qs[qi].namespace]
        s = scorer(d, qi, idx)
        order = [i for i in np.argsort(-np.where(np.isfinite(s), s, -1e9), kind="stable") if np.isfinite(s[i])]
        gold = d.gold[qi][idx]
        first = next((r for r, i in enumerate(order[: max(KS)]) if gold[i]), None)
        for k in KS:
            hits[k] += first is not None and first < k
    n = max(1, len(chosen))
    return "/".join(f"{hits[k] / n:.3f}" for k in KS)


def ideas(with_minilm: bool) -> list[tuple[str, str, Scorer]]:
    """(group, name, scorer) of every idea, the shipped ranking last."""
    shipped = fused(fit=LR_WEIGHTS["fit"], length=LR_WEIGHTS["len"])
    out: list[tuple[str, str, Scorer]] = [
        ("single", "keyword only (FTS5 BM25)", keyword_only()),
        ("single", "vector only (USE)", vector_only()),
        ("fusion", "old main: max-norm 0.6/0.4", fused()),
        *[("fusion", f"max-norm, vector share {s}", fused(s)) for s in (0.4, 0.5, 0.7)],
        ("fusion", "min-max 0.5", fused(0.5, minmax)),
        ("fusion", "z-score over the pool 0.5", fused(0.5, znorm)),
        ("fusion", "RRF k=60", rrf(60)),
        ("fusion", "RRF k=10", rrf(10)),
        ("calibration", "raw cosine + bm/(bm+5), 0.5", calibrated(0.5, "saturated")),
        ("calibration", "raw cosine + BM25/best possible, 0.5", calibrated(0.5, "idf")),
        ("calibration", "max-norm + IDF coverage (half of keyword)", fused(cover=0.5)),
        ("bm25", "k1=0.9 b=0.4", fused(k1=0.9, b=0.4)),
        ("bm25", "k1=1.2 b=0.3", fused(b=0.3)),
        ("bm25", "k1=1.2 b=1.0", fused(b=1.0)),
        ("bm25", "k1=2.0 b=0.75", fused(k1=2.0)),
        ("bm25", "IDF over the scope only", fused(local=True)),
        ("query", "vector of the question as a statement", vector_only(rewritten(statement))),
        ("query", "vector of the keywords only", vector_only(rewritten(keywords))),
        ("query", "vector of question + keywords (mean)", vector_only(rewritten(keywords, 0.5))),
        ("query", "hybrid with question + keywords vector", fused(qvec=rewritten(keywords, 0.5))),
        ("query", "pseudo-relevance feedback (Rocchio 0.3, top 3)", rocchio(0.3)),
        ("vectors", "centred on the store mean (hybrid)", transformed("center")),
        ("vectors", "PCA-whitened, 128 dims (hybrid)", transformed("whiten", 128)),
        ("expansion", "namespace, kind and date in the indexed text", expanded("meta")),
        ("expansion", "text of the originating turn indexed too (LoCoMo)", expanded("turn")),
        *[("pool", f"candidate pool {n}+{n}", fused(vk=n, kk=n)) for n in (10, 20, 100, 1000)],
        ("time", "date fit +0.13 (query names a date)", fused(fit=0.13)),
        ("time", "'when' question: +0.1 for memories with a time word", plus(fused(), 0.1, when_marker)),
        ("prior", "length prior +0.09 ln(1+words)", fused(length=0.09)),
        ("other", "names shared with the question x(1+0.25)", times(fused(), lambda d, q, i: 1 + 0.25 * names_shared(d, q, i))),
        ("other", "diversity (MMR 0.8)", mmr(fused(), 0.8)),
        ("other", "a one-question memory x0.6 (echoed questions)", times(shipped, question_echo(0.6))),
        ("shipped", "fit + length, no guarantee", shipped),
        ("shipped", "fit + length + each signal's best within top 3 (SHIPPED)", guarantee(shipped)),
        ("shipped", "same, best within top 5", guarantee(shipped, 5)),
        ("shipped", "SHIPPED + one-question memory x0.6", guarantee(times(shipped, question_echo(0.6)))),
        ("shipped", "SHIPPED + one-question memory x0.8", guarantee(times(shipped, question_echo(0.8)))),
    ]
    if with_minilm:
        out += [("minilm", "MiniLM vector only", lambda d, qi, idx: (minilm((0, 1, 0)))(d, qi, idx)),
                ("minilm", "MiniLM + BM25 (0.6/0.4)", minilm((0.0, 0.6, 0.4))),
                ("minilm", "USE + MiniLM + BM25 (0.3/0.3/0.4)", minilm((0.3, 0.3, 0.4)))]
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--minilm", action="store_true", help="also the MiniLM fusions (needs sentence-transformers)")
    parser.add_argument("--only", default="", help="comma-separated data sets (default: all)")
    parser.add_argument("--cache", default="/tmp/madohub-recall-ideas", help="embedding cache folder")
    args = parser.parse_args()
    if not EVAL_DEV.is_dir():
        print(f"evaluation data not found at {EVAL_DEV}", file=sys.stderr)
        return 1
    cache = Path(args.cache)
    cache.mkdir(parents=True, exist_ok=True)
    names = [n for n in LOADERS if not args.only or n in args.only.split(",")]
    data = [Data(n, cache) for n in names]
    report: dict[str, Any] = {}
    locomo = next((d for d in data if d.name == "locomo"), None)
    if locomo is not None:
        train = [i for i, q in enumerate(locomo.qs) if q.group in TRAIN]
        report["fitted_weights_on_train_split"] = fit_weights(locomo, train)
    rows = []
    for group, name, scorer in ideas(args.minilm):
        row: dict[str, Any] = {"group": group, "idea": name}
        for d in data:
            row[d.name] = evaluate(d, scorer)
            if d.name == "locomo":
                row["locomo_train"] = evaluate(d, scorer, [i for i, q in enumerate(d.qs) if q.group in TRAIN])
                row["locomo_heldout"] = evaluate(d, scorer, [i for i, q in enumerate(d.qs) if q.group not in TRAIN])
        rows.append(row)
        if not args.json:
            print(" | ".join(str(v) for v in row.values()), flush=True)
    report["ideas"] = rows
    if args.json:
        print(json.dumps(report, indent=2, ensure_ascii=False))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
