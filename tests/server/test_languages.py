"""The pages' languages without a browser: which language a request gets, and the catalogs
(rummisolve/server/static/i18n/<lang>.json): every key in every language, no key unused by the
pages, plurals with exactly the CLDR categories of their language (Babel), the same placeholders
as English, and the pages filled with <html lang>, the title and the picker in each language."""

from __future__ import annotations

import dataclasses
import json
import re

import pytest
from fastapi.testclient import TestClient

from rummisolve.server import languages
from rummisolve.server.app import create_app
from rummisolve.server.settings import Settings

CATALOGS = languages.CATALOGS
STATIC = languages.STATIC
LANGS = list(languages.LANGUAGES)
PLACEHOLDER = re.compile(r"\{(\w+)\}")

# Keys the scripts build from a code the server sends (a status, a preset, a rule option, a colour,
# an AI level, a referee reason, a flagged mistake, an HTTP status's words...): a key under one of
# these prefixes is used when the server has that code, which these tests check below.
DYNAMIC = (
    "status.",
    "preset.",
    "choice.",
    "optname.",
    "opthelp.",
    "colour.",
    "objective.",
    "ai.",
    "reason.",
    "mistake.",
    "error.",
    "room.connection_",
    "upload.col_",
    "timing.",
    "render.",
)


def raw(lang: str) -> dict:
    return json.loads((CATALOGS / f"{lang}.json").read_text(encoding="utf-8"))


def sources() -> str:
    files = sorted(STATIC.glob("*.js")) + sorted(STATIC.glob("*.html")) + [STATIC.parent / "languages.py"]
    return "\n".join(p.read_text(encoding="utf-8") for p in files)


def test_a_request_gets_the_link_then_the_cookie_then_the_browser_then_english():
    choose = languages.choose
    assert choose() == "en"
    assert choose(accept_language="fi-FI,fi;q=0.9,en;q=0.8") == "fi"
    assert choose(accept_language="de-DE,sv;q=0.7,en;q=0.5") == "sv"  # the best we speak
    assert choose(accept_language="en;q=0.4, el;q=0.9") == "el"  # by weight, not by order
    assert choose(accept_language="tr;q=0, de") == "en"  # q=0: not acceptable
    assert choose(accept_language="garbage;;q=x,,") == "en"
    assert choose(cookie="tr", accept_language="fi") == "tr"
    assert choose(query="EL", cookie="tr", accept_language="fi") == "el"
    assert choose(query="xx", cookie="sv", accept_language="fi") == "sv"  # an unknown one is ignored
    with pytest.raises(ValueError, match="unknown language 'xx'"):
        languages.catalog("xx")


def test_every_language_has_every_key_and_no_other():
    english = set(raw("en"))
    for lang in LANGS:
        keys = set(raw(lang))
        assert keys == english, (lang, sorted(english - keys), sorted(keys - english))
        assert all(isinstance(v, (str, dict)) and v for v in raw(lang).values()), lang


def test_no_key_is_unused_and_every_key_the_pages_name_exists():
    text = sources()
    catalog = raw("en")
    named = set(re.findall(r"""["'`]([a-z]+\.[a-z0-9_.]+)["'`]""", text)) | set(
        re.findall(r"\{\{([a-z0-9_.\-]+)\}\}", text)
    )
    named -= {"lang", "picker", "words"}
    unused = [
        key
        for key in catalog
        if key not in named
        and not key.startswith(DYNAMIC)
        and not (key.endswith("_you") and key[: -len("_you")] in named)  # a log line's "you" form
        and not (key.startswith("status.") or key.startswith("html."))
    ]
    assert unused == []
    missing = sorted(
        k
        for k in named
        if k.split(".")[0] in {p.split(".")[0] for p in catalog} and k not in catalog and f"{k}_you" not in catalog
    )
    assert missing == [], missing


def test_the_codes_the_server_sends_all_have_words():
    from rummisolve.game.players import AI_LEVELS
    from rummisolve.referee import REASONS
    from rummisolve.rules import PRESETS
    from rummisolve.server.meta import meta
    from rummisolve.solution import OBJECTIVES, STATUSES

    catalog = raw("en")
    info = meta()
    wanted = [f"reason.{c}" for c in REASONS] + [f"preset.{p}" for p in PRESETS] + [f"ai.{a}" for a in AI_LEVELS]
    wanted += [f"objective.{o}" for o in OBJECTIVES] + [f"status.{s}" for s in (*STATUSES, "error")]
    wanted += [f"status.{s}.words" for s in (*STATUSES, "error")] + [f"colour.{c['name']}" for c in info["colours"]]
    for option in info["options"]:
        wanted += [f"optname.{option['name']}", f"opthelp.{option['name']}"]
        wanted += [f"choice.{c}" for c in option.get("choices", [])]
    assert [k for k in wanted if k not in catalog] == []


