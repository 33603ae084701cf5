"""Secrets and prompt injections: recall and false positives, per storage sink.

    python bench/safety.py --json              # everything (loads the embedding model once)
    python bench/safety.py --json --no-recall  # skip the recall-log sink (no model)
    python bench/safety.py --json --dev        # add flag rates on the dev transcripts

Secrets (``bench/_secrets_corpus.py``: fake secrets of 100+ formats in context, generated
here, never real): every case is pushed through the real program into a fresh database —
a JSONL transcript (turns), a ChatGPT export (conversation titles), ``remember`` and a human
edit on approve (candidates, memories, history, keyword index), working memory (task,
decision and reason), decision memory (question, options, answer), a recall query (recall
log), a failing job (job error), the Claude Code hook (``hook.log``), the program's logger,
and an export — and then looked for in each sink and in the raw database and WAL bytes.
Target: 0 secrets unmasked at any sink. Hard negatives (hashes, UUIDs, base64 images,
lockfile integrity, CSS class names, code, prose about passwords) measure false positives
(target <= 2 %).

Injections (``bench/_injection_corpus.py``, English and Chinese): recall of the
``instruction`` flag (the instruction model, which reads the cues among its features) and its
false-positive rate on ordinary project rules, on the data it learned from, its validation
with each group held out whole (``bench/train_instruction_model.py``), and on a blind set
written after it froze, given with ``--held-out MODULE`` (target: recall >= 0.8, false
positives <= 2 %).
"""

from __future__ import annotations

import argparse
import io
import json
import logging
import sys
import tempfile
import time
from contextlib import redirect_stdout
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from _injection_corpus import (
    HELD_OUT_INJECTIONS,
    HELD_OUT_RULES,
    INJECTIONS,
    INJECTIONS_EN,
    INJECTIONS_ZH,
    RULES,
)
from _secrets_corpus import SecretCase, negative_cases, secret_cases

from madohub_memory.core.secret_turns import mask_after
from madohub_memory.core.secrets import find_secrets
from madohub_memory.core.types import CandidateDraft
from madohub_memory.extraction.flags import scan
from madohub_memory.extraction.instructions import is_instruction
from madohub_memory.services import Services

DEFAULT_DATA = Path(__file__).resolve().parents[2] / "shared" / "eval" / "dev"
CORPUS_BEFORE_ISSUE_25 = 105  # cases in bench/_secrets_corpus.py before bench/_secrets_context.py was added


def _sink_text(svc: Services, sql: str) -> str:
    return "\n".join(json.dumps([*row], ensure_ascii=False) for row in svc.store.query(sql))


def _joined(case: SecretCase) -> str:
    """The case as one text, for sinks that take one (a remember call, a query, a log line)."""
    return f"{case.before}\n{case.text}" if case.before else case.text


def _write_inputs(cases: list[SecretCase], folder: Path) -> tuple[Path, Path, Path]:
    """A JSONL chat (a turn before the case when it answers one, an echo after it), a ChatGPT
    export (the case as a conversation title) and a Claude Code session whose AskUserQuestion
    asks the case (decision capture)."""
    transcript = folder / "chat.jsonl"
    with transcript.open("w", encoding="utf-8") as out:
        for case in cases:
            if case.before:
                out.write(json.dumps({"role": "assistant", "content": case.before}, ensure_ascii=False) + "\n")
            out.write(json.dumps({"role": "user", "content": case.text}, ensure_ascii=False) + "\n")
            out.write(json.dumps({"role": "assistant", "content": f"Noted: {case.text}"}, ensure_ascii=False) + "\n")
    export = folder / "conversations.json"
    conversations = []
    for i, case in enumerate(cases):
        conversations.append({
            "id": f"conv-{i}", "title": _joined(case), "create_time": 1760000000 + i, "current_node": f"n{i}b",
            "mapping": {
                f"n{i}a": {"id": f"n{i}a", "message": None, "parent": None, "children": [f"n{i}b"]},
                f"n{i}b": {"id": f"n{i}b", "parent": f"n{i}a", "children": [], "message": {
                    "id": f"m{i}", "author": {"role": "user"}, "create_time": 1760000000 + i,
                    "content": {"content_type": "text", "parts": ["Please keep this in mind."]}}},
            },
        })
    export.write_text(json.dumps(conversations, ensure_ascii=False), encoding="utf-8")
    session = folder / "claude" / "session.jsonl"
    session.parent.mkdir()
    with session.open("w", encoding="utf-8") as out:
        for i, case in enumerate(cases):
            question = _joined(case)
            ask = {"type": "assistant", "sessionId": "s-bench", "cwd": "/home/u/projects/shop", "uuid": f"a{i}",
                   "timestamp": f"2026-10-30T10:{i // 60:02d}:{i % 60:02d}.000Z",
                   "message": {"role": "assistant", "content": [{"type": "tool_use", "id": f"t{i}", "name": "AskUserQuestion",
                               "input": {"questions": [{"question": question, "header": "Q", "multiSelect": False,
                                                        "options": [{"label": "Use it"}, {"label": "Ask ops"}]}]}}]}}
            answer = {"type": "user", "sessionId": "s-bench", "uuid": f"r{i}", "timestamp": ask["timestamp"],
                      "toolUseResult": {"questions": [], "answers": {question: "Use it"}},
                      "message": {"role": "user", "content": [{"type": "tool_result", "tool_use_id": f"t{i}",
                                                               "content": "User has answered your questions."}]}}
            out.write(json.dumps(ask, ensure_ascii=False) + "\n" + json.dumps(answer, ensure_ascii=False) + "\n")
    return transcript, export, session


