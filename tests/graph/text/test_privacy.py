"""The privacy filter on realistic secrets (built here with the right shape) and on ordinary
text that must come through untouched."""

from __future__ import annotations

import base64
import hashlib
import json
import random
import string
import uuid
from collections.abc import Callable

import pytest

from hippograph.graph.errors import InvalidInput, SecretRejected
from hippograph.graph.text import privacy
from hippograph.graph.text.privacy import Finding

ALNUM = string.ascii_letters + string.digits
URLSAFE = ALNUM + "_-"
_RNG = random.Random(1729)


def fake(length: int, alphabet: str = ALNUM) -> str:
    """Random characters with the mix of classes a generated key has."""
    seed = [c for c in "aZ7" if c in alphabet] or list(alphabet[:1])
    body = [_RNG.choice(alphabet) for _ in range(length - len(seed))]
    return "".join(seed + body)


def b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def fake_jwt() -> str:
    header = b64url(json.dumps({"alg": "HS256", "typ": "JWT"}).encode())
    payload = b64url(json.dumps({"sub": "1234567890", "name": "Ada", "iat": 1716239022}).encode())
    return f"{header}.{payload}.{b64url(_RNG.randbytes(32))}"


def fake_private_key(label: str = "RSA PRIVATE KEY") -> str:
    body = base64.b64encode(_RNG.randbytes(300)).decode()
    lines = [body[i : i + 64] for i in range(0, len(body), 64)]
    return "\n".join([f"-----BEGIN {label}-----", *lines, f"-----END {label}-----"])


# (kind, secret factory, how the secret appears in a message)
PROVIDER_KEYS: list[tuple[str, Callable[[], str], str]] = [
    ("openai_api_key", lambda: "sk-" + fake(48), "client = OpenAI(api_key='{}')"),
    ("openai_api_key", lambda: "sk-proj-" + fake(156, URLSAFE), "my key is {} keep it safe"),
    ("anthropic_api_key", lambda: "sk-ant-api03-" + fake(93, URLSAFE) + "AA", "use {} for claude"),
    ("aws_access_key", lambda: "AKIA" + fake(16, string.ascii_uppercase + string.digits), "id {}"),
    ("aws_access_key", lambda: "ASIA" + fake(16, string.ascii_uppercase + string.digits), "{}."),
    ("github_token", lambda: "ghp_" + fake(36), "git clone https://{}@github.com/o/r"),
    ("github_token", lambda: "gho_" + fake(36), "oauth token {}"),
    ("github_token", lambda: "ghs_" + fake(36), "the app token is {}"),
    ("github_token", lambda: "github_pat_" + fake(22) + "_" + fake(59), "PAT: {}"),
    ("gitlab_token", lambda: "glpat-" + fake(20, URLSAFE), "ci uses {} to push"),
    (
        "slack_token",
        lambda: f"xoxb-{fake(12, string.digits)}-{fake(13, string.digits)}-{fake(24)}",
        "bot token {}",
    ),
    ("slack_token", lambda: f"xoxp-{fake(12, string.digits)}-{fake(32)}", "user token: {}"),
    ("stripe_key", lambda: "sk_live_" + fake(24), "stripe.api_key = '{}'"),
    ("stripe_key", lambda: "rk_live_" + fake(24), "restricted key {}"),
    ("google_api_key", lambda: "AIza" + fake(35, URLSAFE), "maps?key={}&q=paris"),
    ("twilio_key", lambda: "SK" + fake(32, "0123456789abcdef"), "twilio api key {}"),
    ("twilio_key", lambda: "AC" + fake(32, "0123456789abcdef"), "account {} sends sms"),
    ("sendgrid_api_key", lambda: f"SG.{fake(22, URLSAFE)}.{fake(43, URLSAFE)}", "mail via {}"),
    ("npm_token", lambda: "npm_" + fake(36), "//registry.npmjs.org/:_authToken={}"),
    ("huggingface_token", lambda: "hf_" + fake(34), "huggingface-cli login --token {}"),
    ("jwt", fake_jwt, "session cookie: {}"),
    ("private_key", fake_private_key, "here is the deploy key:\n{}\nthanks"),
    ("private_key", lambda: fake_private_key("OPENSSH PRIVATE KEY"), "{}"),
    ("private_key", lambda: fake_private_key("PRIVATE KEY"), "pem:\n{}"),
]


