"""Recall: hybrid search over approved, active memories, and its rendering for prompts.

Candidate set = vector top-K ∪ keyword (BM25) top-K ∪ the N most recently used memories ∪
pinned memories, all within scope; ranked by fused similarity × weight × freshness (see
:mod:`madohub_memory.recall.ranking`). Only ``active`` memories exist for recall: pending,
rejected and archived candidates never became memories, and deprecated or archived
memories are filtered by every query (DESIGN invariant 1). Each returned memory counts a
hit; each recall writes one line to ``recall_log``.

The answer never waits for that write. A front end asks for the count to be deferred
(``search(defer=True)``): the CLI prints the answer, then counts; the MCP server returns the
answer and counts on a thread of its own (:func:`count_in_background`). Counting takes its
turn with the writers of other processes (``store/write_turns.py``), so beside an import it
waits for one of the import's transactions; when the database stays locked it is given up
after :data:`RECORD_WAIT_S` with a log line, never with an error.
"""

from __future__ import annotations

import atexit
import logging
import re
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import numpy as np

from madohub_memory.core.errors import DatabaseBusyError, ValidationError
from madohub_memory.core.lock_order import Level, OrderedLock
from madohub_memory.core.text import estimate_tokens
from madohub_memory.core.vocab import validate_namespace
from madohub_memory.recall import ranking, temporal
from madohub_memory.recall.embeddings import COSINE_FLOORS, encode_queries
from madohub_memory.recall.ranking import Hit
from madohub_memory.recall.vector_cache import VectorCache, vector_cache
from madohub_memory.recall.vector_index import VectorIndex
from madohub_memory.store import fts_text
from madohub_memory.store import recall as recall_rows

if TYPE_CHECKING:
    from collections.abc import Callable

    from madohub_memory.services import Services

log = logging.getLogger("madohub_memory.recall")

MAX_K = 100
RECORD_WAIT_S = 1.0  # counting hits beside the answer (CLI after printing it, hook) gives up after this
BACKGROUND_WAIT_S = 10.0  # counting on the MCP server's own thread: nobody waits for it
MAX_QUERY_CHARS = 2000
MODES = ("hybrid", "vector", "keyword")
_SOURCE_RE = re.compile(r"^[a-z][a-z0-9_-]{0,31}$")
_SHORT_CJK = 2
COMMON_MIN_STORE = 5_000  # from this many memories, near-stop-words leave the keyword query
SUBSTRING_MAX_STORE = 20_000  # below this many, a short Chinese term may be matched verbatim
COMMON_SHARE = 0.02
_DF_CACHE: dict[tuple[str, str], tuple[int, int]] = {}

HEADERS = {
    "en": "Recalled memories (approved earlier; they may be out of date, check before relying on them):",
    "zh": "召回的记忆（之前已批准；内容可能已过时，使用前请核实）：",
}


