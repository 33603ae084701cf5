"""What to do about a refused connection, added to libpq's reason in the one sentence a user sees.

libpq says what failed ("certificate verify failed", "no password supplied") but not where the
fix lives for this program: the CA file named in the address, the host name in the server's
certificate, the password file. The hint is a clause in parentheses, so the message stays one
sentence; a reason without a known cause is returned as it is.
"""

from __future__ import annotations

_HINTS = (
    ("certificate verify failed",
     "the server's certificate is not signed by the CA named in sslrootcert; ask the server's owner for theirs"),
    ("does not match host name",
     "with sslmode=verify-full, connect with the host name the server's certificate names"),
    ("root certificate file",
     "sslmode=verify-full needs the server's CA certificate: add sslrootcert=PATH to the address"),
    ("no password supplied",
     "put the password in PGPASSFILE (~/.pgpass, mode 0600) or a libpq service file, never in --db"),
    ("password authentication failed",
     "check the password in PGPASSFILE (~/.pgpass), the service file or $MADOHUB_DB"),
    ("no encryption",
     "the server accepts only TLS connections: add sslmode=verify-full and sslrootcert=PATH to the address"),
)


def with_hint(reason: str) -> str:
    """``reason`` followed by what to change, when libpq's words name a known cause."""
    lowered = reason.lower()
    for words, hint in _HINTS:
        if words in lowered:
            return f"{reason.rstrip('. ')} ({hint})"
    return reason
