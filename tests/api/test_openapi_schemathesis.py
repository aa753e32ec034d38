"""schemathesis against the app, from its own OpenAPI document (/api/v1/openapi.json): every
operation, generated requests; no answer is a 500, every answer's status, content type and body
match the document, and no request valid by the document is refused (issue 31) except for the
reasons docs/api.md lists under "What the document cannot say", each matched by its code and field. In-process through WSGI (no server), on a fresh database with one table and
one hand, so the table operations reach real data with the real edit token. Bounded examples keep
it well under a minute and a half on a 2-core machine."""
import pytest
import schemathesis
from hypothesis import HealthCheck, settings
from schemathesis.checks import not_a_server_error
from schemathesis.specs.openapi.checks import (content_type_conformance, response_schema_conformance,
                                               status_code_conformance)

from companion import create_app
from companion.schemas.per_game import beyond_the_document

REFUSED = (400, 413, 415, 422)  # what positive data acceptance counts as a refusal


def valid_requests_are_accepted(ctx, response, case):
    """Issue 31: a request the document calls valid is not refused (400, 413, 415, 422), except for
    the documented reasons a schema cannot state (schemas.per_game.BEYOND_THE_DOCUMENT, listed in
    docs/api.md): no count allowance, each refusal is matched by its code and field."""
    if case.meta is None or not case.meta.generation.mode.is_positive or response.status_code not in REFUSED:
        return None
    try:
        error = response.json().get("error") or {}
    except Exception:  # not JSON: no documented reason applies
        error = {}
    if beyond_the_document(error.get("code", ""), error.get("field")):
        return None
    raise AssertionError(f"{case.operation.label} refused a request valid by the document: {response.status_code} "
                         f"{error} body={case.body!r}"[:2000])


# The in-process transport does not undo a Content-Encoding (a real HTTP client does): ask for the
# exports as they are (a gzip-taking client gets them compressed: tests/web/test_export_cache.py).
PLAIN = {"Accept-Encoding": "identity"}

# The operations that read and write no table (the engine's answers, the API's index): their
# schemathesis tests are marked any_database (tests/api/conftest.py), so make test-pg leaves them out;
# the SQLite run checks that they send the database no statement at all.
NO_DATABASE = {"POST /api/v1/check", "POST /api/v1/answers", "POST /api/v1/settle", "GET /api/v1/", "GET /api/v1/games"}

CHECKS = [not_a_server_error, status_code_conformance, content_type_conformance, response_schema_conformance,
          valid_requests_are_accepted]
MAX_EXAMPLES = 20

# The document is read from an app without a database (it needs none); the requests go to the
# ``app`` fixture's app, over its own fresh database.
schema = schemathesis.openapi.from_wsgi(
    "/api/v1/openapi.json", create_app({"TESTING": True, "SQLALCHEMY_DATABASE_URI": "sqlite://"}))


def test_each_operation_is_a_test_built_when_it_runs(request):
    """tests/api/conftest.py: one test per operation of the document, as schemathesis collects them,
    each holding a placeholder until its setup builds the real Hypothesis test (so a process that
    does not run them never builds them)."""
    items = [item for item in request.session.items
             if item.path == request.node.path and getattr(item, "operation_label", None)]
    document = {result.ok().label for result in schema.get_all_operations()}
    assert NO_DATABASE <= document
    left_out = NO_DATABASE if "not any_database" in (request.config.option.markexpr or "") else set()  # make test-pg
    for name in ("test_api_matches_its_openapi_document", "test_reads_accept_every_request_the_document_allows"):
        labels = {item.operation_label for item in items if item.originalname == name}
        reads = {label for label in document if label.startswith("GET ")}
        assert labels in (set(), (document if name.startswith("test_api") else reads) - left_out), name
    assert items or request.config.option.keyword or request.config.option.markexpr
    assert len({item.nodeid for item in items}) == len(items)  # pytest-xdist runs one test per id
    for item in items:  # this test comes first in the file: none of them has run yet
        assert hasattr(item.obj, "_build_when_run"), item.nodeid