class RecallService:
    def __init__(self, svc: Services) -> None:
        self.svc = svc
        self.warnings: list[str] = []  # the last search's: a mapped store it answered without
        self.deferred: list[HitCount] = []  # hits found by ``search(defer=True)``, not counted yet

    # -- the index ------------------------------------------------------------------

    def model_name(self) -> str:
        """The model recall ranks with: the one served now (the chosen one once its vectors are
        all there, :mod:`madohub_memory.services.embedding`), or another that loads when its
        package is missing or broken (with one warning)."""
        name, warning = self.svc.embedding.loadable(self.svc.embedding.served())
        if warning and warning not in self.warnings:
            self.warnings.append(warning)
        return name

    def vectors(self, model: str | None = None) -> VectorCache:
        """This process's vector cache of the database for the served model (loads it)."""
        return vector_cache(self.svc.store, model or self.model_name())

    def index(self) -> VectorIndex:
        """The shared vector index of this database, brought up to date (embeds what is missing)."""
        return self.vectors().memory_index(self.svc.store)

    def embed_pending(self, limit: int | None = None, progress: Callable[[int], None] | None = None) -> int:
        """Compute missing embeddings of the served model (for workers: keeps model work off
        other threads)."""
        cache = self.vectors()
        return cache.index.embed_missing(self.svc.store, cache.embedder, limit, progress)

    # -- scope and input ------------------------------------------------------------

    def scope(self, namespace: str | None, include_persona: bool = True) -> list[str] | None:
        """Namespaces a query sees; ``None`` means all of them."""
        if namespace is None or not str(namespace).strip():
            return None
        value = validate_namespace(namespace)
        if value.startswith("workspace:") and include_persona:
            return [value, f"persona:{self.svc.settings.get('persona')}"]
        return [value]

    @staticmethod
    def clean_query(query: str | None) -> str:
        text = " ".join(str(query or "").split())
        if not text:
            raise ValidationError("The query is empty: give some words to search for.")
        return text[:MAX_QUERY_CHARS]

    @staticmethod
    def clamp_k(k: int | None, default: int) -> int:
        if k is None:
            return default
        try:
            value = int(k)
        except (TypeError, ValueError):
            raise ValidationError("k {k!r} is not a whole number.", k=k) from None
        if value <= 0:
            raise ValidationError("k must be at least 1 (got {value}).", value=value)
        return min(value, MAX_K)

    # -- search ---------------------------------------------------------------------

    def search(
        self,
        query: str,
        namespace: str | None = None,
        k: int | None = None,
        include_persona: bool = True,
        source: str = "cli",
        *,
        mode: str = "hybrid",
        record: bool = True,
        defer: bool = False,
    ) -> list[Hit]:
        """Ranked approved memories for ``query``; counts hits and logs the recall (the
        settings it reads are read in one query: :meth:`SettingsService.held`). With
        ``defer`` the count waits in :attr:`deferred` for :meth:`count_deferred`, so that the
        caller can hand the answer over first."""
        with self.svc.settings.held():
            return self._search(query, namespace, k, include_persona, source, mode=mode, record=record,
                                defer=defer)

    def _search(
        self, query: str, namespace: str | None, k: int | None, include_persona: bool, source: str, *,
        mode: str, record: bool, defer: bool,
    ) -> list[Hit]:
        if mode not in MODES:
            raise ValidationError(
                "Unknown recall mode {mode!r}: use one of {choices}.", mode=mode, choices=', '.join(MODES),
            )
        if not _SOURCE_RE.match(source or ""):
            raise ValidationError("Recall source {source!r} must be a short lower-case word.", source=source)
        text = self.clean_query(query)
        settings = self.svc.settings
        k = self.clamp_k(k, settings.get("recall.k"))
        scope = self.scope(namespace, include_persona)
        limits = (int(settings.get("recall.vector_k")), int(settings.get("recall.keyword_k")),
                  int(settings.get("recall.recent_n")))
        self.warnings = []
        model = self.model_name() if mode != "keyword" else None  # one model for every store's ranking
        if not self.svc.mapped and settings.get("stores.map"):  # namespaces kept in other stores
            from madohub_memory.services.recall_merge import gather_stores

            signals, warnings = gather_stores(self.svc, text, scope, mode, limits, model)
            self.warnings += warnings
            for warning in warnings:
                log.warning("%s", warning)
        else:
            signals = [self.gather(text, scope, mode, limits, model=model)]
        merged = merge_signals(signals)
        now = self.svc.clock.now()
        rows = merged.rows
        share = {"hybrid": ranking.vector_share_for(text, float(settings.get("recall.vector_share")),
                                                    float(settings.get("recall.vector_share_chinese"))),
                 "vector": 1.0, "keyword": 0.0}[mode]
        similarity = ranking.fuse(merged.vector, merged.keyword, share, floor=COSINE_FLOORS.get(model or ""))
        fits = ranking.date_fits(rows, temporal.query_window(text, now.date())) if mode == "hybrid" else {}
        scores = ranking.relevance(rows, similarity, fits, priors=mode == "hybrid")
        many = len(signals) > 1
        hits = ranking.rank(
            rows, merged.vector, merged.keyword, scores, now, 2 * k if many else k,
            similarity=similarity, sure=merged.sure,
            freshness_share=float(settings.get("recall.freshness_share")),
        )
        hits = [h for h in hits if h.score > 0 or h.pinned]
        if many or signals[0].label is not None:
            hits = split_keys(hits, signals, k)
        if record:
            for part in signals:
                mine = [h for h in hits if h.store == part.label]
                if part.svc.store.readonly or (part.svc.mapped and not mine):
                    continue  # a read-only file answers without counting hits
                count = HitCount(part.svc, [h.id for h in mine], part.svc.recall.render(mine) if mine else "", text,
                                 namespace, source)
                if defer:
                    self.deferred.append(count)
                else:
                    count.write(RECORD_WAIT_S)
        return hits

    def count_deferred(self, wait_s: float = RECORD_WAIT_S) -> None:
        """Count the hits of the recalls made with ``defer`` (after their answer was handed over)."""
        pending, self.deferred = self.deferred, []
        for count in pending:
            count.write(wait_s)

    def gather(
        self, text: str, scope: list[str] | None, mode: str, limits: tuple[int, int, int],
        label: str | None = None, model: str | None = None,
    ) -> Signals:
        """This store's candidates for ``text`` and their raw signals (cosine, BM25), before
        any normalisation: what :func:`merge_signals` fuses over one store or several.
        ``model``: the embedding model of the ranking (every store's cosines come from the same
        one; default: this store's served model)."""
        vector_k, keyword_k, recent_n = limits
        store = self.svc.store
        vector: dict[int, float] = {}
        keyword: dict[int, float] = {}
        index: VectorIndex | None = None
        query_vector: np.ndarray | None = None
        if mode != "keyword":
            cache = self.vectors(model)
            index = self._index(cache)
            query_vector = encode_queries(cache.embedder, [text])[0]
            vector = dict(index.search(query_vector, scope, vector_k))
        pool = set(vector)
        if mode == "hybrid":
            pool |= set(recall_rows.pool_ids(store, scope, recent_n))
        if mode != "vector":
            # In the same pass, the vector candidates get their real keyword score too.
            keyword = self._keyword(text, scope, keyword_k, sorted(pool))
            pool |= set(keyword)
        sure: list[tuple[float, int] | None] = [None, None]
        if mode == "hybrid":
            assert index is not None and query_vector is not None
            # Each signal's best match, before the other signal's candidates are scored too.
            sure = [_best(vector), _best(keyword)]
            vector.update(index.cosines(query_vector, sorted(pool - set(vector))))
        return Signals(label, self.svc, vector, keyword, recall_rows.active_rows(store, sorted(pool)), sure)

    def _index(self, cache: VectorCache) -> VectorIndex:
        """The vector index brought up to date. Vectors of memories approved meanwhile are
        computed and stored here; when another process keeps the lock longer than
        :data:`RECORD_WAIT_S`, this recall answers with the index as it was (those memories are
        found by keyword) and a later one stores them."""
        store = self.svc.store
        try:
            with store.waits_at_most(RECORD_WAIT_S):
                return cache.memory_index(store)
        except DatabaseBusyError:
            log.warning("recall answered without the vectors of new memories: the database stayed busy")
            return cache.index

    def _keyword(
        self, text: str, scope: list[str] | None, limit: int, wanted: list[int]
    ) -> dict[int, float]:
        """BM25 scores of the keyword top ``limit`` and of the ``wanted`` ids that match."""
        terms = fts_text.query_terms(text)
        match = fts_text.match_expression(self._without_common(terms))
        if match is None:
            return {}
        found = dict(recall_rows.bm25_search(self.svc.store, match, scope, limit, wanted))
        short = [t for t in terms if fts_text.has_cjk(t) and len(t) <= _SHORT_CJK]
        if not found and short and recall_rows.memory_count_estimate(self.svc.store) < SUBSTRING_MAX_STORE:
            # A short Chinese term the index segmented differently: match it verbatim
            # (a scan of every memory, so only while the store is small).
            for memory_id in recall_rows.substring_search(self.svc.store, short, scope, limit):
                found[memory_id] = 1.0
        return found

    def _without_common(self, terms: list[str]) -> list[str]:
        """Drop near-stop-words from the query of a big store.

        BM25 has to score every memory an OR query matches: at 100,000 memories a term
        found in 10% of them costs ~10 ms and adds little (its IDF is low). Above
        ``COMMON_MIN_STORE`` memories, terms in more than ``COMMON_SHARE`` (2%) of them are
        dropped; when every term is that common the keyword signal has nothing to add and the
        recall is by vectors alone. Document counts are cached per process and refreshed when
        the store has grown by a tenth.
        """
        store = self.svc.store
        total = recall_rows.memory_count_estimate(store)
        if total < COMMON_MIN_STORE or len(terms) <= 1:
            return terms
        db = recall_rows.index_id(store)
        counts: dict[str, int] = {}
        for term in terms:
            cached = _DF_CACHE.get((db, term))
            if cached is None or total > cached[1] * 1.1 or total < cached[1] * 0.9:
                if len(_DF_CACHE) > 50_000:
                    _DF_CACHE.clear()
                count = recall_rows.term_doc_count(store, fts_text.match_expression([term]) or '""')
                cached = _DF_CACHE[(db, term)] = (count, total)
            counts[term] = cached[0]
        return [t for t in terms if counts[t] <= COMMON_SHARE * total]

    def record_injection(
        self, ids: list[int], tokens: int, query: str, namespace: str | None, source: str,
        wait_s: float = RECORD_WAIT_S,
    ) -> None:
        """Count a hit on each memory handed to an agent and log what was handed, with its
        token estimate (every recall path: CLI, MCP, hook, session start). Given up, with a
        log line, when another process keeps the database locked for ``wait_s``."""
        store = self.svc.store
        if store.readonly:  # a read-only file answers, without counting hits
            return
        now = self.svc.clock.now_iso()
        transient = set(self.svc.settings.get("decay.transient_kinds"))
        restore = [kind for kind in ("preference", "fact", "decision", "pattern", "postmortem", "event")
                   if kind not in transient]
        try:
            # A recall must answer even while a long import writes: counting its hits waits
            # its turn for a moment, then is skipped.
            with store.transaction(wait_s=wait_s):
                recall_rows.record_hits(store, ids, now, restore)
                recall_rows.log_recall(
                    store, at=now, source=source, query=query, namespace=namespace,
                    memory_ids=ids, token_estimate=tokens,
                )
        except DatabaseBusyError:
            log.warning("recall not logged: the database stayed busy for %.1f s", wait_s)
            return
        log.info("recall source=%s ids=%s tokens=%d", source, ids, tokens)

    def recent_log(self, limit: int = 20) -> list[dict[str, Any]]:
        return recall_rows.recent_log(self.svc.store, limit)

    # -- rendering ------------------------------------------------------------------

    def render(self, hits: list[Hit], budget_tokens: int | None = None, language: str = "en") -> str:
        """A block for prompt injection: a caution header, then dated entries within a token budget."""
        if budget_tokens is None:
            budget_tokens = int(self.svc.settings.get("recall.budget_tokens"))
        if budget_tokens <= 0:
            raise ValidationError("The token budget must be a positive number.")
        header = HEADERS["zh" if language.startswith("zh") else "en"]
        lines = [header]
        used = estimate_tokens(header)
        for hit in hits:
            line = f"- [{hit.said_on}] ({hit.kind}, {hit.namespace}) {' '.join(hit.content.split())}"
            cost = estimate_tokens(line) + 1
            if used + cost > budget_tokens:
                room = budget_tokens - used - 1
                if len(lines) == 1 and room > 20:
                    lines.append(_truncate(line, room))
                break
            lines.append(line)
            used += cost
        return "\n".join(lines) if len(lines) > 1 else ""