@pytest.mark.parametrize(("kind", "make", "template"), PROVIDER_KEYS)
def test_provider_key_is_found_and_redacted(
    kind: str, make: Callable[[], str], template: str
) -> None:
    secret = make()
    text = template.format(secret)

    redacted, findings = privacy.redact(text)

    assert [f.kind for f in findings] == [kind]
    assert text[findings[0].start : findings[0].end] == secret
    assert redacted == template.format(f"[REDACTED:{kind}]")


def test_aws_secret_key_is_redacted_in_assignments_only() -> None:
    secret = fake(40, ALNUM + "/+")
    text = f"[default]\naws_access_key_id = AKIA{fake(16, string.ascii_uppercase)}\n"
    text += f"aws_secret_access_key = {secret}\n"

    redacted, findings = privacy.redact(text)

    assert [f.kind for f in findings] == ["aws_access_key", "aws_secret_key"]
    assert secret not in redacted
    assert redacted.endswith("aws_secret_access_key = [REDACTED:aws_secret_key]\n")
    assert privacy.scan(f"the checksum was {secret} yesterday") == []


def test_bearer_tokens_in_headers() -> None:
    opaque = fake(40, ALNUM + "-._~")
    jwt = fake_jwt()

    assert privacy.redact(f"curl -H 'Authorization: Bearer {opaque}' https://api.x.io")[0] == (
        "curl -H 'Authorization: Bearer [REDACTED:bearer_token]' https://api.x.io"
    )
    # The JWT detector is more specific and wins over the header around it.
    redacted, findings = privacy.redact(f'{{"Authorization": "Bearer {jwt}"}}')
    assert redacted == '{"Authorization": "Bearer [REDACTED:jwt]"}'
    assert len(findings) == 1
    assert privacy.redact(f"authorization: basic {b64url(b'admin:hunter22')}")[0] == (
        "authorization: basic [REDACTED:basic_auth]"
    )


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("password=hunter2", "password=[REDACTED:password]"),
        ("passwd: letmein", "passwd: [REDACTED:password]"),
        (
            '{"user": "ada", "password": "c0rrect horse"}',
            '{"user": "ada", "password": "[REDACTED:password]"}',
        ),
        ("PGPASSWORD=Xy9!pq psql -h db -U app", "PGPASSWORD=[REDACTED:password] psql -h db -U app"),
        ("DB_PASSWORD='s3cr3t#1'", "DB_PASSWORD='[REDACTED:password]'"),
        ("mysql --password=Tr0ub4dor app", "mysql --password=[REDACTED:password] app"),
        (
            "conn = connect(host='db', password='Tr0ub4dor')",
            "conn = connect(host='db', password='[REDACTED:password]')",
        ),
        ("smtp_pass: mailpass99", "smtp_pass: [REDACTED:password]"),
        (
            "login?user=ada&password=letmein&next=/",
            "login?user=ada&password=[REDACTED:password]&next=/",
        ),
    ],
)
def test_password_assignments(text: str, expected: str) -> None:
    assert privacy.redact(text)[0] == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (
            "postgres://app:Tr0ub4dor@db.internal:5432/main",
            "postgres://app:[REDACTED:url_password]@db.internal:5432/main",
        ),
        (
            "clone https://ada:p%40ss-w0rd@git.example.com/repo.git now",
            "clone https://ada:[REDACTED:url_password]@git.example.com/repo.git now",
        ),
        ("redis://:s3cret@cache:6379/0", "redis://:[REDACTED:url_password]@cache:6379/0"),
    ],
)
def test_url_credentials_keep_user_and_host(text: str, expected: str) -> None:
    assert privacy.redact(text)[0] == expected


