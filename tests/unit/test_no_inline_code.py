"""Every HTML face under one Content-Security-Policy (commands/pages/policy.py): no
template holds an inline script, an inline style or an event handler attribute, the
pages' scripts and stylesheets are files (commands/pages/static/, the console's
static/), found by plain name only, and the file ``tledger print`` writes has its
stylesheets inline, so it prints with no server behind it."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from commands.pages.assets import STATIC, find, self_contained
from commands.pages.policy import CONTENT_SECURITY_POLICY

ROOT = Path(__file__).resolve().parents[2]
FOLDERS = (ROOT / "commands" / "pages" / "templates", ROOT / "commands" / "console" / "templates")
TEMPLATES = sorted(p for folder in FOLDERS for p in folder.iterdir())
#: a script element with anything but blanks between its tags
SCRIPT_BODY = re.compile(r"<script\b[^>]*>(?!\s*</script>)", re.I)
STYLE_ELEMENT = re.compile(r"<style\b", re.I)
STYLE_ATTRIBUTE = re.compile(r"\sstyle\s*=", re.I)
HANDLER_ATTRIBUTE = re.compile(r"\son[a-z]+\s*=", re.I)
LINKED = re.compile(r'(?:src|href)="/static/([^"?{]+)"')


def test_every_template_is_html_and_every_face_has_some() -> None:
    assert all(p.name.endswith(".html.j2") for p in TEMPLATES), "a script is no template"
    assert {"public.html.j2", "slip_report.html.j2", "org_round.html.j2"} <= {
        p.name for p in TEMPLATES}  # fmt: skip


@pytest.mark.parametrize("template", TEMPLATES, ids=lambda p: p.name)
def test_no_template_holds_an_inline_script_or_style(template: Path) -> None:
    text = template.read_text()
    assert not SCRIPT_BODY.search(text), "a script is a file of static/, its data data-*"
    assert not STYLE_ELEMENT.search(text), "CSS is a file of static/"
    assert not STYLE_ATTRIBUTE.search(text), "a style= attribute: give it a class"
    assert not HANDLER_ATTRIBUTE.search(text), "an event handler attribute runs inline script"


def test_every_file_a_template_links_is_there() -> None:
    linked = {name for p in TEMPLATES for name in LINKED.findall(p.read_text())}
    assert {"base.css", "countdown.js", "live.js", "slip.js"} <= linked
    assert all(find(name) is not None for name in linked), linked


def test_the_policy_allows_this_servers_files_only() -> None:
    directives = dict(d.split(" ", 1) for d in CONTENT_SECURITY_POLICY.split("; "))
    assert directives["default-src"] == "'none'"
    assert directives["script-src"] == directives["style-src"] == "'self'"
    assert "unsafe" not in CONTENT_SECURITY_POLICY and "*" not in CONTENT_SECURITY_POLICY


@pytest.mark.parametrize("name", ["../render.py", "..", "", "live.JS", "live.js/", "x.py",
                                  "templates", "live.js%00", ".hidden.js", "nope.js"])  # fmt: skip
def test_a_file_is_found_by_its_plain_name_only(name: str) -> None:
    assert find(name) is None


def test_each_file_has_its_type() -> None:
    css, js = find("base.css"), find("countdown.js")
    assert css is not None and css.media_type == "text/css"
    assert js is not None and js.media_type == "text/javascript"
    assert css.body == (STATIC / "base.css").read_bytes() and css.etag != js.etag


def test_a_printout_file_has_its_stylesheets_inline() -> None:
    page = '<head>\n<link rel="stylesheet" href="/static/print.css">\n</head>'
    inline = self_contained(page)
    assert "<link" not in inline and inline.count("<style>") == 1
    assert "display: table-header-group" in inline
    with pytest.raises(ValueError, match=r"no stylesheet 'live\.js'"):
        self_contained('<link rel="stylesheet" href="/static/live.js">')
