"""Checks on the viewer's static files that need no browser."""

from __future__ import annotations

import hashlib
import re
from html.parser import HTMLParser
from pathlib import Path

STATIC = Path(__file__).resolve().parents[2] / "claimgraph" / "serve" / "static"
VENDOR = STATIC / "vendor"


class LinkCollector(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.links: list[str] = []
        self.inline_scripts = 0
        self.style_attributes = 0
        self._in_script = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        named = dict(attrs)
        self.links += [value for key, value in attrs if key in ("src", "href") and value]
        self.style_attributes += "style" in named
        self._in_script = tag == "script"

    def handle_data(self, data: str) -> None:
        if self._in_script and data.strip():
            self.inline_scripts += 1

    def handle_endtag(self, tag: str) -> None:
        self._in_script = False


def parsed_page() -> LinkCollector:
    collector = LinkCollector()
    collector.feed((STATIC / "index.html").read_text(encoding="utf-8"))
    return collector


def test_page_links_are_relative_and_exist() -> None:
    page = parsed_page()
    assert page.links
    for link in page.links:
        if link.startswith("#"):
            continue
        assert not re.match(r"^([a-z]+:|/)", link), f"{link} is not relative to the page"
        assert (STATIC / link).is_file(), f"index.html names {link}, which static/ lacks"


def test_page_has_no_inline_script_or_style_attribute() -> None:
    page = parsed_page()
    assert (page.inline_scripts, page.style_attributes) == (0, 0)


def test_module_imports_name_files_that_exist() -> None:
    for script in STATIC.glob("*.js"):
        for target in re.findall(r'from "(\./[^"]+)"', script.read_text(encoding="utf-8")):
            assert (STATIC / target).is_file(), f"{script.name} imports {target}, which is missing"


def test_own_scripts_never_parse_text_as_html_or_code() -> None:
    forbidden = re.compile(r"innerHTML|outerHTML|insertAdjacentHTML|document\.write|\beval\(|new Function")
    for script in STATIC.glob("*.js"):
        assert not forbidden.search(script.read_text(encoding="utf-8")), script.name


def test_vendored_cytoscape_is_the_recorded_build_with_its_licence() -> None:
    readme = (VENDOR / "README.md").read_text(encoding="utf-8")
    built = (VENDOR / "cytoscape.min.js").read_bytes()
    version = re.search(r"\| `cytoscape\.min\.js` \|[^|]*\| (\d+\.\d+\.\d+) \|", readme).group(1)
    assert hashlib.sha256(built).hexdigest() in readme
    assert f'version="{version}"'.encode() in built
    assert "Permission is hereby granted" in (VENDOR / "LICENSE.cytoscape").read_text(encoding="utf-8")
