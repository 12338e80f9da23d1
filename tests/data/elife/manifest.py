"""Write MANIFEST.tsv for the eLife excerpts in this folder: one row per article, read from its XML.

Columns: file, doi, title, year, type (display channel), license, refs (``<ref>``
elements), body_kept (what of the body the excerpt keeps), cites_in_set (the
DOIs of articles of this folder that its reference list names by a ``pub-id``
of type doi). Prints the totals the README quotes.

    python tests/data/elife/manifest.py
"""

from __future__ import annotations

from pathlib import Path

from lxml import etree

FOLDER = Path(__file__).resolve().parent
XLINK = "{http://www.w3.org/1999/xlink}href"
COLUMNS = ("file", "doi", "title", "year", "type", "license", "refs", "body_kept", "cites_in_set")


def parse(path: Path) -> etree._Element:
    return etree.parse(str(path), etree.XMLParser(resolve_entities=False, no_network=True, load_dtd=False)).getroot()


def licence(root: etree._Element) -> str:
    element = root.find(".//permissions/license")
    href = "" if element is None else element.get(XLINK, "")
    return "CC0-1.0" if "zero" in href else "CC-BY-3.0" if "/by/3.0" in href else "CC-BY-4.0" if "/by/4.0" in href else f"? {href}"


def body_kept(root: etree._Element) -> str:
    body = root.find("body")
    if body is None:
        return "no body"
    paragraphs = len(body.findall("p"))
    sections = [section.get("id") or f"(untitled {n})" for n, section in enumerate(body.findall("sec"), start=1)]
    parts = ([f"{paragraphs} unsectioned paragraphs"] if paragraphs else []) + (["sections " + ",".join(sections)] if sections else [])
    return "; ".join(parts) or "empty body"


def main() -> None:
    files = sorted(FOLDER.glob("elife-*.xml"))
    roots = {path.name: parse(path) for path in files}
    dois = {name: (root.findtext(".//article-meta/article-id[@pub-id-type='doi']") or "").strip() for name, root in roots.items()}
    in_set = {doi.lower() for doi in dois.values()}
    rows, references, cited = [], 0, set()
    for name, root in roots.items():
        own = dois[name]
        cites: list[str] = []
        for element in root.findall(".//ref-list//ref//pub-id[@pub-id-type='doi']"):
            doi = (element.text or "").strip()
            if doi.lower() in in_set and doi.lower() != own.lower() and doi not in cites:
                cites.append(doi)
        cited.update(doi.lower() for doi in cites)
        refs = len(root.findall(".//ref-list//ref"))
        references += refs
        title = "".join(root.find(".//article-meta/title-group/article-title").itertext())
        year = root.findtext(".//article-meta/pub-date[@date-type='pub']/year") or root.findtext(".//article-meta/pub-date/year") or ""
        kind = root.findtext(".//subj-group[@subj-group-type='display-channel']/subject") or ""
        rows.append((name, own, " ".join(title.split()), year, kind, licence(root), refs, body_kept(root), " ".join(cites)))
    lines = ["\t".join(COLUMNS), *("\t".join(str(cell) for cell in row) for row in rows)]
    (FOLDER / "MANIFEST.tsv").write_text("\n".join(lines) + "\n", encoding="utf-8")
    citing = sum(1 for row in rows if row[-1])
    edges = sum(len(row[-1].split()) for row in rows)
    print(f"{len(rows)} articles, {references} references; {citing} cite another article of the set, "
          f"{len(cited)} are cited by one, {edges} citation edges inside the set (pub-id DOIs)")


if __name__ == "__main__":
    main()
