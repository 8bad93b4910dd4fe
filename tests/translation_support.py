"""Finding visible text that is not marked for translation, and reading a gettext catalog.

``unmarked_strings(source)`` reads one template with Django's own template ``Lexer``: the text a
reader sees (element text and the visible attributes: ``title``, ``alt``, ``placeholder``,
``aria-label``, a button's ``value``, htmx's confirm and prompt) must come from ``{% translate %}``
or ``{% blocktranslate %}``, from a variable, or be free of letters (punctuation, numbers,
symbols). Ignored: markup, attributes nobody reads (``class``, ``id``, ``href``, ``data-*``...),
comments, ``<script>``/``<style>`` and code (``<code>``, ``<kbd>``, ``<samp>``), and a few brand
names (``ALLOWED``). Literal strings a template passes on as text (``|default:"none"``,
``{% include ... with who="Player" %}``) count too unless written ``_("...")``; ``|pluralize``
is refused outright (it only knows English: use ``{% blocktranslate count %}``).

``read_po(path)`` parses a ``.po`` file into entries (msgid, msgid_plural, msgstrs, flags,
references) with no dependency beyond the standard library.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from html.parser import HTMLParser
from pathlib import Path

from django.template.base import Lexer, TokenType

ROOT = Path(__file__).resolve().parent.parent
TEMPLATES = ROOT / "templates"
CATALOG = ROOT / "locale" / "es" / "LC_MESSAGES" / "django.po"
JS_CATALOG = ROOT / "locale" / "es" / "LC_MESSAGES" / "djangojs.po"

#: The director's pages, marked on the ``i18n-director`` branch. Until it is merged they are not
#: checked here, and the catalog test lets their entries stay untranslated. Empty it at merge.
PENDING_DIRECTOR_TEMPLATES: frozenset[str] = frozenset()

#: Names that read the same in every language (and the sides' letters, A and B).
ALLOWED = frozenset(
    {"Spinner", "Five Up", "All Fives", "OpenAPI", "CSV", "API", "QR", "HTTP", "A", "B"}
)

VISIBLE_ATTRIBUTES = frozenset(
    {
        "title",
        "alt",
        "placeholder",
        "aria-label",
        "aria-description",
        "aria-roledescription",
        "aria-valuetext",
        "label",
        "hx-confirm",
        "hx-prompt",
        "data-hx-confirm",
        "data-hx-prompt",
    }
)
#: Elements whose content is not prose: program text, or code shown as it is typed.
UNREAD = frozenset({"script", "style", "code", "kbd", "samp", "pre"})
#: Buttons' values are their labels.
BUTTON_INPUTS = frozenset({"submit", "button", "reset"})

#: Stands in for a template variable or tag: not a letter, so a variable alone is never flagged.
HOLE = "\u2063"
_TRANSLATED_LITERAL = re.compile(r"""_\(\s*(?:"[^"]*"|'[^']*')\s*\)""")
_LITERAL = re.compile(r"""(?<![\w.])(?:"([^"]*)"|'([^']*)')""")
_TEXT_FILTERS = re.compile(r"""\|\s*(default|default_if_none|yesno)\s*:\s*("[^"]*"|'[^']*')""")
_KEY = re.compile(r"[a-z0-9_:.-]+")
_WITH_ARGUMENT = re.compile(r"""(\w+)\s*=\s*("[^"]*"|'[^']*')""")


_BRANDS = re.compile(r"\b(?:" + "|".join(re.escape(name) for name in sorted(ALLOWED)) + r")\b")


def has_letters(text: str) -> bool:
    """Whether ``text`` has a letter outside the allowed names."""
    return any(c.isalpha() for c in _BRANDS.sub("", text))


@dataclass(frozen=True)
class Finding:
    line: int
    text: str
    where: str  # "text", an attribute's name, or the tag/filter that passes the literal


class _Visible(HTMLParser):
    """Collects the visible text of a template with its tags replaced by ``HOLE``."""

    def __init__(self, lines: list[int]) -> None:
        super().__init__(convert_charrefs=True)
        self.lines = lines  # the template line of each character of the fed text
        self.found: list[Finding] = []
        self.unread_depth = 0
        self._line_starts: list[int] = []

    def _line(self, skip: int = 0) -> int:
        """The template line of the parser's position, ``skip`` characters on."""
        line, column = self.getpos()
        index = self._line_starts[min(line, len(self._line_starts)) - 1] + column + skip
        return self.lines[min(index, len(self.lines) - 1)] if self.lines else 1

    def run(self, text: str) -> list[Finding]:
        starts = [0]
        for i, c in enumerate(text):
            if c == "\n":
                starts.append(i + 1)
        self._line_starts = starts
        self.feed(text)
        self.close()
        return self.found

    def _check(self, text: str, where: str) -> None:
        cleaned = " ".join(text.replace(HOLE, " ").split())
        if has_letters(cleaned):
            first = next(i for i, c in enumerate(text) if c.isalpha())
            skip = first if where == "text" else 0
            self.found.append(Finding(self._line(skip), cleaned, where))

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        tag = tag.replace(HOLE, "")
        if tag in UNREAD:
            self.unread_depth += 1
        values = {name: value or "" for name, value in attrs}
        for name, value in values.items():
            if name in VISIBLE_ATTRIBUTES:
                self._check(value, name)
        if tag == "input" and values.get("type", "").lower() in BUTTON_INPUTS:
            self._check(values.get("value", ""), "value")

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.handle_starttag(tag, attrs)
        if tag.replace(HOLE, "") in UNREAD:
            self.unread_depth -= 1

    def handle_endtag(self, tag: str) -> None:
        if tag.replace(HOLE, "") in UNREAD and self.unread_depth:
            self.unread_depth -= 1

    def handle_data(self, data: str) -> None:
        if not self.unread_depth:
            self._check(data, "text")


