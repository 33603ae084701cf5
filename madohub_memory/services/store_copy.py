"""``transfer``: copy one whole store into another, losslessly and resumably.

Every copied table (turns, candidates, memories, history, decisions, embeddings, working
memory, settings, ...; :data:`madohub_memory.store.copying.COPY_TABLES`) is read from the
source in primary-key order, in batches; each batch is written to the target in one
transaction together with the key of its last row (``transfer_state``). Killed or
interrupted, the next run with the same source and target continues after the last batch
that committed; a finished transfer run again does nothing and says so.

Ids are kept, so history, sightings and provenance still point at the right rows, and each
table's id counter is advanced to the source's. Embeddings (the vector cache) are copied,
not recomputed; the keyword index is rebuilt by the target's own triggers as memories
arrive. Secrets are masked on the way, as in an export.

Refused, with one sentence and nothing written: the same database on both sides, different
schema versions, and a target that already holds data which did not come from this source.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from madohub_memory.core.errors import ConflictError, StorageError
from madohub_memory.core.secrets import redact
from madohub_memory.store import copying

if TYPE_CHECKING:
    from madohub_memory.services import Services

BATCH_ROWS = 1000
DONE = "*"  # the progress row that marks the whole transfer finished

Progress = Callable[[str, int, int], None]  # table, rows copied so far, rows in the source


@dataclass
class TransferResult:
    """What one run did: rows copied now per table, and whether the target is complete."""

    copied: dict[str, int] = field(default_factory=dict)
    totals: dict[str, int] = field(default_factory=dict)
    resumed: bool = False
    already_done: bool = False
    finished_at: str | None = None
    differences: dict[str, tuple[int, int]] = field(default_factory=dict)  # table -> (source, target)

    def to_dict(self) -> dict[str, Any]:
        return {
            "copied": self.copied, "totals": self.totals, "resumed": self.resumed,
            "already_done": self.already_done, "finished_at": self.finished_at,
            "differences": {t: {"source": s, "target": d} for t, (s, d) in self.differences.items()},
        }


def shown_location(location: str | os.PathLike[str]) -> str:
    """A path or DSN as it may be printed and stored (a password in a DSN is masked)."""
    return redact(os.fspath(location)) or ""


def same_location(a: str | os.PathLike[str], b: str | os.PathLike[str]) -> bool:
    """Two spellings of one local file (a DSN is compared as written)."""
    a, b = os.fspath(a), os.fspath(b)
    if "://" in a or "://" in b:
        return a == b
    if os.path.exists(a) and os.path.exists(b):
        return os.path.samefile(a, b)
    return os.path.realpath(a) == os.path.realpath(b)


class StoreCopy:
    """One transfer from ``source`` into ``target`` (both open :class:`Services`)."""

    def __init__(
        self, source: Services, target: Services, *, source_name: str, target_name: str,
        batch_rows: int = BATCH_ROWS, progress: Progress | None = None,
        after_batch: Callable[[str, int], None] | None = None,
    ) -> None:
        self.source, self.target = source, target
        self.source_name, self.target_name = shown_location(source_name), shown_location(target_name)
        self.batch_rows = max(1, batch_rows)
        self.progress = progress or (lambda _t, _n, _total: None)
        self.after_batch = after_batch  # tests stop a run here, as Ctrl+C would

    # -- checks --------------------------------------------------------------------------

    def _source_id(self) -> str:
        src, dst = self.source.store, self.target.store
        source_id, target_id = copying.database_id(src), copying.database_id(dst)
        if source_id is None:
            raise StorageError("{source} has no database id: it is not a MadoHub Memory database.",
                               source=self.source_name)
        if source_id == target_id:
            raise ConflictError(
                "{source} and {target} are the same database (one is a copy of the other): nothing to transfer.",
                source=self.source_name, target=self.target_name,
            )
        source_version, target_version = copying.schema_version(src), copying.schema_version(dst)
        if source_version != target_version:
            raise ConflictError(
                "{source} is at schema version {source_version} and {target} at {target_version}: open both with "
                "the same version of MadoHub Memory, then transfer again; nothing was copied.",
                source=self.source_name, target=self.target_name,
                source_version=source_version, target_version=target_version,
            )
        return source_id

    def _check_target(self, source_id: str, state: list[dict[str, Any]]) -> None:
        others = {row["source_id"] for row in state} - {source_id}
        if others:
            raise ConflictError(
                "{target} already holds a transfer from another database, not from {source}: transfer into an "
                "empty database; nothing was copied.", target=self.target_name, source=self.source_name,
            )
        if state:
            return
        occupied = copying.holds_data(self.target.store)
        if occupied:
            raise ConflictError(
                "{target} already holds data that did not come from {source} ({tables}): transfer into a new, "
                "empty database (or merge a JSONL export with import); nothing was copied.",
                target=self.target_name, source=self.source_name, tables=", ".join(occupied),
            )

    # -- the copy ------------------------------------------------------------------------

    def run(self) -> TransferResult:
        source_id = self._source_id()
        src, dst = self.source.store, self.target.store
        recorded = copying.progress(dst)
        self._check_target(source_id, recorded)
        state = {row["table_name"]: row for row in recorded if row["source_id"] == source_id}
        result = TransferResult(resumed=bool(state))
        if DONE in state:
            result.already_done = True
            result.finished_at = state[DONE]["updated_at"]
            return result
        tables = [t for t in copying.copied_tables(src) if t in set(copying.copied_tables(dst))]
        with copying.read_snapshot(src), copying.foreign_keys_relaxed(dst):
            for table in tables:
                result.totals[table] = copying.count_rows(src, table)
            for table in tables:
                result.copied[table] = self._copy_table(source_id, table, state.get(table), result.totals[table])
            problems = copying.foreign_key_problems(dst)
            if problems:
                raise StorageError(
                    "The copy in {target} has {count} rows whose references point nowhere; it was not marked "
                    "finished: run `doctor` on {source}.", target=self.target_name, count=problems,
                    source=self.source_name,
                )
            for table in tables:
                held = copying.count_rows(dst, table)
                if held != result.totals[table]:
                    result.differences[table] = (result.totals[table], held)
            now = self.target.clock.now_iso()
            with dst.transaction():
                copying.save_progress(dst, source_id, DONE, None, sum(result.totals.values()), True,
                                      self.source_name, now)
            result.finished_at = now
        return result

    def _copy_table(self, source_id: str, table: str, state: dict[str, Any] | None, total: int) -> int:
        src, dst = self.source.store, self.target.store
        if state and state["done"]:
            return 0
        key = copying.key_columns(src, table)
        names = copying.column_names(src, table)
        after = state["last_key"] if state else None
        copied = state["copied"] if state else 0
        now_copied = 0
        self.progress(table, copied, total)
        while True:
            rows = copying.read_batch(src, table, key, after, self.batch_rows)
            if not rows:
                break
            after = [rows[-1][k] for k in key]
            with dst.transaction():
                try:
                    copying.insert_batch(dst, table, names, rows)
                except copying.IntegrityError as exc:
                    raise ConflictError(
                        "{target} already holds a row of {table} that the transfer from {source} would write again "
                        "({reason}): something else wrote to {target} while the transfer was stopped; this batch "
                        "was not copied. Transfer into a new, empty database.",
                        target=self.target_name, table=table, source=self.source_name, reason=exc,
                    ) from None
                copying.save_progress(dst, source_id, table, after, copied + len(rows), False, self.source_name,
                                      self.target.clock.now_iso())
            copied += len(rows)
            now_copied += len(rows)
            self.progress(table, copied, total)
            if self.after_batch is not None:
                self.after_batch(table, copied)
        with dst.transaction():
            copying.advance_sequence(dst, table, copying.sequence(src, table))
            copying.save_progress(dst, source_id, table, after, copied, True, self.source_name,
                                  self.target.clock.now_iso())
        return now_copied


class ProgressLine:
    """``turns 12,000/40,000`` on stderr: rewritten in place on a terminal, else one line at
    most every ``interval`` seconds (and always at a table's end); empty tables are not named."""

    def __init__(self, stream: Any, interval: float = 0.5) -> None:
        self.stream = stream
        self.tty = bool(getattr(stream, "isatty", lambda: False)())
        self.interval = interval
        self._last = 0.0
        self._table: str | None = None

    def __call__(self, table: str, copied: int, total: int) -> None:
        now = time.monotonic()
        first = table != self._table
        end = copied >= total
        if total == 0 or (not self.tty and not copied and not end):
            return  # nothing to copy, or the start of a table (a log gets progress, not intentions)
        if not (first or end or now - self._last >= self.interval):
            return
        if first and self._table is not None and self.tty:
            self.stream.write("\n")
        self._table, self._last = table, now
        line = f"{table} {copied:,}/{total:,}"
        self.stream.write(f"\r{line}\033[K" if self.tty else line + "\n")
        self.stream.flush()

    def close(self) -> None:
        if self.tty and self._table is not None:
            self.stream.write("\n")
            self.stream.flush()
