"""The outsider's audit (issue 31): axe-core and the Nu HTML checker on every page of the finished
demo event, in Debian's Chromium at 390x844, light and dark, English and Spanish.

    python benchmarks/audit/audit.py --node /work/wt/pages-node [--repo PATH] [--out FILE]

``--node`` is a folder where ``npm install axe-core@4.14.1 vnu-jar@26.9.27`` ran (outside the
repository, or a gitignored one). ``--repo`` is the checkout whose server is audited (default:
this one; another, e.g. an older commit unpacked by ``git archive``, gives the "before"
figures). The script makes a fresh SQLite database, migrates it, builds ``manage.py demo
--finish``, runs ``manage.py runserver`` on a free port, reads the pages named by
``tests/tournaments/pages_support.py`` (public ones as a reader, the director's logged in) and
prints, and writes as JSON to ``--out``, each page's axe violations (WCAG 2.2 A/AA and best
practices: rule ids and node counts) and Nu checker errors (messages and counts).
"""

from __future__ import annotations

import argparse
import json
import os
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections import Counter
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
PYTHON = sys.executable
KEY_PAGES = ("event", "standings", "round", "bracket", "team", "follow", "entries", "result")
"""The pages shot in the dark theme at 390x844 with ``--screenshots``."""
SCREENSHOTS: list[Path] = []  # the folder given to --screenshots, if any
AXE_TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa", "best-practice"]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def prepare(repo: Path, env: dict[str, str]) -> None:
    """A migrated database with the finished demo event."""
    for args in (["migrate", "--noinput", "-v0"], ["demo", "--finish"]):
        subprocess.run(
            [PYTHON, "manage.py", *args], cwd=repo, env=env, check=True, stdout=subprocess.DEVNULL
        )


def serve(repo: Path, env: dict[str, str], port: int) -> subprocess.Popen[bytes]:
    server = subprocess.Popen(
        [PYTHON, "manage.py", "runserver", f"127.0.0.1:{port}", "--noreload", "--nothreading"],
        cwd=repo,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=2)
            return server
        except OSError:
            time.sleep(0.2)
    server.kill()
    raise SystemExit("the server did not start")


def page_list(env: dict[str, str]) -> tuple[list[tuple[str, str]], list[tuple[str, str]]]:
    """(public pages, director pages) of the demo event, from this checkout's pages_support."""
    for name in set(os.environ) - set(env):  # what main() left out (CI's database, Redis)
        del os.environ[name]
    os.environ.update(env)
    sys.path.insert(0, str(ROOT))
    import django

    django.setup()
    from tests.tournaments.pages_support import director_pages, public_pages
    from tournaments.models import Event

    event = Event.objects.get(slug="demo")
    return public_pages(event), director_pages(event)


def log_in(page: Any, base: str) -> None:
    page.goto(f"{base}/accounts/login/")
    page.fill("#id_username", "director")
    page.fill("#id_password", "director")
    page.click("main button[type=submit]")
    page.wait_for_url(lambda url: "/accounts/login/" not in url)


def axe_page(page: Any, axe_js: str) -> list[dict[str, Any]]:
    page.add_script_tag(content=axe_js)
    result = page.evaluate(
        "tags => axe.run(document, {runOnly: {type: 'tag', values: tags}})", AXE_TAGS
    )
    return [
        {
            "id": v["id"],
            "impact": v["impact"],
            "nodes": len(v["nodes"]),
            "targets": [n["target"] for n in v["nodes"][:5]],
        }
        for v in result["violations"]
    ]


def crawl(
    browser: Any,
    base: str,
    pages: list[tuple[str, str]],
    login: bool,
    scheme: str,
    locale: str,
    axe_js: str,
    html_dir: Path,
) -> dict[str, Any]:
    context = browser.new_context(
        viewport={"width": 390, "height": 844},
        color_scheme=scheme,
        locale=locale,
        bypass_csp=True,
        reduced_motion="reduce",
    )
    page = context.new_page()
    page.set_default_timeout(20_000)
    if login:
        log_in(page, base)
    found: dict[str, Any] = {}
    for name, path in pages:
        response = page.goto(base + path)
        status = response.status if response else 0
        key = f"{name}:{scheme}:{locale}"
        if scheme == "light":  # the markup is the same in both themes
            (html_dir / f"{name}.{locale}.html").write_bytes(response.body() if response else b"")
        wide = page.evaluate("document.documentElement.scrollWidth > window.innerWidth")
        if SCREENSHOTS and scheme == "dark" and name in KEY_PAGES:
            page.screenshot(path=str(SCREENSHOTS[0] / f"{name}-dark-{locale}.png"))
        found[key] = {
            "path": path,
            "status": status,
            "axe": axe_page(page, axe_js),
            "scrolls_sideways": wide,
        }
    context.close()
    return found


