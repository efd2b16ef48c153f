"""Privacy filter: find secrets in a text before it is stored, then redact or reject it.

Each detector is one compiled pattern, the part of the match that is the secret (the whole
match, or only the value of an assignment), a priority, and for shapes that also occur in
ordinary text a check on the captured value. When two findings overlap, the lower priority
number wins (a private key block beats the base64 inside it, a provider key beats the
``OPENAI_API_KEY=`` line around it). Redaction writes ``[REDACTED:<kind>]`` in place of the
secret; redacting an already redacted text changes nothing.

Every pass is linear in the text (#43: the private-key pattern once took ~37 s of CPU for
256 KiB). No pattern has a quantifier over an unbounded span that a failed attempt rescans from
each of many starting points: a private key is found by its BEGIN line and the first END line
after it (both located once, ``_private_keys``); a command's context ("mysql", "curl") is looked
for in a bounded window before the flag, never by a pattern spanning from the command to it;
and overlapping findings are settled with a sorted sweep, not by comparing every pair.
``bench/scanner.py`` prints the throughput on ordinary and adversarial text.
"""

from __future__ import annotations

import math
import re
import string
from bisect import bisect_left
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from functools import lru_cache
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
    # The pattern is lower-case and runs on the lower-cased text (an ASCII text's offsets are
    # the same): the engine then skips ahead to its literal, where IGNORECASE tries every
    # position (a key-word pattern ran 20x faster). Other texts get ``folded``, the same
    # pattern ignoring case; ``accept`` must not depend on the value's case.
    lowered: bool = False

    @property
    def folded(self) -> re.Pattern[str]:
        return _folded(self.pattern)


@lru_cache(maxsize=64)
def _folded(pattern: re.Pattern[str]) -> re.Pattern[str]:
    return re.compile(pattern.pattern, pattern.flags | re.IGNORECASE)


# Token edges: a key must not be glued to other key-ish characters on either side; before its
# prefix only a letter or digit counts, so a token glued to a name ("deploy-ghp_...",
# "CI_ghp_...") is found (the planted-secret walk, bench/secret_walk.py, found it missed).
_L = r"(?<![A-Za-z0-9])"
_R = r"(?![A-Za-z0-9_\-])"

_MASK_ONLY = re.compile(r"[*xX•.…#?_\-]+")
_PLACEHOLDER_START = ("<", "$", "%", "{", "[redacted", ":", "@")
_PLACEHOLDER_WORDS = frozenset(
    {
        "none", "null", "nil", "true", "false", "undefined", "empty", "redacted", "hidden",
        "masked", "password", "passwd", "secret", "token", "changeme", "example", "placeholder",
    }
)  # fmt: skip
_CALL_OR_SUBSCRIPT = re.compile(r"[A-Za-z_][\w.]*[(\[]")
# Characters a generated secret has and a call's arguments rarely do ("aZ7(w*^4g...").
_NOT_IN_CODE = frozenset("!@#%^*~")
_DOTTED_NAME = re.compile(r"[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)+")
_IDENTIFIER = re.compile(r"[A-Za-z_]\w*")
_TYPE_NAMES = frozenset({"str", "bytes", "int", "any", "secretstr", "optional", "string"})
# After a plain-word value these characters close the assignment; anything else is prose.
_VALUE_END = frozenset({"", "\n", "\r", "&", ";", ",", "}"})


def _is_placeholder(value: str) -> bool:
    stripped = value.strip().lower()
    return (
        not stripped
        or stripped.startswith(_PLACEHOLDER_START)
        or _MASK_ONLY.fullmatch(stripped) is not None
        or stripped in _PLACEHOLDER_WORDS
        or stripped.startswith("your")
    )


def _is_code(value: str, *, spaced_equals: bool) -> bool:
    """A value that is a variable, attribute, call or type rather than a literal secret."""
    if _CALL_OR_SUBSCRIPT.match(value) and _NOT_IN_CODE.isdisjoint(value):
        return True
    if _DOTTED_NAME.fullmatch(value):
        return True
    if value.lower() in _TYPE_NAMES:
        return True
    # `password = pw` is Python; shells and .env files do not allow spaces around `=`.
    return spaced_equals and _IDENTIFIER.fullmatch(value) is not None and not _has_digit(value)


