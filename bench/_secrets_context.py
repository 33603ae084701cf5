"""Secrets recognisable only by their context, and harder negatives (``_secrets_corpus`` adds them).

Written for issue 25: a red-team corpus outside the repository found secrets that carry no
telltale prefix, so this part of the corpus has (almost) none. Each case is a shape a
person or a tool really produces: a key name (``aws_secret_access_key = …``,
``"private_key": …``), a key file's structure (a service-account JSON key, an AWS CLI
answer), a credentials file's layout (``~/.aws/credentials``, ``.netrc``, INI, XML,
properties), a card number with spaces or dashes, a secret given in the turn after the one
that asks for it (``before``), inside a code block, in a file path or a URL path, in a
Chinese sentence, and in escaped text (a log line's ``repr``, JSON with ``\\n``).

Values come from a seeded generator in the shape of their format; none is a real credential.
Negatives are what sits next to secrets in the same places and must stay readable: git
SHAs, UUIDs and trace ids, base64 of ordinary text, long hex in logs, public keys, object
ids with prefixes, published test card numbers in a test context, code that handles keys.
"""

from __future__ import annotations

import base64
import json
import string
import uuid
from collections.abc import Callable

from _secrets_corpus import B62, B64, HEX, URLSAFE, SecretCase, _Gen

UPPER_DIGITS = string.ascii_uppercase + string.digits


def _aws_secret(g: _Gen, first: str = "") -> str:
    """A 40-character AWS-style secret access key; ``first`` forces its first character."""
    return first + g.s(B64, 40 - len(first))


def _pem_body(g: _Gen, lines: int = 26) -> list[str]:
    raw = base64.b64encode(bytes(g.r.randrange(256) for _ in range(lines * 48))).decode()
    body = "MIIEvQIBADANBgkqhkiG9w0BAQEFAASCBKcwggSjAgEAAoIBAQ" + raw[50:]
    return [body[i:i + 64] for i in range(0, len(body), 64)]


def _card(g: _Gen, prefix: str, length: int, sep: str, groups: tuple[int, ...] = (4, 4, 4, 4)) -> tuple[str, str]:
    digits = g.luhn(prefix, length)
    parts, at = [], 0
    for n in groups:
        parts.append(digits[at:at + n])
        at += n
    return sep.join(parts), digits