def test_plurals_have_their_languages_cldr_categories_and_english_placeholders():
    babel = pytest.importorskip("babel")
    english = raw("en")
    for lang in LANGS:
        categories = set(babel.Locale.parse(lang).plural_form.tags) | {"other"}
        for key, value in raw(lang).items():
            if isinstance(value, dict):
                assert set(value) == categories, (lang, key, sorted(value))
                forms = list(value.values())
            else:
                forms = [value]
            want = english[key]
            want_names = set(PLACEHOLDER.findall(want if isinstance(want, str) else " ".join(want.values())))
            for form in forms:
                assert set(PLACEHOLDER.findall(form)) <= want_names | {"n"}, (lang, key, form)
            if isinstance(want, str) and not isinstance(value, dict):
                assert set(PLACEHOLDER.findall(value)) == want_names, (lang, key, value)


@pytest.fixture(scope="module")
def client(tmp_path_factory):
    settings = dataclasses.replace(Settings(), allowed_hosts="testserver")
    app = create_app(settings, db=str(tmp_path_factory.mktemp("lang") / "games.sqlite3"))
    with TestClient(app) as c:
        yield c


@pytest.mark.parametrize("path", ["/", "/play", "/help", "/r/ABCDEF"])
def test_each_page_is_filled_in_the_language_asked_for(client, path):
    titles = {
        lang: languages.text(lang, {"/": "board.title", "/help": "help.title"}.get(path, "play.title"))
        for lang in LANGS
    }
    for lang in LANGS:
        page = client.get(path, headers={"accept-language": f"{lang};q=0.9"})
        assert page.status_code == 200 and page.headers["content-language"] == lang
        assert "Accept-Language" in page.headers["vary"]
        html = page.text
        assert f'<html lang="{lang}">' in html and f"<title>{titles[lang]}</title>" in html
        outside = re.sub(r'<script type="application/json" id="words">.*?</script>', "", html, flags=re.S)
        assert "{{" not in outside and "}}" not in outside  # every placeholder filled
        assert f'<option value="{lang}" lang="{lang}" selected>' in html  # the picker shows it
        words = json.loads(re.search(r'<script type="application/json" id="words">(.*?)</script>', html).group(1))
        assert words["lang"] == lang and words["words"]["nav.play"] == languages.text(lang, "nav.play")
    assert '<html lang="tr">' in client.get(path + "?lang=tr", headers={"accept-language": "fi"}).text
    client.cookies.set("lang", "el")
    try:
        assert '<html lang="el">' in client.get(path, headers={"accept-language": "fi"}).text
        assert '<html lang="sv">' in client.get(path + "?lang=sv").text
    finally:
        client.cookies.clear()


def test_a_catalog_cannot_break_out_of_the_page():
    """The catalog inside the page is JSON whose "<" is escaped: no text of it can close the script."""
    html = languages.render_page("index", "el")
    script = re.search(r'<script type="application/json" id="words">(.*?)</script>', html, re.S).group(1)
    assert "<" not in script and json.loads(script)["lang"] == "el"


def test_a_result_picture_is_labelled_in_the_language(client):
    """POST /render?lang=el draws a result's title, rack, legend and colours in Greek; English (no
    ?lang=, or ?lang=en) is the library's own picture, whose labels the English catalog repeats."""
    from rummisolve import solve_json
    from rummisolve.render import LABELS

    english = raw("en")
    assert {k[len("render.") :]: v for k, v in english.items() if k.startswith("render.")} == {
        k: v for k, v in LABELS.items() if not k.startswith("colour_")
    }
    assert all(english[f"colour.{k[len('colour_') :]}"] == v for k, v in LABELS.items() if k.startswith("colour_"))
    position = {"rules": "standard", "table": [["R3", "R4", "R5"]], "rack": ["R6", "K7", "B7", "O7", "K1"]}
    result = {**solve_json(position), "position": position}
    plain = client.post("/render", json=result)
    assert plain.status_code == 200 and "Optimal: 4 tiles played" in plain.text
    assert client.post("/render?lang=en", json=result).text == plain.text
    greek = client.post("/render?lang=el", json=result)
    assert greek.status_code == 200 and greek.headers["content-type"].startswith("image/svg+xml")
    assert "Βέλτιστη: παίχτηκαν 4 πλακίδια" in greek.text and "Μένουν στη βάση: 1 πλακίδιο" in greek.text
    assert ">μαύρο<" in greek.text and "Optimal" not in greek.text
    assert "Paras: 4 laattaa pelattu" in client.post("/render?lang=fi", json=result).text
    assert client.post("/render?lang=xx", json=result).text == plain.text  # an unknown one: English
