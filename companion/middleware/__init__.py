"""The request path: what every request passes through before and after its view.

``guard`` (the input guard: body limits, text checks, safe JSON), ``security`` (headers,
trusted hosts, the session opened when used), ``ratelimit`` (every bucket and its limit)
and ``pagecache`` (pages answered from a cache while nothing changed). Below the views;
imports only the models and the extensions."""
