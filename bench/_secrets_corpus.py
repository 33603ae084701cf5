"""A corpus of fake secrets in context, and of hard negatives, for ``bench/safety.py`` and tests.

Every secret is generated here from a seeded random generator in the documented shape of
its format (prefix, alphabet, length); none is a real credential. Each case is one piece of
text as it would reach the program (a prompt, CLI JSON, an env file, a command line, a
config file, prose), with the parts that must never be stored.
"""

from __future__ import annotations

import base64
import random
import string
from dataclasses import dataclass

B62 = string.ascii_letters + string.digits
HEX = "0123456789abcdef"
B64 = B62 + "+/"
URLSAFE = B62 + "-_"


@dataclass(frozen=True)
class SecretCase:
    name: str
    text: str
    secrets: tuple[str, ...]  # substrings that must not survive masking
    before: str = ""  # the turn said just before this one (a secret given in the next turn)


class _Gen:
    def __init__(self, seed: int) -> None:
        self.r = random.Random(seed)

    def s(self, alphabet: str, n: int) -> str:
        """Random string with at least one upper, lower and digit when the alphabet has them."""
        while True:
            out = "".join(self.r.choice(alphabet) for _ in range(n))
            need = [c for c in (string.ascii_lowercase, string.ascii_uppercase, string.digits)
                    if any(a in c for a in alphabet)]
            if n < 8 or all(any(ch in c for ch in out) for c in need):
                return out

    def password(self) -> str:
        words = ["Tiger", "Maple", "Quartz", "Harbor", "Falcon", "Cobalt", "Juniper", "Nimbus"]
        return self.r.choice(words) + self.s(string.digits, 2) + self.r.choice("!#%&*@") + self.s(B62, 4)

    def luhn(self, prefix: str, length: int) -> str:
        digits = prefix + "".join(self.r.choice(string.digits) for _ in range(length - len(prefix) - 1))
        for check in string.digits:
            total = 0
            for i, ch in enumerate(reversed(digits + check)):
                d = int(ch)
                if i % 2:
                    d = d * 2 - 9 if d * 2 > 9 else d * 2
                total += d
            if total % 10 == 0:
                return digits + check
        raise AssertionError


