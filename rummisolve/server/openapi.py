"""The OpenAPI document: bodies the routes read by hand (size-limited, decoded by
:mod:`rummisolve.jsonio`) have no parameter FastAPI could infer a schema from, so each such route
declares its body with :func:`request_body`, and :func:`install_openapi` adds the models it names."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from fastapi import FastAPI
from fastapi.openapi.utils import get_openapi
from pydantic import BaseModel

from rummisolve.server import schemas, view_schemas

__all__ = ["request_body", "install_openapi"]


def request_body(model: str | None, examples: dict[str, Any]) -> dict[str, Any]:
    """The ``openapi_extra`` of an operation whose JSON body is the schema ``model`` (``None``: a
    position or a result, as /render takes)."""
    if model is None:
        schema: dict[str, Any] = {
            "oneOf": [{"$ref": "#/components/schemas/PositionIn"}, {"$ref": "#/components/schemas/SolveResult"}]
        }
    else:
        schema = {"$ref": f"#/components/schemas/{model}"}
    return {
        "requestBody": {"required": True, "content": {"application/json": {"schema": schema, "examples": examples}}}
    }


def install_openapi(app: FastAPI) -> None:
    """Make ``app.openapi()`` include the request models of :data:`rummisolve.server.schemas.REQUEST_MODELS`
    and :data:`rummisolve.server.view_schemas.REQUEST_MODELS`."""
    app.openapi = _openapi_with_request_models(app)  # type: ignore[method-assign]


def _openapi_with_request_models(app: FastAPI) -> Callable[[], dict[str, Any]]:
    def openapi() -> dict[str, Any]:
        if app.openapi_schema is None:
            doc = get_openapi(title=app.title, version=app.version, description=app.description, routes=app.routes)
            components = doc.setdefault("components", {}).setdefault("schemas", {})
            models: tuple[type[BaseModel], ...] = (
                *schemas.REQUEST_MODELS,
                *view_schemas.REQUEST_MODELS,
                schemas.SolveResult,
            )
            for model in models:
                schema = model.model_json_schema(ref_template="#/components/schemas/{model}")
                components.update(schema.pop("$defs", {}))
                components.setdefault(model.__name__, schema)
            app.openapi_schema = doc
        return app.openapi_schema

    return openapi
