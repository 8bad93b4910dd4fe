"""The director's side in Spanish (issue 18): which templates and modules it covers, the messages
they mark for translation, and which of those the Spanish catalog leaves untranslated.

``untranslated()`` is the check the lead runs at merge time: it reads the messages straight from
the director's templates (Django's own ``templatize``, as ``makemessages`` does) and from the
catalog's ``#:`` references to the Python modules of the director's side, and lists every one the
Spanish ``django.po`` has no translation for (missing, empty or fuzzy).

    .venv/bin/python -c "import django, os; os.environ.setdefault('DJANGO_SETTINGS_MODULE',
    'spinner.settings'); django.setup(); from tests.tournaments import i18n_support as s;
    print(s.untranslated())"
"""

from __future__ import annotations

import ast
import re
from dataclasses import dataclass
from html.parser import HTMLParser
from pathlib import Path

from asgiref.local import Local
from django.conf import settings
from django.core.management import call_command
from django.utils.translation import templatize, trans_real

ROOT = Path(settings.BASE_DIR)
CATALOG = ROOT / "locale" / "es" / "LC_MESSAGES" / "django.po"

_T = "templates/tournaments/"
DIRECTOR_TEMPLATES: tuple[str, ...] = (
    *(
        f"{_T}registration/{name}"
        for name in (
            "_checked_count.html",
            "_desk.html",
            "_entry_row.html",
            "_entry_rows.html",
            "_event_nav.html",
            "_finish.html",
            "audit.html",
            "director_home.html",
            "entries.html",
            "entry_add.html",
            "entry_detail.html",
            "event_dashboard.html",
            "event_form.html",
            "import.html",
        )
    ),
    *(
        f"{_T}rounds/{name}"
        for name in (
            "review.html",
            "list.html",
            "job.html",
            "_job.html",
            "_swap_preview.html",
            "_clock_controls.html",
        )
    ),
    f"{_T}results/round.html",
    f"{_T}results/_board.html",
    f"{_T}results/_forfeit_form.html",
    f"{_T}standings/director_standings.html",
    f"{_T}leagues/director_list.html",
    f"{_T}leagues/form.html",
    f"{_T}players/admin.html",
    f"{_T}players/merge_confirm.html",
    f"{_T}roles/read_only.html",
    f"{_T}confirm.html",
)
"""The director's templates (the public and player pages are the other half of issue 18)."""

DIRECTOR_MODULES: tuple[str, ...] = (
    "tournaments/models.py",
    "tournaments/bookkeeping.py",
    "tournaments/community.py",
    "tournaments/result_records.py",
    "tournaments/job_kinds.py",
    "tournaments/stage_names.py",
    "tournaments/csv_safety.py",
    "tournaments/results_math.py",
    "tournaments/views/",
    "tournaments/services/",
    "tournaments/selectors/",
    "tournaments/presenters/audit.py",
    "tournaments/templatetags/",
)
"""The Python side whose messages a director reads: forms, messages, errors, the audit log."""


@dataclass(frozen=True, order=True)
class Message:
    """One translatable message: its context ("" for none), its id and its plural ("" for
    none)."""

    context: str
    msgid: str
    plural: str = ""


_CALL = re.compile(r"\b(npgettext|pgettext|ngettext|gettext)\(")
_LITERAL = re.compile(r"""\s*(u?'(?:[^'\\]|\\.)*'|u?"(?:[^"\\]|\\.)*")\s*,?""")


def template_messages(paths: tuple[str, ...] = DIRECTOR_TEMPLATES) -> set[Message]:
    """The messages the templates mark, read as ``makemessages`` reads them."""
    found: set[Message] = set()
    for path in paths:
        code = templatize((ROOT / path).read_text(encoding="utf-8"), origin=path)
        for call in _CALL.finditer(code):
            args, at = [], call.end()
            while (literal := _LITERAL.match(code, at)) is not None:
                args.append(ast.literal_eval(literal.group(1)))
                at = literal.end()
            kind = call.group(1)
            context = args.pop(0) if kind.startswith(("np", "pg")) else ""
            plural = args[1] if kind.startswith(("n", "np")) and len(args) > 1 else ""
            found.add(Message(context, args[0], plural))
    return found


