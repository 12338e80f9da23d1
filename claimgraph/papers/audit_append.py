"""Appending activities to an audit graph (``record``) in one update that also picks their numbers.

Reading the last ``cg:sequence`` and then writing the next one in a second
request lets two writers of one paper take the same number. Here the number
is computed inside the update that writes the activities (a sub-select over
the audit graph), so a number is read and written in one request, applied by
the server as one transaction.

The update is derived from ``activity_triples``: the activities are rendered
with a placeholder number, then every term that depends on the number (the
activity IRI, IRIs under it, the ``cg:sequence`` value) becomes an expression
of the number computed in the update, and every other term is written as the
RDF library writes it in N-Triples (as INSERT DATA is), not bound with VALUES:
a record of ten activities would need hundreds of variables, which overflow
Virtuoso's stack. Whatever ``activity_triples`` writes is written here the
same way. Only the WHERE part, which is claimgraph's own text, has its
fragments expanded and its variables replaced: the INSERT template holds the
activities' literals (notes, file names, findings quoting a response), and a
``{{...}}`` or ``?audit`` inside one of them is data. The audit graph is
written as a constant there, never by VALUES: Virtuoso 7 cannot compile
(SQ156) a VALUES-bound graph that a sub-select and a BIND both use.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import cast

from pyoxigraph import BlankNode, Literal, NamedNode

from claimgraph.errors import ClaimgraphError
from claimgraph.papers.audit import Activity, activity_iri, activity_triples
from claimgraph.rdf.binding import Term, bind_constants
from claimgraph.rdf.iris import IriScheme
from claimgraph.rdf.queries import expand_fragments, read_internal_query
from claimgraph.rdf.vocab import CG
from claimgraph.store import Store
from claimgraph.store.lease import lease

PLACEHOLDER = 0
"""The number the activities are rendered with before their real number is computed (real numbers start at 1)."""


def append_update(iris: IriScheme, paper_id: str, activities: Sequence[Activity]) -> str:
    """A bound SPARQL UPDATE appending ``activities`` to the paper's audit graph, numbered after its last activity."""
    audit = iris.audit_graph(paper_id)
    bindings: dict[str, Term] = {"audit": audit}
    template: list[str] = []
    binds: list[str] = []

    def variable(term: Term) -> str:
        """The term in N-Triples form, escaped by pyoxigraph (a constant of the template)."""
        if isinstance(term, BlankNode):
            raise ClaimgraphError("an audit activity holds a blank node, which an appending update cannot write; use an IRI")
        return str(term)

    for offset, activity in enumerate(activities):
        node = activity_iri(audit, PLACEHOLDER, activity)
        number, iri = f"?n{offset}", f"?a{offset}"
        digest = Literal(node.value.rsplit("-", 1)[1])
        binds.append(f"BIND(?last + {offset + 1} AS {number})")
        binds.append(f"BIND({{{{activity_iri(?audit, {number}, {variable(digest)})}}}} AS {iri})")
        derived: dict[str, str] = {node.value: iri}

        def position(term: Term, predicate: Term | None = None, offset: int = offset,
                     derived: dict[str, str] = derived, node: NamedNode = node, iri: str = iri) -> str:
            if isinstance(term, NamedNode) and term.value.startswith(node.value):
                if term.value not in derived:
                    name = f"?d{offset}_{len(derived)}"
                    suffix = Literal(term.value[len(node.value):])
                    binds.append(f"BIND(IRI(CONCAT(STR({iri}), {variable(suffix)})) AS {name})")
                    derived[term.value] = name
                return derived[term.value]
            if predicate == CG.sequence and isinstance(term, Literal):
                return f"?n{offset}"
            return variable(term)

        for triple in activity_triples(iris, paper_id, PLACEHOLDER, activity):
            subject, predicate, obj = cast(Term, triple.subject), cast(Term, triple.predicate), cast(Term, triple.object)
            template.append(f"{position(subject)} {position(predicate)} {position(obj, predicate)} .")
    last = read_internal_query("audit-last-sequence")
    where = bind_constants(expand_fragments(f"WHERE {{\n{{ {last} }}\n" + "\n".join(binds) + "\n}"), bindings)
    return "INSERT { GRAPH " + variable(audit) + " {\n" + "\n".join(template) + "\n} }\n" + where


def record(store: Store, iris: IriScheme, paper_id: str, activities: Sequence[Activity]) -> None:
    """Append activities to the paper's audit graph, in order, in one update that also picks their numbers.

    The next number is computed inside that update (``audit_append``), under a
    lease on the audit graph (``claimgraph.store.lease``): a server that does
    not isolate concurrent updates could otherwise give two writers one number.
    """
    if activities:
        with lease(store, iris.audit_graph(paper_id)):
            store.update(append_update(iris, paper_id, activities))
