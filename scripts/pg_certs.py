"""Throwaway TLS certificates for a test server, made with the ``openssl`` binary.

Why: ``sslmode=verify-full`` is only exercised when a server presents a certificate signed by
a CA the client names (``sslrootcert``) for the host name the client dialled. A test needs a
CA of its own (and a second, unrelated one to be refused), and a server certificate for
``localhost`` only, so that dialling ``127.0.0.1`` fails the host-name check. EC P-256 keys:
made in milliseconds. Valid for two days: long enough for any run, useless afterwards.

    ca = make_ca(folder / "ca", "MadoHub test CA")
    cert, key = make_server_cert(folder / "server", ca, "localhost")
"""

from __future__ import annotations

import shutil
import subprocess
from dataclasses import dataclass
from pathlib import Path

_KEY = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes"]
_DAYS = "2"


class OpensslUnavailable(RuntimeError):
    """No ``openssl`` binary on this machine."""


@dataclass(frozen=True)
class Authority:
    """A certificate authority: its certificate (what a client trusts) and its signing key."""

    cert: Path
    key: Path


def _openssl(*args: str) -> None:
    program = shutil.which("openssl")
    if program is None:
        raise OpensslUnavailable(
            "No openssl binary found: run scripts/install-system-deps.sh (Debian package openssl)."
        )
    done = subprocess.run([program, *args], capture_output=True, text=True, check=False)
    if done.returncode != 0:
        raise RuntimeError(f"openssl {args[0]} failed ({done.returncode}): {done.stderr.strip()}")


def make_ca(folder: Path, name: str) -> Authority:
    """A self-signed CA in ``folder`` (created): ``ca.crt`` and ``ca.key``."""
    folder.mkdir(parents=True, exist_ok=True)
    cert, key = folder / "ca.crt", folder / "ca.key"
    _openssl("req", "-x509", *_KEY, "-keyout", str(key), "-out", str(cert), "-days", _DAYS,
             "-subj", f"/CN={name}", "-addext", "basicConstraints=critical,CA:TRUE",
             "-addext", "keyUsage=critical,keyCertSign,cRLSign")
    key.chmod(0o600)
    return Authority(cert, key)


def make_server_cert(folder: Path, ca: Authority, host: str) -> tuple[Path, Path]:
    """(``server.crt``, ``server.key``) in ``folder``: a server certificate for the DNS name
    ``host`` alone (no IP address in it), signed by ``ca``; the key is 0600."""
    folder.mkdir(parents=True, exist_ok=True)
    cert, key, request = folder / "server.crt", folder / "server.key", folder / "server.csr"
    extensions = folder / "server.ext"
    extensions.write_text(f"subjectAltName=DNS:{host}\nbasicConstraints=CA:FALSE\n"
                          "keyUsage=critical,digitalSignature,keyEncipherment\nextendedKeyUsage=serverAuth\n")
    _openssl("req", *_KEY, "-keyout", str(key), "-out", str(request), "-subj", f"/CN={host}")
    _openssl("x509", "-req", "-in", str(request), "-CA", str(ca.cert), "-CAkey", str(ca.key),
             "-CAcreateserial", "-out", str(cert), "-days", _DAYS, "-extfile", str(extensions))
    key.chmod(0o600)
    request.unlink()
    return cert, key
