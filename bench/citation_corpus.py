"""Benchmark: the citation graph of a folder of real JATS articles (default: the eLife set in tests/data/elife).

Reads every article twice: with the JATS loader, and with plain XPath over the
file (the reference of truth here, independent of the loader's element walk).
Then ingests the folder into a fresh embedded store without LLM extraction and
measures, from the store:

- articles loaded / articles (a failure is printed with its reason);
- references read / ``<ref>`` elements in the XML;
- references whose XML gives a DOI (a ``pub-id`` of type doi, else a doi.org
  link) read with that DOI (case-insensitive, prefix-stripped);
- paper-to-paper citation links stored / links the XML's DOIs imply inside the
  folder, and the papers that cite another stored paper but are not linked to it;
- papers linked to another paper, by link kind (``claimgraph stats`` rows);
- ingest seconds per paper (load + store + citation links + repair and gate;
  no extraction, no canonicalization, no validation);
- the wall time of each shipped citation query (median of 5 runs).

    python bench/citation_corpus.py [FOLDER] [--json OUT]
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path

from lxml import etree

import claimgraph
from claimgraph.errors import ClaimgraphError
from claimgraph.loaders import load_document
from claimgraph.loaders.formats.identifiers import normalized_doi
from claimgraph.rdf.queries import read_named_query

REPO = Path(__file__).resolve().parents[1]
XLINK = "http://www.w3.org/1999/xlink"
QUERIES = ("citing-papers", "bibliographic-coupling", "co-citation", "citing-sentences", "cited-claims")


def xml_truth(path: Path) -> tuple[str, list[str]]:
    """The article's own DOI and, per ``<ref>`` in order, the DOI its XML gives ('' when none), lower case.

    A doi.org link counts only when what follows is a DOI (``10.``): some source links are broken."""
    tree = etree.parse(str(path), etree.XMLParser(resolve_entities=False, no_network=True, load_dtd=False))
    own = tree.xpath("string(/article/front/article-meta/article-id[@pub-id-type='doi'])").strip().lower()
    dois = []
    for ref in tree.xpath("/article/back/ref-list//ref"):
        ids = ref.xpath(".//pub-id[@pub-id-type='doi']/text()")
        links = [link for link in ref.xpath(".//ext-link/@xl:href", namespaces={"xl": XLINK}) if "doi.org/10." in link]
        doi = ids[0] if ids else links[0].split("doi.org/", 1)[1] if links else ""
        dois.append(doi.strip().lower())
    return own, dois


def reading(files: list[Path]) -> dict:
    """Loader against XPath, article by article."""
    loaded, failures, refs_xml, refs_read, with_doi, doi_right = 0, [], 0, 0, 0, 0
    for path in files:
        own, dois = xml_truth(path)
        refs_xml += len(dois)
        try:
            document = load_document(path)
        except ClaimgraphError as error:
            failures.append(f"{path.name}: {error}")
            continue
        loaded += 1
        refs_read += len(document.references)
        for number, doi in enumerate(dois, start=1):
            if doi:
                with_doi += 1
                read = document.references.get(number)
                doi_right += read is not None and (normalized_doi(read.work.doi) or "").lower() == (normalized_doi(doi) or doi)
    return {"articles": len(files), "loaded": loaded, "failures": failures, "references in the XML": refs_xml,
            "references read": refs_read, "references with a DOI in the XML": with_doi, "read with that DOI": doi_right}


def expected_links(files: list[Path]) -> set[tuple[str, str]]:
    """(citing file stem, cited file stem) for every article whose XML names the DOI of another article of the folder."""
    truth = {path.stem: xml_truth(path) for path in files}
    owner = {own: stem for stem, (own, _) in truth.items() if own}
    return {(stem, owner[doi]) for stem, (own, dois) in truth.items() for doi in dois if doi in owner and owner[doi] != stem}


def timed_query(graph: claimgraph.ClaimGraph, name: str, runs: int = 5) -> tuple[float, int]:
    """Median seconds of a shipped query over ``runs`` runs, and its row count."""
    seconds, rows = [], 0
    for _ in range(runs):
        started = time.perf_counter()
        rows = len(graph.select(read_named_query(name)))
        seconds.append(time.perf_counter() - started)
    return statistics.median(seconds), rows


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("folder", nargs="?", type=Path, default=REPO / "tests" / "data" / "elife")
    parser.add_argument("--json", type=Path, metavar="OUT", help="write the figures as JSON")
    args = parser.parse_args(argv)
    files = sorted(args.folder.glob("*.xml"))
    if not files:
        print(f"no .xml articles in {args.folder}", file=sys.stderr)
        return 2
    figures = reading(files)
    expected = expected_links(files)
    with tempfile.TemporaryDirectory() as scratch, claimgraph.open(Path(scratch) / "store") as graph:
        started = time.perf_counter()
        result = graph.ingest(files, extract=False, canonicalize=False, validate=False)
        ingest_seconds = time.perf_counter() - started
        stored = {(row["citing"].value.rsplit("/", 1)[-1], row["cited"].value.rsplit("/", 1)[-1])
                  for row in graph.select(read_named_query("citing-papers"))}
        stats = dict(graph.stats())
        queries = {name: timed_query(graph, name) for name in QUERIES}
    citing = {citing for citing, _ in expected}
    unlinked = sorted(citing - {citing for citing, cited in stored if (citing, cited) in expected})
    figures |= {
        "papers ingested": len(result.papers), "ingest seconds per paper": round(ingest_seconds / max(len(result.papers), 1), 3),
        "citation links the XML implies": len(expected), "citation links stored": len(stored),
        "implied links stored": len(expected & stored), "links stored the XML does not imply": sorted(stored - expected),
        "papers citing another of the folder": len(citing), "of those, not linked to all they cite": unlinked,
        "papers linked to another": {key: value for key, value in stats.items() if key.startswith("papers linked")},
        "query seconds (median of 5) and rows": {name: [round(seconds, 3), rows] for name, (seconds, rows) in queries.items()},
    }
    for key, value in figures.items():
        print(f"{key}: {value}")
    if args.json:
        args.json.write_text(json.dumps(figures, indent=1) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
