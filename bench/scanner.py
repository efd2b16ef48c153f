"""How fast is the secret scanner, on ordinary and on adversarial text? One command:
python bench/scanner.py

Prints the scanner's throughput (MB/s) on ordinary technical text and on adversarial text:
512 KiB made of one piece repeated, where a piece is a prefix of a secret's shape (every
prefix of one sample per detector, each alone and followed by a space or a newline, each
sample whole too). A pattern that rescans the text from each of many starting points shows as
a piece far slower than the rest (#43: the private-key pattern took ~37 s for 256 KiB); the
worst pieces are printed with their time.
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Iterator

from hippograph.graph.text import privacy

KIB = 1024
# One text per detector in the shape it finds (the secrets are made up, of the right shape).
SAMPLES: tuple[str, ...] = (
    "-----BEGIN RSA PRIVATE KEY-----\nMIIEpAIBAAKCAQEAu1SU1LfVLPHCozMxH2Mo\n-----END RSA PRIVATE KEY-----",
    "-----BEGIN OPENSSH PRIVATE KEY-----\nProc-Type: 4,ENCRYPTED\nb3BlbnNzaC1rZXktdjEAAAAA\n",
    "sk-ant-api03-Xk9aZ7qLm2Pw8RtY6uN3bHcFgA5eKj1Oi4MdS0vB",
    "sk-proj-aZ7Xk9qLm2Pw8RtY6uN3bHcFgA5eK",
    "AKIAIOSFODNN7EXAMPLE",
    "aws_secret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY",
    "aws configure set aws_secret_access_key wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY",
    "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY",
    "ghp_aZ7Xk9qLm2Pw8RtY6uN3bHcFgA5eKj1Oi4Md",
    "github_pat_11aZ7Xk9qLm2Pw8RtY6uN3_bHcFgA5eKj1Oi4MdS0vB",
    "glpat-aZ7Xk9qLm2Pw8RtY6uN3",
    "xoxb-123456789012-1234567890123-aZ7Xk9qLm2Pw8RtY6uN3bHcF",
    "https://hooks.slack.com/services/T0AZ7XK9Q/B0LM2PW8R/aZ7Xk9qLm2Pw8RtY6uN3",
    "sk_live_aZ7Xk9qLm2Pw8RtY6uN3bHcF",
    "AIzaSyAZ7Xk9qLm2Pw8RtY6uN3bHcFgA5eKj1Oi",
    "SK0123456789abcdef0123456789abcdef",
    "SG.aZ7Xk9qLm2Pw8RtY6uN3bH.aZ7Xk9qLm2Pw8RtY6uN3bHcFgA5eKj1Oi4MdS0vB9qLm2Pw",
    "npm_aZ7Xk9qLm2Pw8RtY6uN3bHcFgA5eKj1Oi4Md",
    "hf_aZ7Xk9qLm2Pw8RtY6uN3bHcFgA5eKj1Oi4",
    "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.aZ7Xk9qLm2Pw8RtY6uN3bHcF",
    "Authorization: Bearer aZ7Xk9qLm2Pw8RtY6uN3bHcFgA5e",
    "Bearer aZ7Xk9qLm2Pw8RtY6uN3bHcFgA5e",
    "Authorization: Basic YWRtaW46aHVudGVyMjI=",
    "postgres://app:Tr0ub4dor@db.internal:5432/main",
    "the admin password is hunter2-Xk9!pq",
    "DB_PASSWORD='s3cr3t#1'",
    "OPENAI_API_KEY=aZ7Xk9qLm2Pw8RtY6uN3",
    '{"api_key": "aZ7Xk9qLm2Pw8RtY6uN3"}',
    "sshpass -p 'Tr0ub4dor' ssh deploy@host",
    "mysql -h db -u root -pTr0ub4dor app",
    "curl -u admin:Tr0ub4dor https://api.example.com",
    "mysqldump --password Tr0ub4dor app",
    "DefaultEndpointsProtocol=https;AccountName=x;AccountKey=aZ7Xk9qLm2Pw8RtY6uN3bHcF==;",
    "the Datadog API key is 0a1b2c3d4e5f60718293a4b5c6d7e8f9",
    "dckr_pat_aZ7Xk9qLm2Pw8RtY6uN3bHcFgA5",
    "whsec_aZ7Xk9qLm2Pw8RtY6uN3bHcFgA5eKj1O",
)
# Ordinary technical text: code, prose, ids, hashes (nothing in it is a secret).
ORDINARY = (
    "def check_password(pw):\n    return bcrypt.checkpw(pw, stored)\n"
    "The API key is stored in Vault; rotate the token every 90 days.\n"
    "Fixed in commit 9fceb02d0ae598e95dc970b74767f19372d61af8 on main.\n"
    "Memory 550e8400-e29b-41d4-a716-446655440000 was superseded by a newer one.\n"
    "api_key = os.getenv('OPENAI_API_KEY')\n"
    "See https://docs.example.com:8443/auth?next=/home and http://localhost:8080/api.\n"
    "The cache key is UserProfileSerializerV2ForMobileClients1, rebuilt nightly.\n"
)


def pieces() -> Iterator[tuple[str, str]]:
    """(name, piece): every prefix of every sample, alone and followed by a space or newline."""
    for number, sample in enumerate(SAMPLES):
        for cut in range(1, len(sample) + 1):
            for sep in ("", " ", "\n"):
                yield f"sample {number} [:{cut}] + {sep!r}", sample[:cut] + sep


def repeated(piece: str, size: int) -> str:
    return (piece * (size // len(piece) + 1))[:size]


def seconds(text: str, rounds: int = 1) -> float:
    """The fastest of ``rounds`` scans of ``text`` (the scanner's cache of clean short texts
    does not apply: these are long)."""
    best = float("inf")
    for _ in range(rounds):
        start = time.perf_counter()
        privacy.scan(text)
        best = min(best, time.perf_counter() - start)
    return best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--kib", type=int, default=512, help="size of each text (KiB)")
    parser.add_argument("--show", type=int, default=10, help="how many of the worst to print")
    args = parser.parse_args()
    size = args.kib * KIB
    ordinary = seconds(repeated(ORDINARY, size), rounds=3)
    texts = dict(pieces())
    timed = sorted(((seconds(repeated(p, size)), name) for name, p in texts.items()), reverse=True)
    # One run each is noisy on a shared machine: the worst are timed again, best of three.
    worst = [(seconds(repeated(texts[name], size), rounds=3), name) for _, name in timed[:50]]
    timed = sorted(worst + timed[50:], reverse=True)
    total = sum(t for t, _ in timed)
    mb = size / 1e6
    print(f"ordinary text, {args.kib} KiB: {ordinary * 1000:.1f} ms ({mb / ordinary:.1f} MB/s)")
    print(
        f"adversarial, {len(timed)} texts of {args.kib} KiB: mean {total / len(timed) * 1000:.1f}"
        f" ms ({mb * len(timed) / total:.1f} MB/s), worst {timed[0][0] * 1000:.1f} ms"
        f" ({mb / timed[0][0]:.1f} MB/s)"
    )
    for spent, name in timed[: args.show]:
        print(f"  {spent * 1000:7.1f} ms  {name}")


if __name__ == "__main__":
    main()
