"""Secrets known only by their context (issue 25): the shapes a red-team corpus found, and the
places where text is cut or escaped before it is masked.

Values are generated here; none is a real credential. The full corpus (220 cases, 182 hard
negatives) is ``bench/_secrets_corpus.py`` + ``bench/_secrets_context.py``.
"""

from __future__ import annotations

import json
import logging
import random
import string
import sys
from pathlib import Path

import pytest

from madohub_memory.core.errors import ValidationError, shown
from madohub_memory.core.secret_turns import mask_after, mask_turns
from madohub_memory.core.secrets import mask_secrets
from madohub_memory.extraction.flags import scan

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bench"))

from _secrets_context import FOLLOW_UPS

_R = random.Random(2511)
B64 = string.ascii_letters + string.digits + "+/"


def fake(n: int, alphabet: str = string.ascii_letters + string.digits, first: str = "") -> str:
    while True:
        value = first + "".join(_R.choice(alphabet) for _ in range(n - len(first)))
        classes = [k for k in (str.isdigit, str.isupper, str.islower) if any(k(a) for a in alphabet)]
        if all(any(k(c) for c in value) for k in classes):
            return value


AWS = fake(40, B64, first="/")  # a secret access key that starts with "/" read as a path before
PAT = "ghp_" + fake(36)
KEY_ID = "".join(_R.choice("0123456789abcdef") for _ in range(40))
BODY = fake(64, B64)


@pytest.mark.parametrize(("text", "secret"), [
    (f"export AWS_SECRET_ACCESS_KEY={AWS}", AWS),
    (f"the secret access key for the backup bucket is {AWS} and it expires in May", AWS),
    (f'{{"AccessKey": {{"AccessKeyId": "AKIA{fake(16, string.ascii_uppercase)}", "SecretAccessKey": "{AWS}"}}}}', AWS),
    (f'{{"result": {{"value": "{AWS[1:]}x"}}}}', AWS[1:]),  # 40 base64 characters under any name
    (f"我的 AWS 私有访问密钥是 {AWS}，别外传", AWS),
    (f'Which key? {{"type": "service_account", "private_key_id": "{KEY_ID}", "private_key": "{BODY}\\n{BODY}\\n"}}',
     KEY_ID),
    (f'Which key? {{"type": "service_account", "private_key_id": "{KEY_ID}", "private_key": "{BODY}\\n{BODY}\\n"}}',
     BODY),
    (f'{{"kty": "EC", "crv": "P-256", "d": "{fake(43, string.ascii_letters + string.digits + "-_")}"}}', '"d": "'),
    (f'<add key="StorageAccountKey" value="{fake(86, B64)}==" />', 'value="' + "x" * 0),
    (f"<password>{fake(12)}!</password>", "</password>"),
    (f"requests.get(url, auth=('admin', 'Harbor32*{fake(5)}'))", "Harbor32*"),
    (f"machine github.com\n  login octocat\n  password {fake(40)}", "password "),
    ("Charge the card 4111 1111 1111 1111 exp 09/28 for the renewal", "4111 1111"),
    ("4024 0071 5336 1885 12/28 CVV 381", "4024 0071"),
    (f'{{"prompt": "deploy it\\n{PAT}\\nthanks"}}', PAT),  # a token after an escaped newline (a repr, JSON)
    (f"prompt was: {PAT[:24]}…", PAT[:24]),  # a token cut short by a sentence that quoted it
    (f"What is the Redis password? it's Falcon20*{fake(4)}", "Falcon20*"),
])
def test_secret_known_by_its_context_is_masked(text: str, secret: str) -> None:
    masked, flags = scan(text)
    if secret.endswith(('"', "=", " ", ">")) or secret.startswith(("<", "value")):
        assert masked.count("[REDACTED]") >= 1 and "secret" in flags, masked
    else:
        assert secret not in masked, masked
        assert "secret" in flags


@pytest.mark.parametrize("text", [
    "Use 4242 4242 4242 4242 with any CVC in Stripe test mode.",  # a published test number, said to be one
    "测试卡号 4111 1111 1111 1111 只在沙箱环境里用。",
    f"ssh-rsa AAAAB3NzaC1yc2EAAAADAQABAAABAQ{fake(200, B64)} deploy@ci",  # a public key, slashes and all
    "The key fingerprint is SHA256:nThbg6kXUpJWGl7E1IGOCspRomTxdCARLviKw6E5SY8.",
    "echo aGVsbG8gd29ybGQgZnJvbSB0aGUgc3RhZ2luZyBib3g= | base64 -d",  # base64 of text
    "https://docs.google.com/document/d/1AbCdEfGhIjKlMnOpQrStUvWxYz0123456789AbCdEf/edit",
    "The password must be at least 12 characters long.\nv2.4.1 fixes it",
    "mockAuth.getAccessToken = jest.fn().mockResolvedValue({ tokens: mockTokens });",
])
def test_look_alikes_are_left_alone(text: str) -> None:
    assert mask_secrets(text)[0] == text


@pytest.mark.parametrize(("question", "answer"), FOLLOW_UPS)
def test_a_reply_to_a_question_that_names_no_secret_is_kept(question: str, answer: str) -> None:
    assert mask_after(question, answer)[0] == answer


def test_a_value_given_in_the_next_turn_and_repeated_later_is_masked() -> None:
    password = f"Quartz39&{fake(4)}"
    turns = mask_turns(["Please paste the staging database password here.", password, f"Noted: {password}"])
    assert turns == ["Please paste the staging database password here.", "[REDACTED]", "Noted: [REDACTED]"]
    said = f"my password is {password}"
    assert mask_turns([said, f"Thanks, {password} it is."])[1] == "Thanks, [REDACTED] it is."


def test_an_error_sentence_is_masked_before_it_is_cut() -> None:
    quoted = "x" * 30 + f" {PAT} " + "y" * 30  # the token straddles shown()'s 60-character cut
    assert PAT[:10] not in shown(quoted)
    err = ValidationError("Choice {chosen!r} is not one of the options: {choices}.",
                          chosen="z" * 200 + f" use {PAT}", choices="a, b")
    assert PAT[:10] not in str(err) and PAT not in str(err.arguments)


def test_a_log_format_that_cuts_its_argument_cuts_the_masked_one(caplog: pytest.LogCaptureFixture) -> None:
    from madohub_memory.core import log_redaction

    log_redaction.install()
    reply = "r" * 180 + f" {PAT} and more"  # "%.200r" would cut the token in two
    with caplog.at_level(logging.WARNING):
        logging.getLogger("madohub_memory.test").warning("LLM reply is not JSON: %.200r", reply)
    assert PAT[:10] not in caplog.text


def test_masked_text_is_stable() -> None:
    from _secrets_corpus import secret_cases

    for case in secret_cases():
        once = mask_after(case.before, case.text)[0] if case.before else scan(case.text)[0]
        assert scan(once)[0] == once, case.name
        json.dumps(once)
