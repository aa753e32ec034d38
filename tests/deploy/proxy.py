"""The real deployment for tests: Debian's nginx with the repository's own deploy/nginx.conf (and
Caddy with deploy/Caddyfile, for the plain-client checks), TLS
with a certificate from a throwaway CA (openssl), in front of one or more gunicorn upstreams
(scripts/gunicorn_conf.py), and Chromium trusting that CA through a private NSS database under a
temporary HOME, with a test host name mapped to loopback (``--host-resolver-rules``).

Reusable::

    listeners = [listening_socket(), listening_socket()]             # ports known, nothing served yet
    with https_proxy([s.getsockname()[1] for s in listeners], folder) as proxy:   # nginx in front
        with gunicorn_upstream(folder, url, listener=listeners[0], PUBLIC_URL=proxy.url), \
             gunicorn_upstream(folder, url, listener=listeners[1], PUBLIC_URL=proxy.url):
            browser = browser_type.launch(**proxy.chromium_launch_args(launch_args))
            page.goto(proxy.url + "/")
            proxy.request("GET", "/healthz", source="127.0.0.7")    # a client with an address of its own

``https_proxy`` takes the list of upstream ports (nginx balances over them, one ``server`` line
each); ``proxy.url`` is ``https://cards.test:PORT``, the app's ``PUBLIC_URL``. The fixture
``deployment`` (tests/deploy/conftest.py) is one gunicorn behind the proxy, made once per module.

Why nginx for the browser journeys: measured on the shared 2-core machine (load average 5–10), a
CA, a host certificate and the NSS database from openssl/certutil take 0.4 s and nginx answers its
first TLS handshake 0.25 s after start; Caddy with its internal CA answered in 0.13 s, but names its
CA per data folder and gives no `nginx -t`-like check of the README's file. Both are fast; nginx
with openssl names the host freely and checks the file, so the journeys use it and Caddy gets the
plain-client checks of deploy/Caddyfile.

The site file is deploy/nginx.conf itself: only the host name, the listening addresses, the
certificate paths and the upstream lines are replaced, each replacement checked, so the file the
README shows cannot drift from what the tests run (a changed line fails here until the helper follows).
"""
from __future__ import annotations

import http.client
import os
import shutil
import socket
import ssl
import subprocess
import sys
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from live_gunicorn import stop  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
NGINX_CONF = ROOT / "deploy" / "nginx.conf"
GUNICORN_CONF = ROOT / "scripts" / "gunicorn_conf.py"
HOST = "cards.test"  # .test is reserved (RFC 2606): never a real name
NGINX = shutil.which("nginx") or next((p for p in ("/usr/sbin/nginx",) if os.path.exists(p)), None)
CERTUTIL = shutil.which("certutil")
OPENSSL = shutil.which("openssl")
CADDYFILE = ROOT / "deploy" / "Caddyfile"
CADDY = shutil.which("caddy")


TOOLS = {"nginx": NGINX, "libnss3-tools": CERTUTIL, "openssl": OPENSSL, "caddy": CADDY}  # package: its program


def missing_tools(packages=("nginx", "libnss3-tools", "openssl")) -> list[str]:
    """Those of the Debian ``packages`` the deployment tests need that are not installed."""
    return [package for package in packages if TOOLS[package] is None]


def require_tools(packages=("nginx", "libnss3-tools", "openssl")) -> None:
    """Skip without them (saying what to install); fail when CI is set."""
    import pytest

    missing = missing_tools(packages)
    if missing:
        reason = f"not installed: {' '.join(missing)} (scripts/system_deps.sh installs them): deployment tests skipped"
        if os.environ.get("CI"):
            pytest.fail("CI is set but " + reason)
        pytest.skip(reason)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def proxy_url(port: int, host: str = HOST) -> str:
    return f"https://{host}:{port}"


@dataclass
class Certs:
    ca: Path     # the CA certificate (PEM): trusted by the NSS database and by ``ssl_context``
    cert: Path   # the host's certificate, signed by the CA
    key: Path
    home: Path   # a HOME whose ~/.pki/nssdb trusts the CA (give it to Chromium)


def _run(*command: str | Path, cwd: Path | None = None) -> None:
    subprocess.run([str(c) for c in command], cwd=cwd, check=True, capture_output=True)