def test_env_file() -> None:
    openai_key = "sk-proj-" + fake(100, URLSAFE)
    text = "\n".join(
        [
            "DEBUG=true",
            "DATABASE_HOST=db.internal",
            "DJANGO_SECRET_KEY=django-insecure-9f8a7b6c5d4e",
            "SLACK_BOT_TOKEN=abcd1234efgh5678",
            f"OPENAI_API_KEY={openai_key}",
            "export STRIPE_WEBHOOK_SECRET='whsec_1234567890abcdef'",
            "POSTGRES_PASSWORD=pg-Pass-2024",
            "MAX_TOKENS=4096",
        ]
    )
    expected = "\n".join(
        [
            "DEBUG=true",
            "DATABASE_HOST=db.internal",
            "DJANGO_SECRET_KEY=[REDACTED:env_secret]",
            "SLACK_BOT_TOKEN=[REDACTED:env_secret]",
            "OPENAI_API_KEY=[REDACTED:openai_api_key]",
            "export STRIPE_WEBHOOK_SECRET='[REDACTED:env_secret]'",
            "POSTGRES_PASSWORD=[REDACTED:password]",
            "MAX_TOKENS=4096",
        ]
    )

    redacted, findings = privacy.redact(text)

    assert redacted == expected
    assert len(findings) == 5  # the key inside OPENAI_API_KEY= is found once, as itself


ORDINARY = [
    "I forgot my password again, had to reset it twice this week.",
    "What's the token limit for this model? I think it's 8k tokens.",
    "Reset your password: click the link in the email.",
    "The API key is stored in Vault; rotate the token every 90 days.",
    f"Fixed in commit {hashlib.sha1(b'fix').hexdigest()} on main.",
    f"The artifact's sha256 is {hashlib.sha256(b'artifact').hexdigest()}.",
    f"Memory {uuid.UUID(int=_RNG.getrandbits(128), version=4)} was superseded.",
    "Encoded it as aGVsbG8gd29ybGQsIHRoaXMgaXMganVzdCBiYXNlNjQgdGV4dA== for the test.",
    "password = getpass()",
    "password = getpass.getpass('Password: ')",
    "token = request.headers.get('Authorization')",
    "def check_password(pw):\n    return bcrypt.checkpw(pw, stored)",
    "if password == confirm_password:\n    save(user, password=password)",
    "password: str\napi_key: Optional[str] = None",
    "connect(host, user, password=pw)",
    "password = os.environ['DB_PASSWORD']",
    "api_key = os.getenv('OPENAI_API_KEY')",
    "api_key=settings.OPENAI_API_KEY",
    "password=<your password>",
    "password=${DB_PASSWORD}",
    "password=***",
    "password: ********",
    "password=%(db_password)s",
    '{"password": null, "token": ""}',
    "OPENAI_API_KEY=your-api-key-here",
    "GITHUB_TOKEN=${{ secrets.GITHUB_TOKEN }}",
    "postgres://app:${PGPASS}@db:5432/main",
    "See https://docs.example.com:8443/auth?next=/home and http://localhost:8080/api.",
    "Mail ada@example.com or ssh git@github.com:org/repo.git",
    "max_tokens=1024, num_tokens: 50, password_min_length = 12",
    "Bearer tokens expire after an hour; the bearer of bad news was Bob.",
    "curl -H 'Authorization: Bearer $TOKEN' -H 'Authorization: Bearer <token>'",
    "I always skip the sk-learn tutorial and use scikit-learn directly.",
    "-----BEGIN PUBLIC KEY----- is fine to share, unlike a private one.",
]


@pytest.mark.parametrize("text", ORDINARY)
def test_ordinary_text_passes_unchanged(text: str) -> None:
    assert privacy.scan(text) == []
    assert privacy.apply(text, field="content", mode="reject") == text