def context_cases(g: _Gen) -> list[SecretCase]:
    cases: list[SecretCase] = []

    def add(name: str, template: str, before: str = "", **values: str) -> None:
        secret_keys = [k for k in values if not k.startswith("_")]
        shown = {**values, **{k.lstrip("_"): v for k, v in values.items()}}
        cases.append(SecretCase(name, template.format(**shown), tuple(values[k] for k in secret_keys), before))

    # -- a key name, no prefix -------------------------------------------------------------
    aid = "AKIA" + g.s(UPPER_DIGITS, 16)
    add("aws-env-slash", "export AWS_SECRET_ACCESS_KEY={k}\nexport AWS_REGION=eu-central-1", k=_aws_secret(g, "/"))
    add("aws-prose-slash", "the secret access key for the backup bucket is {k} and it expires in May", k=_aws_secret(g, "/"))
    add("aws-cli-json-slash", '{{"AccessKey": {{"UserName": "ci", "AccessKeyId": "{_i}", "Status": "Active", '
        '"SecretAccessKey": "{k}", "CreateDate": "2026-11-02T09:00:00+00:00"}}}}', _i=aid, k=_aws_secret(g, "/"))
    add("aws-cli-json-plus", '$ aws iam create-access-key --user-name deploy\n{{\n    "AccessKey": {{\n'
        '        "AccessKeyId": "{_i}",\n        "SecretAccessKey": "{k}"\n    }}\n}}', _i=aid, k=_aws_secret(g, "+"))
    add("aws-credentials-profiles", "[default]\naws_access_key_id = {_i}\naws_secret_access_key = {k}\n\n[prod]\n"
        "aws_access_key_id = {_j}\naws_secret_access_key = {k2}\nregion = us-west-2",
        _i=aid, k=_aws_secret(g), _j="AKIA" + g.s(UPPER_DIGITS, 16), k2=_aws_secret(g, "/"))
    add("aws-boto3-code", 's3 = boto3.client("s3", aws_access_key_id="{_i}", aws_secret_access_key="{k}")',
        _i=aid, k=_aws_secret(g))
    add("aws-configure-set", "aws configure set aws_secret_access_key {k} --profile staging", k=_aws_secret(g))
    add("aws-pair-prose", "S3 creds for the export job: {_i} / {k}", _i=aid, k=_aws_secret(g))
    add("aws-sts-session-token", '{{"Credentials": {{"AccessKeyId": "ASIA{_i}", "SecretAccessKey": "{k}", '
        '"SessionToken": "IQoJb3JpZ2luX2VjE{t}", "Expiration": "2026-11-02T10:00:00Z"}}}}',
        _i=g.s(UPPER_DIGITS, 16), k=_aws_secret(g), t=g.s(B64, 700))
    add("aws-no-context-json", '{{"result": {{"id": "{_i}", "value": "{k}", "created": "2026-10-01"}}}}',
        _i=g.s(HEX, 32), k=_aws_secret(g))
    add("minio-yaml", "minio:\n  endpoint: http://minio:9000\n  access_key: minio-admin\n  secret_key: {k}", k=g.s(B62, 40))
    add("minio-env", "MINIO_ROOT_USER=admin\nMINIO_ROOT_PASSWORD={p}\nMINIO_SECRET_KEY={k}", p=g.password(), k=g.s(B62, 32))
    add("oauth-client-secret-yaml", "oauth:\n  client_id: 8392017465-web\n  client_secret: {k}\n  redirect: /cb",
        k=g.s(URLSAFE, 32))
    add("client-secret-camel", '{{"clientId": "web-portal", "clientSecret": "{k}", "scopes": ["openid"]}}', k=g.s(B62, 40))
    add("app-secret-hex", "app_secret = {k}", k=g.s(HEX, 32))
    add("encryption-key-yaml", "storage:\n  encryption_key: {k}", k=g.s(B64, 43) + "=")
    add("signing-key-quoted", 'signing_key = "{k}"', k=g.s(B64, 44))
    add("rails-master-key", "config/master.key is {k}, keep it out of git", k=g.s(HEX, 32))
    add("backblaze-application-key", "B2_APPLICATION_KEY_ID={_i}\nB2_APPLICATION_KEY={k}",
        _i="005" + g.s(HEX, 21), k="K005" + g.s(B62, 27))
    add("backblaze-ini", "[b2]\naccount_id = 005{_i}\napplication_key = {k}", _i=g.s(HEX, 21), k=g.s(B62, 31))
    add("consumer-secret", "consumer_key: {_c}\nconsumer_secret: {k}", _c=g.s(B62, 25), k=g.s(B62, 50))
    add("jwt-secret-env", "JWT_SECRET={k}", k=g.s(B64, 64))
    add("nextauth-secret", "NEXTAUTH_SECRET={k}", k=g.s(B64, 43) + "=")
    add("secret-key-base", "SECRET_KEY_BASE={k}", k=g.s(HEX, 128))
    add("session-secret-code", "app.use(session({{ secret: '{k}', resave: false }}))", k=g.s(B62, 32))
    add("compose-env-list", "services:\n  db:\n    image: postgres:16\n    environment:\n      - POSTGRES_USER=shop\n"
        "      - POSTGRES_PASSWORD={p}", p=g.password())
    add("helm-values-camel", "auth:\n  rootPassword: {p}\n  replicaSetKey: {k}", p=g.password(), k=g.s(B62, 24))
    add("kubeconfig-token", "users:\n- name: ci\n  user:\n    token: {k}", k=g.s(B62, 64))
    add("kubeconfig-client-key-data", "users:\n- name: admin\n  user:\n    client-certificate-data: LS0tLS1CRUdJTiBDRVJU\n"
        "    client-key-data: LS0tLS1CRUdJTiBSU0EgUFJJVkFURSBLRVktLS0tLQo{k}", k=g.s(B64, 1600))
    add("npmrc-uuid-token", "//registry.npmjs.org/:_authToken={k}", k=str(uuid.UUID(int=g.r.getrandbits(128))))
    add("git-credentials-store", "https://li-lei:{k}@github.com", k=g.s(B62, 40))
    add("url-token-as-user", "git clone https://{k}@github.com/acme/private-infra.git", k=g.s(B62, 40))
    add("docker-config-auth", '{{"auths": {{"registry.acme.io": {{"auth": "{k}"}}}}}}',
        k=base64.b64encode(f"ci-bot:{g.password()}".encode()).decode())
    add("my-cnf", "[client]\nuser=root\npassword={p}\nhost=127.0.0.1", p=g.password())
    add("pg-service", "[prod]\nhost=db.internal\nport=5432\nuser=report\npassword={p}", p=g.password())
    add("tfvars", 'db_password = "{p}"\ninstance_class = "db.t3.micro"', p=g.password())
    add("ansible-become", "ansible_user: deploy\nansible_become_pass: {p}", p=g.password())
    add("spring-properties", "spring.datasource.url=jdbc:postgresql://db:5432/app\nspring.datasource.password={p}",
        p=g.password())
    add("web-config-xml", '<appSettings>\n  <add key="StorageAccountKey" value="{k}" />\n</appSettings>', k=g.s(B64, 86) + "==")
    add("maven-settings-xml", "<server>\n  <id>nexus</id>\n  <username>deploy</username>\n  <password>{p}</password>\n</server>",
        p=g.password())
    add("mssql-connection-string", 'connectionString="Server=sql01;Database=Shop;User Id=sa;Password={p};"', p=g.password())
    add("odbc-pwd", "DRIVER={{ODBC Driver 18}};SERVER=sql01;UID=report;PWD={p};", p=g.password())
    add("wp-config-define", "define( 'DB_PASSWORD', '{p}' );\ndefine( 'AUTH_KEY', '{k}' );", p=g.password(), k=g.s(B62 + "!@#%^&*", 64))
    add("python-environ-assign", 'os.environ["OPENAI_API_KEY"] = "{k}"', k=g.s(B62, 48))
    add("requests-auth-tuple", 'requests.get(url, auth=("admin", "{p}"), timeout=10)', p=g.password())
    add("gh-secret-set", 'gh secret set DEPLOY_KEY --body "{k}"', k=g.s(B62, 40))
    add("systemd-environment", '[Service]\nEnvironment="DB_PASS={p}"\nExecStart=/usr/bin/app', p=g.password())
    add("smtp-pass-ini", "[smtp]\nhost = smtp.example.org\nuser = noreply\npass = {p}", p=g.password())
    add("rclone-conf", "[s3remote]\ntype = s3\naccess_key_id = {_i}\nsecret_access_key = {k}", _i=aid, k=_aws_secret(g))
    add("s3cfg", "[default]\naccess_key = {_i}\nsecret_key = {k}\nhost_base = s3.amazonaws.com", _i=aid, k=_aws_secret(g))
    add("oci-config-passphrase", "[DEFAULT]\nuser=ocid1.user.oc1..aaaa\nfingerprint=12:34:56:78\nkey_file=~/.oci/key.pem\n"
        "pass_phrase={p}", p=g.password())
    add("netrc-multiline", "machine github.com\n  login octocat\n  password {k}\nmachine api.heroku.com\n  login me@shop.io\n"
        "  password {k2}", k=g.s(B62, 40), k2=g.s(HEX, 36))
    add("alibaba-json", '{{"AccessKey": {{"AccessKeyId": "LTAI{_i}", "AccessKeySecret": "{k}"}}}}', _i=g.s(B62, 20), k=g.s(B62, 30))
    add("tencent-json", '{{"SecretId": "AKID{_i}", "SecretKey": "{k}"}}', _i=g.s(B62, 32), k=g.s(B62, 32))
    add("azure-sp-json", '{{"appId": "{_a}", "displayName": "ci-sp", "password": "{k}", "tenant": "{_t}"}}',
        _a=str(uuid.UUID(int=g.r.getrandbits(128))), k=g.s(URLSAFE + "~.", 40), _t=str(uuid.UUID(int=g.r.getrandbits(128))))

    # -- a JSON key file's structure ---------------------------------------------------------
    body = _pem_body(g)
    pem = "-----BEGIN PRIVATE KEY-----\\n" + "\\n".join(body) + "\\n-----END PRIVATE KEY-----\\n"
    key_id = g.s(HEX, 40)
    sa = {"type": "service_account", "project_id": "shop-prod-381204", "private_key_id": key_id,
          "private_key": pem.replace("\\n", "\n"), "client_email": "ci@shop-prod-381204.iam.gserviceaccount.com",
          "client_id": "1047" + g.s(string.digits, 17), "auth_uri": "https://accounts.google.com/o/oauth2/auth",
          "token_uri": "https://oauth2.googleapis.com/token"}
    pretty = json.dumps(sa, indent=2)
    cases.append(SecretCase("gcp-service-account-file", "cat ~/Downloads/shop-prod-381204-4f2a.json\n" + pretty,
                            (key_id, body[1], body[12], body[-1])))
    compact = json.dumps(sa)
    cases.append(SecretCase("gcp-service-account-question",
                            f"Which of these should the CI use? {compact}", (key_id, body[1], body[-1])))
    bare = dict(sa, private_key="\\n".join(body[:8]), private_key_id=g.s(HEX, 40))
    cases.append(SecretCase("service-account-no-pem-header", json.dumps(bare),
                            (bare["private_key_id"], body[1], body[7])))
    fb = {"type": "service_account", "project_id": "chat-app-9f1c", "private_key_id": g.s(HEX, 40),
          "private_key": "-----BEGIN PRIVATE KEY-----\n" + "\n".join(body[2:10]) + "\n-----END PRIVATE KEY-----\n",
          "client_email": "firebase-adminsdk-x1y2z@chat-app-9f1c.iam.gserviceaccount.com"}
    cases.append(SecretCase("firebase-admin-zh", "这是 Firebase 的服务账号密钥，先存一下：" + json.dumps(fb, ensure_ascii=False),
                            (fb["private_key_id"], body[3], body[9])))
    gh_app = "-----BEGIN RSA PRIVATE KEY-----\\n" + "\\n".join(body[4:12]) + "\\n-----END RSA PRIVATE KEY-----"
    cases.append(SecretCase("github-app-key-json-string", '{"app_id": 391204, "private_key": "' + gh_app + '"}',
                            (body[5], body[11])))

    # -- cards with spaces or dashes ---------------------------------------------------------
    add("card-4111-spaces", "Charge the card 4111 1111 1111 1111 exp 09/28 for the renewal", k="4111 1111 1111 1111")
    add("card-4111-dashes", "customer wrote their card as 4111-1111-1111-1111 in the support ticket", k="4111-1111-1111-1111")
    shown, digits = _card(g, "4532", 16, " ")
    add("card-visa-spaces", "my card is {k}, please update the subscription", k=shown)
    shown, digits = _card(g, "5425", 16, "-")
    add("card-mc-json", '{{"order": 1042, "card": "{k}", "cvv": "123"}}', k=shown)
    shown, digits = _card(g, "3714", 15, " ", (4, 6, 5))
    add("card-amex-465", "Amex {k} expires 11/27", k=shown)
    shown, digits = _card(g, "6222", 19, " ", (4, 4, 4, 4, 3))
    add("card-unionpay-zh", "请用这张卡付款：{k}，谢谢", k=shown)
    shown, digits = _card(g, "4916", 16, "")
    add("card-csv-header", "order_id,card_number,amount\n1001,{k},59.00", k=shown)
    shown, digits = _card(g, "4024", 16, " ")
    add("card-with-cvv", "{k} 12/28 CVV 381", k=shown)
    shown, digits = _card(g, "5105", 16, " ")
    add("card-prose-nospace", "the credit card number is {k}", k=digits)

    # -- given in the turn after the one that asks for it -------------------------------------
    add("split-assistant-asks", "{p}", before="Please paste the staging database password here.", p=g.password())
    add("split-user-two-messages", "{k}", before="my AWS secret access key is", k=_aws_secret(g, "/"))
    add("split-token-colon", "{k}", before="deploy token:", k=g.s(B62, 32))
    add("split-its", "it's {p}", before="What is the Redis password?", p=g.password())
    add("split-zh", "{p}", before="请提供数据库的密码。", p=g.password())
    add("split-here-is", "here you go: {k}", before="I need the Sendgrid API key to test the mailer.", k=g.s(URLSAFE, 48))

    # -- inside a code block -------------------------------------------------------------------
    add("code-python-client", '```python\nclient = OpenAI(api_key="{k}")\n```', k=g.s(B62, 48))
    add("code-bash-export", "```bash\nexport VAULT_TOKEN={k}\nvault kv get secret/app\n```", k=g.s(B62, 26))
    add("code-yaml-stripe", "```yaml\nstripe:\n  secret: {k}\n  currency: eur\n```", k=g.s(B62, 40))
    add("code-go-const", '```go\nconst apiSecret = "{k}"\n```', k=g.s(B62, 36))
    add("code-sql-role", "```sql\nCREATE ROLE app LOGIN PASSWORD '{p}';\n```", p=g.password())
    add("code-drf-token", '```\ncurl -H "Authorization: Token {k}" https://api.shop.io/orders/\n```', k=g.s(HEX, 40))
    add("code-ts-config", '```ts\nexport const config = {{\n  clientSecret: "{k}",\n  tenant: "acme",\n}};\n```', k=g.s(B62, 40))

    # -- in a file path or a URL path ----------------------------------------------------------
    add("path-token-file", "cat /home/li/.config/tokens/ghp_{k}.txt", k=g.s(B62, 36))
    add("path-windows-key", "open C:\\Users\\li\\Downloads\\sk-proj-{k}.json in the editor", k=g.s(URLSAFE, 48))
    add("path-key-folder", "the dump is in /srv/backups/{k}/shop.sql.gz", k=_aws_secret(g).replace("/", "x"))
    add("url-webhook-path", "POST https://hooks.acme.dev/webhooks/{k}/deploy on every merge", k=g.s(B62, 32))
    add("url-download-token", "wget https://files.acme.dev/export.csv?token={k}", k=g.s(URLSAFE, 40))

    # -- in a Chinese sentence -----------------------------------------------------------------
    add("zh-aws-secret-slash", "我的 AWS 私有访问密钥是 {k}，别外传", k=_aws_secret(g, "/"))
    add("zh-api-key-inline", "把 API 密钥 {k} 配到环境变量里", k=g.s(B62, 40))
    add("zh-token-fullwidth-colon", "令牌：{k}", k=g.s(B62, 40))
    add("zh-payment-password", "支付密码 {p} 别告诉别人", p=g.s(string.digits, 6) + "Ab")
    add("zh-password-brackets", "数据库密码：「{p}」", p=g.password())
    add("zh-secret-for", "staging 环境的 client secret 是 {k}", k=g.s(B62, 40))

    # -- escaped text: a log line's repr, JSON with \\n -----------------------------------------
    add("escaped-json-newline-token", '{{"prompt": "deploy it\\nghp_{k}\\nthanks"}}', k=g.s(B62, 36))
    add("escaped-repr-tab-key", "payload={{'text': 'keys:\\tsk-proj-{k}'}}", k=g.s(URLSAFE, 60))
    add("escaped-json-aws", '{{"text": "creds\\n{_i}\\n{k}"}}', _i=aid, k=_aws_secret(g))
    add("escaped-nested-json", '{{"body": "{{\\"user\\": \\"ci\\", \\"password\\": \\"{p}\\"}}"}}', p=g.password())
    add("log-repr-dict", "LLM reply was not JSON: {{'api_key': '{k}', 'model': 'gpt'}}", k=g.s(B62, 40))

    # -- more of the same kinds -----------------------------------------------------------------
    add("aws-prose-long-words", "the secret key for the infrastructure account is {k}", k=_aws_secret(g))
    add("env-quoted-comment", 'API_SECRET="{k}"  # production only', k=g.s(B62, 40))
    add("xml-password-attribute", '<connection user="sa" password="{p}" database="shop"/>', p=g.password())
    add("actions-env-token", "env:\n  SLACK_WEBHOOK_TOKEN: {k}\n  NODE_ENV: production", k=g.s(B62, 24))
    add("yaml-nested-secret", "credentials:\n  user: report\n  secret: {k}", k=g.s(URLSAFE, 40))
    add("netrc-default", "default login anonymous password {p}", p=g.password())
    add("php-array-password", "'mysql' => [\n    'username' => 'shop',\n    'password' => '{p}',\n],", p=g.password())
    add("jwk-private-d", '{{"kty": "EC", "crv": "P-256", "x": "{_x}", "y": "{_y}", "d": "{k}"}}',
        _x=g.s(URLSAFE, 43), _y=g.s(URLSAFE, 43), k=g.s(URLSAFE, 43))
    add("jwk-symmetric-k", '{{"kty": "oct", "alg": "HS256", "k": "{k}"}}', k=g.s(URLSAFE, 43))
    add("basic-auth-base64-bare", "the proxy auth string is {k}", k=base64.b64encode(f"svc-proxy:{g.password()}".encode()).decode())
    shown, _digits = _card(g, "6011", 16, "-")
    add("card-discover-dashes", "Discover {k} on file for the account", k=shown)
    shown, _digits = _card(g, "3530", 16, " ")
    add("card-jcb-spaces", "JCB {k} for the Tokyo office", k=shown)
    add("split-zh-token", "{k}", before="把 GitHub 令牌发我一下", k=g.s(B62, 40))
    add("split-passphrase", "{p}", before="The SSH key asks for a passphrase. What is it?", p=g.password())
    add("zh-aliyun-pair", "阿里云 AccessKey ID：LTAI{_i}，AccessKey Secret：{k}", _i=g.s(B62, 20), k=g.s(B62, 30))
    add("zh-code-block-env", "```\n# 生产环境\nDB_PASSWORD={p}\n```", p=g.password())
    add("path-env-in-repo", "I committed /repo/config/{k}.env by mistake", k=_aws_secret(g).replace("/", "q").replace("+", "z"))
    return cases


