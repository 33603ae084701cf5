"""The dev data sets of the recall benches, as memories and questions.

Each loader returns ``(items, questions)``: items are approved memories to load (content,
kind, namespace, turn_ids, and ``turn_date``, the date of the conversation turn a memory
came from, as a real import records it); questions are :class:`Question` with the gold
turn ids a recalled memory must link to.

* LoCoMo dev: every ``observation`` fact is a memory linked to its ``dia_id`` turn (one
  workspace per conversation); category 1-4 questions are asked in their conversation's
  workspace.
* LongMemEval (``s``: 14 questions with 40-55 sessions each, mostly distractors;
  ``oracle``: 249 questions with only their evidence sessions): every haystack session of
  every question is pooled in one store, one memory per session (its user messages); the
  gold is the question's answer sessions.
* Chinese check (MemoryBank CN dev): each user message and each reply is a memory (one
  persona per person); probing questions with a hand-written answer keyword (gold = the
  memories that contain it).
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from _recall_common import EVAL_DEV

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

# The other probing questions, labelled the same way: a declared tuning split (parameters
# for Chinese text may be chosen on it; the questions above are only ever measured).
CN_TUNE: list[tuple[str, str, str]] = [
    ("李雪", "我喜欢哪些菜系？", "川菜和粤菜"),
    ("李雪", "你告诉过我哪些缓解压力的方法？", "听音乐、看电影、读书"),
    ("李雪", "你告诉过我哪些学习英语听力和口语的方式？", "听英语歌曲"),
    ("孙悦", "在5月3号，你给我推荐了哪两部电影？", "疯狂的外星人"),
    ("孙悦", "在5月1号，我遇到了什么开心的事情？", "教练夸我"),
    ("孙悦", "你给我推荐了一个适合旅游的海滨城市，它是？", "青岛"),
    ("孙悦", "你给我分享了哪些摄影技巧？", "选择一个好的题材"),
    ("周立", "我喜欢哪些菜系？", "中国菜和日本料理"),
    ("周立", "我不喜欢户外运动，对吗？", "我非常喜欢户外活动"),
    ("周立", "你给我推荐过哪一部电影？", "肖申克"),
    ("刘琳", "在5月6号，我和你分享了一些书籍，是哪些书？", "局外人"),
    ("刘琳", "在5月6号，我给你推荐了一些书目，是哪些书？", "红楼梦"),
    ("刘琳", "在4月27号我们聊了什么话题？", "工作很稳定"),
    ("刘琳", "在5月1号我曾告诉过你我的旅行计划，我计划去哪个地方？", "墨西哥"),
    ("刘琳", "在5月4号我曾告诉过你我的旅行计划，我计划去哪个地方？", "西班牙"),
    ("陈阳", "你给我分享过一些好玩的游戏，是哪些游戏？", "明日方舟"),
    ("陈阳", "你给我分享过一些电影，是哪些电影？", "寄生虫"),
    ("陈阳", "在4月30号我们聊了很多，我们聊了哪些话题？", "游戏和电影"),
    ("陈阳", "在5月2号我很烦恼，我因为什么事而烦恼？", "搬到另一个城市"),
    ("郑思雨", "我曾经和你分享过一次情感上的问题，是关于什么的？", "发脾气"),
    ("焦彦", "在5月2号，我看了哪一部电影？", "我看的是"),
    ("焦彦", "在5月3日，你给我推荐了哪些爱情小说？", "傲慢与偏见"),
    ("焦彦", "在5月3日，你给我推荐了哪些人物传记？", "富兰克林自传"),
]


@dataclass
class Question:
    text: str
    namespace: str | None
    gold: set[str]
    group: str = ""  # conversation, question type or person: for per-group figures and splits
    category: str = ""
    date: str = ""  # when the question is asked (ISO), if the data set says
    extra: dict[str, Any] = field(default_factory=dict)


def _dia(value: str) -> str:
    match = re.match(r"D:?(\d+):(\d+)", value.strip())
    return f"D{match.group(1)}:{match.group(2)}" if match else value.strip()


def _locomo_date(text: str) -> str:
    """'1:56 pm on 8 May, 2023' -> '2023-05-08T13:56:00Z'."""
    try:
        return datetime.strptime(text.strip(), "%I:%M %p on %d %B, %Y").strftime("%Y-%m-%dT%H:%M:00Z")
    except ValueError:
        return ""


def _lme_date(text: str) -> str:
    """'2023/05/30 (Tue) 05:04' -> '2023-05-30T05:04:00Z'."""
    match = re.match(r"(\d{4})/(\d{2})/(\d{2})\D+(\d{2}):(\d{2})", text or "")
    return f"{match[1]}-{match[2]}-{match[3]}T{match[4]}:{match[5]}:00Z" if match else ""


LOCOMO_CATEGORIES = {1: "multi-hop", 2: "temporal", 3: "open-domain", 4: "single-hop"}


def locomo() -> tuple[list[dict[str, Any]], list[Question]]:
    data = json.loads((EVAL_DEV / "locomo_dev.json").read_text())
    items: list[dict[str, Any]] = []
    questions: list[Question] = []
    for sample in data:
        sid = sample["sample_id"]
        namespace = f"workspace:locomo-{sid}"
        conversation = sample["conversation"]
        for session_key, facts_by_speaker in sample["observation"].items():
            number = session_key.split("_")[1]
            date = _locomo_date(conversation.get(f"session_{number}_date_time", ""))
            for facts in facts_by_speaker.values():
                for text, dia in facts:
                    dias = dia if isinstance(dia, list) else [dia]
                    items.append({"content": text, "kind": "fact", "namespace": namespace,
                                  "turn_ids": [f"{sid}:{_dia(d)}" for d in dias], "turn_date": date})
        for qa in sample["qa"]:
            if qa.get("category") not in LOCOMO_CATEGORIES:
                continue
            gold = {f"{sid}:{_dia(e)}" for ev in qa.get("evidence", []) for e in str(ev).split(";")}
            questions.append(Question(qa["question"], namespace, gold, group=sid,
                                      category=LOCOMO_CATEGORIES[qa["category"]]))
    return items, questions


def longmemeval(variant: str = "s") -> tuple[list[dict[str, Any]], list[Question]]:
    data = json.loads((EVAL_DEV / f"longmemeval_{variant}_dev.json").read_text())
    sessions: dict[str, tuple[str, str]] = {}
    for q in data:
        for sid, turns, date in zip(q["haystack_session_ids"], q["haystack_sessions"], q["haystack_dates"],
                                    strict=True):
            text = "\n".join(t["content"] for t in turns if t.get("role") == "user")
            if text.strip():
                sessions.setdefault(sid, (text, _lme_date(date)))
    items = [{"content": text, "kind": "event", "namespace": "workspace:lme", "turn_ids": [sid],
              "turn_date": date} for sid, (text, date) in sessions.items()]
    questions = [Question(q["question"], "workspace:lme", set(q["answer_session_ids"]),
                          group=q["question_id"], category=q["question_type"], date=_lme_date(q["question_date"]))
                 for q in data if set(q["answer_session_ids"]) & set(sessions)]
    return items, questions


def chinese(gold: list[tuple[str, str, str]] = CN_GOLD) -> tuple[list[dict[str, Any]], list[Question]]:
    data = json.loads((EVAL_DEV / "memorybank_cn_dev.json").read_text())
    items: list[dict[str, Any]] = []
    for person, record in data.items():
        for day, exchanges in record["history"].items():
            for i, ex in enumerate(exchanges):
                for role, text in (("user", ex["query"]), ("assistant", ex["response"])):
                    items.append({"content": text, "kind": "event", "namespace": f"persona:{person}",
                                  "turn_ids": [f"{person}:{day}:{i}:{role}"], "turn_date": f"{day}T12:00:00Z"})
    questions = []
    for person, question, keyword in gold:
        gold_turns = {t for item in items if item["namespace"] == f"persona:{person}"
                and keyword in item["content"] for t in item["turn_ids"]}
        if gold_turns:
            questions.append(Question(question, f"persona:{person}", gold_turns, group=person))
    return items, questions


LOADERS = {
    "locomo": locomo,
    "lme_s": lambda: longmemeval("s"),
    "lme_oracle": lambda: longmemeval("oracle"),
    "chinese": chinese,
    "chinese_tune": lambda: chinese(CN_TUNE),
}