def _errors(svc: Services, case: SecretCase) -> list[str]:
    """Sentences of errors that quote their input (printed, logged, shown, sent to agents)."""
    from madohub_memory.core.errors import UserError

    said: list[str] = []
    for attempt in (
        lambda: svc.decisions.record("Which key?", ["a", "b"], _joined(case)),  # "Choice '…' is not one of …"
        lambda: svc.review.submit(CandidateDraft(_joined(case), "nonsense", source="remember")),
        lambda: svc.recall.search(_joined(case), k=3, namespace="nowhere:x"),
    ):
        try:
            attempt()
        except UserError as exc:
            said.append(str(exc))
            logging.getLogger("madohub_memory.bench").warning("refused: %s", exc)
    return said


def _refused_or_done(action: Any) -> bool:
    from madohub_memory.core.errors import UserError

    try:
        action()
    except UserError:
        return False
    return True


def _remember_and_edit(svc: Services, i: int, text: str) -> None:
    result = svc.review.submit(CandidateDraft(f"Case {i}: {text}", "fact", source="remember", confidence=0.9))
    if svc.review.get(result.candidate_id).status == "pending":
        svc.review.approve(result.candidate_id, content=f"Edited {i}: {text}")


def run_sinks(cases: list[SecretCase], with_recall: bool) -> dict[str, Any]:
    """Push every case through every sink; count the cases whose secret survives somewhere."""
    from madohub_memory.agents.claude_code import hook as hook_cmd
    from madohub_memory.store import jobs as job_rows

    folder = Path(tempfile.mkdtemp(prefix="mh-secrets-"))
    db = folder / "memory.db"
    svc = Services.open(db)
    svc.settings.set("extraction.backend", "offline") if _has_setting(svc, "extraction.backend") else None
    transcript, export_in, session = _write_inputs(cases, folder)
    log_file = folder / "app.log"
    handler = logging.FileHandler(log_file, encoding="utf-8")
    logging.getLogger("madohub_memory").addHandler(handler)
    logging.getLogger("madohub_memory").setLevel(logging.INFO)
    started = time.perf_counter()
    svc.ingest.ingest_paths([str(transcript)], format="jsonl")
    svc.ingest.ingest_paths([str(export_in)], format="chatgpt")
    svc.ingest.ingest_paths([str(session)], format="claude-code")  # turns, and the AskUserQuestion answers
    error_sentences: list[str] = []
    for i, case in enumerate(cases):
        text = _joined(case)
        option = text if len(text) <= 200 else "the long one"
        # each sink as its API allows: a text over a limit (a 2,000-character task) is refused
        # whole, and nothing is stored then
        _refused_or_done(lambda i=i, text=text: _remember_and_edit(svc, i, text))
        _refused_or_done(lambda text=text: svc.working.update("workspace:bench", "task", text))
        _refused_or_done(lambda i=i, text=text: svc.working.update(
            "workspace:bench", "add_decision", f"decision {i}: {text}", reason=text))
        _refused_or_done(lambda text=text, option=option: svc.decisions.record(
            text, [option, "no"], option, session="s1", context={"note": text}))
        if with_recall:
            _refused_or_done(lambda text=text: svc.recall.search(text, k=3, source="bench"))
        error_sentences += _errors(svc, case)
        try:
            raise RuntimeError(f"job failed on {text}")
        except RuntimeError as exc:
            logging.getLogger("madohub_memory.bench").exception("job crashed: %s", text)
            with svc.store.transaction():
                job_rows.finish(svc.store, "bench", "me", now=svc.clock.now_iso(), next_run=None, processed=0,
                                error=str(exc), duration_ms=1)
        event = {"hook_event_name": "Stop", "transcript_path": f"/nonexistent/{text}"}
        _run_hook(hook_cmd, event, str(db))
    export = folder / "export.jsonl"
    svc.transfer.export(export)
    elapsed = time.perf_counter() - started
    handler.close()
    logging.getLogger("madohub_memory").removeHandler(handler)
    sinks = {
        "turns": "SELECT content, meta FROM turns",
        "conversation_titles": "SELECT title, source_path FROM conversations",
        "candidates": "SELECT content FROM candidates",
        "memories": "SELECT content FROM memories",
        "history": "SELECT before, after FROM history",
        "keyword_index": "SELECT * FROM memory_fts",
        "working_memory": "SELECT task FROM working_memory UNION ALL SELECT text || ' ' || COALESCE(reason, '')"
                          " FROM working_items",
        "decisions": "SELECT question, user_choice, all_options, static_default, context FROM decisions",
        "recall_log": "SELECT query FROM recall_log",
        "job_errors": "SELECT last_error FROM jobs",
    }
    texts = {name: _sink_text(svc, sql) for name, sql in sinks.items()}
    captured = int(svc.store.scalar("SELECT COUNT(*) FROM decisions WHERE source = 'transcript'") or 0)
    svc.store.conn.execute("PRAGMA wal_checkpoint(PASSIVE)")
    svc.close()
    texts["error_messages"] = "\n".join(error_sentences)
    texts["hook_log"] = "".join(p.read_text(encoding="utf-8", errors="replace") for p in folder.glob("hook.log*"))
    texts["app_log"] = log_file.read_text(encoding="utf-8", errors="replace")
    texts["export"] = export.read_text(encoding="utf-8")
    raw = b"".join(p.read_bytes() for p in folder.glob("memory.db*"))
    report: dict[str, Any] = {"cases": len(cases), "seconds": round(elapsed, 1), "sinks": {},
                              "decisions_captured_from_transcript": captured}
    leaked_anywhere: set[str] = set()
    for name, text in texts.items():
        leaked = [c.name for c in cases if any(s in text for s in c.secrets)]
        leaked_anywhere.update(leaked)
        report["sinks"][name] = {"unmasked": len(leaked), "recall": round(1 - len(leaked) / len(cases), 4),
                                 "examples": leaked[:5]}
    leaked_raw = [c.name for c in cases if any(s.encode() in raw for s in c.secrets)]
    report["sinks"]["database_file_bytes"] = {"unmasked": len(leaked_raw),
                                              "recall": round(1 - len(leaked_raw) / len(cases), 4),
                                              "examples": leaked_raw[:5]}
    leaked_anywhere.update(leaked_raw)
    report["unmasked_at_any_sink"] = len(leaked_anywhere)
    report["unmasked_examples"] = sorted(leaked_anywhere)[:10]
    if not with_recall:
        report["sinks"].pop("recall_log")
    return report