def context_negatives(g: _Gen) -> list[str]:
    """Hard negatives next to the new shapes: nothing here may be masked."""
    sha = g.s(HEX, 40)

    def uid() -> str:
        return str(uuid.UUID(int=g.r.getrandbits(128)))

    def b64_text(text: str) -> str:
        return base64.b64encode(text.encode()).decode()

    rows: list[Callable[[], str]] = [
        lambda: f"{sha[:7]} Fix token refresh race\n{g.s(HEX, 7)} Bump pnpm to 9.12",
        lambda: f'{{"sha": "{g.s(HEX, 40)}", "commit": {{"tree": {{"sha": "{g.s(HEX, 40)}"}}}}}}',
        lambda: f"HEAD is now at {g.s(HEX, 7)} Merge branch 'release/2.4'",
        lambda: f"Merge: {g.s(HEX, 7)} {g.s(HEX, 7)}\nsigned-off-by: Li Lei",
        lambda: f"tree_id = {g.s(HEX, 40)}",
        lambda: f"revision: {g.s(HEX, 40)}",
        lambda: f'{{"id": "{uid()}", "status": "queued", "job": "{uid()}"}}',
        lambda: f"traceparent: 00-{g.s(HEX, 32)}-{g.s(HEX, 16)}-01",
        lambda: f"X-Amzn-Trace-Id: Root=1-{g.s(HEX, 8)}-{g.s(HEX, 24)}",
        lambda: f"Request-Id: {g.s(HEX, 32)}",
        lambda: f"[2026-11-02 10:00:01] worker {g.s(HEX, 12)}: job 4512 done in 1.2s",
        lambda: f'ETag: W/"{g.s(HEX, 32)}"',
        lambda: f"uploaded to s3://assets/uploads/{g.s(HEX, 32)}.png",
        lambda: f"pip install --require-hashes requests==2.32.3 --hash=sha256:{g.s(HEX, 64)}",
        lambda: f"golang.org/x/text v0.14.0 h1:{g.s(B64, 43)}=",
        lambda: f"docker image inspect shop-api --format '{{{{.Id}}}}' -> sha256:{g.s(HEX, 64)}",
        lambda: f"CONTAINER ID {g.s(HEX, 12)} IMAGE shop-api:2.4 STATUS Up 3 hours",
        lambda: "echo " + b64_text("hello world from the staging box") + " | base64 -d",
        lambda: "The header is " + b64_text('{"alg":"RS256","typ":"JWT"}') + " (decoded: alg and typ)",
        lambda: "label: " + b64_text("Quarterly report, final version") + "  # base64 of the title",
        lambda: "ConfigMap data.greeting: " + b64_text("Welcome to the shop, have a nice day!!"),
        lambda: "base64 of the file name: " + b64_text("invoice_2026_11_02_final.pdf"),
        lambda: f"ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAI{g.s(B64, 43)} li@thinkpad",
        lambda: f"public_key: ssh-rsa AAAAB3NzaC1yc2EAAAADAQABAAABAQ{g.s(B64, 200)} deploy@ci",
        lambda: f'"publicKey": "{g.s(B64, 43)}="',
        lambda: f"ipfs://Qm{g.s('123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz', 44)}",
        lambda: "Donations: 1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNa (the genesis address, as an example)",
        lambda: "contract 0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed on mainnet",
        lambda: f"payment intent pi_{g.s(B62, 24)} succeeded for cus_{g.s(B62, 14)}",
        lambda: f"event evt_{g.s(B62, 24)} delivered to the webhook",
        lambda: f"Slack channel C{g.s(UPPER_DIGITS, 8)}, user U{g.s(UPPER_DIGITS, 8)}",
        lambda: f"firebase key -{g.s(URLSAFE, 19)} in /messages",
        lambda: f"built main.{g.s(HEX, 8)}.js and vendor.{g.s(HEX, 8)}.css",
        lambda: f"pod shop-api-{g.s(HEX, 9)}-{g.s(string.ascii_lowercase + string.digits, 5)} OOMKilled",
        lambda: f"short link https://bit.ly/{g.s(B62, 7)} points to the RFC",
        lambda: f"video id {g.s(URLSAFE, 11)} from the onboarding playlist",
        lambda: f"GitHub node id MDQ6VXNlcj{g.s(B62, 6)}= for the bot user",
        lambda: "Use 4242 4242 4242 4242 with any CVC in Stripe test mode.",
        lambda: "测试卡号 4111 1111 1111 1111 只在沙箱环境里用。",
        lambda: "Stripe test card 4000 0025 0000 3155 always asks for 3D Secure in tests.",
        lambda: "Example card for the docs: 5555 5555 5555 4444 (Mastercard test number).",
        lambda: "order 1234 5678 9012 3456 shipped on Monday",
        lambda: "IMEI 490154203237518 belongs to the test phone",
        lambda: "ISBN 978-3-16-148410-0 is cited in chapter 2",
        lambda: "card ending in 6467 was declined twice",
        lambda: "卡号后四位是 6467，已经过期了。",
        lambda: "订单号 2023110488231 已发货",
        lambda: "hashlib.sha256(password.encode()).hexdigest()",
        lambda: 'token = request.headers.get("Authorization", "").removeprefix("Bearer ")',
        lambda: "secret = os.urandom(32)",
        lambda: "key = Fernet.generate_key()",
        lambda: 'api_key: str = Field(..., env="API_KEY")',
        lambda: '{"password": null, "password_confirmation": null}',
        lambda: "sort_key = lambda row: row[1]",
        lambda: "id = Column(Integer, primary_key=True)",
        lambda: 'cache_key = f"user:{user_id}:profile"',
        lambda: "partition_key: tenant_id\nsort_key: created_at",
        lambda: "[server]\nport = 8080\nhost = 0.0.0.0\nworkers = 4",
        lambda: "[profile dev]\nregion = eu-west-1\noutput = json\nsso_start_url = https://acme.awsapps.com/start",
        lambda: "machine localhost\n  login me\n  password $NETRC_PASS",
        lambda: "AWS_SECRET_ACCESS_KEY=<your secret access key>",
        lambda: "password: ********",
        lambda: "aws_secret_access_key = REDACTED",
        lambda: '"private_key": "<paste the PEM here>"',
        lambda: "The key takeaway is that caching made the build 3x faster.",
        lambda: "The key for the map is the tenant id, the value is the last sync time.",
        lambda: "Rotate the service account key every 90 days (gcloud iam service-accounts keys create).",
        lambda: "Download the JSON key file and set GOOGLE_APPLICATION_CREDENTIALS to its path.",
        lambda: '"type": "service_account" means the file is a key; never commit it',
        lambda: "the private_key_id field only names the key; the private_key field is the secret",
        lambda: "密钥轮换周期是 90 天。",
        lambda: "令牌桶算法限制每秒 100 个请求。",
        lambda: "请把 API 密钥放到环境变量里，不要写进代码。",
        lambda: "数据库密码在 Vault 里，路径是 secret/shop/db。",
        lambda: f"cd /srv/backups/2026-11-02/{g.s(HEX, 8)} && ls",
        lambda: "/Users/lilei/Projects/Shop2024/src/components/TokenInput.tsx",
        lambda: "C:\\Users\\li\\AppData\\Local\\Programs\\Python\\Python312\\python.exe",
        lambda: "https://github.com/acme/shop/compare/v2.3.0...v2.4.0",
        lambda: f"https://sentry.io/organizations/acme/issues/{g.s(string.digits, 10)}/?project=42",
        lambda: f"https://{g.s(HEX, 32)}@o4504.ingest.sentry.io/4505 is the public DSN",
        lambda: "wget https://files.acme.dev/export.csv?page=2&per_page=100",
        lambda: "```python\nclient = OpenAI(api_key=os.environ['OPENAI_API_KEY'])\n```",
        lambda: "```bash\nexport VAULT_TOKEN=$(vault login -token-only -method=oidc)\n```",
        lambda: "```yaml\nenv:\n  - name: DB_PASSWORD\n    valueFrom:\n      secretKeyRef: {name: db, key: password}\n```",
        lambda: "```sql\nALTER ROLE app PASSWORD NULL;\n```",
        lambda: f"log: cache hit for key {g.s(HEX, 40)} (blob {g.s(HEX, 64)})",
        lambda: f"Go build id: {g.s(URLSAFE, 20)}/{g.s(URLSAFE, 20)}",
        lambda: f"nonce={g.s(HEX, 32)} timestamp=1730419200",
        lambda: "The AccessKeyId names the key; only the SecretAccessKey is secret.",
        lambda: "When the assistant asks for a password, type it in the terminal prompt, not in the chat.",
        lambda: "Please paste the error message here.",
        lambda: "Which region should the bucket be in?",
    ]
    return [row() for row in rows]


# The follow-up turns of the split cases, as a negative: a short reply after a question
# that names no secret stays as it is.
FOLLOW_UPS = [
    ("Which branch should I deploy?", "release-2024-11"),
    ("What's the ticket number?", "SHOP-4512"),
    ("What is the Redis host?", "cache-01.internal"),
    ("请提供数据库的主机名。", "db-prod-3.internal"),
]
