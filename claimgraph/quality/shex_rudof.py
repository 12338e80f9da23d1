"""Which focus nodes conform, decided by rudof (Rust, through pyrudof); pyshex stays the reference for reasons.

pyshex is pure Python and checks about a thousand nodes a second; rudof
checks the same shapes an order of magnitude faster. Validation asks rudof
which (node, shape) pairs conform and runs pyshex only on the pairs rudof
rejects, to word the reason and to have the final say, so a report is what
pyshex alone would give whenever the two agree on conforming nodes
(``tests/quality/test_shex_engines.py`` checks that they do on every focus
node of the ARCHE, synthetic and example corpora, and on broken graphs).

rudof's ShapeMap parser grows faster than linearly with the number of
entries, so the map names classes (``{FOCUS rdf:type <Class>}@<Shape>``), one
entry per class, not one per node. A rudof session keeps the verdicts of
earlier validations (a node it once found conforming stays so after the data
changes, and every report repeats all earlier nodes), so each graph gets a
fresh session, which loads the schema compiled once (a file shared by all
processes, see ``_compiled_schema``). Set
``CLAIMGRAPH_SHEX_ENGINE=pyshex`` to validate with pyshex alone.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import tempfile
from collections.abc import Iterable
from functools import cache
from pathlib import Path
from typing import Any

from pyoxigraph import Triple

from claimgraph.errors import require
from claimgraph.rdf.vocab import RDF
from claimgraph.store import ntriples

ENGINE_ENV = "CLAIMGRAPH_SHEX_ENGINE"

Pair = tuple[str, str]  # focus IRI, shape IRI


def rudof_available() -> bool:
    """Whether validation may use rudof: pyrudof imports and the environment does not ask for pyshex.

    ``CLAIMGRAPH_SHEX_ENGINE=rudof`` insists on rudof: without pyrudof installed that is an error naming
    the extra to install; ``auto`` (the default) uses it when it is there.
    """
    engine = os.environ.get(ENGINE_ENV, "auto").strip().lower()
    if engine == "pyshex":
        return False
    if engine == "rudof":
        require("pyrudof", "rudof", f"{ENGINE_ENV}=rudof")
        return True
    try:
        import pyrudof  # noqa: F401
    except ImportError:
        return False
    return True


@cache
def _compiled_schema(shex_texts: tuple[str, ...]) -> str:
    """The schema compiled by rudof, in a temporary file named by the schema's and rudof's hash.

    One file per schema and rudof version, shared by every process: a process
    that finds it reads it; one that does not writes it under a name of its
    own and renames it into place, so no reader sees half a file and nothing
    is left behind by workers that exit without running ``atexit``.
    """
    import pyrudof

    digest = hashlib.sha256("\n".join((_rudof_version(), *shex_texts)).encode("utf-8")).hexdigest()[:24]
    path = Path(tempfile.gettempdir()) / f"claimgraph-shex-{digest}.bin"
    if path.is_file():
        return str(path)
    session = pyrudof.Rudof(pyrudof.RudofConfig())
    session.read_shex("\n".join(shex_texts), reader_mode=pyrudof.ReaderMode.Strict)
    handle, partial = tempfile.mkstemp(prefix=f"{path.stem}-", suffix=".partial", dir=path.parent)
    os.close(handle)
    try:
        session.compile_shex_to_file(partial)
        os.replace(partial, path)
    finally:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(partial)
    return str(path)


def _rudof_version() -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("pyrudof")
    except PackageNotFoundError:
        return "unknown"


def _session(shex_texts: tuple[str, ...]) -> Any:
    """A fresh rudof session holding the profile's schema."""
    import pyrudof

    session = pyrudof.Rudof(pyrudof.RudofConfig())
    session.read_shex_precompiled(_compiled_schema(shex_texts))
    return session


def conforming_pairs(triples: list[Triple], shex_texts: tuple[str, ...], shape_of_class: dict[str, str],
                     classes: Iterable[str], text: str | None = None) -> dict[Pair, bool]:
    """(focus, shape) -> conforms, for every IRI typed with one of ``classes`` (blank nodes are left out).

    ``text`` is the graph already written as N-Triples, if at hand.
    """
    import pyrudof

    wanted = sorted(set(classes))
    if not wanted:
        return {}
    session = _session(shex_texts)
    session.read_data(text if text is not None else ntriples(triples), format=pyrudof.RDFFormat.NTriples, reader_mode=pyrudof.ReaderMode.Strict)
    session.read_shapemap(",\n".join(f"{{FOCUS <{RDF.type.value}> <{cls}>}}@<{shape_of_class[cls]}>" for cls in wanted))
    report = session.validate_shex()
    return {(str(entry.node), str(entry.shape)): str(entry.status).lower() == "conformant"
            for entry in report if not str(entry.node).startswith("_:")}
