"""The deployment tests: the app as the README deploys it (gunicorn on loopback with
scripts/gunicorn_conf.py, behind Debian's nginx running deploy/nginx.conf with TLS), walked by
Chromium on https://cards.test:PORT. See proxy.py for the reusable pieces.

Without nginx, certutil (libnss3-tools) or Chromium the tests skip saying what to install, except
when CI is set: then they fail (scripts/system_deps.sh installs them)."""
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "e2e"))  # e2e_helpers and the journeys' steps

from e2e_helpers import PHONE, chromium_launch_args  # noqa: E402
from proxy import gunicorn_upstream, https_proxy, listening_socket, require_tools  # noqa: E402

# Small rate limits, so that the test can reach them: tables opened per address (the phone's own).
RATE_LIMITS = '{"open_table": [3, 3600]}'


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args):
    return chromium_launch_args(browser_type_launch_args)


@pytest.fixture(scope="session")
def browser_context_args(browser_context_args):
    return {**browser_context_args, **PHONE}


@pytest.fixture(scope="module")
def deployment(tmp_path_factory):
    """One gunicorn (one worker, as scripts/gunicorn_conf.py configures it otherwise) over a new
    SQLite database, behind nginx with TLS: the :class:`proxy.Proxy`, with ``.upstream_log`` (the
    gunicorn access log) and ``.database_url``. Made once per test module."""
    require_tools()
    folder = tmp_path_factory.mktemp("deploy")
    database_url = f"sqlite:///{folder}/companion.sqlite3"
    listener = listening_socket()
    with https_proxy([listener.getsockname()[1]], folder) as proxy:
        with gunicorn_upstream(folder, database_url, listener=listener, PUBLIC_URL=proxy.url,
                               TRUSTED_HOSTS=proxy.host, WEB_CONCURRENCY="1", FLASK_RATE_LIMITS=RATE_LIMITS) as port:
            proxy.upstream_log = folder / f"gunicorn-{port}.access.log"
            proxy.database_url = database_url
            yield proxy