@dataclass
class HitCount:
    """One recall's hits in one store, to be counted (and the recall logged) there."""

    svc: Services
    ids: list[int]
    rendered: str
    query: str
    namespace: str | None
    source: str

    def write(self, wait_s: float) -> None:
        tokens = estimate_tokens(self.rendered) if self.ids else 0
        self.svc.recall.record_injection(self.ids, tokens, self.query, self.namespace, self.source, wait_s)


_COUNTER: ThreadPoolExecutor | None = None
_COUNTER_LOCK = OrderedLock("the hit counter's thread", Level.LEAF)


def count_in_background(svc: Services) -> None:
    """Count the hits ``svc``'s recalls deferred on this process's counting thread, then
    close ``svc`` (its own connection): the MCP server hands the agent its answer meanwhile.
    One thread, counts in order; the process waits for it when it exits."""
    global _COUNTER
    if not svc.recall.deferred:
        svc.close()
        return
    with _COUNTER_LOCK:
        if _COUNTER is None:
            _COUNTER = ThreadPoolExecutor(max_workers=1, thread_name_prefix="madohub-hits")
            atexit.register(_COUNTER.shutdown)

    def count() -> None:
        try:
            svc.recall.count_deferred(BACKGROUND_WAIT_S)
        except Exception:  # a count is never worth a traceback in a server
            log.exception("counting recall hits failed")
        finally:
            svc.close()

    _COUNTER.submit(count)