def nu_check(vnu_jar: Path, html_dir: Path) -> dict[str, list[str]]:
    files = sorted(str(p) for p in html_dir.glob("*.html"))
    run = subprocess.run(
        ["java", "-jar", str(vnu_jar), "--format", "json", "--errors-only", *files],
        capture_output=True,
        text=True,
    )
    messages = json.loads(run.stderr or run.stdout or '{"messages": []}')["messages"]
    out: dict[str, list[str]] = {Path(f).stem: [] for f in files}
    for m in messages:
        if m.get("type") == "error":
            out[Path(m["url"].removeprefix("file:")).stem].append(m["message"])
    return out


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--node", required=True, type=Path)
    parser.add_argument("--repo", default=ROOT, type=Path)
    parser.add_argument("--out", type=Path)
    parser.add_argument("--locales", default="en-GB,es-ES")
    parser.add_argument("--screenshots", type=Path, help="a folder for the dark key pages")
    args = parser.parse_args()
    if args.screenshots:
        args.screenshots.mkdir(parents=True, exist_ok=True)
        SCREENSHOTS.append(args.screenshots)
    axe_js = (args.node / "node_modules/axe-core/axe.min.js").read_text()
    vnu_jar = args.node / "node_modules/vnu-jar/build/dist/vnu.jar"
    work = Path(tempfile.mkdtemp(prefix="spinner-audit-"))
    env = {
        **os.environ,
        "SQLITE_PATH": str(work / "db.sqlite3"),
        "DEBUG": "1",
        "DJANGO_SETTINGS_MODULE": "spinner.settings",
        "DJANGO_ALLOW_ASYNC_UNSAFE": "true",
    }
    # its own SQLite database and in-process cache and tasks, whatever the shell (CI's) points at
    for name in ("DATABASE_URL", "DATABASE_REPLICA_URL", "REDIS_URL", "SPINNER_ENV"):
        env.pop(name, None)
    prepare(args.repo, env)
    public, director = page_list(env)
    port = free_port()
    server = serve(args.repo, env, port)
    base = f"http://127.0.0.1:{port}"
    html_dir = work / "html"
    html_dir.mkdir()
    results: dict[str, Any] = {"axe": {}, "nu": {}}
    try:
        from playwright.sync_api import sync_playwright

        with sync_playwright() as pw:
            browser = pw.chromium.launch(
                executable_path="/usr/bin/chromium",
                headless=True,
                args=["--no-sandbox", "--disable-gpu"],
            )
            for locale in args.locales.split(","):
                for scheme in ("light", "dark"):
                    for pages, login in ((public, False), (director, True)):
                        results["axe"].update(
                            crawl(browser, base, pages, login, scheme, locale, axe_js, html_dir)
                        )
            browser.close()
    finally:
        server.terminate()
        server.wait(timeout=30)
    results["nu"] = nu_check(vnu_jar, html_dir)
    report(results)
    if args.out:
        args.out.write_text(json.dumps(results, indent=1, sort_keys=True) + "\n")


def report(results: dict[str, Any]) -> None:
    axe_total = sum(v["nodes"] for r in results["axe"].values() for v in r["axe"])
    nu_total = sum(len(m) for m in results["nu"].values())
    print(
        f"axe: {axe_total} violating nodes on "
        f"{sum(1 for r in results['axe'].values() if r['axe'])} of {len(results['axe'])} pages"
    )
    for key, r in sorted(results["axe"].items()):
        if r["axe"] or r["status"] != 200 or r["scrolls_sideways"]:
            rules = ", ".join(f"{v['id']}x{v['nodes']}" for v in r["axe"])
            print(f"  {key} [{r['status']}]{' WIDE' if r['scrolls_sideways'] else ''}: {rules}")
    print(
        f"nu: {nu_total} errors on {sum(1 for m in results['nu'].values() if m)} of "
        f"{len(results['nu'])} pages"
    )
    for name, messages in sorted(results["nu"].items()):
        if messages:
            common = Counter(messages).most_common(3)
            print(f"  {name}: {len(messages)}: " + " | ".join(f"{n}x {m[:90]}" for m, n in common))


if __name__ == "__main__":
    main()
