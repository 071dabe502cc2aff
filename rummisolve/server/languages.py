"""The languages the web pages speak: which one a request gets, the message catalogs, and the pages
filled in that language.

A request's language is ``?lang=`` if it names one we speak, else the ``lang`` cookie (set by the
picker on every page), else the best of the browser's ``Accept-Language``, else English. The
catalogs are package data, one JSON file per language under ``static/i18n/``: keys (never English
sentences) to text, a plural as ``{"one": ..., "other": ...}`` by the language's CLDR categories,
placeholders as ``{name}``. A page (``static/<page>.html``) is a template: ``{{key}}`` is the key's
text, HTML-escaped (a key under ``html.`` is the catalog's own markup, inserted as it is); ``{{lang}}``, ``{{picker}}`` and ``{{words}}`` are the language's code, the
language picker and the catalog for the page's scripts (read by ``static/words.js``)."""

from __future__ import annotations

import html
import json
import re
from functools import cache, lru_cache
from pathlib import Path
from types import MappingProxyType
from typing import Any

__all__ = ["LANGUAGES", "DEFAULT", "COOKIE", "choose", "catalog", "text", "render_page", "render_words"]

STATIC = Path(__file__).resolve().parent / "static"
CATALOGS = STATIC / "i18n"

LANGUAGES: MappingProxyType[str, str] = MappingProxyType(
    {"en": "English", "fi": "Suomi", "sv": "Svenska", "tr": "Türkçe", "el": "Ελληνικά"}
)
"""Every language the pages speak: its code and its own name (the picker's words)."""

DEFAULT = "en"
COOKIE = "lang"
"""The cookie the picker sets: the language a browser chose."""

_PLACEHOLDER = re.compile(r"\{\{([a-z0-9_.\-]+)\}\}")


def _accepted(header: str) -> list[str]:
    """The languages of an ``Accept-Language`` header, best first (``q=0`` left out)."""
    ranked: list[tuple[float, int, str]] = []
    for i, part in enumerate(header.split(",")):
        fields = part.strip().split(";")
        tag = fields[0].strip().lower()
        q = 1.0
        for field in fields[1:]:
            name, _, value = field.strip().partition("=")
            if name.strip() == "q":
                try:
                    q = float(value)
                except ValueError:
                    q = 0.0
        if tag and q > 0:
            ranked.append((-q, i, tag))
    return [tag for _, _, tag in sorted(ranked)]


def choose(query: str | None = None, cookie: str | None = None, accept_language: str | None = None) -> str:
    """The language of a request: ``?lang=``, the cookie, ``Accept-Language`` (``fi-FI`` is ``fi``;
    Norwegian and Danish readers get Swedish before English only if they ask for it), else English."""
    for given in (query, cookie):
        if given and given.lower() in LANGUAGES:
            return given.lower()
    for tag in _accepted(accept_language or ""):
        base = tag.split("-")[0]
        if base in LANGUAGES:
            return base
    return DEFAULT


@cache
def _raw(lang: str) -> dict[str, Any]:
    with open(CATALOGS / f"{lang}.json", encoding="utf-8") as handle:
        return json.load(handle)


@cache
def _merged(lang: str) -> MappingProxyType[str, Any]:
    return MappingProxyType({**_raw(DEFAULT), **_raw(lang)})


def catalog(lang: str) -> MappingProxyType[str, Any]:
    """The catalog of ``lang`` (read only): every key, the language's text, English where it has none."""
    if lang not in LANGUAGES:
        raise ValueError(f"unknown language {lang!r}: one of {', '.join(LANGUAGES)}")
    return _merged(lang)


def text(lang: str, key: str) -> str:
    """The text of ``key`` in ``lang`` (a plural's ``other`` form)."""
    value = catalog(lang)[key]
    return value["other"] if isinstance(value, dict) else value


def render_words(lang: str | None) -> dict[str, Any] | None:
    """A result picture's labels in ``lang`` (the catalog's ``render.`` keys, for
    :func:`rummisolve.render.render_result`), or ``None`` (English) for English or no language."""
    if not lang or lang.lower() not in LANGUAGES or lang.lower() == DEFAULT:
        return None
    words = catalog(lang.lower())
    labels = {key[len("render.") :]: value for key, value in words.items() if key.startswith("render.")}
    labels.update(
        {f"colour_{key[len('colour.') :]}": value for key, value in words.items() if key.startswith("colour.")}
    )
    return labels


def _picker(lang: str) -> str:
    options = "".join(
        f'<option value="{code}" lang="{code}"{" selected" if code == lang else ""}>{html.escape(name)}</option>'
        for code, name in LANGUAGES.items()
    )
    label = html.escape(text(lang, "nav.language"))
    return (
        f'<label class="lang-picker"><span class="visually-hidden">{label}</span>'
        f'<select id="lang-picker" data-testid="lang-picker" aria-label="{label}" title="{label}">{options}</select></label>'
    )


@lru_cache(maxsize=64)
def render_page(page: str, lang: str) -> str:
    """``static/<page>.html`` filled in ``lang``."""
    template = (STATIC / f"{page}.html").read_text(encoding="utf-8")
    words = catalog(lang)
    script = json.dumps({"lang": lang, "words": dict(words)}, ensure_ascii=False).replace("<", "\\u003c")

    def fill(match: re.Match[str]) -> str:
        key = match.group(1)
        if key == "lang":
            return lang
        if key == "picker":
            return _picker(lang)
        if key == "words":
            return f'<script type="application/json" id="words">{script}</script>'
        if key.startswith("html."):  # the catalog's own markup (help's prose: <code>, <em>)
            return text(lang, key)
        return html.escape(text(lang, key), quote=True)

    return _PLACEHOLDER.sub(fill, template)
