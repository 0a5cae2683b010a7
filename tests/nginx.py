"""Debian's nginx in front of ``tledger serve`` processes, as docs/DEPLOY.md deploys them,
for the deployment test and the proxy benchmark.

The configuration is the one the repository ships (``deploy/nginx/tledger.conf``), with
only what a test must change rendered in: the upstream processes' ports, the port nginx
listens on, and its log files. nginx runs as the user running the tests, needing no
path of the system's (``-p`` prefix and ``-c`` config in a folder of its own, with its
pid file, logs and temporary files), in the foreground and in one process, so that
stopping it is stopping that process. The ``serve`` processes
are real subprocesses on one store; each can be killed and started again on its port.
"""

from __future__ import annotations

import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator, Sequence
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass, field
from pathlib import Path

import httpx

ROOT = Path(__file__).resolve().parent.parent
SHIPPED = ROOT / "deploy" / "nginx" / "tledger.conf"
TLEDGER = str(Path(sys.executable).with_name("tledger"))
HOST = "127.0.0.1"
START_TIMEOUT = 30.0
#: nginx started on a fresh free port at most this often
ATTEMPTS = 3
#: the upstream lines of the shipped configuration, as it ships
UPSTREAM = re.compile(r"^    server 127\.0\.0\.1:800\d (max_fails=.*)$", re.M)


def nginx_binary() -> str | None:
    """Debian's nginx (in /usr/sbin, which a user's PATH may lack), or None."""
    return shutil.which("nginx") or shutil.which("nginx", path="/usr/sbin:/usr/bin")


def missing() -> str | None:
    """Why a test behind nginx cannot run here, or None when it can."""
    if nginx_binary() is None:
        return "nginx is not installed (.ci/run installs Debian's package)"
    if not os.environ.get("TLEDGER_TEST_POSTGRES"):
        return "TLEDGER_TEST_POSTGRES is not set (CI sets it to the local PostgreSQL)"
    return None


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind((HOST, 0))
        return int(sock.getsockname()[1])


def site(upstreams: Sequence[int], port: int, logs: Path, tls: Tls | None = None) -> str:
    """The shipped site with these upstream ports, listening on ``port`` of 127.0.0.1
    only, logging under ``logs``; with ``tls``, its TLS lines uncommented as the recipe
    says (the certificate's paths replaced) instead of plain HTTP. Every replaced line
    must be found, so a change to the shipped file that this rendering no longer fits
    fails here, not silently."""
    text = SHIPPED.read_text()
    lines = UPSTREAM.findall(text)
    assert len(lines) >= 2, "the shipped upstream names fewer than two processes"
    text = UPSTREAM.sub("", text).replace(
        "    least_conn;\n",
        "    least_conn;\n" + "".join(f"    server {HOST}:{p} {lines[0]}\n" for p in upstreams),
        1,
    )
    listen = f"    listen {HOST}:{port}{' ssl' if tls else ''};\n"
    plain = {
        "    listen 80;\n    listen [::]:80;\n    server_name": listen + "    server_name",
        "/var/log/nginx/tledger.access.log": str(logs / "access.log"),
        "/var/log/nginx/tledger.error.log": str(logs / "error.log"),
    }
    if tls is not None:
        live = "/etc/letsencrypt/live/tournaments.example.org"
        plain |= {
            "    #listen 443 ssl;\n": "",
            f"    #ssl_certificate     {live}/fullchain.pem;": f"    ssl_certificate {tls.cert};",
            f"    #ssl_certificate_key {live}/privkey.pem;": f"    ssl_certificate_key {tls.key};",
            "    #ssl_protocols": "    ssl_protocols",
            "    #ssl_session_cache": "    ssl_session_cache",
            "    #add_header Strict-Transport-Security": "    add_header Strict-Transport-Security",
        }
    for old, new in plain.items():
        assert text.count(old) == 1, f"the shipped configuration has no single {old!r}"
        text = text.replace(old, new)
    return text


def main_config(folder: Path) -> str:
    """An nginx.conf around the site: foreground, one process, everything in ``folder``."""
    temp = "\n".join(f"    {kind}_temp_path {folder / kind};"
                     for kind in ("client_body", "proxy", "fastcgi", "uwsgi", "scgi"))  # fmt: skip
    return (
        f"daemon off;\nmaster_process off;\nworker_processes 1;\n"
        f"pid {folder / 'nginx.pid'};\nerror_log {folder / 'error.log'} warn;\n"
        "events { worker_connections 4096; }\n"
        f"http {{\n{temp}\n    access_log off;\n    include {folder / 'tledger.conf'};\n}}\n"
    )


@dataclass(frozen=True)
class Tls:
    """A certificate and its key, as files."""

    cert: Path
    key: Path


def self_signed(folder: Path) -> Tls:
    """A certificate for 127.0.0.1, valid for a day, made with openssl."""
    folder.mkdir(parents=True, exist_ok=True)
    tls = Tls(folder / "cert.pem", folder / "key.pem")
    subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1",
                    "-subj", f"/CN={HOST}", "-addext", f"subjectAltName=IP:{HOST}",
                    "-keyout", str(tls.key), "-out", str(tls.cert)],
                   check=True, capture_output=True)  # fmt: skip
    return tls