_DIGITS = frozenset(string.digits)
_UPPER = frozenset(string.ascii_uppercase)
_LOWER = frozenset(string.ascii_lowercase)


# The set tests below walk an ASCII value in C; a found secret costs a few of these checks,
# and a text may hold tens of thousands of candidates.
def _has_digit(value: str) -> bool:
    if value.isascii():
        return not _DIGITS.isdisjoint(value)
    return any(ch.isdigit() for ch in value)


def _looks_random(value: str) -> bool:
    """Mixed character classes, as generated keys have and words do not."""
    if value.isascii():
        lower, upper = not _LOWER.isdisjoint(value), not _UPPER.isdisjoint(value)
    else:
        lower = any(ch.islower() for ch in value)
        upper = any(ch.isupper() for ch in value)
    if _has_digit(value):
        return lower or upper
    return lower and upper and len(value) >= 24


_KEY_CHARS = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_.-"
_MAX_KEY_CHARS = 256


def _key_start(text: str, end: int) -> int:
    """Where the key name ending at ``end`` starts: the run of key characters before it (at
    most ``_MAX_KEY_CHARS``; ``rstrip`` walks it in C)."""
    window = text[max(0, end - _MAX_KEY_CHARS) : end]
    return end - (len(window) - len(window.rstrip(_KEY_CHARS)))


def _accept_assignment(min_length: int) -> Accept:
    """A key's value that is a literal secret: not a placeholder, not code, not a word in
    prose. The match starts at the key's last word (``_assignment``): the whole key name is
    the run of key characters before it, and a quote after it must close one before it."""

    def accept(match: re.Match[str]) -> bool:
        text = match.string
        key_start = _key_start(text, match.start())
        closing = match.group("kc")
        if closing and (key_start == 0 or text[key_start - 1] != closing):
            return False
        quoted = match.group("q")
        if quoted is not None:
            return len(quoted) >= min_length and not _is_placeholder(quoted)
        value = match.group("v")
        if len(value) < min_length or _is_placeholder(value):
            return False
        sep = match.group("sep")
        if _is_code(value, spaced_equals="=" in sep and sep[0].isspace() and sep[-1].isspace()):
            return False
        if value.lower() == text[key_start : match.end("key")].lower().lstrip("-"):
            return False
        following = text[match.end("v") : match.end("v") + 1]
        return not (value.isalpha() and following not in _VALUE_END)

    return accept


def _accept_value(match: re.Match[str]) -> bool:
    return not _is_placeholder(match.group("v"))


def _accept_random(match: re.Match[str]) -> bool:
    secret = match.group("v") if "v" in match.re.groupindex else match.group(0)
    return _looks_random(secret)


# Runs of a word's letters: an identifier or a path ("UserProfileSerializerV2...", "com/example/
# service/...") is mostly these; a generated key is not (in 200,000 random 40-character base64
# strings at most 0.85 of the characters and 0.2 at the median, in identifiers 0.85-0.98).
_WORDISH = re.compile(r"[a-z]{3,}|[A-Z][a-z]{2,}")
# Of random 40-character base64 strings none had a character entropy under 4.16 bits.
_MIN_ENTROPY = 4.0
_MAX_WORDISH = 0.7


def _entropy(value: str) -> float:
    """Bits per character of ``value``'s own character distribution."""
    n = len(value)
    return math.log2(n) - sum(c * math.log2(c) for c in Counter(value).values()) / n


def _looks_generated(value: str) -> bool:
    """Upper case, lower case and digits, spread like a generated key's, not like a name's."""
    chars = set(value)
    if chars.isdisjoint(_DIGITS) or chars.isdisjoint(_UPPER) or chars.isdisjoint(_LOWER):
        return False
    wordish = sum(map(len, _WORDISH.findall(value)))
    return wordish < _MAX_WORDISH * len(value) and _entropy(value) >= _MIN_ENTROPY


def _accept_prose_password(match: re.Match[str]) -> bool:
    """A word with a digit or a symbol ("hunter2-Xk9!pq"), not a plain word ("is strong")."""
    value = match.group("v").rstrip(".,;:!?)")
    return not _is_placeholder(value) and not value.isalpha()


