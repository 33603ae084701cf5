"""Recall quality on the dev evaluation data: keyword only, vectors only, and the hybrid.

* LoCoMo dev: every ``observation`` fact becomes an approved memory linked to its
  ``dia_id`` turn (one workspace per conversation); category 1-4 questions are asked in
  that workspace; hit@k = one of the top k memories links to an ``evidence`` turn.
* LongMemEval dev: all haystack sessions of all questions pooled in one store, one memory
  per session (its user messages); session-level recall@k = any answer session in top k.
* Chinese check (MemoryBank CN dev): each user message becomes a memory (one persona per
  person); probing questions with a hand-written answer keyword (gold = memories that
  contain it). Also compares jieba word segmentation with the trigram tokenizer.

Usage: ``python bench/recall_quality.py --json [--model use-multilingual|minilm]``
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _recall_common import EVAL_DEV, load_approved

from madohub_memory.core.clock import Clock
from madohub_memory.recall import tokenize
from madohub_memory.services import Services
from madohub_memory.store import recall as recall_rows

MODES = ("keyword", "vector", "hybrid")
KS = (1, 5, 10)

# Probing questions of MemoryBank CN dev with a keyword that the evidence message contains.
CN_GOLD: list[tuple[str, str, str]] = [
    ("李雪", "我最近去厦门旅游了，厦门我最喜欢的景点是？", "鼓浪屿"),
    ("李雪", "我最近去看了谁的演唱会？我最喜欢他的什么歌？", "周杰伦"),
    ("李雪", "我喜欢看哪些类型的电影？", "喜剧和爱情"),
    ("李雪", "我不喜欢看喜剧片，对吗？", "喜剧"),
    ("孙悦", "我去云台山摄影的时候遇到了什么麻烦，谁帮助了我？", "云台山"),
    ("孙悦", "最近我在尝试哪些健身的方法？", "健身"),
    ("孙悦", "我不喜欢健身，对吗？", "健身"),
    ("周立", "我最近计划去哪个国家玩？", "日本"),
    ("周立", "我去参观博物馆，最感兴趣的展品是？", "博物馆"),
    ("周立", "我喜欢在什么地方拍摄？", "拍"),
    ("周立", "在5月4日我向你咨询了给朋友送什么礼物，你给我推荐了什么？", "礼物"),
    ("刘琳", "在4月28号你给我推荐了一个笔记软件，它的名字是？", "笔记"),
    ("刘琳", "在5月2号我买了一件连衣裙，它的颜色是？", "连衣裙"),
    ("陈阳", "我曾经就提高学习编程效率咨询过你，你给过我哪些意见？", "编程"),
    ("陈阳", "我喜欢哪些户外运动？", "户外"),
    ("郑思雨", "我喜欢什么样的音乐类型？", "音乐"),
    ("郑思雨", "我喜欢哪些摇滚乐队？", "乐队"),
    ("郑思雨", "我的一副画作被展览选中了，你还记得这幅画的灵感是什么吗？", "灵感"),
    ("郑思雨", "你曾经给我推荐过几个手工活的项目，有哪些？", "手工"),
    ("焦彦", "我喜欢哪些古典音乐作品？", "古典"),
    ("焦彦", "在《肖申克的救赎》中，我最喜欢哪个场景？", "肖申克"),
    ("焦彦", "你给我推荐了哪些冥想app？", "冥想"),
    ("焦彦", "5月6日这天，我为什么要向你咨询肌肉松弛和身体舒展的方法？", "肌肉"),
]


SETTINGS: dict[str, str] = {}


def _open(tmp: str, name: str, model: str) -> Services:
    svc = Services.open(Path(tmp) / f"{name}.db", Clock("2026-11-01T09:00:00Z"))
    svc.settings.set("embedding.model", model)
    for key, value in SETTINGS.items():
        svc.settings.set(key, value)
    return svc


def _evaluate(svc: Services, questions: list[tuple[str, str | None, set[str]]]) -> dict[str, Any]:
    """questions: (text, namespace, gold turn ids). Returns hit@k per mode."""
    out: dict[str, Any] = {}
    for mode in MODES:
        hits = {k: 0 for k in KS}
        started = time.perf_counter()
        for text, namespace, gold in questions:
            found = svc.recall.search(text, namespace, k=max(KS), include_persona=False,
                                      mode=mode, record=False, source="bench")
            for k in KS:
                if any(gold & set(h.turn_ids) for h in found[:k]):
                    hits[k] += 1
        n = max(1, len(questions))
        out[mode] = {f"hit@{k}": round(hits[k] / n, 3) for k in KS}
        out[mode]["ms_per_query"] = round((time.perf_counter() - started) * 1000 / n, 1)
    out["questions"] = len(questions)
    return out


def _dia(value: str) -> str:
    match = re.match(r"D:?(\d+):(\d+)", value.strip())
    return f"D{match.group(1)}:{match.group(2)}" if match else value.strip()


def locomo(tmp: str, model: str) -> dict[str, Any]:
    data = json.loads((EVAL_DEV / "locomo_dev.json").read_text())
    svc = _open(tmp, "locomo", model)
    items, questions = [], []
    for sample in data:
        sid = sample["sample_id"]
        namespace = f"workspace:locomo-{sid}"
        for session in sample["observation"].values():
            for facts in session.values():
                for text, dia in facts:
                    dias = dia if isinstance(dia, list) else [dia]
                    items.append({"content": text, "kind": "fact", "namespace": namespace,
                                  "turn_ids": [f"{sid}:{_dia(d)}" for d in dias]})
        for qa in sample["qa"]:
            if qa.get("category") not in (1, 2, 3, 4):
                continue
            gold = {f"{sid}:{_dia(e)}" for ev in qa.get("evidence", []) for e in str(ev).split(";")}
            questions.append((qa["question"], namespace, gold))
    load_approved(svc, items)
    started = time.perf_counter()
    svc.recall.index()
    build = time.perf_counter() - started
    result = _evaluate(svc, questions)
    result["memories"] = len(items)
    result["index_build_s"] = round(build, 2)
    svc.close()
    return result


def longmemeval(tmp: str, model: str) -> dict[str, Any]:
    data = json.loads((EVAL_DEV / "longmemeval_s_dev.json").read_text())
    svc = _open(tmp, "lme", model)
    sessions: dict[str, str] = {}
    for q in data:
        for sid, turns in zip(q["haystack_session_ids"], q["haystack_sessions"], strict=True):
            text = "\n".join(t["content"] for t in turns if t.get("role") == "user")
            if text.strip():
                sessions.setdefault(sid, text)
    items = [{"content": text, "kind": "event", "namespace": "workspace:lme", "turn_ids": [sid]}
             for sid, text in sessions.items()]
    load_approved(svc, items)
    svc.recall.index()
    questions = [(q["question"], "workspace:lme", set(q["answer_session_ids"])) for q in data]
    result = _evaluate(svc, questions)
    for mode in MODES:
        result[mode] = {k.replace("hit@", "recall@"): v for k, v in result[mode].items()}
    result["sessions"] = len(items)
    svc.close()
    return result


def chinese(tmp: str, model: str) -> dict[str, Any]:
    data = json.loads((EVAL_DEV / "memorybank_cn_dev.json").read_text())
    svc = _open(tmp, "cn", model)
    items = []
    for person, record in data.items():
        for day, exchanges in record["history"].items():
            for i, ex in enumerate(exchanges):
                items.append({"content": ex["query"], "kind": "event", "namespace": f"persona:{person}",
                              "turn_ids": [f"{person}:{day}:{i}:user"]})
                items.append({"content": ex["response"], "kind": "event", "namespace": f"persona:{person}",
                              "turn_ids": [f"{person}:{day}:{i}:assistant"]})
    ids = load_approved(svc, items)
    by_id = {mid: item for mid, item in zip(ids, items, strict=True)}
    questions = []
    for person, question, keyword in CN_GOLD:
        gold = {t for item in by_id.values() if item["namespace"] == f"persona:{person}"
                and keyword in item["content"] for t in item["turn_ids"]}
        if gold:
            questions.append((question, f"persona:{person}", gold))
    svc.recall.index()
    result = _evaluate(svc, questions)
    result["memories"] = len(items)
    result["trigram_keyword"] = _trigram(svc, questions, by_id)
    svc.close()
    return result


def _trigram(svc: Services, questions: list[tuple[str, str | None, set[str]]], by_id: dict[int, Any]) -> dict[str, Any]:
    """Keyword-only hit@k with the trigram tokenizer (query = OR of its 3-char substrings)."""
    recall_rows.build_trigram_index(svc.store)
    hits = {k: 0 for k in KS}
    for text, namespace, gold in questions:
        grams = {run[i : i + 3] for run in re.findall(r"[^\W_]+", text) for i in range(max(1, len(run) - 2))}
        match = tokenize.match_expression(sorted(g for g in grams if len(g) >= 3))
        found = [mid for mid, _ in recall_rows.trigram_search(svc.store, match, 200)] if match else []
        found = [mid for mid in found if by_id[mid]["namespace"] == namespace][: max(KS)]
        for k in KS:
            if any(gold & set(by_id[mid]["turn_ids"]) for mid in found[:k]):
                hits[k] += 1
    n = max(1, len(questions))
    return {f"hit@{k}": round(hits[k] / n, 3) for k in KS}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--model", default="use-multilingual", choices=["use-multilingual", "minilm"])
    parser.add_argument("--only", choices=["locomo", "longmemeval", "chinese"])
    parser.add_argument("--set", action="append", default=[], metavar="KEY=VALUE",
                        help="a recall setting to try, e.g. recall.vector_share=0.7")
    args = parser.parse_args()
    for pair in args.set:
        key, _, value = pair.partition("=")
        SETTINGS[key] = value
    if not EVAL_DEV.is_dir():
        print(f"evaluation data not found at {EVAL_DEV}", file=sys.stderr)
        return 1
    report: dict[str, Any] = {"model": args.model, "settings": SETTINGS}
    with tempfile.TemporaryDirectory() as tmp:
        for name, fn in (("locomo", locomo), ("longmemeval", longmemeval), ("chinese", chinese)):
            if args.only in (None, name):
                report[name] = fn(tmp, args.model)
    if args.json:
        print(json.dumps(report, indent=2, ensure_ascii=False))
    else:
        for name, value in report.items():
            print(name, value)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
