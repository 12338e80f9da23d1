"""The common Document type every loader produces."""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True, slots=True)
class Sentence:
    """One sentence; ``index`` is 1-based and stable across re-loads of the same file."""

    index: int
    text: str
    passage_index: int


@dataclass
class Passage:
    """A section or paragraph: the unit the extraction phases work on."""

    index: int
    heading: str
    sentences: list[Sentence] = field(default_factory=list)

    @property
    def text(self) -> str:
        return " ".join(sentence.text for sentence in self.sentences)


@dataclass(frozen=True, slots=True)
class Viewpoint:
    """An atomic claim given by the input (ARCHE), with its (x, y, z) source tuple.

    x is the sentence index, y the reference number (0: the sentence's own claim),
    z the viewpoint number within that sentence or reference.
    """

    text: str
    sentence_index: int
    reference_index: int
    viewpoint_index: int

    @property
    def source(self) -> tuple[int, int, int]:
        return (self.sentence_index, self.reference_index, self.viewpoint_index)


@dataclass(frozen=True, slots=True)
class Bibliographic:
    """What a reference list says about a cited work; '' where it says nothing.

    ``doi``, ``pmid`` and ``pmcid`` are normalized (see
    ``claimgraph.loaders.formats.identifiers``); ``year`` is four digits;
    ``first_author`` is the first author's family name (or a group name).
    """

    doi: str = ""
    pmid: str = ""
    pmcid: str = ""
    title: str = ""
    year: str = ""
    first_author: str = ""
    journal: str = ""


@dataclass
class Reference:
    """A cited work; cited by zero or more sentences, one node whatever the count."""

    number: int
    cited_by: list[int] = field(default_factory=list)
    label: str = ""
    work: Bibliographic = field(default_factory=Bibliographic)


@dataclass
class Document:
    paper_id: str
    source: str
    format: str
    title: str = ""
    metadata: dict[str, str] = field(default_factory=dict)
    year: str = ""
    first_author: str = ""
    passages: list[Passage] = field(default_factory=list)
    references: dict[int, Reference] = field(default_factory=dict)
    viewpoints: list[Viewpoint] = field(default_factory=list)

    @property
    def sentences(self) -> list[Sentence]:
        return [sentence for passage in self.passages for sentence in passage.sentences]

    def sentence(self, index: int) -> Sentence:
        for sentence in self.sentences:
            if sentence.index == index:
                return sentence
        raise KeyError(f"{self.paper_id} has no sentence {index}")
