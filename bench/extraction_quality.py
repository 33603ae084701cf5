"""Extraction quality on the dev data (LoCoMo observations, MemoryBank CN hobbies).

LoCoMo: every turn of every session is fed to the extractor (``mode="turn"``, one turn at a
time, both speakers as ``user`` turns since both are people); a gold ``observation`` fact
counts as recalled when a candidate is linked to exactly its ``dia_id``. We report
fact-turn recall, candidates per gold fact, and content agreement (median embedding cosine
between each matched candidate and its gold fact; raw turn text for comparison).

MemoryBank CN: every user query is fed in; we count candidates that mention one of the
user's stated hobbies (``meta_information.hobbies``), and candidates overall.

Usage: ``python bench/extraction_quality.py --json [--data DIR] [--backend offline]
[--subject user|speaker] [--no-embed]``
"""

from __future__ import annotations

import argparse
import ast
import json
import statistics
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from madohub_memory.extraction.base import TurnView
from madohub_memory.extraction.offline import OfflineExtractor

DEFAULT_DATA = Path(__file__).resolve().parents[2] / "shared" / "eval" / "dev"


def locomo_turns(sample: dict[str, Any]) -> list[tuple[str, TurnView]]:
    """(speaker, turn) pairs in conversation order."""
    conv = sample["conversation"]
    sessions = sorted(
        (int(k.split("_")[1]), v) for k, v in conv.items()
        if k.startswith("session_") and isinstance(v, list)
    )
    out = []
    for _, turns in sessions:
        for t in turns:
            text = t.get("text", "")
            if t.get("blip_caption"):
                text = text  # the image caption is not what the speaker said
            out.append((t["speaker"], TurnView(
                id=f"{sample['sample_id']}:{t['dia_id']}", role="user", content=text,
                conversation_id=sample["sample_id"],
            )))
    return out


def locomo_gold(sample: dict[str, Any]) -> list[tuple[str, str]]:
    gold = []
    for facts_by_speaker in sample["observation"].values():
        for facts in facts_by_speaker.values():
            for fact, dia in facts:
                if isinstance(dia, str):
                    gold.append((fact, f"{sample['sample_id']}:{dia}"))
                else:  # a few facts cite several turns: any of them counts
                    gold.append((fact, "|".join(f"{sample['sample_id']}:{d}" for d in dia)))
    return gold


def run_locomo(data: Path, subject_mode: str, embed: bool) -> dict[str, Any]:
    samples = json.loads((data / "locomo_dev.json").read_text())
    extractors: dict[str, OfflineExtractor] = {}
    candidates: dict[str, str] = {}
    raw_text: dict[str, str] = {}
    n_turns = 0
    started = time.perf_counter()
    for sample in samples:
        for speaker, turn in locomo_turns(sample):
            n_turns += 1
            raw_text[turn.id] = turn.content
            subject = speaker if subject_mode == "speaker" else "User"
            ex = extractors.setdefault(subject, OfflineExtractor(subject=subject))
            for draft in ex.extract([turn], mode="turn"):
                for tid in draft.turn_ids:
                    candidates[tid] = draft.content
    elapsed = time.perf_counter() - started
    n_candidates = len(candidates)
    gold = [g for s in samples for g in locomo_gold(s)]
    matched: list[tuple[str, str, str]] = []
    for fact, ids in gold:
        hit = next((i for i in ids.split("|") if i in candidates), None)
        if hit is not None:
            matched.append((fact, candidates[hit], raw_text[hit]))
    fact_turns = {i for _, ids in gold for i in ids.split("|")}
    result: dict[str, Any] = {
        "turns": n_turns,
        "gold_facts": len(gold),
        "candidates": n_candidates,
        "fact_turn_recall": round(len(matched) / len(gold), 4),
        "candidates_per_gold_fact": round(n_candidates / len(gold), 4),
        "candidate_turn_precision": round(len(set(candidates) & fact_turns) / max(1, n_candidates), 4),
        "extract_turns_per_s": round(n_turns / elapsed),
        "subject": subject_mode,
    }
    if embed and matched:
        from madohub_memory.recall.embeddings import get_embedder

        emb = get_embedder("use-multilingual")
        g = emb.encode([m[0] for m in matched])
        c = emb.encode([m[1] for m in matched])
        r = emb.encode([m[2] for m in matched])
        result["content_agreement_median_cosine"] = round(float(statistics.median((g * c).sum(1))), 4)
        result["raw_turn_median_cosine"] = round(float(statistics.median((g * r).sum(1))), 4)
    return result


