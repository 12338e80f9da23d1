"""Reading SPARQL 1.1 Protocol requests: the query or update text and the dataset parameters.

Query: ``GET ?query=...``, ``POST`` form-encoded (``query=...``) or ``POST``
``application/sparql-query`` (the body is the query; dataset parameters stay
in the URL). Update: ``POST`` form-encoded (``update=...``) or
``application/sparql-update``. A missing or repeated ``query``/``update`` is
400; another request body type is 415, and so is a body declared in a charset
other than UTF-8 (the protocol's only encoding). Unknown parameters are
ignored, as clients add their own (``format``, ``output``).
"""

from __future__ import annotations

import urllib.parse
from collections.abc import Mapping
from dataclasses import dataclass, field

from claimgraph.serve.evaluate import Answer, QueryRequest
from claimgraph.serve.formats import QUERY_MEDIA_TYPES, UPDATE_MEDIA_TYPES
from claimgraph.serve.negotiation import charset_of, media_type_of

FORM = "application/x-www-form-urlencoded"
UTF8_NAMES = frozenset({"utf-8", "utf8"})


@dataclass
class Request:
    """One HTTP request as the routes see it."""

    method: str
    path: str
    params: dict[str, list[str]] = field(default_factory=dict)
    headers: Mapping[str, str] = field(default_factory=dict)
    body: bytes = b""

    def header(self, name: str) -> str | None:
        return self.headers.get(name)


class ProtocolError(Exception):
    """A request the protocol refuses; carries the answer to send."""

    def __init__(self, answer: Answer) -> None:
        super().__init__(answer.body.decode("utf-8", "replace"))
        self.answer = answer


def refuse(status: int, message: str, headers: dict[str, str] | None = None) -> ProtocolError:
    return ProtocolError(Answer.error(status, message, headers))


def decoded_body(request: Request) -> str:
    charset = charset_of(request.header("Content-Type"))
    if charset not in UTF8_NAMES:
        raise refuse(415, f"the request body is declared as charset={charset}; SPARQL requests must be UTF-8")
    try:
        return request.body.decode("utf-8")
    except (LookupError, UnicodeDecodeError) as error:
        raise refuse(400, f"the request body is not valid {charset}: {error}") from error


def form_params(request: Request) -> dict[str, list[str]]:
    """The URL parameters plus those of a form-encoded body."""
    params = {name: list(values) for name, values in request.params.items()}
    try:
        body = urllib.parse.parse_qs(decoded_body(request), keep_blank_values=True, strict_parsing=False, errors="strict")
    except UnicodeDecodeError as error:
        raise refuse(400, f"the form body is not valid UTF-8: {error}") from error
    for name, values in body.items():
        params.setdefault(name, []).extend(values)
    return params


def single(params: Mapping[str, list[str]], name: str) -> str:
    values = params.get(name, [])
    if not values:
        raise refuse(400, f"missing the {name!r} parameter")
    if len(values) > 1:
        raise refuse(400, f"the {name!r} parameter is given {len(values)} times; give it once")
    return values[0]


def unsupported_type(request: Request, accepted: tuple[str, ...]) -> ProtocolError:
    given = media_type_of(request.header("Content-Type")) or "(none)"
    return refuse(415, f"unsupported request Content-Type {given}; send one of {', '.join(accepted)}")


def query_request(request: Request) -> QueryRequest:
    """The query of a GET or POST to the query endpoint."""
    if request.method in ("GET", "HEAD"):
        params = request.params
        sparql = single(params, "query")
    else:
        media_type = media_type_of(request.header("Content-Type"))
        if media_type == FORM:
            params = form_params(request)
            if "update" in params:
                raise refuse(400, "this is the query endpoint; send updates to /update")
            sparql = single(params, "query")
        elif media_type == "application/sparql-query":
            params = request.params
            sparql = decoded_body(request)
        else:
            raise unsupported_type(request, QUERY_MEDIA_TYPES)
    if not sparql.strip():
        raise refuse(400, "the query is empty")
    return QueryRequest(sparql, request.header("Accept"), tuple(params.get("default-graph-uri", [])), tuple(params.get("named-graph-uri", [])))


def update_text(request: Request) -> str:
    """The update of a POST to the update endpoint."""
    media_type = media_type_of(request.header("Content-Type"))
    if media_type == FORM:
        params = form_params(request)
        text = single(params, "update")
    elif media_type == "application/sparql-update":
        params = request.params
        text = decoded_body(request)
    else:
        raise unsupported_type(request, UPDATE_MEDIA_TYPES)
    if params.get("using-graph-uri") or params.get("using-named-graph-uri"):
        raise refuse(400, "using-graph-uri and using-named-graph-uri are not supported; write USING / WITH in the update")
    if not text.strip():
        raise refuse(400, "the update is empty")
    return text
