"""Privacy filter: find secrets in a text before it is stored, then redact or reject it.

Each detector is one compiled pattern, the part of the match that is the secret (the whole
match, or only the value of an assignment), a priority, and for shapes that also occur in
ordinary text a check on the captured value. When two findings overlap, the lower priority
number wins (a private key block beats the base64 inside it, a provider key beats the
``OPENAI_API_KEY=`` line around it). Redaction writes ``[REDACTED:<kind>]`` in place of the
secret; redacting an already redacted text changes nothing.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Literal

from hippograph.graph.errors import InvalidInput, SecretRejected

PrivacyMode = Literal["redact", "reject"]


@dataclass(frozen=True)
class Finding:
    """One secret: its kind and where it sits in the scanned text (``text[start:end]``)."""

    kind: str
    start: int
    end: int


Accept = Callable[[re.Match[str]], bool]


@dataclass(frozen=True)
class _Detector:
    kind: str
    pattern: re.Pattern[str]
    priority: int
    # Named groups holding the secret, first one that matched wins; empty means the whole match.
    groups: tuple[str, ...] = ()
    accept: Accept | None = None
    # Lower-case strings one of which every match holds (its literal part): an ASCII text
    # that holds none is not searched (a text's 24 pattern passes cost more than the
    # rest of its tagging; most texts hold none of these). Empty: always searched.
    needs: tuple[str, ...] = ()


# Token edges: a key must not be glued to other key-ish characters on either side.
_L = r"(?<![A-Za-z0-9_\-])"
_R = r"(?![A-Za-z0-9_\-])"

_MASK_ONLY = re.compile(r"[*xX•.…#?_\-]+")
_PLACEHOLDER_START = ("<", "$", "%", "{", "[REDACTED", ":", "@")
_PLACEHOLDER_WORDS = frozenset(
    {
        "none", "null", "nil", "true", "false", "undefined", "empty", "redacted", "hidden",
        "masked", "password", "passwd", "secret", "token", "changeme", "example", "placeholder",
    }
)  # fmt: skip
_CALL_OR_SUBSCRIPT = re.compile(r"[A-Za-z_][\w.]*[(\[]")
_DOTTED_NAME = re.compile(r"[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)+")
_IDENTIFIER = re.compile(r"[A-Za-z_]\w*")
_TYPE_NAMES = frozenset({"str", "bytes", "int", "any", "secretstr", "optional", "string"})
# After a plain-word value these characters close the assignment; anything else is prose.
_VALUE_END = frozenset({"", "\n", "\r", "&", ";", ",", "}"})


def _is_placeholder(value: str) -> bool:
    stripped = value.strip()
    return (
        not stripped
        or stripped.startswith(_PLACEHOLDER_START)
        or _MASK_ONLY.fullmatch(stripped) is not None
        or stripped.lower() in _PLACEHOLDER_WORDS
        or stripped.lower().startswith("your")
    )


def _is_code(value: str, *, spaced_equals: bool) -> bool:
    """A value that is a variable, attribute, call or type rather than a literal secret."""
    if _CALL_OR_SUBSCRIPT.match(value) or _DOTTED_NAME.fullmatch(value):
        return True
    if value.lower() in _TYPE_NAMES:
        return True
    # `password = pw` is Python; shells and .env files do not allow spaces around `=`.
    return spaced_equals and _IDENTIFIER.fullmatch(value) is not None and not _has_digit(value)


def _has_digit(value: str) -> bool:
    return any(ch.isdigit() for ch in value)


def _looks_random(value: str) -> bool:
    """Mixed character classes, as generated keys have and words do not."""
    lower = any(ch.islower() for ch in value)
    upper = any(ch.isupper() for ch in value)
    if _has_digit(value):
        return lower or upper
    return lower and upper and len(value) >= 24


def _accept_assignment(min_length: int) -> Accept:
    def accept(match: re.Match[str]) -> bool:
        quoted = match.group("q")
        if quoted is not None:
            return len(quoted) >= min_length and not _is_placeholder(quoted)
        value = match.group("v")
        if len(value) < min_length or _is_placeholder(value):
            return False
        sep = match.group("sep")
        if _is_code(value, spaced_equals="=" in sep and sep[0].isspace() and sep[-1].isspace()):
            return False
        if value.lower() == match.group("key").lower().lstrip("-"):
            return False
        following = match.string[match.end("v") : match.end("v") + 1]
        return not (value.isalpha() and following not in _VALUE_END)

    return accept


def _accept_value(match: re.Match[str]) -> bool:
    return not _is_placeholder(match.group("v"))


def _accept_random(match: re.Match[str]) -> bool:
    secret = match.group("v") if "v" in match.re.groupindex else match.group(0)
    return _looks_random(secret)


def _accept_prose_key(match: re.Match[str]) -> bool:
    value = match.group("v")
    return _has_digit(value) and any(c.isupper() for c in value) and any(c.islower() for c in value)


def _accept_prose_password(match: re.Match[str]) -> bool:
    """A word with a digit or a symbol ("hunter2-Xk9!pq"), not a plain word ("is strong")."""
    value = match.group("v").rstrip(".,;:!?)")
    return not _is_placeholder(value) and not value.isalpha()


# An unquoted value may hold brackets but not end with one: `f(password=pw)` ends at `pw`.
_UNQUOTED = r"[^\s\"'`,;&)\]}]+(?:[)\]}]+[^\s\"'`,;&)\]}]+)*"


def _assignment(key: str) -> re.Pattern[str]:
    """`key=value`, `key: value`, `"key": "value"`, `export KEY='value'`, `--key=value`."""
    return re.compile(
        r"(?<![A-Za-z0-9_.\-])(?P<kq>[\"']?)(?P<key>" + key + r")(?![A-Za-z0-9_])(?P=kq)"
        r"(?P<sep>[ \t]*(?:=(?!=)|:(?![:/=]))[ \t]*)"
        r"(?:(?P<qq>[\"'])(?P<q>[^\"'\n]*)(?P=qq)|(?P<v>" + _UNQUOTED + "))",
        re.IGNORECASE,
    )


_PASSWORD_KEY = (
    r"[A-Za-z0-9_.\-]*?(?:password|passwd|passphrase)|[A-Za-z0-9_.\-]*[_.\-](?:pass|pwd|pw)"
)
_SECRET_KEY = (
    r"[A-Za-z0-9_.\-]*?(?:secret(?:[_\-]?key)?|token|api[_\-]?key|access[_\-]?key|private[_\-]?key"
    r"|auth[_\-]?key|signing[_\-]?key)"
)
_AUTH_HEADER = r"(?i:\bauthorization\b)[\"']?[ \t]*[:=][ \t]*[\"']?"

_DETECTORS: tuple[_Detector, ...] = (
    _Detector(
        "private_key",
        re.compile(
            r"-----BEGIN [A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----"
            r"(?:[\s\S]*?-----END [A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----"
            # A pasted block cut off before its END line: take the base64 lines that follow.
            r"|(?:[ \t]*\r?\n[ \t]*(?:[A-Za-z0-9+/=]{16,}|[A-Za-z\-]+:[^\n]*))*)"
        ),
        0,
        needs=("-----begin ",),
    ),
    _Detector(
        "anthropic_api_key",
        re.compile(_L + r"sk-ant-[A-Za-z0-9_\-]{32,}" + _R),
        1,
        needs=("sk-ant-",),
    ),
    _Detector(
        "openai_api_key",
        re.compile(_L + r"sk-(?!ant-)(?:proj-|svcacct-|admin-)?[A-Za-z0-9_\-]{20,}" + _R),
        1,
        accept=_accept_random,
        needs=("sk-",),
    ),
    _Detector(
        "aws_access_key",
        re.compile(r"(?<![A-Za-z0-9])(?:AKIA|ASIA|ABIA|ACCA)[A-Z0-9]{16}(?![A-Za-z0-9])"),
        1,
        needs=("akia", "asia", "abia", "acca"),
    ),
    _Detector(
        "aws_secret_key",
        re.compile(
            r"(?i:aws[_\-]?secret[_\-]?(?:access[_\-]?)?key|secret[_\-]?access[_\-]?key)"
            r"[\"']?[ \t]*[:=][ \t]*[\"']?(?P<v>[A-Za-z0-9/+]{40})(?![A-Za-z0-9/+=])"
        ),
        1,
        groups=("v",),
        needs=("secret",),
    ),
    _Detector(
        "github_token",
        re.compile(_L + r"(?:gh[pousr]_[A-Za-z0-9]{36,255}|github_pat_[A-Za-z0-9_]{22,255})" + _R),
        1,
        needs=("gh", "github_pat_"),
    ),
    _Detector(
        "gitlab_token",
        re.compile(_L + r"glpat-[A-Za-z0-9_\-]{20,}" + _R),
        1,
        needs=("glpat-",),
    ),
    _Detector(
        "slack_token",
        re.compile(_L + r"xox[abopsr]-[A-Za-z0-9\-]{10,}" + _R),
        1,
        accept=_accept_random,
        needs=("xox",),
    ),
    _Detector(
        "slack_webhook",
        re.compile(r"https://hooks\.slack\.com/services/T[A-Z0-9]{6,}/B[A-Z0-9]{6,}/\w{16,}"),
        1,
        needs=("https://hooks.slack.com/",),
    ),
    _Detector(
        "stripe_key",
        re.compile(_L + r"(?:sk|rk|pk)_(?:live|test)_[A-Za-z0-9]{16,}" + _R),
        1,
        needs=("_live_", "_test_"),
    ),
    _Detector(
        # In prose: "the secret is TddJ8...", "secret key TddJ8...": 40 base64 characters a
        # few words after secret/key. A git hash has no upper case, so it passes.
        "aws_secret_key",
        re.compile(
            r"(?i:\b(?:secret|key)s?\b)[^\n]{0,40}?(?<![A-Za-z0-9/+])"
            r"(?P<v>[A-Za-z0-9/+]{40})(?![A-Za-z0-9/+=])"
        ),
        2,
        groups=("v",),
        accept=_accept_prose_key,
        needs=("secret", "key"),
    ),
    _Detector(
        # In prose: "password is hunter2-Xk9!pq", "the password was ...".
        "password",
        re.compile(
            r"(?i:\b(?:password|passwd|passphrase|pwd)\b)[ \t]+(?i:is|was)[ \t]+[\"'`]?"
            r"(?P<v>[^\s\"'`]{4,})"
        ),
        4,
        groups=("v",),
        accept=_accept_prose_password,
        needs=("pass", "pwd"),
    ),
    _Detector(
        "google_api_key", re.compile(_L + r"AIza[0-9A-Za-z_\-]{35}" + _R), 1, needs=("aiza",)
    ),
    _Detector("twilio_key", re.compile(r"(?<![A-Za-z0-9])(?:AC|SK)[0-9a-f]{32}(?![A-Za-z0-9])"), 1),
    _Detector(
        "sendgrid_api_key",
        re.compile(_L + r"SG\.[A-Za-z0-9_\-]{22}\.[A-Za-z0-9_\-]{43}" + _R),
        1,
        needs=("sg.",),
    ),
    _Detector("npm_token", re.compile(_L + r"npm_[A-Za-z0-9]{36}" + _R), 1, needs=("npm_",)),
    _Detector(
        "huggingface_token",
        re.compile(_L + r"hf_[A-Za-z0-9]{30,}" + _R),
        1,
        accept=_accept_random,
        needs=("hf_",),
    ),
    _Detector(
        "jwt",
        re.compile(_L + r"eyJ[A-Za-z0-9_\-]{8,}\.[A-Za-z0-9_\-]{8,}\.[A-Za-z0-9_\-]{8,}" + _R),
        2,
        needs=("eyj",),
    ),
    _Detector(
        "bearer_token",
        re.compile(_AUTH_HEADER + r"(?i:bearer)\s+(?P<v>[A-Za-z0-9\-._~+/]{8,}=*)"),
        2,
        groups=("v",),
        needs=("authorization",),
    ),
    _Detector(
        "bearer_token",
        re.compile(r"(?<![A-Za-z])[Bb]earer\s+(?P<v>[A-Za-z0-9\-._~+/]{16,}=*)"),
        2,
        groups=("v",),
        accept=_accept_random,
        needs=("bearer",),
    ),
    _Detector(
        "basic_auth",
        re.compile(_AUTH_HEADER + r"(?i:basic)\s+(?P<v>[A-Za-z0-9+/]{8,}={0,2})"),
        2,
        groups=("v",),
        needs=("authorization",),
    ),
    _Detector(
        "url_password",
        re.compile(
            r"(?<![A-Za-z0-9+.\-])[A-Za-z][A-Za-z0-9+.\-]{1,20}://"
            r"[^\s:/@?#\[\]]*:(?P<v>[^\s@/?#]+)@(?=[A-Za-z0-9\[])"
        ),
        3,
        groups=("v",),
        accept=_accept_value,
        needs=("://",),
    ),
    _Detector(
        "password",
        _assignment(_PASSWORD_KEY),
        4,
        groups=("q", "v"),
        accept=_accept_assignment(1),
        needs=("pass", "pw"),
    ),
    _Detector(
        "env_secret",
        _assignment(_SECRET_KEY),
        4,
        groups=("q", "v"),
        accept=_accept_assignment(8),
        needs=("secret", "token", "key"),
    ),
)


def _span(detector: _Detector, match: re.Match[str]) -> tuple[int, int]:
    for group in detector.groups:
        if match.group(group) is not None:
            return match.span(group)
    return match.span()


def _candidates(text: str) -> list[tuple[int, Finding]]:
    # Lower-cased, an ASCII text holds what a case-insensitive pattern matches in it; other
    # texts (a Kelvin sign matches "k" ignoring case) are searched by every pattern.
    lowered = text.lower() if text.isascii() else None
    found: list[tuple[int, Finding]] = []
    for detector in _DETECTORS:
        if lowered is not None and detector.needs and not any(n in lowered for n in detector.needs):
            continue
        for match in detector.pattern.finditer(text):
            if detector.accept is not None and not detector.accept(match):
                continue
            start, end = _span(detector, match)
            if end > start:
                found.append((detector.priority, Finding(detector.kind, start, end)))
    return found


# Short texts found clean: a batch of memories scans each of its tags three times per memory
# that carries it (``scrub.tags``), the same few hundred names over and over; 24 patterns on
# each took half of the write path's time outside the embedding and the engine. Only clean
# texts are kept (no secret lingers here), only short ones (tags, names), and the set is
# emptied when full.
_CLEAN_MAX_CHARS = 64
_CLEAN_MAX_TEXTS = 10_000
_clean: set[str] = set()


def scan(text: str) -> list[Finding]:
    """Every secret in ``text``, in order of position, none overlapping another.

    Args:
        text: any text about to be stored (memory content, a snippet, a tag).
    """
    if text in _clean:
        return []
    found = _scan(text)
    if not found and len(text) <= _CLEAN_MAX_CHARS:
        if len(_clean) >= _CLEAN_MAX_TEXTS:
            _clean.clear()
        _clean.add(text)
    return found


def _scan(text: str) -> list[Finding]:
    ranked = sorted(_candidates(text), key=lambda c: (c[0], c[1].start, c[1].start - c[1].end))
    kept: list[Finding] = []
    for _, finding in ranked:
        if all(finding.end <= other.start or finding.start >= other.end for other in kept):
            kept.append(finding)
    return sorted(kept, key=lambda f: f.start)


def redact(text: str) -> tuple[str, list[Finding]]:
    """``text`` with each secret replaced by ``[REDACTED:<kind>]``, and the findings.

    Finding offsets refer to the original ``text``.
    """
    findings = scan(text)
    parts: list[str] = []
    cursor = 0
    for finding in findings:
        parts.append(text[cursor : finding.start])
        parts.append(f"[REDACTED:{finding.kind}]")
        cursor = finding.end
    parts.append(text[cursor:])
    return "".join(parts), findings


def apply(text: str, *, field: str, mode: PrivacyMode) -> str:
    """Run the filter on one field before it is stored.

    Args:
        text: the field's value.
        field: the field's name, reported in the error (``content``, ``source.snippet``).
        mode: ``"redact"`` returns the text with secrets replaced; ``"reject"`` raises
            ``SecretRejected`` naming the kinds found, and returns the text unchanged if clean.
    """
    if mode not in ("redact", "reject"):
        raise InvalidInput("privacy_mode", f"must be 'redact' or 'reject', not {mode!r}")
    redacted, findings = redact(text)
    if findings and mode == "reject":
        raise SecretRejected(field, [finding.kind for finding in findings])
    return redacted
