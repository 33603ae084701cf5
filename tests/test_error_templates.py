"""Errors carry their template and values: English where raised, translated by the dashboard."""

from __future__ import annotations

import pytest
from error_templates_scan import fields, script

from madohub_memory.core.errors import ImportFileError, NotFoundError, UserError, ValidationError
from madohub_memory.core.vocab import validate_namespace
from madohub_memory.services import Services


def test_every_raise_passes_a_literal_template_with_keyword_values() -> None:
    """An f-string sentence could not be looked up in the translations: the scan finds none."""
    scan = script().scan()
    assert scan.problems == []
    assert len(scan.templates) > 100
    assert "No memory with id {memory_id}." in scan.templates


def test_the_english_sentence_is_the_template_filled_in() -> None:
    err = NotFoundError("No memory with id {memory_id}.", memory_id=7)
    assert str(err) == "No memory with id 7."
    assert (err.template, err.arguments) == ("No memory with id {memory_id}.", {"memory_id": 7})
    # without values a template is a plain sentence, braces and all
    assert str(UserError("use {\"/path\": \"project\"}.")) == "use {\"/path\": \"project\"}."
    line = ImportFileError("Line {line} of {source} is not valid JSON; nothing was imported.", line=3, source="f")
    assert (str(line), line.line) == ("Line 3 of f is not valid JSON; nothing was imported.", 3)


def test_a_service_error_keeps_its_values_for_the_translation(svc: Services) -> None:
    with pytest.raises(ValidationError) as caught:
        validate_namespace("project shop")
    assert caught.value.template == "Malformed namespace {namespace}: use persona:<name> or workspace:<project>."
    assert str(caught.value) == "Malformed namespace 'project shop': use persona:<name> or workspace:<project>."
    cid = svc.review.add_manual("The deploy script lives in ops/deploy.sh", "fact").candidate_id
    svc.review.reject(cid)
    with pytest.raises(UserError) as caught:
        svc.review.approve(cid)
    assert caught.value.arguments == {"candidate_id": cid, "status": "rejected", "expected": "pending"}
    assert str(caught.value) == f"Candidate {cid} is rejected, not pending."


def test_a_huge_value_is_cut_in_the_middle_of_the_sentence() -> None:
    err = ValidationError("Unknown setting {key}: see `madohub-memory settings list`.", key="x" * 20_000)
    assert len(str(err)) < 500 and str(err).endswith("see `madohub-memory settings list`.")


def test_fields_compare_names_conversions_and_formats() -> None:
    assert fields("{a!r} has {n:,} of {b}") == [("a", "r", ""), ("b", "", ""), ("n", "", ",")]
