"""Every visible string is marked for translation, and the Spanish catalogs are complete and
compiled (issue 18). The checker itself is tested on planted strings first."""

from __future__ import annotations

import gettext
import shutil
import subprocess
from pathlib import Path

import pytest

from tests.conftest import missing
from tests.translation_support import (
    CATALOG,
    JS_CATALOG,
    PENDING_DIRECTOR_TEMPLATES,
    TEMPLATES,
    PoEntry,
    checked_templates,
    read_po,
    unmarked_strings,
)

# --- The checker, on planted strings ---------------------------------------------------------


def texts(source: str) -> list[str]:
    return [f.text for f in unmarked_strings(source)]


def test_a_planted_unmarked_sentence_is_found_with_its_line() -> None:
    source = (
        '{% load i18n %}\n<h1>{% translate "Standings" %}</h1>\n<p>Nobody has played yet.</p>\n'
    )
    found = unmarked_strings(source)
    assert [(f.line, f.text, f.where) for f in found] == [(3, "Nobody has played yet.", "text")]


def test_marked_text_variables_punctuation_and_markup_pass() -> None:
    source = (
        "{% extends 'base.html' %}{% load i18n %}\n"
        "{% block title %}{% translate 'Players' %} · Spinner{% endblock %}\n"
        '<a class="button secondary" href="/x/" data-side="A" id="go">{{ team.name }}</a>\n'
        "<td>{{ row.wins }}-{{ row.draws }}-{{ row.losses }} (#{{ n }}) → ✓ 61 – 40</td>\n"
        "{# A comment a reader never sees #}{% comment %}Nor this.{% endcomment %}\n"
        "<p>{% blocktranslate count n=x %}{{ n }} hand{% plural %}{{ n }} hands"
        "{% endblocktranslate %}</p>\n"
        "<style>.a { color: red; }</style><script src='/s.js'></script><code>?format=json</code>\n"
    )
    assert texts(source) == []


def test_visible_attributes_are_checked_and_hidden_ones_are_not() -> None:
    source = (
        '<input placeholder="Your name" class="wide search" name="q" autocomplete="off">\n'
        '<abbr title="Won-drawn-lost">{{ x }}</abbr><img alt="The table" src="t.png">\n'
        '<nav aria-label="{% translate \'Pages\' %}"></nav><section aria-label="Scoresheet">\n'
        '<input type="submit" value="Send"><input type="hidden" name="next" value="back">\n'
        '<button hx-confirm="Delete it?">{% translate "Delete" %}</button>\n'
    )
    found = {(f.where, f.text) for f in unmarked_strings(source)}
    assert found == {
        ("placeholder", "Your name"),
        ("title", "Won-drawn-lost"),
        ("alt", "The table"),
        ("aria-label", "Scoresheet"),
        ("value", "Send"),
        ("hx-confirm", "Delete it?"),
    }


def test_text_passed_on_as_literals_and_english_plurals_are_found() -> None:
    source = (
        '{% include "x.html" with who="Player" param="page" caption=_("Season table") %}\n'
        '<p>{{ value|default:"none yet" }} {{ other|default:"—" }}</p>\n'
        "<p>{{ n }} hand{{ n|pluralize }}</p>\n"
    )
    found = {(f.where, f.text) for f in unmarked_strings(source)}
    assert ("include who", "Player") in found
    assert ("default", "none yet") in found
    assert ("pluralize", "n|pluralize") in found
    assert ("text", "hand") in found
    assert not [f for f in found if "page" in f[1] or "Season" in f[1] or f[1] == "—"]


def test_brand_names_and_side_letters_are_allowed_alone_only() -> None:
    assert texts("<p>Spinner</p><p>(A) v</p><p>Five Up · {{ x }}</p>") == ["(A) v"]
    assert texts("<p>Spinner is live</p>") == ["Spinner is live"]


def test_plain_text_templates_are_read_whole() -> None:
    assert [f.text for f in unmarked_strings("Hello {{ name }},\n", html=False)] == ["Hello ,"]
    marked = "{% load i18n %}{% translate 'Hello' %} {{ name }},\n"
    assert unmarked_strings(marked, html=False) == []


# --- The project's templates ---------------------------------------------------------------


def test_every_visible_string_in_the_templates_is_marked_for_translation() -> None:
    checked = checked_templates()
    assert len(checked) > 40
    problems = [
        f"{path.relative_to(TEMPLATES)}:{f.line}: {f.where}: {f.text!r}"
        for path in checked
        for f in unmarked_strings(path.read_text(encoding="utf-8"), html=path.suffix == ".html")
    ]
    assert not problems, "visible text not marked for translation:\n" + "\n".join(problems)


def test_the_pending_director_templates_exist() -> None:
    """The exclusion names real files (a renamed template would silently escape the check)."""
    for name in PENDING_DIRECTOR_TEMPLATES:
        assert (TEMPLATES / name).is_file(), name


# --- The Spanish catalogs --------------------------------------------------------------------


def _pending_only(entry: PoEntry) -> bool:
    """An entry used only by the director's pages still being translated on their branch."""
    files = {f.removeprefix("templates/") for f in entry.files}
    return bool(files) and files <= PENDING_DIRECTOR_TEMPLATES


@pytest.mark.parametrize("catalog", [CATALOG, JS_CATALOG], ids=["django", "djangojs"])
def test_the_spanish_catalog_is_complete(catalog: Path) -> None:
    entries = read_po(catalog)
    header, body = entries[0], entries[1:]
    assert header.msgid == "" and "fuzzy" not in header.flags  # msgfmt skips a fuzzy header
    assert "Language: es" in header.msgstr[0]
    assert len(body) > 100
    fuzzy = [e.msgid for e in body if "fuzzy" in e.flags and not e.obsolete]
    untranslated = [
        e.msgid for e in body if not e.translated and not e.obsolete and not _pending_only(e)
    ]
    assert not fuzzy, f"fuzzy entries in {catalog.name}: {fuzzy}"
    assert not untranslated, f"untranslated entries in {catalog.name}: {untranslated}"


@pytest.mark.parametrize("catalog", [CATALOG, JS_CATALOG], ids=["django", "djangojs"])
def test_the_committed_mo_file_holds_every_translation_of_the_po_file(catalog: Path) -> None:
    """A fresh machine (no gettext) reads the committed .mo: it must say what the .po says."""
    with catalog.with_suffix(".mo").open("rb") as handle:
        compiled = gettext.GNUTranslations(handle)
    for entry in read_po(catalog)[1:]:
        if entry.obsolete or not entry.translated or "fuzzy" in entry.flags:
            continue
        key = entry.msgid if entry.msgctxt is None else f"{entry.msgctxt}\x04{entry.msgid}"
        if entry.msgid_plural:
            for n, expected in ((1, entry.msgstr[0]), (5, entry.msgstr[-1])):
                assert compiled.ngettext(key, entry.msgid_plural, n) == expected, entry.msgid
        else:
            assert compiled.gettext(key) == entry.msgstr[0], entry.msgid


def test_msgfmt_accepts_the_catalogs(tmp_path: Path) -> None:
    """The placeholders of every translation match its msgid's (msgfmt --check)."""
    msgfmt = shutil.which("msgfmt")
    if msgfmt is None:
        missing("needs msgfmt (apt-get install gettext)")
    for catalog in (CATALOG, JS_CATALOG):
        out = subprocess.run(
            [str(msgfmt), "--check", "-o", str(tmp_path / "out.mo"), str(catalog)],
            capture_output=True,
            text=True,
        )
        assert out.returncode == 0, out.stderr