@dataclass
class Nginx:
    """A running nginx: its process and the port it listens on."""

    process: subprocess.Popen[bytes]
    port: int
    folder: Path
    scheme: str = "http"

    @property
    def base(self) -> str:
        return f"{self.scheme}://{HOST}:{self.port}"

    @property
    def pid(self) -> int:
        return self.process.pid


@contextmanager
def nginx(upstreams: Sequence[int], folder: Path, tls: Tls | None = None) -> Iterator[Nginx]:
    """nginx with the shipped site over ``upstreams`` until the block ends (with
    ``tls``: ending TLS, as the recipe sets it up)."""
    folder.mkdir(parents=True, exist_ok=True)
    for _ in range(ATTEMPTS):  # the free port may be taken before nginx binds it
        started = start_nginx(upstreams, folder, tls)
        if started is not None:
            break
    else:
        log = folder / "error.log"
        raise RuntimeError(f"nginx did not start: {log.read_text(errors='replace')[-2000:]}")
    try:
        yield started
    finally:
        started.process.terminate()
        try:
            started.process.wait(timeout=5)
        except subprocess.TimeoutExpired:
            started.process.kill()
            started.process.wait()


def start_nginx(upstreams: Sequence[int], folder: Path, tls: Tls | None) -> Nginx | None:
    """nginx on a free port, once it has bound it (its pid file is written after its
    listening sockets), or None when it exited first."""
    binary = nginx_binary()
    assert binary is not None, missing()
    port = free_port()
    (folder / "tledger.conf").write_text(site(upstreams, port, folder, tls))
    (folder / "nginx.conf").write_text(main_config(folder))
    argv = [binary, "-p", str(folder), "-c", str(folder / "nginx.conf"),
            "-e", str(folder / "error.log")]  # fmt: skip
    checked = subprocess.run([*argv, "-t"], capture_output=True, text=True)
    assert checked.returncode == 0, checked.stderr
    pid = folder / "nginx.pid"
    pid.unlink(missing_ok=True)
    proc = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + START_TIMEOUT
    while time.monotonic() < deadline and proc.poll() is None:
        if pid.exists() and pid.read_text().strip() == str(proc.pid):
            return Nginx(proc, port, folder, "https" if tls else "http")
        time.sleep(0.05)
    proc.kill()
    proc.wait()
    return None


@dataclass
class Serve:
    """One ``tledger serve`` process behind the proxy, on a port it keeps when it is
    killed and started again."""

    store: str
    log: Path
    options: tuple[str, ...]
    port: int = 0
    process: subprocess.Popen[bytes] | None = None
    starts: int = field(default=0)

    def start(self) -> None:
        self.starts += 1
        with self.log.open("ab") as out:
            argv = [TLEDGER, "serve", "--host", HOST, "--port", str(self.port),
                    "--store", self.store, "--trusted-proxy", HOST, *self.options]  # fmt: skip
            self.process = subprocess.Popen(argv, stdout=out, stderr=subprocess.STDOUT)
        self.port = self.wait_until_up()

    def wait_until_up(self) -> int:
        """The port of the line this start printed (the socket listens from then on)."""
        assert self.process is not None
        deadline = time.monotonic() + START_TIMEOUT
        while time.monotonic() < deadline and self.process.poll() is None:
            found = re.findall(rf"serving http://{HOST}:(\d+)", self.log.read_text("latin-1"))
            if len(found) >= self.starts:
                return int(found[-1])
            time.sleep(0.05)
        raise RuntimeError(f"serve did not start: {self.log.read_text('latin-1')[-2000:]}")

    @property
    def pid(self) -> int:
        assert self.process is not None
        return self.process.pid

    def proxied_since_start(self) -> int:
        """Requests this start of the process answered, other than the probes."""
        text = self.log.read_text("latin-1")
        since = text.rsplit("tledger serving http://", 1)[-1]
        return sum(1 for line in since.splitlines()
                   if '"path":' in line and '"/healthz"' not in line)  # fmt: skip

    def kill(self) -> None:
        """SIGKILL: the process ends with whatever it held open, as a crash would."""
        if self.process is not None and self.process.poll() is None:
            self.process.send_signal(signal.SIGKILL)
            self.process.wait()

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=5)
            except subprocess.TimeoutExpired:
                self.kill()

    def healthy(self) -> bool:
        try:
            return httpx.get(f"http://{HOST}:{self.port}/healthz", timeout=2).status_code == 200
        except httpx.HTTPError:
            return False


@contextmanager
def processes(store: str, count: int, folder: Path, *options: str) -> Iterator[list[Serve]]:
    """``count`` ``tledger serve`` processes on ``store``, stopped when the block ends."""
    folder.mkdir(parents=True, exist_ok=True)
    started = [Serve(store, folder / f"serve-{i}.log", options) for i in range(count)]
    with ExitStack() as stack:
        for serve in started:
            stack.callback(serve.stop)
            serve.start()
        yield started