def secret_cases(seed: int = 7) -> list[SecretCase]:
    g = _Gen(seed)
    cases: list[SecretCase] = []

    def add(name: str, template: str, **values: str) -> None:
        secret_keys = [k for k in values if not k.startswith("_")]
        shown = {**values, **{k.lstrip("_"): v for k, v in values.items()}}
        cases.append(SecretCase(name, template.format(**shown), tuple(values[k] for k in secret_keys)))

    aws_id = "AKIA" + g.s(string.ascii_uppercase + string.digits, 16)
    aws_secret = g.s(B64, 40)
    aws_token = "FwoGZXIvYXdzE" + g.s(B64, 120)
    cases.append(SecretCase(
        "aws-cli-json",
        '$ aws sts get-session-token\n{\n  "Credentials": {\n    "AccessKeyId": "' + aws_id + '",\n'
        '    "SecretAccessKey": "' + aws_secret + '",\n    "SessionToken": "' + aws_token + '",\n'
        '    "Expiration": "2026-11-02T09:00:00Z"\n  }\n}',
        (aws_secret, aws_token),
    ))
    add("aws-prose", "the AWS secret access key for the staging account is {k}, rotate it next week", k=g.s(B64, 40))
    add("aws-prose-no-verb", "Here are the creds. AWS access key {i} and secret key {k}", i="AKIA" + g.s(string.ascii_uppercase + string.digits, 16), k=g.s(B64, 40))
    add("aws-credentials-file", "[default]\naws_access_key_id = {i}\naws_secret_access_key = {k}\nregion = eu-west-1",
        i="AKIA" + g.s(string.ascii_uppercase + string.digits, 16), k=g.s(B64, 40))
    add("aws-env", "export AWS_SECRET_ACCESS_KEY={k}\nexport AWS_DEFAULT_REGION=us-east-1", k=g.s(B64, 40))
    add("stripe-webhook", "Set STRIPE_WEBHOOK_SECRET in Vercel to {k} (from the dashboard)", k="whsec_" + g.s(B62, 32))
    add("stripe-webhook-prose", "the signing secret for the checkout endpoint is whsec_{k}", k=g.s(B62, 32))
    add("stripe-live", "charge failed with key sk_live_{k}", k=g.s(B62, 24))
    add("stripe-restricted", "use the restricted key rk_live_{k} for the reporting job", k=g.s(B62, 99))
    add("google-oauth-secret", '{{"web":{{"client_id":"1234567890-abc.apps.googleusercontent.com","client_secret":"GOCSPX-{k}"}}}}', k=g.s(URLSAFE, 28))
    add("google-oauth-prose", "OAuth client secret GOCSPX-{k} goes into .env.local", k=g.s(URLSAFE, 28))
    add("google-api-key", "maps still says REQUEST_DENIED with key AIza{k}", k=g.s(URLSAFE, 35))
    add("google-refresh-token", "refresh_token: 1//0{k}", k=g.s(URLSAFE, 60))
    add("redis-url-empty-user", "REDIS_URL=redis://:{p}@cache.internal:6379/0", p=g.s(B62, 20))
    add("redis-url-prose", "connect with redis://:{p}@10.0.3.7:6380 from the worker", p=g.password())
    add("postgres-url", "DATABASE_URL=postgresql://app_user:{p}@db.prod.internal:5432/app", p=g.password())
    add("mongodb-srv", 'MONGO_URI="mongodb+srv://admin:{p}@cluster0.ab1cd.mongodb.net/prod?retryWrites=true"', p=g.s(B62, 16))
    add("amqp-url", "amqp://guest:{p}@rabbit:5672/ is what celery uses", p=g.s(B62, 14))
    add("git-remote-token", "git remote set-url origin https://oauth2:{t}@gitlab.example.org/team/app.git", t=g.s(URLSAFE, 24))
    add("django-secret-key", "SECRET_KEY = 'django-insecure-{k}'",
        k="".join(g.r.choice(string.ascii_lowercase + string.digits + "!@#$%^&*(-_=+)") for _ in range(50)) + "(x")
    add("django-secret-key-dq", 'SECRET_KEY="{k}"', k="k(3" + g.s(string.ascii_lowercase + string.digits, 20) + ")@!(" + g.s(string.ascii_lowercase, 10))
    add("pgpassword-cmd", "PGPASSWORD={p} psql -h db.internal -U postgres -c 'select 1'", p=g.password())
    add("pgpassword-export", "export PGPASSWORD='{p}'", p=g.password())
    add("redis-pass-env", "REDIS_HOST=cache\nREDIS_PORT=6379\nREDIS_PASS={p}\n", p=g.s(B62, 18))
    add("db-pass-env", "DB_USER=shop\nDB_PASS={p}\nDB_NAME=shop_prod", p=g.password())
    add("mysql-root-password", "MYSQL_ROOT_PASSWORD: {p}", p=g.password())
    add("azure-account-key", "DefaultEndpointsProtocol=https;AccountName=shopassets;AccountKey={k};EndpointSuffix=core.windows.net",
        k=g.s(B64, 86) + "==")
    add("azure-sas", "the upload URL is https://shopassets.blob.core.windows.net/uploads?sv=2022-11-02&ss=b&srt=o&sp=rwc"
        "&se=2026-12-01T00:00:00Z&spr=https&sig={s}", s=g.s(B62, 30) + "%2B" + g.s(B62, 10) + "%3D")
    add("azure-servicebus", "Endpoint=sb://orders.servicebus.windows.net/;SharedAccessKeyName=RootManageSharedAccessKey;SharedAccessKey={k}",
        k=g.s(B64, 43) + "=")
    add("azure-client-secret", "AZURE_CLIENT_SECRET={k}", k=g.s(B62, 3) + "8Q~" + g.s(URLSAFE + "~.", 34))
    basic_pw = g.password()
    add("basic-auth-header", 'curl -H "Authorization: Basic {b}" https://api.internal/v1/orders',
        b=base64.b64encode(f"admin:{basic_pw}".encode()).decode())
    add("bearer-header", "Authorization: Bearer {t}", t=g.s(URLSAFE, 40))
    add("curl-user", "curl -u deploy:{p} https://nexus.internal/repository/releases/", p=g.password())
    add("curl-user-quoted", "curl --user 'ci-bot:{p}' -X POST https://jenkins.local/job/build", p=g.s(B62, 16))
    add("mysql-p", "mysql -h 127.0.0.1 -u root -p{p} shop < dump.sql", p=g.s(B62, 12))
    add("mysqldump-p", "mysqldump -uroot -p'{p}' --all-databases > all.sql", p=g.password())
    add("sshpass", "sshpass -p '{p}' ssh deploy@203.0.113.10 'sudo systemctl restart app'", p=g.password())
    add("sshpass-bare", "sshpass -p {p} scp build.tar.gz pi@raspberrypi.local:", p=g.s(B62, 10))
    add("docker-login", "docker login -u shopbot -p {p} registry.example.org", p=g.s(B62, 20))
    add("redis-cli-a", "redis-cli -h cache -a {p} INFO", p=g.s(B62, 16))
    add("openssl-pass", "openssl pkcs12 -export -in cert.pem -inkey key.pem -out cert.p12 -passout pass:{p}", p=g.password())
    add("my-password-is", "my password is {p} but don't store it", p=g.password())
    add("the-password-is", "The wifi password is {p}", p=g.s(B62, 12))
    add("password-colon", "staging admin login: admin / password: {p}", p=g.password())
    add("password-zh", "服务器 root 密码是 {p}，别告诉别人", p=g.password())
    add("password-zh-colon", "数据库密码：{p}", p=g.s(B62, 12))
    add("secret-zh", "阿里云 AccessKey Secret 是 {k}", k=g.s(B62, 30))
    add("telegram", "TELEGRAM_BOT_TOKEN={t}", t=str(g.r.randint(100000000, 999999999)) + ":AA" + g.s(URLSAFE, 33))
    add("telegram-prose", "the bot token from BotFather: {t}", t=str(g.r.randint(1000000000, 7999999999)) + ":AA" + g.s(URLSAFE, 33))
    add("telegram-url", "curl https://api.telegram.org/bot{t}/getUpdates", t=str(g.r.randint(100000000, 999999999)) + ":AA" + g.s(URLSAFE, 33))
    add("twilio-auth-token", "TWILIO_ACCOUNT_SID=AC{_sid}\nTWILIO_AUTH_TOKEN={t}", _sid=g.s(HEX, 32), t=g.s(HEX, 32))
    add("twilio-prose", "Twilio auth token {t} for account AC{a}", t=g.s(HEX, 32), a=g.s(HEX, 32))
    add("twilio-api-key", "twilio api:core:messages:create --api-key SK{k} --api-secret {s}", k=g.s(HEX, 32), s=g.s(B62, 32))
    add("pypi-token", "[pypi]\n  username = __token__\n  password = pypi-AgEIcHlwaS5vcmc{k}", k=g.s(URLSAFE, 120))
    add("pypi-twine", "TWINE_PASSWORD=pypi-AgENdGVzdC5weXBpLm9yZw{k} twine upload dist/*", k=g.s(URLSAFE, 100))
    add("digitalocean", "doctl auth init -t dop_v1_{k}", k=g.s(HEX, 64))
    add("digitalocean-env", "DIGITALOCEAN_TOKEN=dop_v1_{k}", k=g.s(HEX, 64))
    add("shopify", "X-Shopify-Access-Token: shpat_{k}", k=g.s(HEX, 32))
    add("shopify-secret", "SHOPIFY_API_SECRET=shpss_{k}", k=g.s(HEX, 32))
    add("openai-project", "OPENAI_API_KEY=sk-proj-{k}", k=g.s(URLSAFE, 120))
    add("openai-legacy", "my key sk-{k} stopped working", k=g.s(B62, 48))
    add("anthropic", "ANTHROPIC_API_KEY=sk-ant-api03-{k}", k=g.s(URLSAFE, 93) + "AA")
    add("openrouter", "use sk-or-v1-{k} for the router", k=g.s(HEX, 64))
    add("deepseek", "DeepSeek 的 key 是 sk-{k}", k=g.s(HEX, 32))
    add("github-pat-classic", "git clone https://ghp_{k}@github.com/acme/private.git", k=g.s(B62, 36))
    add("github-fine-grained", "GH_TOKEN=github_pat_{k}", k=g.s(B62, 22) + "_" + g.s(B62, 59))
    add("gitlab", 'curl --header "PRIVATE-TOKEN: glpat-{k}" https://gitlab.com/api/v4/projects', k=g.s(URLSAFE, 20))
    add("slack-bot", "SLACK_BOT_TOKEN=xoxb-{a}-{b}-{c}", a=g.s(string.digits, 12), b=g.s(string.digits, 13), c=g.s(B62, 24))
    add("slack-webhook", "post to https://hooks.slack.com/services/T{a}/B{b}/{c}", a=g.s(string.ascii_uppercase + string.digits, 8),
        b=g.s(string.ascii_uppercase + string.digits, 10), c=g.s(B62, 24))
    add("discord-webhook", "https://discord.com/api/webhooks/{a}/{b}", a=g.s(string.digits, 18), b=g.s(URLSAFE, 68))
    add("huggingface", "huggingface-cli login --token hf_{k}", k=g.s(B62, 34))
    add("npm-token", "//registry.npmjs.org/:_authToken=npm_{k}", k=g.s(B62, 36))
    add("sendgrid", "SENDGRID_API_KEY=SG.{a}.{b}", a=g.s(URLSAFE, 22), b=g.s(URLSAFE, 43))
    add("jwt", "the session cookie was eyJhbGciOiJIUzI1NiJ9.eyJ{a}.{b}", a=g.s(URLSAFE, 40), b=g.s(URLSAFE, 43))
    add("private-key-pem", "-----BEGIN RSA PRIVATE KEY-----\n{a}\n{b}\n-----END RSA PRIVATE KEY-----", a=g.s(B64, 64), b=g.s(B64, 64))
    add("openssh-key", "cat ~/.ssh/id_ed25519\n-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQ{a}\n-----END OPENSSH PRIVATE KEY-----", a=g.s(B64, 60))
    add("mailgun", "MAILGUN_API_KEY=key-{k}", k=g.s(HEX, 32))
    add("mailchimp", "mailchimp key {k}-us21", k=g.s(HEX, 32))
    add("square", "SQUARE_ACCESS_TOKEN=EAAA{k}", k=g.s(URLSAFE, 60))
    add("datadog", "DD_API_KEY={k} DD_SITE=datadoghq.eu", k=g.s(HEX, 32))
    add("heroku-uuid", "HEROKU_API_KEY={k}", k="-".join(g.s(HEX, n) for n in (8, 4, 4, 4, 12)))
    add("cloudflare", "CLOUDFLARE_API_TOKEN={k}", k=g.s(URLSAFE, 40))
    add("vault", "VAULT_TOKEN=hvs.{k}", k=g.s(URLSAFE, 90))
    add("docker-pat", "echo dckr_pat_{k} | docker login -u acme --password-stdin", k=g.s(URLSAFE, 27))
    add("linear", "LINEAR_API_KEY=lin_api_{k}", k=g.s(B62, 40))
    add("notion", "notion integration secret_{k}", k=g.s(B62, 43))
    add("groq", "GROQ_API_KEY=gsk_{k}", k=g.s(B62, 52))
    add("atlassian", "jira token ATATT3xFfGF0{k}", k=g.s(URLSAFE, 180))
    add("yaml-config", "database:\n  host: db.internal\n  user: shop\n  password: \"{p}\"\n  pool: 10", p=g.password())
    add("json-config", '{{"smtp": {{"host": "smtp.mailgun.org", "user": "postmaster@mg.shop.io", "password": "{p}"}}}}', p=g.s(B62, 20))
    add("toml-config", '[tool.poetry.http-basic.private]\nusername = "ci"\npassword = "{p}"', p=g.password())
    add("netrc", "machine api.heroku.com login me@shop.io password {p}", p=g.s(HEX, 36))
    add("pgpass", "db.internal:5432:shop:shop_user:{p}", p=g.password())
    add("sql-identified-by", "CREATE USER 'app'@'%' IDENTIFIED BY '{p}';", p=g.password())
    add("sql-alter-password", "ALTER USER postgres WITH PASSWORD '{p}';", p=g.password())
    add("k8s-secret-literal", "kubectl create secret generic db --from-literal=password={p}", p=g.password())
    add("docker-env", "docker run -e POSTGRES_PASSWORD={p} -p 5432:5432 postgres:16", p=g.password())
    add("cli-flag-token", "gh auth login --with-token < token.txt; vercel deploy --token {t}", t=g.s(B62, 24))
    add("api-key-header", 'curl -H "X-API-Key: {k}" https://api.example.com/v2/items', k=g.s(B62, 32))
    add("query-api-key", "GET https://api.weather.io/v1/forecast?city=Berlin&api_key={k}&units=metric", k=g.s(HEX, 32))
    add("query-access-token", "https://graph.facebook.com/me?access_token={k}", k="EAAB" + g.s(B62, 100))
    add("presigned-s3", "https://bucket.s3.amazonaws.com/report.pdf?X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Credential=AKIA{i}%2F20261101%2Fus-east-1%2Fs3%2Faws4_request&X-Amz-Signature={s}",
        i=g.s(string.ascii_uppercase + string.digits, 16), s=g.s(HEX, 64))
    card = g.luhn("4539", 16)
    add("card-number", "charge the customer card {c} please", c=" ".join(card[i:i + 4] for i in range(0, 16, 4)))
    add("card-number-zh", "我的信用卡卡号是 {c}，有效期 09/28", c=g.luhn("62", 16))
    add("card-number-amex", "Amex {c} exp 11/27", c=g.luhn("37", 15))
    from _secrets_context import context_cases  # shapes known only by their context (issue 25)

    return cases + context_cases(g)


