"""Plain helpers the tests share: factories, seated events, played-out formats, waiting.

A test module imports from here, never from another test module; the conftest files keep
the pytest fixtures and import their helpers from here."""
