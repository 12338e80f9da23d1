"""The viewer's static files and the headers they are served with (docs/viewer-api.md, "Mounting")."""

from __future__ import annotations

from pathlib import Path

STATIC_DIR = Path(__file__).resolve().parents[1] / "static"

CONTENT_TYPES = {
    ".html": "text/html; charset=utf-8",
    ".js": "text/javascript; charset=utf-8",
    ".css": "text/css; charset=utf-8",
    ".svg": "image/svg+xml",
    ".json": "application/json; charset=utf-8",
    ".md": "text/markdown; charset=utf-8",
    ".png": "image/png",
}

# Cytoscape.js 3.35.0 inserts one <style> element (".__________cytoscape_container
# { position: relative; }"); its hash admits exactly that one.
CYTOSCAPE_STYLE_HASH = "'sha256-pgvDUBa4IjFA2yuSJ2cqcyxmNYJMborsd0ORcRv9vw8='"
VIEWER_HEADERS = {
    "Content-Security-Policy": (
        f"default-src 'none'; script-src 'self'; style-src 'self' {CYTOSCAPE_STYLE_HASH}; img-src 'self' data:; "
        "connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"
    ),
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
}


def static_file(relative: str, root: Path = STATIC_DIR) -> Path | None:
    """The file under ``root`` that ``relative`` names (``""`` is index.html), never one outside it."""
    if "\x00" in relative or "\\" in relative:
        return None
    candidate = (root / (relative or "index.html")).resolve()
    if root.resolve() not in candidate.parents or not candidate.is_file():
        return None
    return candidate


def content_type(path: Path) -> str:
    return CONTENT_TYPES.get(path.suffix.lower(), "application/octet-stream")
