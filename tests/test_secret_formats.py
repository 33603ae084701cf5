"""The secret scanner: every format that leaked, in context, and the hard negatives.

Secrets are generated here from a seeded random generator in the shape of their format, so
no credential-looking literal sits in the repository. The full corpus (100+ formats, 90
negatives) is ``bench/_secrets_corpus.py``; ``bench/safety.py`` pushes it through every sink.
"""

from __future__ import annotations

import base64
import random
import string
import sys
from pathlib import Path

import pytest

from madohub_memory.extraction.flags import scan

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bench"))

from _secrets_corpus import SecretCase, negative_cases, secret_cases

from madohub_memory.core.secret_turns import mask_after

_R = random.Random(2026)
B62 = string.ascii_letters + string.digits


def fake(n: int, alphabet: str = B62) -> str:
    while True:
        value = "".join(_R.choice(alphabet) for _ in range(n))
        if alphabet != B62 or (any(c.isdigit() for c in value) and any(c.isupper() for c in value)):
            return value


AWS = fake(40, B62 + "+/")
PW = "Falcon" + fake(4) + "#" + fake(3)
HEX32 = fake(32, "0123456789abcdef")

# (what the issue reported as leaking, the text, the secret that must not survive)
LEAKED_ON_MAIN = [
    ("aws-cli-json", f'{{"Credentials": {{"AccessKeyId": "ASIA{fake(16, string.ascii_uppercase)}",'
                     f' "SecretAccessKey": "{AWS}", "Expiration": "2026-11-02T09:00:00Z"}}}}', AWS),
    ("aws-prose", f"the AWS secret key for staging is {AWS}, rotate it monthly", AWS),
    ("stripe-webhook", f"the signing secret of the checkout webhook is whsec_{HEX32}", HEX32),
    ("google-oauth", f"OAuth client secret GOCSPX-{fake(28)} goes into .env.local", "GOCSPX-"),
    ("redis-empty-user", f"REDIS_URL=redis://:{PW}@cache.internal:6379/0", PW),
    ("django-paren", "SECRET_KEY = 'django-insecure-k(3x_9a!b@c#d$e%f^g&h*i(j)k" + fake(10) + "'", "k(3x_9a!b@c"),
    ("pgpassword", f"PGPASSWORD={PW} psql -h db -U postgres", PW),
    ("redis-pass", f"REDIS_HOST=cache\nREDIS_PASS={PW}\n", PW),
    ("azure-account-key", f"DefaultEndpointsProtocol=https;AccountName=shop;AccountKey={AWS}==;EndpointSuffix=core.windows.net",
     AWS),
    ("azure-sas", f"https://shop.blob.core.windows.net/up?sv=2022-11-02&sp=rwc&sig={fake(30)}%3D&se=2026-12-01", "%3D"),
    ("basic-auth", "curl -H 'Authorization: Basic " + base64.b64encode(f"admin:{PW}".encode()).decode() + "' https://x",
     base64.b64encode(f"admin:{PW}".encode()).decode()),
    ("curl-u", f"curl -u deploy:{PW} https://nexus.internal/repo/", PW),
    ("mysql-p", f"mysql -h 127.0.0.1 -u root -p{PW} shop < dump.sql", PW),
    ("sshpass", f"sshpass -p '{PW}' ssh deploy@203.0.113.10", PW),
    ("my-password-is", f"my password is {PW} but don't store it", PW),
    ("telegram", f"curl https://api.telegram.org/bot6123456789:AA{fake(33)}/getUpdates", "6123456789:AA"),
    ("twilio", f"Twilio auth token {HEX32} for account AC{fake(32, '0123456789abcdef')}", HEX32),
    ("pypi", f"twine upload -u __token__ -p pypi-AgEIcHlwaS5vcmc{fake(80)} dist/*", "pypi-AgEIcHlwaS5vcmc"),
    ("digitalocean", "doctl auth init -t dop_v1_" + fake(64, "0123456789abcdef"), "dop_v1_"),
    ("shopify", f"the shopify admin token shpat_{HEX32} is in 1Password", HEX32),
    ("password-zh", f"服务器账号 root，密码 {PW}，别告诉别人", PW),
]


@pytest.mark.parametrize(("name", "text", "secret"), LEAKED_ON_MAIN, ids=[c[0] for c in LEAKED_ON_MAIN])
def test_formats_that_leaked_are_masked(name: str, text: str, secret: str) -> None:
    masked, flags = scan(text)
    assert secret not in masked, masked
    assert "[REDACTED]" in masked and "secret" in flags


HARD_NEGATIVES = [
    f"commit {fake(40, '0123456789abcdef')}\nAuthor: Li Lei <li@example.org>",
    "request id 7f3e2a10-5b8c-4d2e-9a61-0c4b7e9d2f13 failed with 502",
    f"<img src=\"data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAA{fake(300, B62 + '+/')}==\">",
    f"integrity sha512-{fake(86, B62 + '+/')}==",
    "<div class=\"sk-circle-bounce\"><div class=\"sk-circle-bounce-dot sk-circle-bounce-dot-12\"></div></div>",
    ".sk-circle-bounce-delay-animation-keyframes-12 { animation-delay: -0.1s; }",
    "The password must be at least 12 characters long and contain a digit.",
    "I forgot my password again, so I reset it through the email link.",
    "The token is expired, so the client refreshes it on 401.",
    'api_key = os.environ["OPENAI_API_KEY"]',
    "DB_PASSWORD=${DB_PASSWORD}",
    "Use test card 4242 4242 4242 4242 with any future expiry in checkout tests.",
]


@pytest.mark.parametrize("text", HARD_NEGATIVES)
def test_hard_negatives_are_left_alone(text: str) -> None:
    masked, flags = scan(text)
    assert masked == text
    assert "secret" not in flags


def _masked(case: SecretCase) -> str:
    """A case as the store keeps it: with the turn before it when it answers one."""
    return mask_after(case.before, case.text)[0] if case.before else scan(case.text)[0]


def test_whole_corpus_no_format_missed_and_few_false_positives() -> None:
    cases = secret_cases()
    assert len(cases) >= 210  # issue 25: twice the 105 cases it had
    missed = [c.name for c in cases if any(s in _masked(c) for s in c.secrets)]
    assert missed == []
    negatives = negative_cases()
    false_positives = [t for t in negatives if scan(t)[0] != t]
    assert len(false_positives) / len(negatives) <= 0.02, false_positives


def test_masking_is_idempotent_and_keeps_the_words_around() -> None:
    for case in secret_cases():
        once = scan(case.text)[0]
        assert scan(once)[0] == once
    masked = scan(f"export PGPASSWORD='{PW}' and run the migration")[0]
    assert masked == "export PGPASSWORD='[REDACTED]' and run the migration"
