"""The HTTP service (``rummisolve serve``): solve, verify and render over JSON.

Needs the ``server`` extra (``pip install 'rummisolve[server]'``: FastAPI and uvicorn). Build the
ASGI app with :func:`rummisolve.server.app.create_app`; limits live in
:class:`rummisolve.server.settings.Settings`.
"""