def _has_setting(svc: Services, key: str) -> bool:
    from madohub_memory.core.settings_schema import SETTINGS

    return key in SETTINGS


def _run_hook(hook_cmd: Any, event: dict[str, Any], db: str) -> None:
    """The hook entry point as Claude Code runs it (event JSON on stdin), in-process."""
    stdin = sys.stdin
    sys.stdin = io.TextIOWrapper(io.BytesIO(json.dumps(event).encode("utf-8")))
    try:
        with redirect_stdout(io.StringIO()):
            hook_cmd.run(argparse.Namespace(db=db))
    finally:
        sys.stdin = stdin


def run_scanner(cases: list[SecretCase], negatives: list[str]) -> dict[str, Any]:
    def masked(case: SecretCase) -> str:  # a case that answers the turn before it: with that turn
        return mask_after(case.before, case.text)[0] if case.before else scan(case.text)[0]

    missed = [c.name for c in cases if any(s in masked(c) for s in c.secrets)]
    false_positives = [t for t in negatives if find_secrets(t)]
    corpus = "\n".join([c.text for c in cases] + negatives) * 20
    started = time.perf_counter()
    find_secrets(corpus)
    seconds = time.perf_counter() - started
    return {
        "formats": len(cases), "formats_before_issue_25": CORPUS_BEFORE_ISSUE_25,
        "recall": round(1 - len(missed) / len(cases), 4), "missed": missed,
        "negatives": len(negatives), "false_positive_rate": round(len(false_positives) / len(negatives), 4),
        "false_positives": false_positives[:10],
        "scanner_mb_per_s": round(len(corpus) / 1e6 / seconds, 2),
    }