@dataclass
class _Entry:
    message: Message
    translated: bool
    references: tuple[str, ...]


def _unquote(line: str) -> str:
    return str(ast.literal_eval(line))


def catalog_entries(path: Path = CATALOG) -> list[_Entry]:
    """The catalog's entries (the header left out): each message, whether it has a translation
    (every form of a plural; not fuzzy), and its ``#:`` references."""
    entries = []
    for block in path.read_text(encoding="utf-8").split("\n\n"):
        fields: dict[str, str] = {}
        refs: list[str] = []
        fuzzy, key = False, ""
        for line in block.strip().splitlines():
            if line.startswith("#:"):
                refs += [r.rsplit(":", 1)[0] for r in line[2:].split()]
            elif line.startswith("#,"):
                fuzzy = fuzzy or "fuzzy" in line
            elif line.startswith('"'):
                fields[key] += _unquote(line)
            elif " " in line and not line.startswith("#"):
                key, value = line.split(" ", 1)
                fields[key] = _unquote(value)
        if not fields.get("msgid"):
            continue
        forms = [v for k, v in fields.items() if k.startswith("msgstr")]
        message = Message(
            fields.get("msgctxt", ""), fields["msgid"], fields.get("msgid_plural", "")
        )
        entries.append(_Entry(message, bool(forms) and all(forms) and not fuzzy, tuple(refs)))
    return entries


def untranslated(
    templates: tuple[str, ...] = DIRECTOR_TEMPLATES, modules: tuple[str, ...] = DIRECTOR_MODULES
) -> list[Message]:
    """Every message of the director's templates and modules that the Spanish catalog does not
    translate (absent from it, empty, or fuzzy). Empty when the director's side is complete."""
    entries = catalog_entries()
    done = {e.message for e in entries if e.translated}
    wanted = template_messages(templates)
    wanted |= {e.message for e in entries if any(r.startswith(modules) for r in e.references)}
    return sorted(m for m in wanted if m not in done)


def compile_catalog() -> None:
    """Compile the Spanish catalog (``locale/es``) and make Django read it afresh."""
    call_command("compilemessages", locale=["es"], ignore_patterns=[".venv/*", "*/.venv/*"])
    trans_real._translations = {}
    trans_real._default = None
    trans_real._active = Local()


class _Text(HTMLParser):
    """The text a person reads on a page: text nodes and the attributes a screen reader or a
    button shows (titles, labels, placeholders, values of buttons), scripts and styles left
    out."""

    SHOWN = ("aria-label", "title", "placeholder", "alt", "hx-confirm", "data-hx-confirm")

    def __init__(self) -> None:
        super().__init__()
        self.parts: list[str] = []
        self._skip = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in ("script", "style"):
            self._skip += 1
        for name, value in attrs:
            if value and name in self.SHOWN:
                self.parts.append(value)

    def handle_endtag(self, tag: str) -> None:
        if tag in ("script", "style"):
            self._skip -= 1

    def handle_data(self, data: str) -> None:
        if not self._skip and data.strip():
            self.parts.append(data.strip())


def visible_text(html: str) -> str:
    """A page's visible text (see ``_Text``), one line per text node."""
    parser = _Text()
    parser.feed(html)
    return "\n".join(parser.parts)


_PLACEHOLDER = re.compile(r"%\([^)]*\)[sdr]|<[^>]+>|\{[a-z_]+\}")


def english_left(html: str, messages: set[Message]) -> list[str]:
    """The English messages (their fixed words: at least two words, eight letters) still in a
    page's ``<main>`` (the page's own content, without the site's header) meant to be in
    Spanish."""
    start, end = html.find("<main"), html.rfind("</main>")
    if start != -1 and end != -1:
        html = html[start:end]
    text = " ".join(visible_text(html).split())
    left = []
    for message in messages:
        for english in (message.msgid, message.plural):
            for piece in _PLACEHOLDER.split(english):
                piece = " ".join(piece.split()).strip(" .,:;()—–·")
                if len(piece.split()) >= 2 and len(piece) >= 8 and piece in text:
                    left.append(piece)
    return sorted(set(left))
