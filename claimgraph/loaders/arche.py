"""ARCHE benchmark JSON: one paper's introduction with sentence and reference viewpoints.

Format: ``file_info.base_id`` names the article; ``introduction.sentences[]`` holds
``idx`` (1-based), ``sentence``, ``viewpoints[]`` and ``references`` mapping a
reference number to ``{viewpoint number: text}`` (or an empty list).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from claimgraph.errors import LoaderError
from claimgraph.rdf.iris import slugify
from claimgraph.loaders.document import Document, Passage, Reference, Sentence, Viewpoint
from claimgraph.loaders.text_input import read_text


def looks_like_arche(data: Any) -> bool:
    return isinstance(data, dict) and "introduction" in data and "file_info" in data


def load_arche(path: Path) -> Document:
    try:
        data = json.loads(read_text(path))
    except json.JSONDecodeError as error:
        raise LoaderError(path, f"not valid JSON (line {error.lineno}, column {error.colno}: {error.msg})") from error
    if not looks_like_arche(data):
        raise LoaderError(path, "JSON is not an ARCHE paper (needs 'file_info' and 'introduction')")
    return arche_document(data, path)


def _require(condition: bool, path: Path, problem: str) -> None:
    if not condition:
        raise LoaderError(path, problem)


def arche_document(data: dict[str, Any], path: Path) -> Document:
    info = data["file_info"]
    intro = data["introduction"]
    _require(isinstance(info, dict) and isinstance(intro, dict), path, "'file_info' and 'introduction' must be objects")
    raw_id = info.get("base_id") or info.get("unique_id") or path.stem
    _require(isinstance(raw_id, str) and raw_id.strip() != "", path, "file_info.base_id must be a non-empty string")
    sentences_data = intro.get("sentences")
    _require(isinstance(sentences_data, list) and len(sentences_data) > 0, path, "introduction.sentences must be a non-empty list")

    document = Document(
        paper_id=slugify(raw_id),
        source=str(path),
        format="arche",
        title=str(info.get("title") or ""),
        metadata={
            key: str(info[key])
            for key in ("unique_id", "base_id", "assigned_category", "published_time")
            if info.get(key)
        },
    )
    passage = Passage(index=1, heading=str(intro.get("section") or "Introduction"))
    document.passages.append(passage)
    seen: set[int] = set()
    for position, item in enumerate(sentences_data, start=1):
        where = f"introduction.sentences[{position - 1}]"
        _require(isinstance(item, dict), path, f"{where} must be an object")
        index = item.get("idx")
        _require(isinstance(index, int) and index >= 1, path, f"{where}.idx must be a positive integer")
        _require(index not in seen, path, f"{where}.idx {index} appears twice")
        seen.add(index)
        text = item.get("sentence")
        _require(isinstance(text, str) and text.strip() != "", path, f"{where}.sentence must be non-empty text")
        passage.sentences.append(Sentence(index=index, text=text, passage_index=passage.index))
        _add_viewpoints(document, item, index, path, where)
    return document


def _add_viewpoints(document: Document, item: dict[str, Any], index: int, path: Path, where: str) -> None:
    own = item.get("viewpoints", [])
    _require(isinstance(own, list) and all(isinstance(text, str) for text in own), path, f"{where}.viewpoints must be a list of strings")
    for number, text in enumerate(own, start=1):
        document.viewpoints.append(Viewpoint(text, index, 0, number))
    references = item.get("references", {})
    _require(isinstance(references, dict), path, f"{where}.references must be an object")
    for key, cited in references.items():
        _require(str(key).isdigit() and int(key) >= 1, path, f"{where}.references key {key!r} must be a reference number")
        number = int(key)
        reference = document.references.setdefault(number, Reference(number=number))
        if index not in reference.cited_by:
            reference.cited_by.append(index)
        if isinstance(cited, list):
            _require(len(cited) == 0, path, f"{where}.references[{key}] must be an object or an empty list")
            continue
        _require(isinstance(cited, dict), path, f"{where}.references[{key}] must be an object")
        for vp_key, text in cited.items():
            _require(str(vp_key).isdigit() and isinstance(text, str), path, f"{where}.references[{key}][{vp_key!r}] must map a number to text")
            document.viewpoints.append(Viewpoint(text, index, number, int(vp_key)))
