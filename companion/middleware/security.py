"""Security headers on every response, from one ``after_request`` hook.

* ``Content-Security-Policy``: scripts, styles, images and requests from this site only; no inline
  script or style anywhere (the pages keep theirs in ``static/``), no plugins, no ``<base>``,
  forms post only here, and no page may be framed.
* ``X-Content-Type-Options: nosniff``, ``X-Frame-Options: DENY`` (for browsers that ignore
  ``frame-ancestors``), ``Referrer-Policy: same-origin``: a table's address never leaks to
  another site through a link, while this site's own forms carry their ``Referer``, which the
  CSRF check needs over HTTPS (Flask-WTF's ``WTF_CSRF_SSL_STRICT``; with ``no-referrer`` every
  form POST behind a TLS proxy answered 400, issue 28).
* ``Permissions-Policy``: no camera, microphone, location, payment, USB or motion sensors.
* ``Strict-Transport-Security`` only when the request came over HTTPS (plain HTTP on the local
  network must keep working); the session cookie is ``Secure`` then too.
* ``Cache-Control: no-store`` on every response a view did not give its own caching rule, so no
  page or JSON answer that shows an edit token (the table page's share link, a new table from the
  API, ...) is kept by a browser or proxy cache. Static files keep Flask's revalidating rule.

The session cookie is read (its signature checked, its JSON decoded) only when a request first
uses ``session`` (:class:`DeferredSessionContext`): the live poll's 304, static files, the
health check and the API with a Bearer token never pay for it.
"""
from __future__ import annotations

from flask import Flask, Response, has_request_context, request
from flask.ctx import RequestContext
from flask.sessions import NullSession, SecureCookieSessionInterface
from flask_babel import gettext as _
from werkzeug.exceptions import SecurityError

CSP = "; ".join((
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self'",
    "img-src 'self' data:",
    "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
))
HSTS = "max-age=31536000"
STATIC_HEADERS = {
    "Content-Security-Policy": CSP,
    "X-Content-Type-Options": "nosniff",
    "X-Frame-Options": "DENY",
    "Referrer-Policy": "same-origin",  # never "no-referrer": HTTPS forms need it
    # no page needs a camera, microphone, location, payment or sensors (the screen wake lock stays allowed)
    "Permissions-Policy": "camera=(), microphone=(), geolocation=(), payment=(), usb=(), accelerometer=(), "
                          "gyroscope=(), magnetometer=(), interest-cohort=()",
}


def add_headers(response: Response) -> Response:
    headers = response.headers
    if "Content-Security-Policy" in headers:  # a view set its own: keep whatever it set
        for name, value in STATIC_HEADERS.items():
            headers.setdefault(name, value)
    else:  # the usual case: no lookup per header
        headers.extend(STATIC_HEADERS.items())
    if request.is_secure:
        headers.setdefault("Strict-Transport-Security", HSTS)
    if "Cache-Control" not in headers and request.endpoint != "static":
        headers["Cache-Control"] = "no-store"
    return response



def untrusted_host(error: SecurityError):
    """A Host header outside ``TRUSTED_HOSTS``: a short plain answer. (No page template: without a
    trusted host Flask has no URL adapter, so no link could be built.)"""
    return Response(_("This server does not answer to that address."), status=400, mimetype="text/plain")


class SessionInterface(SecureCookieSessionInterface):
    """The session cookie (it holds the tables this phone may record at) is ``Secure`` whenever
    the request came over HTTPS, without a setting; plain HTTP on the local network still works.
    A 304 answer does not renew it."""

    def get_cookie_secure(self, app: Flask) -> bool:
        return bool(app.config["SESSION_COOKIE_SECURE"] or (has_request_context() and request.is_secure))

    def save_session(self, app: Flask, session, response: Response) -> None:
        """A ``304 Not Modified`` (the live poll finding nothing new, every few seconds) sends no
        cookie: the next page the phone opens renews the session as usual."""
        if response.status_code == 304 and not session.modified:
            return
        super().save_session(app, session, response)


class _NotOpened(NullSession):
    """Stands for a session nobody has used yet; Flask saves no null session."""


_NOT_OPENED = _NotOpened()


class DeferredSessionContext(RequestContext):
    """Flask's request context, except that the session is opened (the cookie's signature
    checked and its JSON decoded) at the first use of ``session``, not for every request.
    A request that never uses it sends no cookie back and adds no ``Vary: Cookie``."""

    def push(self) -> None:
        if self._session is None:
            self._session = _NOT_OPENED
        super().push()

    @property
    def session(self):
        if self._session is _NOT_OPENED:
            interface = self.app.session_interface
            opened = interface.open_session(self.app, self.request)  # an empty session is falsy: not `or`
            self._session = interface.make_null_session(self.app) if opened is None else opened
        return RequestContext.session.fget(self)


def init_app(app: Flask) -> None:
    app.request_context = lambda environ: DeferredSessionContext(app, environ)
    app.session_interface = SessionInterface()
    app.after_request(add_headers)
    app.register_error_handler(SecurityError, untrusted_host)