def run_memorybank(data: Path) -> dict[str, Any]:
    users = json.loads((data / "memorybank_cn_dev.json").read_text())
    ex = OfflineExtractor()
    total = 0
    with_hobby = 0
    hobbies_covered = 0
    hobbies_total = 0
    examples: list[str] = []
    per_user = {}
    for name, user in users.items():
        meta = user.get("meta_information") or {}
        if isinstance(meta, str):
            meta = ast.literal_eval(meta)
        hobbies = [h.strip() for h in str(meta.get("hobbies", "")).replace("、", "，").split("，") if h.strip()]
        contents: list[str] = []
        for day, exchanges in user["history"].items():
            for i, ex_pair in enumerate(exchanges):
                turn = TurnView(id=f"{name}:{day}:{i}", role="user", content=ex_pair["query"])
                reply = TurnView(id=f"{name}:{day}:{i}:a", role="assistant", content=ex_pair["response"])
                contents += [d.content for d in ex.extract([turn, reply], mode="turn")]
        total += len(contents)
        mentions = [c for c in contents if any(_hobby_in(h, c) for h in hobbies)]
        with_hobby += len(mentions)
        covered = [h for h in hobbies if any(_hobby_in(h, c) for c in contents)]
        hobbies_covered += len(covered)
        hobbies_total += len(hobbies)
        per_user[name] = {"candidates": len(contents), "mention_hobby": len(mentions),
                          "hobbies_covered": f"{len(covered)}/{len(hobbies)}"}
        examples += mentions[:1]
    return {
        "users": len(users), "candidates": total, "candidates_mentioning_hobby": with_hobby,
        "hobbies_covered": hobbies_covered, "hobbies_total": hobbies_total,
        "per_user": per_user, "examples": examples[:5],
    }


def dev_transcript_texts(data: Path) -> list[tuple[str, str, str]]:
    """(source, role, text) of every user/assistant text in the dev Claude Code sessions and
    the ChatGPT export (tool results and tool calls left out)."""
    out: list[tuple[str, str, str]] = []
    for path in sorted((data / "claude_code").rglob("*.jsonl")):
        for line in path.read_text(encoding="utf-8", errors="replace").splitlines():
            try:
                record = json.loads(line)
            except json.JSONDecodeError:
                continue
            if record.get("type") not in ("user", "assistant") or record.get("isCompactSummary"):
                continue
            content = (record.get("message") or {}).get("content")
            parts = [content] if isinstance(content, str) else [
                c.get("text", "") for c in content or [] if isinstance(c, dict) and c.get("type") == "text"]
            out += [("claude_code", record["type"], t) for t in parts if t and t.strip()]
    export = data / "chatgpt_conversations_dev.json"
    if export.exists():
        for conv in json.loads(export.read_text(encoding="utf-8")):
            for node in conv.get("mapping", {}).values():
                message = node.get("message") or {}
                role = (message.get("author") or {}).get("role")
                content = message.get("content") or {}
                if role in ("user", "assistant") and content.get("content_type") == "text":
                    text = "\n".join(p for p in content.get("parts", []) if isinstance(p, str))
                    if text.strip():
                        out.append(("chatgpt", role, text))
    return out


def run_flags(data: Path) -> dict[str, Any]:
    """How often each flag fires on whole dev messages and on the candidates extracted from them."""
    from collections import Counter

    from madohub_memory.extraction.flags import scan

    texts = dev_transcript_texts(data)
    ex = OfflineExtractor()
    messages: Counter[str] = Counter()
    flagged: Counter[str] = Counter()
    cand_flags: Counter[str] = Counter()
    candidates = 0
    samples: list[str] = []
    for i, (source, role, text) in enumerate(texts):
        key = f"{source}/{role}"
        messages[key] += 1
        masked, flags = scan(text)
        for flag in flags:
            flagged[f"{key}/{flag}"] += 1
            if len(samples) < 12:
                samples.append(f"{flag}: {masked[:90]!r}")
        for draft in ex.extract([TurnView(str(i), role, text)]):
            candidates += 1
            for flag in set(draft.flags) | set(scan(draft.content)[1]):
                cand_flags[flag] += 1
    return {
        "messages": dict(messages), "flagged_messages": dict(flagged),
        "flagged_message_rate": round(sum(flagged.values()) / max(1, len(texts)), 4),
        "candidates": candidates, "flagged_candidates": dict(cand_flags),
        "samples": samples,
    }


def _hobby_in(hobby: str, text: str) -> bool:
    """A hobby like '听古典音乐' counts when its core (last 2+ chars, e.g. '古典音乐') appears."""
    if hobby in text:
        return True
    for cut in range(1, max(1, len(hobby) - 1)):
        core = hobby[cut:]
        if len(core) >= 2 and core in text:
            return True
    return False


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--data", type=Path, default=DEFAULT_DATA)
    parser.add_argument("--subject", choices=["user", "speaker"], default="speaker")
    parser.add_argument("--no-embed", action="store_true")
    args = parser.parse_args()
    result = {
        "locomo": run_locomo(args.data, args.subject, not args.no_embed),
        "memorybank_cn": run_memorybank(args.data),
        "flags": run_flags(args.data),
    }
    print(json.dumps(result, ensure_ascii=False, indent=None if args.json else 2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