def negative_cases() -> list[str]:
    """Text that must come out unchanged: hashes, ids, encoded data, code, prose about secrets."""
    g = _Gen(11)
    sha = g.s(HEX, 40)
    neg = [
        f"commit {sha}\nAuthor: Li Lei <li@example.org>",
        f"Merge pull request #412 from acme/fix-login ({sha[:7]})",
        f"git checkout {g.s(HEX, 40)} -- src/auth/token.py",
        f"the token refresh bug was fixed in {g.s(HEX, 12)}",
        f"git rev-parse HEAD -> {g.s(HEX, 40)}",
        f"request id {'-'.join(g.s(HEX, n) for n in (8, 4, 4, 4, 12))} failed with 502",
        f"session_id = \"{'-'.join(g.s(HEX, n) for n in (8, 4, 4, 4, 12))}\"",
        f"<img src=\"data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAA{g.s(B64, 300)}==\">",
        f"background: url(data:image/svg+xml;base64,PHN2ZyB4bWxucz0{g.s(B64, 200)});",
        f"  integrity sha512-{g.s(B64, 86)}==",
        f'"integrity": "sha512-{g.s(B64, 86)}=="',
        f'    "resolved": "https://registry.npmjs.org/left-pad/-/left-pad-1.3.0.tgz",\n    "integrity": "sha1-{g.s(B64, 27)}="',
        f"image: ghcr.io/acme/api@sha256:{g.s(HEX, 64)}",
        f"Digest: sha256:{g.s(HEX, 64)}",
        f"{g.s(HEX, 64)}  dist/app-1.4.2.tar.gz",
        "<div class=\"sk-circle-bounce\"><div class=\"sk-circle-bounce-dot sk-circle-bounce-dot-12\"></div></div>",
        ".sk-circle-bounce-delay-animation-keyframes-12 { animation-delay: -0.1s; }",
        "import 'spinkit/spinkit.css'  /* sk-chase-dot-before, sk-fading-circle-item */",
        "The password must be at least 12 characters long and contain a digit.",
        "I forgot my password again, so I reset it through the email link.",
        "Passwords are hashed with argon2id; we never log them.",
        "The token is expired, so the client refreshes it on 401.",
        "Secret: Choose a strong one and keep it safe.",
        "Your API key is shown once; copy it into your password manager.",
        "Rotate the Stripe secret key every 90 days and store it in Vault.",
        "我忘了密码，只好重置。",
        "密码至少需要八位，并且包含数字。",
        "令牌过期后客户端会自动刷新。",
        "def login(username: str, password: str) -> Session:",
        'api_key = os.environ["OPENAI_API_KEY"]',
        "password = getpass.getpass()",
        "token = jwt.encode(payload, settings.SECRET_KEY, algorithm='HS256')",
        "const apiKey = process.env.STRIPE_SECRET_KEY;",
        "secret_key = secrets.token_hex(32)",
        "PASSWORD_MIN_LENGTH=12",
        "max_tokens=1024, temperature=0.2",
        '"usage": {"prompt_tokens": 1532, "completion_tokens": 211, "total_tokens": 1743}',
        "token_count: 4096",
        "OPENAI_API_KEY=your_openai_api_key_here",
        "DB_PASSWORD=${DB_PASSWORD}",
        "password: ${{ secrets.DEPLOY_PASSWORD }}",
        "export GITHUB_TOKEN=<your-token>",
        "STRIPE_SECRET_KEY=sk_test_...",
        "API_KEY=xxxxxxxxxxxxxxxx",
        "postgres://your_username:your_password@localhost/db",
        "postgresql://postgres@localhost:5432/app",
        "git@github.com:acme/shop.git",
        "https://user@bitbucket.org/acme/shop.git",
        "http://localhost:5173/@vite/client",
        "mysql -u root -p shop",
        "mysql -h db -P 3306 -u app shop",
        "curl -u \"$NEXUS_USER:$NEXUS_PASSWORD\" https://nexus/",
        "sshpass -p \"$SSHPASS\" ssh deploy@host",
        "docker login -u \"$CI_REGISTRY_USER\" -p \"$CI_REGISTRY_PASSWORD\" $CI_REGISTRY",
        "password_hash = bcrypt.hashpw(password.encode(), bcrypt.gensalt())",
        "if not user.check_password(form.password.data):",
        "<input type=\"password\" name=\"password\" placeholder=\"Password\">",
        "label=\"Password\", help_text=\"Your password can't be too similar to your other personal information.\"",
        '{"password": "Password", "password_hint": "At least 8 characters"}',
        "The order number is 20231104-88231 and the tracking code is 1Z999AA10123456784.",
        "Listening on 0.0.0.0:8000, pid 48213",
        "Build 2026.11.01-rc3 took 415 seconds",
        "Version 1.24.3 (build 8f3a2c1) released 2026-10-30",
        "ULID 01HF3Z8Q7X9M2C4V6B8N0P1R3T assigned to the job",
        "The video is https://www.youtube.com/watch?v=dQw4w9WgXcQ&t=42s",
        "pod api-7d9f8b6c5-x2k4q restarted 3 times",
        "See https://github.com/acme/shop/blob/3f2a9c1b7e/README.md#L10",
        "kubectl get secret db-credentials -o jsonpath='{.data.password}' | base64 -d",
        "Store the token in the keychain, never in the repo.",
        "The access token lifetime is 3600 seconds, the refresh token lifetime is 30 days.",
        "AccessKeyId is fine to log, SecretAccessKey is not.",
        "Use test card 4242 4242 4242 4242 with any future expiry in checkout tests.",
        "Timestamp 1730419200000 is the start of November 2024.",
        "Phone support: the queue had 4539 tickets in 2025 and 1488 in 2026.",
        "The CSS var --sk-primary-color-500 is used by the spinner.",
        "The secret to fast builds is caching node_modules between CI runs.",
        "My password manager is 1Password; the team uses Bitwarden.",
        "tokens per second: 42.7 (model qwen2.5-coder-7b-instruct-q4_k_m)",
        "openssl rand -base64 32 > secret.txt",
        "ssh-keygen -t ed25519 -C \"li@example.org\" -f ~/.ssh/id_ed25519",
        "The key fingerprint is SHA256:nThbg6kXUpJWGl7E1IGOCspRomTxdCARLviKw6E5SY8.",
        "AWS region eu-west-1, account 123456789012, role arn:aws:iam::123456789012:role/deploy",
        "The password is stored in 1Password under 'prod db'.",
        "The token is in the CI variables, ask Wang Fang.",
        "用户的密码保存在 Vault 里，不要写进代码。",
        "set `auth_token_ttl` to 3600",
        "--password-stdin reads the password from standard input",
        "pip install pyjwt==2.8.0 python-jose[cryptography]",
        "eslint-plugin-security flags detect-possible-timing-attacks",
        "we renamed sk-button to sk-btn-primary in the design system",
    ]
    from _secrets_context import context_negatives

    return neg + context_negatives(g)