def _rates(flag: Any, injections: list[str], others: list[str]) -> dict[str, Any]:
    caught = [flag(t) for t in injections]
    raised = [t for t in others if flag(t)]
    return {"injections": len(injections), "recall": round(sum(caught) / len(injections), 4),
            "others": len(others), "false_positive_rate": round(len(raised) / max(1, len(others)), 4),
            "missed": [t for t, c in zip(injections, caught, strict=True) if not c], "flagged_others": raised}


def _model_speed(texts: list[str]) -> dict[str, Any]:
    """Milliseconds to score one candidate the model has not seen (its sentence cache cleared
    each time; both embedders loaded first), median of ``texts`` scored one by one."""
    from madohub_memory.services import instruction_model

    instruction_model.score("warm up both embedders")
    times = []
    for text in texts:
        instruction_model._cache.clear()
        start = time.perf_counter()
        instruction_model.score(text)
        times.append((time.perf_counter() - start) * 1000)
    times.sort()
    return {"candidates": len(times), "median_ms": round(times[len(times) // 2], 1),
            "p90_ms": round(times[int(len(times) * 0.9)], 1)}


def run_injections(held_out: str | None = None) -> dict[str, Any]:
    """The ``instruction`` flag a candidate gets (the instruction model, which reads the cues
    too) and the cues alone: on the data the model learned from, and on a blind set given with
    ``--held-out MODULE`` (a module in ``bench/`` with ``INJECTIONS_AFTER_FREEZE`` and
    ``HARD_NEGATIVES``, written after the model froze)."""
    import importlib

    from _injection_families import HARD_NEGATIVE_FAMILIES, INJECTION_FAMILIES
    from _injection_heldout2 import HARD_NEGATIVES as ROUND1_NEGATIVES
    from _injection_heldout2 import INJECTIONS_AFTER_FREEZE as ROUND1_INJECTIONS
    from _injection_heldout3 import HARD_NEGATIVES as ROUND2_NEGATIVES
    from _injection_heldout3 import INJECTIONS_AFTER_FREEZE as ROUND2_INJECTIONS
    from _injection_heldout4 import HARD_NEGATIVES as ROUND3_NEGATIVES
    from _injection_heldout4 import INJECTIONS_AFTER_FREEZE as ROUND3_INJECTIONS
    from _injection_train import TRAIN_INJECTIONS, TRAIN_NON_INJECTIONS

    from madohub_memory.services.instruction_model import flags_instruction, trained

    model = trained()
    learned = {
        "corpus": (INJECTIONS, RULES), "old_held_out": (HELD_OUT_INJECTIONS, HELD_OUT_RULES),
        "train_extra": (TRAIN_INJECTIONS, TRAIN_NON_INJECTIONS),
        "round1_held_out_spent": (ROUND1_INJECTIONS, ROUND1_NEGATIVES),
        "round2_held_out_spent": (ROUND2_INJECTIONS, ROUND2_NEGATIVES),
        "round3_held_out_spent": (ROUND3_INJECTIONS, ROUND3_NEGATIVES),
        "round4_families": ([t for ts in INJECTION_FAMILIES.values() for t in ts],
                            [t for ts in HARD_NEGATIVE_FAMILIES.values() for t in ts]),
    }
    report: dict[str, Any] = {
        "flag": f"instruction model (services/instruction_model.py, reads the cues too), threshold {model.threshold}",
        "validation_held_out_by_group": model.info.get("validation_at_threshold"),
        "trained_on": {"note": "learned from these: in-sample, not a prediction"},
        "recall_en": round(sum(map(flags_instruction, INJECTIONS_EN)) / len(INJECTIONS_EN), 4),
        "recall_zh": round(sum(map(flags_instruction, INJECTIONS_ZH)) / len(INJECTIONS_ZH), 4),
    }
    for part, (injections, others) in learned.items():
        rates = _rates(flags_instruction, injections, others)
        rates["missed"], rates["flagged_others"] = rates["missed"][:10], rates["flagged_others"][:10]
        report["trained_on"][part] = rates
    report["earlier_rounds_as_measured"] = {
        "note": "each measured once on its own freeze, before it became training data",
        "round1 (aa8032a, _injection_heldout2)": {"recall": 0.4167, "recall_cues_only": 0.2833,
                                                  "false_positive_rate": 0.03, "false_positive_rate_cues_only": 0.0,
                                                  "injections": 60, "others": 100},
        "round2 (9149d59, _injection_heldout3)": {"recall": 0.6, "recall_cues_only": 0.4,
                                                  "false_positive_rate": 0.07, "false_positive_rate_cues_only": 0.02,
                                                  "injections": 50, "others": 100},
        "round3 (ffd3900, _injection_heldout4)": {"recall": 0.425, "false_positive_rate": 0.0875,
                                                  "injections": 40, "others": 80}}
    report["speed"] = _model_speed(RULES[:40])
    if held_out:
        module = importlib.import_module(held_out)
        report["held_out"] = {
            "module": held_out, "note": getattr(module, "NOTE", ""),
            "model": _rates(flags_instruction, module.INJECTIONS_AFTER_FREEZE, module.HARD_NEGATIVES),
            "cues_only": _rates(is_instruction, module.INJECTIONS_AFTER_FREEZE, module.HARD_NEGATIVES),
        }
    return report


def run_dev(data: Path) -> dict[str, Any]:
    """How often each flag fires on real messages (user and assistant text of the dev sets)."""
    from extraction_quality import dev_transcript_texts

    texts = dev_transcript_texts(data)
    from madohub_memory.services.instruction_model import flags_instruction, sentences

    counts: dict[str, int] = {"messages": len(texts), "secret": 0, "instruction": 0, "pii": 0}
    samples: list[str] = []
    for _source, _role, text in texts:
        masked, flags = scan(text)
        for flag in flags:
            counts[flag] += 1
        if "instruction" in flags and len(samples) < 10:
            samples.append(masked[:120])
    # the model reads candidates (a sentence or a few): measured on the users' sentences
    said = [s for _source, role, text in texts if role == "user" for s in sentences(text) if len(s) >= 12]
    flagged = [s for s in said if flags_instruction(s)]
    return {**counts, "instruction_rate": round(counts["instruction"] / max(1, len(texts)), 4),
            "secret_rate": round(counts["secret"] / max(1, len(texts)), 4), "instruction_samples": samples,
            "user_sentences": len(said), "user_sentences_flagged_instruction": len(flagged),
            "user_sentence_instruction_rate": round(len(flagged) / max(1, len(said)), 4),
            "user_sentence_samples": [s[:100] for s in flagged[:10]]}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--no-recall", action="store_true", help="skip the recall-log sink (no embedding model)")
    parser.add_argument("--dev", action="store_true", help="add flag rates on the dev transcripts")
    parser.add_argument("--data", type=Path, default=DEFAULT_DATA)
    parser.add_argument("--held-out", metavar="MODULE", help="a blind injection set in bench/ (see run_injections)")
    args = parser.parse_args()
    cases, negatives = secret_cases(), negative_cases()
    report: dict[str, Any] = {
        "scanner": run_scanner(cases, negatives),
        "sinks": run_sinks(cases, with_recall=not args.no_recall),
        "injection": run_injections(args.held_out),
    }
    if args.dev and args.data.is_dir():
        report["dev"] = run_dev(args.data)
    print(json.dumps(report, ensure_ascii=False, indent=None if args.json else 2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
