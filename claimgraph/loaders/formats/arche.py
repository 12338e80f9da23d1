"""ARCHE benchmark JSON: one paper's introduction with sentence and reference viewpoints.

Format: ``file_info.base_id`` names the article; ``introduction.sentences[]`` holds
``idx`` (1-based), ``sentence``, ``viewpoints[]`` and ``references`` mapping a
reference number to ``{viewpoint number: text}`` (or an empty list).

Strict where the format is loose: ``idx`` is a JSON integer (``true`` is not 1),
reference and viewpoint keys are plain ASCII numbers without leading zeros
(``"²"`` and ``"٣"`` are not numbers here), every number is at most MAX_INDEX,
a sentence ``idx`` appears once, and every text is kept exactly as written.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from claimgraph.errors import LoaderError
from claimgraph.loaders.document import Document, Passage, Reference, Sentence, Viewpoint
from claimgraph.loaders.document_checks import check_text
from claimgraph.loaders.json_input import parse_json
from claimgraph.loaders.limits import MAX_INDEX, MAX_JSON_BYTES, MAX_SENTENCES, MAX_VIEWPOINTS, limit_error
from claimgraph.loaders.paper_ids import paper_id_from_text
from claimgraph.loaders.text_input import read_text

_NUMBER_KEY = re.compile(rf"[1-9][0-9]{{0,{len(str(MAX_INDEX)) - 1}}}")
_METADATA_KEYS = ("unique_id", "base_id", "assigned_category", "published_time")


def looks_like_arche(data: Any) -> bool:
    return isinstance(data, dict) and "introduction" in data and "file_info" in data


def load_arche(path: Path) -> Document:
    data = parse_json(path, read_text(path, MAX_JSON_BYTES, "MAX_JSON_BYTES"))
    if not looks_like_arche(data):
        raise LoaderError(path, "JSON is not an ARCHE paper (needs 'file_info' and 'introduction')")
    return arche_document(data, path)


def _require(condition: bool, path: Path, problem: str) -> None:
    if not condition:
        raise LoaderError(path, problem)


def _text(path: Path, where: str, value: Any, *, optional: bool = False, non_empty: bool = False) -> str:
    """A text field, kept exactly as written: a JSON string (absent is "" when ``optional``), storable, within limits."""
    if value is None and optional:
        return ""
    if not isinstance(value, str) or (non_empty and not value.strip()):
        raise LoaderError(path, f"{where} must be {'non-empty ' if non_empty else ''}text")
    check_text(path, where, value)
    return value


def _number(path: Path, where: str, value: Any) -> int:
    """A sentence index: a JSON integer from 1 to MAX_INDEX (a boolean is not one)."""
    _require(type(value) is int and 1 <= value <= MAX_INDEX, path, f"{where} must be a positive integer (at most {MAX_INDEX:,})")
    return value


def _number_key(path: Path, where: str, key: str) -> int:
    """A reference or viewpoint key: ASCII digits, no leading zero, at most MAX_INDEX."""
    _require(_NUMBER_KEY.fullmatch(key) is not None, path, f"{where} key {key!r} must be a reference number (ASCII digits 1 to {MAX_INDEX:,})")
    return int(key)


def arche_document(data: dict[str, Any], path: Path) -> Document:
    info, intro = data["file_info"], data["introduction"]
    _require(isinstance(info, dict) and isinstance(intro, dict), path, "'file_info' and 'introduction' must be objects")
    raw_id = info.get("base_id") or info.get("unique_id") or path.stem
    sentences_data = intro.get("sentences")
    _require(isinstance(sentences_data, list) and len(sentences_data) > 0, path, "introduction.sentences must be a non-empty list")
    if len(sentences_data) > MAX_SENTENCES:
        raise limit_error(path, f"introduction.sentences has {len(sentences_data):,} sentences", "MAX_SENTENCES")
    document = Document(
        paper_id=paper_id_from_text(_text(path, "file_info.base_id", raw_id, non_empty=True)),
        source=str(path),
        format="arche",
        title=_text(path, "file_info.title", info.get("title"), optional=True),
        metadata={key: _text(path, f"file_info.{key}", info[key]) for key in _METADATA_KEYS if info.get(key)},
    )
    passage = Passage(index=1, heading=_text(path, "introduction.section", intro.get("section"), optional=True) or "Introduction")
    document.passages.append(passage)
    seen: set[int] = set()
    for position, item in enumerate(sentences_data):
        where = f"introduction.sentences[{position}]"
        _require(isinstance(item, dict), path, f"{where} must be an object")
        index = _number(path, f"{where}.idx", item.get("idx"))
        _require(index not in seen, path, f"{where}.idx {index} appears twice")
        seen.add(index)
        text = _text(path, f"{where}.sentence", item.get("sentence"), non_empty=True)
        passage.sentences.append(Sentence(index=index, text=text, passage_index=passage.index))
        _add_viewpoints(document, item, index, path, where)
    return document


def _add_viewpoint(document: Document, path: Path, viewpoint: Viewpoint) -> None:
    if len(document.viewpoints) >= MAX_VIEWPOINTS:
        raise limit_error(path, f"has more than {MAX_VIEWPOINTS:,} viewpoints", "MAX_VIEWPOINTS")
    document.viewpoints.append(viewpoint)


def _add_viewpoints(document: Document, item: dict[str, Any], index: int, path: Path, where: str) -> None:
    own = item.get("viewpoints", [])
    _require(isinstance(own, list), path, f"{where}.viewpoints must be a list of strings")
    for number, text in enumerate(own, start=1):
        _add_viewpoint(document, path, Viewpoint(_text(path, f"{where}.viewpoints[{number - 1}]", text), index, 0, number))
    references = item.get("references", {})
    _require(isinstance(references, dict), path, f"{where}.references must be an object")
    for key, cited in references.items():
        number = _number_key(path, f"{where}.references", key)
        reference = document.references.setdefault(number, Reference(number=number))
        if index not in reference.cited_by:
            reference.cited_by.append(index)
        if isinstance(cited, list):
            _require(len(cited) == 0, path, f"{where}.references[{key}] must be an object or an empty list")
            continue
        _require(isinstance(cited, dict), path, f"{where}.references[{key}] must be an object")
        for vp_key, text in cited.items():
            vp_where = f"{where}.references[{key}]"
            viewpoint = Viewpoint(_text(path, f"{vp_where}[{vp_key!r}]", text), index, number, _number_key(path, vp_where, vp_key))
            _add_viewpoint(document, path, viewpoint)
