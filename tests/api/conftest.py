"""Fixtures for the JSON API tests (real HTTP against ``live_server``), and the schemathesis tests
built when they run (below)."""
import inspect

import pytest
from schemathesis.core.errors import InvalidSchema
from schemathesis.core.result import Ok
from schemathesis.pytest.plugin import SchemathesisCase

from api_helpers import http


@pytest.fixture
def api(live_server):
    """``api(method, path, body=None, **kw)`` -> Answer, against the live server's /api/v1."""

    def call(method, path, body=None, **kw):
        return http(live_server, method, "/api/v1" + path, body, **kw)

    call.base = live_server
    return call


# schemathesis builds each operation's Hypothesis test (with its examples and coverage-phase cases,
# ~20 s of CPU for the document) while it collects `schema.parametrize()` tests: every pytest process
# (each xdist worker of both runs) paid it, also where the tests do not run. Here the items are the
# same (one per operation, same names, fixtures and marks) but hold a placeholder; the real test is
# built by schemathesis' own builder in the item's setup, so only the worker that runs it pays.
# (schemathesis.pytest.from_fixture, its lazy form, fails under pytest 9.2: it sets Node._nodeid.)
BUILD = "_build_when_run"


class BuiltWhenRun(SchemathesisCase):
    def _gen_items(self, result, feedback):
        if self.is_invalid_test or not isinstance(result, Ok):  # nothing to build: schemathesis' items
            yield from super()._gen_items(result, feedback)
            return
        operation = result.ok()
        yield from self._make_items(self._placeholder(operation, feedback), self._get_test_name(operation),
                                    operation.label, operation.tags)

    def _make_items(self, funcobj, name, operation_label, operation_tags):
        # pytest 9.2 makes a Function's node id from its original name and parametrize ids only, so
        # every operation's item had the same id ("test_x", not "test_x[GET /api/v1/]"): pytest-xdist
        # then ran one of them. Each gets the id of its name again.
        # The operations the module names in NO_DATABASE (they read and write no table) are marked
        # any_database: make test-pg leaves them out.
        no_database = operation_label in getattr(self.parent.obj, "NO_DATABASE", ())
        for item in super()._make_items(funcobj, name, operation_label, operation_tags):
            item._id = self.parent.id.child(self.name).with_params(item.name[len(self.name) + 1:-1])
            if no_database:
                item.add_marker(pytest.mark.any_database)
            yield item

    def _placeholder(self, operation, feedback):
        test_func = self.test_function

        def build():
            from schemathesis.checks import load_all_checks
            from schemathesis.pytest._test_builder import build_operation_test

            load_all_checks()
            try:
                return build_operation_test(config=self.schema.config, operation=operation, test_func=test_func,
                                            given_kwargs=self.given_kwargs, feedback=feedback)
            except InvalidSchema as exc:  # as schemathesis does at collection: a test that fails with it
                return exc.as_failing_test_function()

        def placeholder(*args, **kwargs):
            raise AssertionError(f"{operation.label}: the schemathesis test was not built in its setup")

        # What pytest reads from the built test at collection: the test's fixtures (its parameters
        # but the generated ones) and marks.
        signature = inspect.signature(test_func)
        placeholder.__signature__ = signature.replace(parameters=[
            p for name, p in signature.parameters.items() if name != "case" and name not in self.given_kwargs])
        placeholder.__name__ = placeholder.__qualname__ = test_func.__name__
        placeholder.__module__ = test_func.__module__
        if hasattr(test_func, "pytestmark"):
            placeholder.pytestmark = test_func.pytestmark
        setattr(placeholder, BUILD, build)
        return placeholder


@pytest.hookimpl(wrapper=True, tryfirst=True)
def pytest_pycollect_makeitem(collector, name, obj):
    result = yield
    if type(result) is SchemathesisCase:
        return BuiltWhenRun.from_parent(collector, test_function=obj, name=name, schema=result.schema)
    return result


@pytest.hookimpl(tryfirst=True)
def pytest_runtest_setup(item):
    build = getattr(getattr(item, "obj", None), BUILD, None)
    if build is not None:
        item.obj = build()
