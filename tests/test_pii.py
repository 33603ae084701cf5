"""Personal data: card numbers and IBANs are flagged (cards are masked as well), the
export can leave personal data out, and the turn viewer marks it."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from madohub_memory.cli import main
from madohub_memory.core.types import CandidateDraft
from madohub_memory.extraction.flags import scan
from madohub_memory.services import Services


def luhn(prefix: str, length: int) -> str:
    for tail in range(10 ** (length - len(prefix) - 1)):
        digits = prefix + str(tail).zfill(length - len(prefix) - 1)
        for check in "0123456789":
            total = 0
            for i, ch in enumerate(reversed(digits + check)):
                d = int(ch) * (2 if i % 2 else 1)
                total += d - 9 if d > 9 else d
            if total % 10 == 0 and len(set(digits)) > 4:
                return digits + check
    raise AssertionError


VISA = luhn("45394817", 16)
GROUPED = " ".join(VISA[i:i + 4] for i in range(0, 16, 4))
IBAN = "DE89 3704 0044 0532 0130 00"  # the standard documentation example


@pytest.mark.parametrize("text", [
    f"charge the customer card {GROUPED} please",
    f"我的信用卡卡号是 {VISA}，有效期 09/28",
    f"Pay the invoice to IBAN {IBAN} by Friday.",
    "GB82WEST12345698765432 is the company account",
])
def test_cards_and_ibans_are_pii(text: str) -> None:
    assert "pii" in scan(text)[1]


def test_a_card_number_is_masked_an_iban_is_kept() -> None:
    masked, flags = scan(f"card {GROUPED}, IBAN {IBAN}")
    assert VISA[:4] + " " + VISA[4:8] not in masked and IBAN in masked
    assert {"pii", "secret"} <= set(flags)


@pytest.mark.parametrize("text", [
    "Use test card 4242 4242 4242 4242 in checkout tests.",
    "Order 4539148803436467 is not a card without a card word nearby",  # Luhn-valid, no context
    "DE89 3704 0044 0532 0130 01 is a typo'd IBAN",  # wrong check digits
    "Timestamp 1730419200000 marks the release.",
])
def test_not_pii(text: str) -> None:
    assert "pii" not in scan(text)[1]


def test_export_redact_pii_leaves_personal_data_out(svc: Services, tmp_path: Path, db_path: Path) -> None:
    transcript = tmp_path / "chat.jsonl"
    transcript.write_text(json.dumps({"role": "user", "content": f"Mail li.lei@example.org, IBAN {IBAN}"}) + "\n",
                          encoding="utf-8")
    svc.ingest.ingest_paths([str(transcript)], format="jsonl")
    cid = svc.review.submit(CandidateDraft("User's phone is 13912345678.", "fact", source="remember")).candidate_id
    svc.review.approve(cid)
    full, shared = tmp_path / "full.jsonl", tmp_path / "shared.jsonl"
    assert main(["export", str(full), "--db", str(db_path)]) == 0
    assert main(["export", str(shared), "--redact-pii", "--db", str(db_path)]) == 0
    assert "li.lei@example.org" in full.read_text(encoding="utf-8")  # the backup is lossless
    text = shared.read_text(encoding="utf-8")
    for value in ("li.lei@example.org", IBAN, "13912345678"):
        assert value not in text
    assert "[PII:email]" in text and "[PII:iban]" in text and "[PII:phone]" in text
    with Services.open(tmp_path / "copy.db") as other:  # the redacted file still imports
        other.transfer.import_file(shared)
        memory = other.memories.list()[0]
        assert memory.content == "User's phone is [PII:phone]."


def test_turn_viewer_marks_personal_data() -> None:
    from madohub_memory.gui.turn_viewer import render_turns

    context = {"focus": 0, "turns": [{"role": "user", "seq": 0, "content": "Write to li.lei@example.org <b>now</b>"}]}
    html = render_turns(context, set(), {"fold": "more", "origin": "origin", "pii": "Personal data"})
    assert "title='Personal data: email'" in html
    assert ">li.lei@example.org</span>" in html
    assert "&lt;b&gt;now&lt;/b&gt;" in html  # the rest is still escaped
