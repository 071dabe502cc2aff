"""The web app's pages: analysis at ``/``, play at ``/play``, help at ``/help``, and a game room's
invite at ``/r/{code}`` (the play page, which joins or watches the room); their scripts and styles
are served under ``/static`` by :func:`rummisolve.server.app.create_app`."""

from __future__ import annotations

from pathlib import Path

from fastapi import APIRouter
from fastapi.responses import FileResponse

__all__ = ["router", "STATIC"]

STATIC = Path(__file__).resolve().parent.parent / "static"
"""The web app's pages, scripts and styles (package data: installed with the package)."""

router = APIRouter(include_in_schema=False)


@router.get("/")
async def analysis_page() -> FileResponse:
    return FileResponse(STATIC / "index.html")


@router.get("/play")
async def play_page() -> FileResponse:
    return FileResponse(STATIC / "play.html")


@router.get("/r/{code}")
async def room_invite_page(code: str) -> FileResponse:
    """A room's invite: the play page joins the room (or watches it when every seat is taken)."""
    return FileResponse(STATIC / "play.html")


@router.get("/help")
async def help_page() -> FileResponse:
    return FileResponse(STATIC / "help.html")