def make_certs(folder: Path, host: str = HOST) -> Certs:
    """A throwaway CA (P-256, two days), a certificate for ``host`` signed by it, and a HOME whose
    NSS database (Chromium's on Linux) trusts the CA. About 0.1 s."""
    folder.mkdir(parents=True, exist_ok=True)
    ca, ca_key = folder / "ca.pem", folder / "ca.key"
    cert, key, csr, ext = folder / "host.pem", folder / "host.key", folder / "host.csr", folder / "host.ext"
    curve = ("-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes")
    _run(OPENSSL, "req", "-x509", *curve, "-keyout", ca_key, "-out", ca, "-days", "2",
         "-subj", "/CN=Card Table Companion test CA", "-addext", "basicConstraints=critical,CA:TRUE",
         "-addext", "keyUsage=critical,keyCertSign,cRLSign")
    _run(OPENSSL, "req", *curve, "-keyout", key, "-out", csr, "-subj", f"/CN={host}")
    ext.write_text(f"subjectAltName=DNS:{host}\nextendedKeyUsage=serverAuth\nbasicConstraints=CA:FALSE\n")
    _run(OPENSSL, "x509", "-req", "-in", csr, "-CA", ca, "-CAkey", ca_key, "-CAcreateserial", "-out", cert,
         "-days", "2", "-extfile", ext)
    home = folder / "home"
    nssdb = home / ".pki" / "nssdb"
    nssdb.mkdir(parents=True, exist_ok=True)
    _run(CERTUTIL, "-d", f"sql:{nssdb}", "-N", "--empty-password")
    _run(CERTUTIL, "-d", f"sql:{nssdb}", "-A", "-t", "C,,", "-n", "Card Table Companion test CA", "-i", ca)
    return Certs(ca=ca, cert=cert, key=key, home=home)


def _replace(text: str, old: str, new: str, count: int = 1) -> str:
    found = text.count(old)
    if found != count:
        raise AssertionError(f"deploy/nginx.conf changed: expected {count}× {old!r}, found {found}: "
                             "update tests/deploy/proxy.py (site_config) with it")
    return text.replace(old, new)


def site_config(upstream_ports: Sequence[int], *, https_port: int, http_port: int, certs: Certs,
                host: str = HOST) -> str:
    """deploy/nginx.conf for this machine: ``host``, loopback listeners on the given ports, the
    test certificate, and one upstream ``server`` line per port. Nothing else changes."""
    if not upstream_ports:
        raise ValueError("at least one upstream port")
    text = NGINX_CONF.read_text()
    text = _replace(text, "server_name cards.example.org;", f"server_name {host};", 2)
    text = _replace(text, "    server 127.0.0.1:8000;", "\n".join(f"    server 127.0.0.1:{p};" for p in upstream_ports))
    text = _replace(text, "listen 80;", f"listen 127.0.0.1:{http_port};")
    text = _replace(text, "listen [::]:80;", "")
    text = _replace(text, "listen 443 ssl http2;", f"listen 127.0.0.1:{https_port} ssl http2;")
    text = _replace(text, "listen [::]:443 ssl http2;", "")
    text = _replace(text, "/etc/letsencrypt/live/cards.example.org/fullchain.pem", str(certs.cert))
    text = _replace(text, "/etc/letsencrypt/live/cards.example.org/privkey.pem", str(certs.key))
    return text


def main_config(folder: Path, site: Path) -> Path:
    """A minimal nginx.conf around the site file, everything under ``folder`` (pid, logs, temp
    files), in the foreground. The access log records the phone's address ($remote_addr)."""
    temp = folder / "temp"
    temp.mkdir(exist_ok=True)
    user = "user root;\n" if os.geteuid() == 0 else ""  # workers may read the test's private folder
    conf = folder / "nginx-main.conf"
    conf.write_text(f"""{user}daemon off;
worker_processes 1;
pid {folder}/nginx.pid;
error_log {folder}/nginx-error.log warn;
events {{ worker_connections 256; }}
http {{
    include /etc/nginx/mime.types;
    default_type application/octet-stream;
    types {{ application/manifest+json webmanifest; }}
    access_log {folder}/nginx-access.log;
    client_body_temp_path {temp}/body;
    proxy_temp_path {temp}/proxy;
    fastcgi_temp_path {temp}/fastcgi;
    uwsgi_temp_path {temp}/uwsgi;
    scgi_temp_path {temp}/scgi;
    include {site};
}}
""")
    return conf


def nginx_check(conf: Path, folder: Path) -> subprocess.CompletedProcess:
    """``nginx -t`` on ``conf`` (its answer in .stderr)."""
    return subprocess.run([NGINX, "-t", "-q", "-c", str(conf), "-e", str(folder / "nginx-error.log"),
                           "-p", str(folder)], capture_output=True, text=True)