def wait_for_counts() -> None:
    """Until every hit count handed to the counting thread so far is written (tests, exit)."""
    with _COUNTER_LOCK:
        counter = _COUNTER
    if counter is not None:
        counter.submit(lambda: None).result()


@dataclass
class Signals:
    """One store's recall candidates: raw cosine and BM25 per memory id, their active rows,
    and each signal's best match (score, id) before the other signal's candidates were
    scored. ``label`` names the store when namespaces are kept in several."""

    label: str | None
    svc: Services
    vector: dict[int, float]
    keyword: dict[int, float]
    rows: dict[int, dict[str, Any]]
    sure: list[tuple[float, int] | None]


@dataclass
class Merged:
    vector: dict[int, float] = field(default_factory=dict)
    keyword: dict[int, float] = field(default_factory=dict)
    rows: dict[int, dict[str, Any]] = field(default_factory=dict)
    sure: list[int] = field(default_factory=list)


def merge_signals(signals: list[Signals]) -> Merged:
    """The candidates of every store under one key space, to be fused and ranked as if one
    store held them all: cosines are comparable across stores (one embedding model), BM25
    nearly so, and max-normalisation then runs over the union. Key = id × stores + position
    (one store: the id itself). The best match of each signal over all stores is kept sure."""
    count = len(signals)
    out = Merged()
    best: list[tuple[float, int] | None] = [None, None]
    for position, part in enumerate(signals):
        def key(memory_id: int, position: int = position) -> int:
            return memory_id * count + position

        out.vector.update({key(i): v for i, v in part.vector.items()})
        out.keyword.update({key(i): v for i, v in part.keyword.items()})
        out.rows.update({key(i): row for i, row in part.rows.items()})
        for signal, found in enumerate(part.sure):
            if found is not None and (best[signal] is None or found[0] > best[signal][0]):  # type: ignore[index]
                best[signal] = (found[0], key(found[1]))
    out.sure = [found[1] for found in best if found is not None]
    return out


def split_keys(hits: list[Hit], signals: list[Signals], k: int) -> list[Hit]:
    """Hits back under their own store's ids, labelled with the store; the same text found
    in two stores (an entry copied to the team store) is kept once, where it ranks higher."""
    count = len(signals)
    out: list[Hit] = []
    seen: dict[str, int] = {}
    for hit in hits:
        position = hit.id % count
        text = " ".join(hit.content.split()).casefold()
        if seen.setdefault(text, position) != position:
            continue
        hit.id, hit.store = hit.id // count, signals[position].label
        out.append(hit)
    return out[:k]


def _best(scores: dict[int, float]) -> tuple[float, int] | None:
    if not scores:
        return None
    memory_id = max(scores, key=scores.__getitem__)
    return scores[memory_id], memory_id


def _truncate(line: str, tokens: int) -> str:
    out = line
    while out and estimate_tokens(out + "…") > tokens:
        out = out[: max(0, len(out) - max(1, len(out) // 10))]
    return out + "…"
