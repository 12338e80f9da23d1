"""Source tuples resolved to a paper's anchors, and the tuple reading chosen per response."""

from __future__ import annotations

from pyoxigraph import NamedNode

from claimgraph.reasoning.anchors import SECOND_SLOT, STANDARD, AnchorTable, choose_reading, resolve, status_counts

P = "https://claimgraph.example/paper/p1/"


def table() -> AnchorTable:
    anchors = AnchorTable()
    for x in (1, 2, 3):
        anchors.sentences[x] = NamedNode(f"{P}sentence/{x}")
    for key in [(1, 0, 1), (1, 0, 2), (2, 0, 1), (2, 4, 1), (3, 0, 3)]:
        anchors.viewpoints[key] = NamedNode(f"{P}viewpoint/{key[0]}-{key[1]}-{key[2]}")
    anchors.citations[(2, 4)] = NamedNode(f"{P}reference/4")
    anchors.kinds.update({anchor: "sentence" for anchor in anchors.sentences.values()})
    anchors.kinds.update({anchor: "viewpoint" for anchor in anchors.viewpoints.values()})
    anchors.kinds[anchors.citations[(2, 4)]] = "reference"
    return anchors


def test_each_tuple_resolves_to_what_it_names_or_falls_back_or_stays_unresolved() -> None:
    anchors = table()
    assert resolve(anchors, (1, 0, 2)) == resolve(anchors, (1, 0, 2), STANDARD)
    assert resolve(anchors, (1, 0, 2)).status == "resolved" and resolve(anchors, (1, 0, 2)).anchor.value.endswith("viewpoint/1-0-2")
    assert resolve(anchors, (2, 0, 0)).anchor == anchors.sentences[2] and resolve(anchors, (2, 0, 0)).status == "resolved"
    assert resolve(anchors, (2, 4, 0)).anchor == anchors.citations[(2, 4)]
    assert (resolve(anchors, (1, 0, 9)).status, resolve(anchors, (1, 0, 9)).anchor) == ("fallen_back", anchors.sentences[1])
    assert (resolve(anchors, (9, 0, 1)).status, resolve(anchors, (9, 0, 1)).anchor) == ("unresolved", None)
    assert resolve(anchors, (0, 0, 0)).status == "implicit"


def test_viewpoint_numbers_in_the_second_slot_are_read_so_only_when_that_reading_names_more() -> None:
    anchors = table()
    assert choose_reading(anchors, [(1, 2, 0), (3, 3, 0), (2, 0, 1)]) == SECOND_SLOT
    assert resolve(anchors, (3, 3, 0), SECOND_SLOT).source == (3, 0, 3)
    assert resolve(anchors, (3, 3, 0), SECOND_SLOT).status == "resolved"
    assert choose_reading(anchors, [(2, 4, 0)]) == STANDARD  # sentence 2 cites reference 4
    assert choose_reading(anchors, [(1, 0, 1)]) == STANDARD
    counts = status_counts([resolve(anchors, source) for source in [(1, 0, 1), (1, 0, 9), (9, 0, 1), (0, 0, 0)]])
    assert dict(counts) == {"resolved": 1, "fallen_back": 1, "unresolved": 1, "implicit": 1}