@dataclass
class Proxy:
    host: str
    port: int
    http_port: int
    certs: Certs
    folder: Path
    upstream_ports: list[int] = field(default_factory=list)

    @property
    def url(self) -> str:
        return proxy_url(self.port, self.host)

    @property
    def access_log(self) -> Path:
        return self.folder / "nginx-access.log"

    def resolver_rule(self) -> str:
        return f"--host-resolver-rules=MAP {self.host} 127.0.0.1"

    def chromium_launch_args(self, launch_args: dict) -> dict:
        """Playwright launch arguments (those of the browser tests) plus the host name mapped to
        loopback and a HOME whose NSS database trusts the test CA: a secure origin, as on a phone."""
        return {**launch_args, "args": [*launch_args.get("args", []), self.resolver_rule()],
                "env": {**os.environ, "HOME": str(self.certs.home)}}

    def ssl_context(self) -> ssl.SSLContext:
        return ssl.create_default_context(cafile=str(self.certs.ca))

    def request(self, method: str, path: str, *, headers: dict | None = None, body: bytes | None = None,
                source: str = "127.0.0.1", https: bool = True) -> tuple[int, dict, bytes]:
        """One request through the proxy from the local address ``source`` (any of 127.0.0.0/8:
        each stands for another phone), certificate checked against the test CA. Returns (status,
        headers with lower-case names, body as sent, not decompressed)."""
        port = self.port if https else self.http_port
        raw = socket.create_connection(("127.0.0.1", port), timeout=30, source_address=(source, 0))
        conn_class = http.client.HTTPSConnection if https else http.client.HTTPConnection
        conn = conn_class(self.host, port, timeout=30)
        conn.sock = self.ssl_context().wrap_socket(raw, server_hostname=self.host) if https else raw
        try:
            conn.request(method, path, body=body, headers=headers or {})
            answer = conn.getresponse()
            return answer.status, {k.lower(): v for k, v in answer.getheaders()}, answer.read()
        finally:
            conn.close()


def _nginx_ready(proc: subprocess.Popen, port: int, certs: Certs, host: str) -> bool:
    """True once a TLS handshake on ``port`` shows our certificate (so it is this proxy, not
    whoever else took the port); False if the proxy exited (e.g. the port was taken) or 20 s passed."""
    context = ssl.create_default_context(cafile=str(certs.ca))
    deadline = time.time() + 20
    while time.time() < deadline:
        if proc.poll() is not None:
            return False
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=2) as raw:
                with context.wrap_socket(raw, server_hostname=host):
                    return True
        except (OSError, ssl.SSLError):
            time.sleep(0.05)
    return False