# Words that say a 40-character value nearby is a digest, not a key.
_DIGEST_WORDS = re.compile(r"(?i:checksum|hash|digest|sha\d*|md5|etag|fingerprint)")


def _accept_bare_key(match: re.Match[str]) -> bool:
    """A bare 40-character AWS-shaped secret: generated-looking, and not called a digest in the
    few words before it (a bounded window, so the check costs the same wherever it is)."""
    if not _looks_generated(match.group("v")):
        return False
    before = match.string[max(0, match.start() - 32) : match.start()]
    return _DIGEST_WORDS.search(before) is None


# Words that name a 32-hex-digit value as an API key, on its line and at most 48 characters
# before it (checked in that bounded window: a pattern spanning from the word to the value
# retried its window from every occurrence of the word).
_HEX_KEY_WORDS = re.compile(
    r"\b(?:api|app|application|access|client|license)[ _\-]?keys?\b|\btokens?\b"
)


def _accept_hex_key(match: re.Match[str]) -> bool:
    value = match.group("v")
    if not _has_digit(value) or value.isdigit():
        return False
    text = match.string
    start = match.start()
    line_start = text.rfind("\n", max(0, start - 48), start) + 1
    window = text[max(line_start, start - 48) : start].lower()
    return _HEX_KEY_WORDS.search(window) is not None


def _after_command(*commands: str) -> Accept:
    """A flag's value counts only on a line that runs one of ``commands`` before it (looked for
    in the 200 characters before the flag: a bounded window, not a pattern spanning both)."""

    def accept(match: re.Match[str]) -> bool:
        text = match.string
        start = match.start()
        line_start = text.rfind("\n", max(0, start - 200), start) + 1
        window = text[max(line_start, start - 200) : start].lower()
        return any(c in window for c in commands) and not _is_placeholder(_value(match))

    return accept


# An unquoted value may hold brackets but not end with one: `f(password=pw)` ends at `pw`.
_UNQUOTED = r"[^\s\"'`,;&)\]}]+(?:[)\]}]+[^\s\"'`,;&)\]}]+)*"


def _assignment(keyword: str) -> re.Pattern[str]:
    """`key=value`, `key: value`, `"key": "value"`, `export KEY='value'`, `--key=value`, found
    from the key name's last word (``keyword``, lower case: the pattern runs lowered)."""
    return re.compile(
        r"(?P<key>" + keyword + r")(?![a-z0-9_])(?P<kc>[\"']?)"
        r"(?P<sep>[ \t]*(?:=(?!=)|:(?![:/=]))[ \t]*)"
        r"(?:(?P<qq>[\"'])(?P<q>[^\"'\n]*)(?P=qq)|(?P<v>" + _UNQUOTED + "))"
    )


# The last word of a password's or a secret's key name (``db_password``, ``SLACK_BOT_TOKEN``).
_PASSWORD_KEY = r"password|passwd|passphrase|[_.\-](?:pass|pwd|pw)"
_SECRET_KEY = (
    r"secret(?:[_\-]?key)?|token|api[_\-]?key|access[_\-]?key|private[_\-]?key"
    r"|auth[_\-]?key|signing[_\-]?key"
)
# A command-line flag's value: quoted, or up to the next space or shell separator.
_FLAG_VALUE = r"(?:(?P<qq>[\"'])(?P<q>[^\"'\n]+)(?P=qq)|(?P<v>[^\s\"'`;&|]+))"


def _value(match: re.Match[str]) -> str:
    """The quoted value of a match if it has one, else its bare value."""
    quoted = match.groupdict().get("q")
    return quoted if quoted is not None else match.group("v")


def _accept_value_or_quoted(match: re.Match[str]) -> bool:
    return not _is_placeholder(_value(match))


def _accept_flag_value(match: re.Match[str]) -> bool:
    """``--password X``: a value with a digit or a symbol, not a word ("--password prompt")."""
    value = _value(match)
    return len(value) >= 4 and not _is_placeholder(value) and not value.isalpha()


_AUTH_HEADER = r"(?i:\bauthorization\b)[\"']?[ \t]*[:=][ \t]*[\"']?"


