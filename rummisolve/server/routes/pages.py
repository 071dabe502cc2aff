"""The web app's pages: analysis at ``/``, play at ``/play``, help at ``/help``, and a game room's
invite at ``/r/{code}`` (the play page, which joins or watches the room); each in the language the
request asks for (:mod:`rummisolve.server.languages`: ``?lang=``, the picker's cookie, then
``Accept-Language``); their scripts and styles are served under ``/static`` by
:func:`rummisolve.server.app.create_app`."""

from __future__ import annotations

from pathlib import Path

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse

from rummisolve.server import languages

__all__ = ["router", "STATIC"]

STATIC = Path(__file__).resolve().parent.parent / "static"
"""The web app's pages, scripts and styles (package data: installed with the package)."""

router = APIRouter(include_in_schema=False)


def _page(request: Request, page: str) -> HTMLResponse:
    lang = languages.choose(
        request.query_params.get("lang"),
        request.cookies.get(languages.COOKIE),
        request.headers.get("accept-language"),
    )
    headers = {"Content-Language": lang, "Vary": "Accept-Language, Cookie"}
    return HTMLResponse(languages.render_page(page, lang), headers=headers)


@router.get("/")
async def analysis_page(request: Request) -> HTMLResponse:
    return _page(request, "index")


@router.get("/play")
async def play_page(request: Request) -> HTMLResponse:
    return _page(request, "play")


@router.get("/r/{code}")
async def room_invite_page(code: str, request: Request) -> HTMLResponse:
    """A room's invite: the play page joins the room (or watches it when every seat is taken), in
    the language of whoever opens it."""
    return _page(request, "play")


@router.get("/help")
async def help_page(request: Request) -> HTMLResponse:
    return _page(request, "help")