@contextmanager
def https_proxy(upstream_ports: Sequence[int], folder: Path, *, host: str = HOST, port: int | None = None,
                certs: Certs | None = None) -> Iterator[Proxy]:
    """nginx (deploy/nginx.conf) on 127.0.0.1:``port`` (default: a free one) with TLS for ``host``,
    in front of gunicorn on each of ``upstream_ports``; yields a :class:`Proxy`; stops nginx after."""
    folder.mkdir(parents=True, exist_ok=True)
    certs = certs or make_certs(folder / "certs", host)
    for attempt in range(5):  # a free port may be taken by a parallel test before nginx binds it
        https_port = port if port is not None and attempt == 0 else free_port()
        http_port = free_port()
        site = folder / "site.conf"
        site.write_text(site_config(upstream_ports, https_port=https_port, http_port=http_port, certs=certs,
                                    host=host))
        conf = main_config(folder, site)
        checked = nginx_check(conf, folder)
        if checked.returncode != 0:
            raise RuntimeError(f"nginx -t refused the configuration:\n{checked.stderr}")
        proc = subprocess.Popen([NGINX, "-c", str(conf), "-e", str(folder / "nginx-error.log"), "-p", str(folder)],
                                stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        if _nginx_ready(proc, https_port, certs, host):
            break
        proc.kill()
        proc.wait(10)
        if port is not None:
            raise RuntimeError(f"nginx did not start on port {port}: see {folder / 'nginx-error.log'}")
    else:
        raise RuntimeError(f"nginx did not start: see {folder / 'nginx-error.log'}")
    try:
        yield Proxy(host, https_port, http_port, certs, folder, list(upstream_ports))
    finally:
        proc.terminate()  # SIGTERM: fast shutdown
        try:
            proc.wait(10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(10)


def caddy_config(upstream_ports: Sequence[int], *, https_port: int, host: str = HOST) -> str:
    """deploy/Caddyfile for this machine: the site on ``host``:``https_port`` with Caddy's internal
    CA instead of Let's Encrypt, and the upstreams; nothing else changes. Global options: no admin
    port, no trust-store install, no port-80 redirect listener."""
    text = CADDYFILE.read_text()
    text = _replace(text, "\ncards.example.org {\n", f"\nhttps://{host}:{https_port} {{\n\ttls internal\n")
    text = _replace(text, "reverse_proxy 127.0.0.1:8000", "reverse_proxy " + " ".join(f"127.0.0.1:{p}" for p in upstream_ports))
    return "{\n\tadmin off\n\tskip_install_trust\n\tauto_https disable_redirects\n}\n" + text


@contextmanager
def caddy_proxy(upstream_ports: Sequence[int], folder: Path, *, host: str = HOST) -> Iterator[Proxy]:
    """Caddy (deploy/Caddyfile, its internal CA under ``folder``) in front of ``upstream_ports``;
    yields a :class:`Proxy` whose ``certs.ca`` is Caddy's root (for :meth:`Proxy.request`; no NSS
    database: the browser journeys use nginx)."""
    folder.mkdir(parents=True, exist_ok=True)
    env = {**os.environ, "HOME": str(folder), "XDG_DATA_HOME": str(folder / "data"),
           "XDG_CONFIG_HOME": str(folder / "config")}
    root = folder / "data" / "caddy" / "pki" / "authorities" / "local" / "root.crt"
    for _ in range(5):
        port = free_port()
        (folder / "Caddyfile").write_text(caddy_config(upstream_ports, https_port=port, host=host))
        with open(folder / "caddy.log", "wb") as log:
            proc = subprocess.Popen([CADDY, "run", "--config", str(folder / "Caddyfile"), "--adapter", "caddyfile"],
                                    env=env, stdout=log, stderr=log)
        deadline = time.time() + 20
        while time.time() < deadline and proc.poll() is None and not root.exists():
            time.sleep(0.05)
        certs = Certs(ca=root, cert=root, key=root, home=folder)
        if root.exists() and _nginx_ready(proc, port, certs, host):  # a TLS handshake with Caddy's certificate
            break
        proc.kill()
        proc.wait(10)
    else:
        raise RuntimeError(f"caddy did not start: see {folder / 'caddy.log'}")
    try:
        yield Proxy(host, port, 0, certs, folder, list(upstream_ports))
    finally:
        stop(proc)


def migrate(database_url: str) -> None:
    """The migrations applied to ``database_url`` (what ``flask --app app db upgrade`` does, as the
    README's production path says; in this process: a second Python start costs seconds)."""
    from flask_migrate import upgrade

    from companion import create_app

    app = create_app({"SQLALCHEMY_DATABASE_URI": database_url})
    with app.app_context():
        upgrade()
        from companion.extensions import db

        db.engine.dispose()


def listening_socket() -> socket.socket:
    """A socket bound to a free loopback port and listening: its port is known before the server
    that will take it over starts (``gunicorn_upstream(listener=...)``), so the proxy can be started
    first and the app told the proxy's address, with no window in which another process takes it."""
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen(128)
    return listener


@contextmanager
def gunicorn_upstream(folder: Path, database_url: str, *, listener: socket.socket | None = None,
                      **env_extra: str) -> Iterator[int]:
    """gunicorn as the README runs it behind a proxy (``-c scripts/gunicorn_conf.py``, on loopback,
    ``TRUSTED_PROXIES=1`` unless given) over ``database_url`` (migrated first); yields its port.
    It serves on ``listener`` (default: a new :func:`listening_socket`), handed over as ``-b fd://N``.
    Its access log goes to ``folder/gunicorn-<port>.access.log``, its errors to ``…error.log``."""
    folder.mkdir(parents=True, exist_ok=True)
    env = {**os.environ, "DATABASE_URL": database_url, "PYTHONPATH": str(ROOT), "TRUSTED_PROXIES": "1",
           **env_extra}
    migrate(database_url)
    listener = listener or listening_socket()
    port, fd = listener.getsockname()[1], listener.fileno()
    access_log, error_log = folder / f"gunicorn-{port}.access.log", folder / f"gunicorn-{port}.error.log"
    with open(access_log, "wb") as access, open(error_log, "wb") as errors:
        proc = subprocess.Popen([sys.executable, "-m", "gunicorn", "-c", str(GUNICORN_CONF), "-b", f"fd://{fd}",
                                 "app:app"], cwd=ROOT, env=env, pass_fds=(fd,), stdout=access, stderr=errors)
    listener.close()  # gunicorn holds it now
    try:
        _wait_healthy(proc, port, error_log)
        yield port
    finally:
        proc.terminate()
        try:
            proc.wait(15)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(10)


def _wait_healthy(proc: subprocess.Popen, port: int, log: Path) -> None:
    deadline = time.time() + 60
    while time.time() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"gunicorn exited: {log.read_text(errors='replace')[-2000:]}")
        try:
            conn = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
            conn.request("GET", "/healthz")  # any answer will do (TRUSTED_HOSTS may refuse 127.0.0.1: 400)
            if conn.getresponse().status < 500:
                return
        except OSError:
            pass
        time.sleep(0.1)
    raise RuntimeError(f"gunicorn did not answer within 60 s: see {log}")
