from __future__ import annotations

import pytest

from claimgraph.loaders import load_document
from claimgraph.loaders.formats.markdown import strip_markdown


@pytest.mark.parametrize(
    ("markdown", "text"),
    [
        ("We used **mass** spectrometry and *two* `tools`.", "We used mass spectrometry and two tools."),
        ("See [the code](http://x) and ![a plot](p.png).", "See the code and a plot."),
        ("Keep snake_case_names and 2 * 3 * 4 as written.", "Keep snake_case_names and 2 * 3 * 4 as written."),
        ("An _emphasised_ and a __strong__ word.", "An emphasised and a strong word."),
        ("- first item.\n2) second item.\n> quoted line.", "first item.\nsecond item.\nquoted line."),
        ("Unclosed *star and _underscore and [bracket stay.", "Unclosed *star and _underscore and [bracket stay."),
    ],
)
def test_inline_syntax_is_stripped_to_its_text(markdown: str, text: str) -> None:
    assert strip_markdown(markdown) == text


def test_headings_lose_only_a_closing_hash_run_after_a_space(write) -> None:
    document = load_document(write("hashes.md", "# Using C#\n\nFirst here.\n\n## Methods ##\n\nSecond here.\n"))
    assert document.title == "Using C#"
    assert [passage.heading for passage in document.passages] == ["Using C#", "Methods"]


def test_code_fences_end_a_paragraph_and_their_content_is_left_out(write) -> None:
    document = load_document(write("fence.md", "Before the fence.\n```\nNot. A. Sentence.\n```\nAfter the fence.\n"))
    assert [passage.text for passage in document.passages] == ["Before the fence.", "After the fence."]


def test_crlf_line_ends_and_blank_lines_of_spaces_separate_paragraphs(write) -> None:
    document = load_document(write("crlf.md", "# Title\r\n\r\nOne here.\r\nStill one.\r\n  \r\nTwo here.\r\n"))
    assert [passage.text for passage in document.passages] == ["One here. Still one.", "Two here."]