def _command_flag(flag: str, *commands: str, groups: tuple[str, ...] = ("q", "v")) -> _Detector:
    """A password given to a command as a flag (``sshpass -p X``, ``mysql -pX``, ``curl -u
    user:X``): the flag's pattern, counted only on a line that runs one of ``commands``."""
    return _Detector(
        "password",
        re.compile(r"(?<=[ \t])" + flag),
        2,
        groups=groups,
        accept=_after_command(*commands),
        needs=commands,
    )


_DETECTORS: tuple[_Detector, ...] = (
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
    _Detector(
        # The literal first, the edge after it: the engine then skips ahead to "AC" or "SK".
        "twilio_key",
        re.compile(r"(?:AC|SK)(?<![A-Za-z0-9]..)[0-9a-f]{32}(?![A-Za-z0-9])"),
        1,
    ),
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
        "docker_token",
        re.compile(_L + r"dckr_pat_[A-Za-z0-9_\-]{20,}" + _R),
        1,
        needs=("dckr_pat_",),
    ),
    _Detector(
        # Stripe's and Svix's webhook signing secrets; shorter ones are left to the assignment.
        "webhook_secret",
        re.compile(_L + r"whsec_[A-Za-z0-9+/=]{24,}(?![A-Za-z0-9_\-+/=])"),
        1,
        accept=_accept_random,
        needs=("whsec_",),
    ),
    _Detector(
        # An Azure storage or service bus connection string's key.
        "azure_key",
        re.compile(r"(?<![A-Za-z])(?:AccountKey|SharedAccessKey)=(?P<v>[A-Za-z0-9+/]{20,}={0,2})"),
        1,
        groups=("v",),
        needs=("accountkey=", "sharedaccesskey="),
    ),
    _Detector(
        "aws_secret_key",
        re.compile(
            r"(?i:aws[ \t]+configure[ \t]+set)[ \t]+(?:[\w\-]+\.)?"
            r"(?i:aws_secret_access_key|aws_session_token)[ \t]+" + _FLAG_VALUE
        ),
        1,
        groups=("q", "v"),
        accept=_accept_value_or_quoted,
        needs=("configure",),
    ),
    _Detector(
        # "the Datadog API key is 0a1b...": 32 hex digits a few words after an API key or token.
        "api_key",
        re.compile(r"(?<![A-Za-z0-9])(?P<v>[0-9a-f]{32}|[0-9A-F]{32})(?![A-Za-z0-9])"),
        2,
        groups=("v",),
        accept=_accept_hex_key,
        needs=("key", "token"),
    ),
    _Detector(
        # A 40-character AWS secret, after "secret" or "key" ("the secret is TddJ8...") or with
        # no key word near it (a step, a warning): only when it looks generated (a git hash has
        # no upper case, an identifier is made of words), and not when the words before it
        # call it a digest.
        "aws_secret_key",
        re.compile(r"(?<![A-Za-z0-9/+=])(?P<v>[A-Za-z0-9/+]{40})(?![A-Za-z0-9/+=])"),
        2,
        groups=("v",),
        accept=_accept_bare_key,
    ),
    _command_flag(r"-p[ \t]*" + _FLAG_VALUE, "sshpass"),
    _command_flag(r"-p" + _FLAG_VALUE, "mysql", "mariadb"),
    _command_flag(
        r"(?:-u|--user)(?:[ \t]+|=)[\"']?[^\s:\"'@]*:(?P<v>[^\s\"'@]+)", "curl", groups=("v",)
    ),
    _Detector(
        # `--password X`, `--token X`: a flag and its value as separate words.
        "password",
        re.compile(
            r"(?<=[ \t])--(?:password|passwd|pass|token|api-key|apikey|secret|secret-key"
            r"|access-key|client-secret)[ \t]+" + _FLAG_VALUE
        ),
        4,
        groups=("q", "v"),
        accept=_accept_flag_value,
        needs=("--",),
    ),
    _Detector(
        "password",
        _assignment(_PASSWORD_KEY),
        4,
        groups=("q", "v"),
        accept=_accept_assignment(1),
        needs=("pass", "pw"),
        lowered=True,
    ),
    _Detector(
        "env_secret",
        _assignment(_SECRET_KEY),
        4,
        groups=("q", "v"),
        accept=_accept_assignment(8),
        needs=("secret", "token", "key"),
        lowered=True,
    ),
)


def _span(detector: _Detector, match: re.Match[str]) -> tuple[int, int]:
    for group in detector.groups:
        if match.group(group) is not None:
            return match.span(group)
    return match.span()


