"""Helpers for the JSON API tests: real HTTP with urllib, and the error-shape assertion."""
import json
import urllib.error
import urllib.request


class Answer:
    def __init__(self, status, headers, raw):
        self.status = status
        self.headers = headers
        self.raw = raw
        try:
            self.json = json.loads(raw.decode("utf-8")) if raw else None
        except ValueError:
            self.json = None

    @property
    def error(self):
        return (self.json or {}).get("error")

    def __repr__(self):
        return f"<Answer {self.status} {self.raw[:300]!r}>"


def http(base, method, path, body=None, *, raw=None, headers=None, timeout=10):
    """One real HTTP request. ``body`` is JSON-encoded; ``raw`` (bytes) is sent as it is."""
    data = raw if raw is not None else (json.dumps(body).encode() if body is not None else None)
    request = urllib.request.Request(base + path, data=data, method=method)
    request.add_header("Content-Type", "application/json")
    for key, value in (headers or {}).items():
        request.add_header(key, value)
    try:
        with urllib.request.urlopen(request, timeout=timeout) as response:
            return Answer(response.status, response.headers, response.read())
    except urllib.error.HTTPError as error:
        return Answer(error.code, error.headers, error.read())


def assert_error(answer, status, code=None, field=None):
    """The error shape every bad input gets: {"error": {"code", "message", "field"}}."""
    assert answer.status == status, answer
    assert answer.headers.get("Content-Type", "").startswith("application/json"), answer
    error = answer.error
    assert isinstance(error, dict) and set(error) >= {"code", "message", "field"}, answer
    assert isinstance(error["code"], str) and error["code"]
    assert isinstance(error["message"], str) and len(error["message"]) > 10
    if code is not None:
        assert error["code"] == code, answer
    if field is not None:
        if field.endswith("*"):
            assert (error["field"] or "").startswith(field[:-1]), answer
        else:
            assert error["field"] == field, answer
    return error
