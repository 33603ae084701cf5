"""Semantic dedup through ``svc.review.submit`` with the real embedding model."""

from __future__ import annotations

import pytest

from madohub_memory.core.types import CandidateDraft
from madohub_memory.recall.vector_cache import vector_cache
from madohub_memory.services.semantic_dedup import compatible
from madohub_memory.store import embeddings

pytestmark = pytest.mark.both_backends


def submit(svc, text, kind="preference", namespace=None, turn="t1"):
    return svc.review.submit(CandidateDraft(text, kind, namespace, source="turn", turn_ids=(turn,)))


def test_chinese_paraphrase_is_seen_again_unrelated_chinese_is_new(svc):
    first = submit(svc, "用户喜欢在周末去爬山。", turn="t1")
    para = submit(svc, "用户周末喜欢爬山。", turn="t2")
    other = submit(svc, "用户养了一只橘猫。", turn="t3")
    assert first.outcome == "new"
    assert para.outcome == "seen_again" and para.candidate_id == first.candidate_id
    assert other.outcome == "new"
    candidate = svc.review.get(first.candidate_id)
    assert candidate.seen_count == 2
    assert candidate.turn_ids == ["t1", "t2"]  # the new originating turn is recorded


def test_english_paraphrase_and_unrelated(svc):
    first = submit(svc, "User prefers pnpm over npm.")
    assert submit(svc, "User likes pnpm better than npm.").candidate_id == first.candidate_id
    assert submit(svc, "User prefers dark mode in the editor.").outcome == "new"


def test_reversed_negated_or_renumbered_statements_stay_apart(svc):
    submit(svc, "User prefers tabs over spaces.")
    assert submit(svc, "User prefers spaces over tabs.").outcome == "new"
    submit(svc, "用户喜欢喜剧片。")
    assert submit(svc, "用户不喜欢喜剧片。").outcome == "new"
    submit(svc, "The API listens on port 8080.", kind="fact")
    assert submit(svc, "The API listens on port 9090.", kind="fact").outcome == "new"
    assert not compatible("用 pnpm 而不是 npm", "用 npm 而不是 pnpm")
    assert compatible("用户的工作不错", "用户的工作很好")
    assert not compatible("User likes cilantro.", "User hates cilantro.")
    assert not compatible("用户喜欢香菜。", "用户讨厌香菜。")


def test_other_kind_or_namespace_is_not_equivalent(svc):
    submit(svc, "用户喜欢在周末去爬山。")
    assert submit(svc, "用户周末喜欢爬山。", kind="pattern").outcome == "new"
    assert submit(svc, "用户周末喜欢爬山。", namespace="workspace:hiking").outcome == "new"


def test_paraphrase_of_rejected_is_suppressed_and_of_approved_reinforces(svc):
    rejected = submit(svc, "User wants verbose commit messages.")
    svc.review.reject(rejected.candidate_id)
    again = submit(svc, "User prefers verbose commit messages.")
    assert again.outcome == "suppressed" and again.candidate_id == rejected.candidate_id
    approved = submit(svc, "用户喜欢川菜和粤菜。")
    memory_id = svc.review.approve(approved.candidate_id)
    result = submit(svc, "用户偏爱川菜和粤菜。", turn="t2")
    assert result.outcome == "reinforced" and result.memory_id == memory_id
    assert svc.memories.get(memory_id).reinforced_count == 1


def test_edited_candidate_is_matched_by_its_new_text(svc):
    first = submit(svc, "User likes green tea.")
    assert submit(svc, "User is fond of green tea.").outcome == "seen_again"
    svc.review.edit(first.candidate_id, content="User rides a bicycle to work every day.")
    assert submit(svc, "User is fond of green tea.").outcome == "new"
    assert submit(svc, "User bikes to work every day.").candidate_id == first.candidate_id


def test_setting_switches_semantic_dedup_off(svc):
    submit(svc, "用户喜欢在周末去爬山。")
    svc.settings.set("dedup.semantic", False)
    assert submit(svc, "用户周末喜欢爬山。").outcome == "new"
    svc.settings.set("dedup.semantic", True)
    svc.settings.set("dedup.threshold", 0.99)
    assert submit(svc, "用户周末很喜欢去爬山。").outcome == "new"


def test_vectors_are_stored_by_id_and_model_and_reused(svc, db_path, clock):
    from madohub_memory.services import Services

    submit(svc, "用户喜欢在周末去爬山。")
    submit(svc, "用户养了一只橘猫。")
    submit(svc, "用户周末喜欢爬山。")  # matched, and the index picked up the first two rows
    assert embeddings.count(svc.store) >= 2
    rows = svc.store.query("SELECT DISTINCT model FROM embeddings")
    assert [r[0] for r in rows] == ["use-multilingual"]
    # A second process-like opening rebuilds its matrix from the stored vectors.
    with Services.open(db_path, clock) as other:
        index = vector_cache(other.store, "use-multilingual").groups
        assert submit(other, "用户平时周末爱去爬山。").outcome == "seen_again"
        assert index.groups[("persona:default", "preference")].size >= 2


def test_deleted_memory_is_not_reinforced(svc):
    c = submit(svc, "User prefers pytest over unittest.")
    memory_id = svc.review.approve(c.candidate_id)
    svc.memories.delete(memory_id)
    result = submit(svc, "User likes pytest better than unittest.")
    assert result.outcome != "reinforced"


def test_prime_embeds_a_batch_that_submit_then_reuses(svc):
    from madohub_memory.services.semantic_dedup import prime

    texts = ["用户喜欢在周末去爬山。", "User prefers pnpm over npm.", "   "]
    assert prime(svc, texts) == 2
    index = vector_cache(svc.store, "use-multilingual")
    assert index.cached("用户喜欢在周末去爬山。")
    assert submit(svc, texts[0]).outcome == "new"
    assert submit(svc, "用户周末喜欢爬山。").outcome == "seen_again"