_PEM_BEGIN = re.compile(r"-----BEGIN [A-Z0-9 ]{0,40}PRIVATE KEY(?: BLOCK)?-----")
_PEM_END = re.compile(r"-----END [A-Z0-9 ]{0,40}PRIVATE KEY(?: BLOCK)?-----")
# A pasted block cut off before its END line: the base64 and header lines that follow BEGIN.
_PEM_LINES = re.compile(r"(?:[ \t]*\r?\n[ \t]*(?:[A-Za-z0-9+/=]{16,}|[A-Za-z\-]+:[^\n]*))*")


# A candidate: (priority, start, end, kind); Findings are made only for the ones kept.
_Candidate = tuple[int, int, int, str]


def _private_keys(text: str) -> Iterator[_Candidate]:
    """Each private key block: from its BEGIN line to the first END line after it, or, with
    none, over the key lines that follow. The END lines are found once and looked up by
    bisection: a pattern searching for END from every BEGIN rescans the text per BEGIN."""
    ends = [(m.start(), m.end()) for m in _PEM_END.finditer(text)]
    starts = [start for start, _ in ends]
    covered = 0
    for begin in _PEM_BEGIN.finditer(text):
        if begin.start() < covered:
            continue  # inside the block found before
        i = bisect_left(starts, begin.end())
        if i < len(ends):
            covered = ends[i][1]
        else:
            lines = _PEM_LINES.match(text, begin.end())
            covered = lines.end() if lines is not None else begin.end()
        yield (0, begin.start(), covered, "private_key")


def _candidates(text: str) -> list[_Candidate]:
    # Lower-cased, an ASCII text holds what a case-insensitive pattern matches in it; other
    # texts (a Kelvin sign matches "k" ignoring case) are searched by every pattern.
    lowered = text.lower() if text.isascii() else None
    found: list[_Candidate] = []
    if lowered is None or "-----begin " in lowered:
        found.extend(_private_keys(text))
    for detector in _DETECTORS:
        if lowered is not None and detector.needs and not any(n in lowered for n in detector.needs):
            continue
        if not detector.lowered:
            matches = detector.pattern.finditer(text)
        elif lowered is not None:
            matches = detector.pattern.finditer(lowered)
        else:
            matches = detector.folded.finditer(text)
        accept, priority, kind = detector.accept, detector.priority, detector.kind
        for match in matches:
            if accept is not None and not accept(match):
                continue
            start, end = _span(detector, match)
            if end > start:
                found.append((priority, start, end, kind))
    return found


# Short texts found clean: a batch of memories scans each of its tags three times per memory
# that carries it (``scrub.tags``), the same few hundred names over and over; 24 patterns on
# each took half of the write path's time outside the embedding and the engine. Only clean
# texts are kept (no secret lingers here), only short ones (tags, names), and the set is
# emptied when full.
_CLEAN_MAX_CHARS = 128  # a namespace, checked on every request
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
    """The candidates, settled: a lower priority number wins an overlap, then the earlier
    start, then the longer span. One priority at a time is swept against the sorted spans
    kept so far (disjoint, so sorted by start and by end alike): n log n, where comparing each
    candidate with every kept span was quadratic in a text full of short secrets."""
    by_priority: dict[int, list[tuple[int, int, int, str]]] = {}
    for order, (priority, start, end, kind) in enumerate(_candidates(text)):
        # Same span: the detector listed first wins (``order``), as in ``_DETECTORS``.
        by_priority.setdefault(priority, []).append((start, -end, order, kind))
    kept: list[tuple[int, int, str]] = []  # (start, end, kind)
    for priority in sorted(by_priority):
        starts = [span[0] for span in kept]
        added: list[tuple[int, int, str]] = []
        last_end = -1
        for start, neg_end, _, kind in sorted(by_priority[priority]):
            end = -neg_end
            if last_end > start:
                continue
            i = bisect_left(starts, end)  # kept[i - 1]: the last to start before this ends
            if i and kept[i - 1][1] > start:
                continue
            added.append((start, end, kind))
            last_end = end
        kept = sorted(kept + added) if kept else added
    return [Finding(kind, start, end) for start, end, kind in kept]


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