def _literal_findings(contents: str, line: int, tag: str) -> list[Finding]:
    """Literal strings a variable or tag token turns into text: filter arguments that are
    shown (``default``, ``yesno``), ``with`` arguments of ``include``/``with``, ``pluralize``."""
    found = []
    stripped = _TRANSLATED_LITERAL.sub("_()", contents)
    if re.search(r"\|\s*pluralize\b", stripped):
        found.append(Finding(line, contents, "pluralize"))
    for name, literal in _TEXT_FILTERS.findall(stripped):
        if has_letters(literal[1:-1]):
            found.append(Finding(line, literal[1:-1], name))
    if tag in {"include", "with"}:
        for name, literal in _WITH_ARGUMENT.findall(stripped):
            # A key (``param="page"``) is code; words with a capital or a space are text.
            if has_letters(literal[1:-1]) and not _KEY.fullmatch(literal[1:-1]):
                found.append(Finding(line, literal[1:-1], f"{tag} {name}"))
    return found


def unmarked_strings(source: str, *, html: bool = True) -> list[Finding]:
    """Every visible string of a template that is not marked for translation."""
    pieces: list[str] = []
    lines: list[int] = []
    found: list[Finding] = []
    skip_until: str | None = None

    def emit(text: str, line: int) -> None:
        pieces.append(text)
        for c in text:  # each character's own line: a token may span several
            lines.append(line)
            line += c == "\n"

    for token in Lexer(source).tokenize():
        line = token.lineno or 1
        if token.token_type == TokenType.BLOCK:
            bits = token.contents.split()
            name = bits[0] if bits else ""
            if skip_until is not None:
                if name == skip_until:
                    skip_until = None
                emit(HOLE, line)
                continue
            if name in {"blocktranslate", "blocktrans"} or name in {"comment", "verbatim"}:
                skip_until = "end" + name
            found.extend(_literal_findings(token.contents, line, name))
            emit(HOLE, line)
        elif token.token_type == TokenType.VAR:
            if skip_until is None:
                found.extend(_literal_findings(token.contents, line, ""))
            emit(HOLE, line)
        elif token.token_type == TokenType.COMMENT:
            continue
        elif skip_until is None:
            emit(token.contents, line)
        else:
            emit(HOLE * token.contents.count("\n") or HOLE, line)
    text = "".join(pieces)
    if html:
        found.extend(_Visible(lines).run(text))
    else:
        cleaned = " ".join(text.replace(HOLE, " ").split())
        if has_letters(cleaned):
            found.append(Finding(1, cleaned, "text"))
    return sorted(found, key=lambda f: f.line)


def checked_templates() -> list[Path]:
    """Every template a person reads (HTML pages and fragments, plain-text e-mails), less the
    pending director's pages."""
    paths = []
    for path in sorted(TEMPLATES.rglob("*")):
        if path.suffix not in {".html", ".txt"} or not path.is_file():
            continue
        if str(path.relative_to(TEMPLATES)) in PENDING_DIRECTOR_TEMPLATES:
            continue
        paths.append(path)
    return paths


# --- gettext catalogs --------------------------------------------------------------------------


@dataclass
class PoEntry:
    msgid: str = ""
    msgid_plural: str = ""
    msgctxt: str | None = None
    msgstr: list[str] = field(default_factory=list)
    flags: set[str] = field(default_factory=set)
    references: list[str] = field(default_factory=list)
    obsolete: bool = False

    @property
    def translated(self) -> bool:
        return bool(self.msgstr) and all(self.msgstr)

    @property
    def files(self) -> set[str]:
        """The files the entry comes from, without line numbers."""
        return {ref.rsplit(":", 1)[0] if ref[-1:].isdigit() else ref for ref in self.references}


def _unquote(text: str) -> str:
    body = text.strip()[1:-1]
    return re.sub(
        r"\\(.)", lambda m: {"n": "\n", "t": "\t", '"': '"', "\\": "\\"}.get(m[1], m[1]), body
    )


def read_po(path: Path) -> list[PoEntry]:
    """The entries of a ``.po`` file, the header (empty msgid) first."""
    entries: list[PoEntry] = []
    current = PoEntry()
    started = False
    target: tuple[str, int] | None = None

    def finish() -> None:
        nonlocal current, started
        if started:
            entries.append(current)
        current, started = PoEntry(), False

    for raw in path.read_text(encoding="utf-8").splitlines():
        line = raw.strip()
        if not line:
            finish()
            target = None
            continue
        if line.startswith("#~"):
            current.obsolete = True
            continue
        if line.startswith("#,"):
            current.flags.update(f.strip() for f in line[2:].split(","))
            continue
        if line.startswith("#:"):
            current.references.extend(line[2:].split())
            continue
        if line.startswith("#"):
            continue
        started = True
        keyword, _, rest = line.partition(" ")
        if line.startswith('"') and target is not None:
            name, index = target
            if name == "msgstr":
                current.msgstr[index] += _unquote(line)
            else:
                setattr(current, name, (getattr(current, name) or "") + _unquote(line))
            continue
        if keyword == "msgctxt":
            current.msgctxt, target = _unquote(rest), ("msgctxt", 0)
        elif keyword == "msgid":
            current.msgid, target = _unquote(rest), ("msgid", 0)
        elif keyword == "msgid_plural":
            current.msgid_plural, target = _unquote(rest), ("msgid_plural", 0)
        elif keyword.startswith("msgstr"):
            index = int(keyword[7:-1]) if "[" in keyword else 0
            while len(current.msgstr) <= index:
                current.msgstr.append("")
            current.msgstr[index] = _unquote(rest)
            target = ("msgstr", index)
    finish()
    return entries