def test_findings_are_ordered_and_point_at_the_secrets() -> None:
    github = "ghp_" + fake(36)
    aws = "AKIA" + fake(16, string.ascii_uppercase + string.digits)
    text = f"token {github} and key {aws}, password=hunter22"

    findings = privacy.scan(text)

    assert findings == [
        Finding("github_token", 6, 6 + len(github)),
        Finding("aws_access_key", text.index(aws), text.index(aws) + len(aws)),
        Finding("password", len(text) - len("hunter22"), len(text)),
    ]


def test_redacting_twice_changes_nothing() -> None:
    text = (
        f"PGPASSWORD=pa55word psql postgres://u:pw9@h/db Bearer {fake_jwt()}\n"
        f"{fake_private_key()}\nOPENAI_API_KEY=sk-{fake(48)}"
    )
    once, findings = privacy.redact(text)

    assert len(findings) == 5
    assert privacy.redact(once) == (once, [])


def test_apply_reject_names_every_kind() -> None:
    text = f"key AKIA{fake(16, string.ascii_uppercase)} and password=hunter22"

    with pytest.raises(SecretRejected) as caught:
        privacy.apply(text, field="content", mode="reject")

    assert caught.value.field == "content"
    assert caught.value.kinds == ["aws_access_key", "password"]
    assert caught.value.code == "SECRET_REJECTED"


def test_apply_redact_returns_redacted_text() -> None:
    out = privacy.apply("db password=hunter22 ok", field="content", mode="redact")
    assert out == "db password=[REDACTED:password] ok"


def test_apply_rejects_unknown_mode() -> None:
    with pytest.raises(InvalidInput) as caught:
        privacy.apply("text", field="content", mode="warn")  # type: ignore[arg-type]
    assert caught.value.field == "privacy_mode"


@pytest.mark.parametrize(
    ("text", "secret", "kind"),
    [
        ("the secret is TddJ8sXk2vQm9LwZp0RtY7uN3bHcFgA5eKj1Oi4M for prod",
         "TddJ8sXk2vQm9LwZp0RtY7uN3bHcFgA5eKj1Oi4M", "aws_secret_key"),
        ("my key: TddJ8sXk2vQm9LwZp0RtY7uN3bHcFgA5eKj1Oi4M",
         "TddJ8sXk2vQm9LwZp0RtY7uN3bHcFgA5eKj1Oi4M", "aws_secret_key"),
        ("the admin password is hunter2-Xk9!pq now", "hunter2-Xk9!pq", "password"),
        ("password: hunter2-Xk9!pq", "hunter2-Xk9!pq", "password"),
        ("bot token xoxo-2748392011-AbCdEfGhIjKl posts", "xoxo-2748392011-AbCdEfGhIjKl",
         "slack_token"),
        ("billing uses pk_live_51HxYzAbCdEfGhIjKlMnOp", "pk_live_51HxYzAbCdEfGhIjKlMnOp",
         "stripe_key"),
        ("postgres://admin:S3cr3tPw0rd@db.internal:5432/app", "S3cr3tPw0rd", "url_password"),
    ],
)  # fmt: skip
def test_forms_of_issue_21_are_redacted(text: str, secret: str, kind: str) -> None:
    redacted, findings = privacy.redact(text)
    assert secret not in redacted
    assert kind in [f.kind for f in findings]


@pytest.mark.parametrize(
    "text",
    [
        "commit 9fceb02d0ae598e95dc970b74767f19372d61af8 fixed the key lookup",
        "the secret is 9fceb02d0ae598e95dc970b74767f19372d61af8, the commit",
        "the password is strong enough",
        "the password was changed yesterday",
        "key = 550e8400-e29b-41d4-a716-446655440000",
    ],
)
def test_look_alikes_of_issue_21_forms_pass(text: str) -> None:
    assert privacy.scan(text) == []