@pytest.fixture
def seeded(app):
    """The app's test client and a table (players A, B, C) with hand 1 recorded."""
    client = app.test_client()
    table = client.post("/api/v1/tables", json={"game": "gandengyan", "name": "T",
                                                "players": ["A", "B", "C"]}).get_json()
    client.post(f"/api/v1/tables/{table['id']}/hands", headers={"Authorization": f"Bearer {table['token']}"},
                json={"facts": {"winner": "A", "losers": {"B": {"cards": 2, "jokers": 0},
                                                          "C": {"cards": 1, "jokers": 0}}}})
    return client, table


@pytest.fixture
def statements(app):
    """The SQL statements the app sends while the test runs (a list, emptied by the test at will)."""
    from sqlalchemy import event

    from companion.extensions import db

    sent = []

    def count(conn, cursor, statement, *args):
        sent.append(statement)

    with app.app_context():
        engine = db.engine
    event.listen(engine, "before_cursor_execute", count)
    yield sent
    event.remove(engine, "before_cursor_execute", count)


@schema.parametrize()
@settings(max_examples=MAX_EXAMPLES, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much,
                                 HealthCheck.function_scoped_fixture, HealthCheck.data_too_large])
def test_api_matches_its_openapi_document(case, seeded, statements):
    client, table = seeded
    headers = dict(PLAIN)
    if case.path_parameters and "public_id" in case.path_parameters:
        case.path_parameters["public_id"] = table["id"]  # a real table (unknown ids are tested elsewhere)
        number = case.path_parameters.get("number")
        if isinstance(number, int) and not isinstance(number, bool):
            case.path_parameters["number"] = 1 + number % 2  # hand 1 exists, 2 does not
        headers["Authorization"] = f"Bearer {table['token']}"
    if case.operation.label == "PATCH /api/v1/tables/{public_id}":  # each example at an open table: an
        # earlier example's archive or delete refused the next one's changes (table_archived, a state)
        restored = client.patch(f"/api/v1/tables/{table['id']}", json={"archived": False, "deleted": False},
                                headers={**PLAIN, "Authorization": f"Bearer {table['token']}"})
        assert restored.status_code == 200, restored.get_json()
    statements.clear()
    case.call_and_validate(session=client, headers=headers, checks=CHECKS)
    if case.operation.label in NO_DATABASE:  # what lets make test-pg leave it out
        assert statements == [], f"{case.operation.label} sent the database {statements[:3]}"


def test_api_workflows_follow_the_documents_links(app):
    """Stateful: open a table, then follow the document's links (read it, record a hand with the
    token the answer gave, read / edit / void / restore that hand, undo), checking every answer."""
    client = app.test_client()

    class Workflow(schema.as_state_machine()):
        def before_call(self, case):
            case.headers = {**(case.headers or {}), **PLAIN}
            if case.headers and "X-Edit-Token" in case.headers:  # the token a link passed on
                case.headers.pop("Authorization", None)  # (a generated Bearer token would win)

        def get_call_kwargs(self, case):
            return {"session": client}

        def validate_response(self, response, case, additional_checks=None, **kwargs):
            case.validate_response(response, checks=CHECKS, transport_kwargs=kwargs)

    Workflow.run(settings=settings(max_examples=60, stateful_step_count=8, deadline=None,
                                   suppress_health_check=list(HealthCheck)))


from schemathesis.specs.openapi.checks import positive_data_acceptance  # noqa: E402

READS = schema.include(method="GET")


@READS.parametrize()
@settings(max_examples=8, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much,
                                 HealthCheck.function_scoped_fixture, HealthCheck.data_too_large])
def test_reads_accept_every_request_the_document_allows(case, seeded):
    """Issue 31: the document is as strict as the server where it can say everything (the reads:
    ids, page numbers): no request valid by the document is refused (positive data acceptance)."""
    client, table = seeded
    if case.path_parameters and "public_id" in case.path_parameters:
        case.path_parameters["public_id"] = table["id"]
        number = case.path_parameters.get("number")
        if isinstance(number, int) and not isinstance(number, bool):
            case.path_parameters["number"] = 1 + number % 2
    case.call_and_validate(session=client, headers=PLAIN, checks=[*CHECKS, positive_data_acceptance])
