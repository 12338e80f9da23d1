from __future__ import annotations

import pytest

from claimgraph.errors import LoaderError
from claimgraph.loaders import load_document
from claimgraph.loaders.sentences import split_sentences


def test_sentence_splitter_keeps_abbreviations_and_decimals() -> None:
    text = "Smith et al. found a 2.5-fold rise (Fig. 2). It was large, e.g. in mice. Was it real? Yes!"
    assert split_sentences(text) == [
        "Smith et al. found a 2.5-fold rise (Fig. 2).",
        "It was large, e.g. in mice.",
        "Was it real?",
        "Yes!",
    ]


def test_markdown_sections_become_passages_with_paper_wide_sentence_indices(write) -> None:
    path = write("My Paper.md", "# A study of drift\n\nIntro one. Intro two.\n\n## Methods\n\nWe used **mass** spectrometry. See [the code](http://x).\n\n```\ncode. Not a sentence.\n```\n\nSecond paragraph here.\n")
    document = load_document(path)
    assert document.paper_id == "my-paper"
    assert document.title == "A study of drift"
    assert [p.heading for p in document.passages] == ["A study of drift", "Methods", "Methods"]
    assert [(s.index, s.passage_index, s.text) for s in document.sentences] == [
        (1, 1, "Intro one."),
        (2, 1, "Intro two."),
        (3, 2, "We used mass spectrometry."),
        (4, 2, "See the code."),
        (5, 3, "Second paragraph here."),
    ]


def test_plain_text_paragraphs_become_passages_and_short_first_line_the_title(write) -> None:
    document = load_document(write("note.txt", "Ocean ripples\n\nRipples form fast. They decay.\n\nSurfactants damp them.\n"))
    assert document.title == "Ocean ripples"
    assert [len(p.sentences) for p in document.passages] == [2, 1]
    assert document.sentence(3).text == "Surfactants damp them."


def test_text_without_sentences_is_refused(write) -> None:
    with pytest.raises(LoaderError, match="no sentences found"):
        load_document(write("blank.md", "# Only a heading\n"))


def test_a_long_word_ending_like_an_abbreviation_still_ends_its_sentence() -> None:
    word = "x" * 40 + "al."
    assert split_sentences(f"It was {word} Next one.") == [f"It was {word}", "Next one."]


def test_sentences_keep_their_characters_and_only_collapse_whitespace() -> None:
    text = "  Zero\u200bwidth\tand\u00a0spaces.\n\nRight\u202eto left.  "
    assert split_sentences(text) == ["Zero\u200bwidth and spaces.", "Right\u202eto left."]


def test_a_short_first_paragraph_ending_in_a_period_is_not_a_title(write) -> None:
    document = load_document(write("no-title.txt", "It starts right away.\n\nAnd goes on.\n"))
    assert document.title == ""
    assert [s.text for s in document.sentences] == ["It starts right away.", "And goes on."]
