"""Every name the documentation gives exists: modules, files, commands, options and shipped queries.

The checker reads docs/*.md and README.md and looks at four kinds of name:
``claimgraph.x.y`` dotted names (a module, or a function or class inside one),
repository paths in backticks, code lines and links, ``claimgraph COMMAND
--option`` written in one backtick span or code line, and ``claimgraph query
NAME``. A doc that names something the code does not have fails the test with
the file, the line and the name.
"""

from __future__ import annotations

import argparse
import ast
import functools
import re
import shlex
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

from claimgraph.cli.main import COMMANDS, build_parser

REPO = Path(__file__).resolve().parents[1]
DOCS = [*sorted((REPO / "docs").glob("*.md")), REPO / "README.md"]
MIN_NAMES = 800
"""The floor of names checked over the shipped docs: a checker that stops finding names fails too."""

TOP_DIRS = ("sparql", "bench", "examples", "docs", "ontology", "shapes", "profiles", "prompts", "tests", "claimgraph", ".ci")
ENTRY_POINT_GROUPS = {"claimgraph.loaders", "claimgraph.embedders", "claimgraph.stores", "claimgraph.extractors", "claimgraph.llm_backends"}
"""Dotted names that are entry-point groups (pyproject.toml), not modules."""
NOT_MODULES = {"claimgraph.toml"}
"""Dotted names that are files a user writes (the settings file), not modules."""

DOTTED = re.compile(r"(?<![\w./:-])((?:claimgraph|bench)(?:\.[A-Za-z_]\w*)+)")
_TOP = "|".join(re.escape(d) for d in TOP_DIRS)
PATH = re.compile(rf"(?<![\w./-])((?:{_TOP})/[\w./*<>{{}},-]*)")
SUBPACKAGES = sorted(p.name for p in (REPO / "claimgraph").iterdir() if (p / "__init__.py").is_file())
_SUB = "|".join(SUBPACKAGES)
PACKAGE_PATH = re.compile(rf"(?<![\w./-])((?:{_SUB})/[\w./-]*\.(?:py|toml))\b")
"""A path inside the package written without its ``claimgraph/`` prefix, such as `quality/gate.py`."""
LINK = re.compile(r"\]\(([^)\s]+)\)")
SPAN = re.compile(r"`([^`\0]+)`")
PLACEHOLDER = re.compile(r"[<>]|\b[A-Z]{2,}\b|\.\.\.")
QUERY_NAME = re.compile(r"[a-z0-9][a-z0-9-]*")
"""A shipped query's name; a `.rq` path or SPARQL text in its place is the user's own query."""
SHELL_STOP = {"|", "||", "&&", ";", "#", ">", ">>", "2>&1", "&"}


@dataclass
class Report:
    """What a check found: how many names it looked at, and the ones that do not exist."""

    checked: int = 0
    missing: list[str] = field(default_factory=list)

    def check(self, ok: bool, where: str, what: str) -> None:
        self.checked += 1
        if not ok:
            self.missing.append(f"{where}: {what}")


# ------------------------------------------------------------------ python names


def _module_file(parts: list[str]) -> Path | None:
    base = REPO.joinpath(*parts)
    for candidate in (base.with_suffix(".py"), base / "__init__.py"):
        if candidate.is_file():
            return candidate
    return None


@functools.cache
def _names_in(path: Path) -> dict[str, set[str]]:
    """Top-level names of a module ("" key) and the attribute names of each of its classes."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    names: dict[str, set[str]] = {"": set()}
    body = list(tree.body)
    for node in body:
        if isinstance(node, (ast.If, ast.Try)):
            body.extend(node.body)
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            names[""].add(node.name)
        if isinstance(node, ast.ClassDef):
            names[node.name] = {
                str(getattr(item, "name", None) or getattr(getattr(item, "target", None), "id", ""))
                for item in node.body}
        elif isinstance(node, ast.Assign):
            names[""].update(t.id for t in node.targets if isinstance(t, ast.Name))
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            names[""].add(node.target.id)
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            names[""].update((a.asname or a.name).split(".")[0] for a in node.names)
    return names


def dotted_exists(name: str) -> bool:
    """A module, or a module followed by a name it defines (and at most one class attribute)."""
    parts = name.split(".")
    for cut in range(len(parts), 0, -1):
        path = _module_file(parts[:cut])
        if path is None:
            continue
        rest = parts[cut:]
        names = _names_in(path)
        if not rest:
            return True
        if len(rest) == 1:
            return rest[0] in names[""]
        return len(rest) == 2 and rest[1] in names.get(rest[0], set())
    return False


# ------------------------------------------------------------------ paths


def _expand(path: str) -> list[str]:
    """`a/{b,c}.py` -> `a/b.py`, `a/c.py`."""
    match = re.search(r"\{([^{}]*)\}", path)
    if not match:
        return [path]
    return [e for part in match.group(1).split(",") for e in _expand(path[:match.start()] + part + path[match.end():])]


def path_exists(path: str, base: Path = REPO) -> bool:
    path = path.rstrip(".,;:").split("#", 1)[0]
    for one in _expand(path):
        if "*" in one:
            if not any(base.glob(one)):
                return False
        elif not (base / one).exists():
            return False
    return True


# ------------------------------------------------------------------ commands


@functools.cache
def _parser() -> argparse.ArgumentParser:
    return build_parser()


def _options(parser: argparse.ArgumentParser) -> dict[str, bool]:
    """Option string -> whether it takes a value."""
    return {opt: action.nargs != 0 for action in parser._actions for opt in action.option_strings}


def _subparsers(parser: argparse.ArgumentParser) -> dict[str, argparse.ArgumentParser]:
    actions = [a for a in parser._actions if isinstance(a, argparse._SubParsersAction)]
    return dict(actions[0].choices) if actions else {}


def _command_options(command: str, words: list[str]) -> dict[str, bool]:
    """The options of a command, and of its subcommand when it has them and ``words`` name one."""
    parser = _subparsers(_parser())[command]
    options = _options(parser)
    positional = [w for w in words if not w.startswith("-")]
    sub = _subparsers(parser)
    if sub and positional and positional[0] in sub:
        options |= _options(sub[positional[0]])
    return options


def _skip_globals(tokens: list[str], at: int) -> int:
    """Index of the first token past the global options starting at ``at``."""
    globals_ = _options(_parser())
    while at < len(tokens) and tokens[at].startswith("-"):
        option = tokens[at].split("=", 1)[0]
        if option not in globals_:
            break
        at += 1 if "=" in tokens[at] or not globals_[option] else 2
    return at


def _tokens(text: str) -> list[str]:
    try:
        words = shlex.split(text, comments=False)
    except ValueError:
        words = text.split()
    out: list[str] = []
    for word in words:
        if word in SHELL_STOP or word.startswith("#"):
            break
        out.append(word.strip("[](),"))
    return out


def check_command_text(text: str, where: str, report: Report, span: bool) -> None:
    """`claimgraph [globals] COMMAND [--options]`, or in a backtick span `COMMAND --option`."""
    tokens = _tokens(text)
    starts = [i + 1 for i, t in enumerate(tokens) if t == "claimgraph"]
    if span and tokens and tokens[0] in COMMANDS and any(t.startswith("--") for t in tokens[1:]):
        starts.append(0)
    for start in starts:
        at = _skip_globals(tokens, start)
        if at >= len(tokens):
            continue
        if tokens[at].startswith("-"):
            report.check(tokens[at].split("=")[0] in _options(_parser()), where, f"global option {tokens[at]}")
        elif not PLACEHOLDER.search(tokens[at]):
            _check_command(tokens[at], tokens[at + 1:], where, report)


def _check_command(command: str, words: list[str], where: str, report: Report) -> None:
    """The command exists, the options after it are its own or global ones, and a query name is shipped."""
    report.check(command in COMMANDS, where, f"command `claimgraph {command}`")
    if command not in COMMANDS:
        return
    if "claimgraph" in words:
        words = words[:words.index("claimgraph")]
    allowed = _command_options(command, words) | _options(_parser())
    for word in words:
        if word.startswith("--") and len(word) > 2:
            report.check(word.split("=")[0] in allowed, where, f"option {word.split('=')[0]} of `claimgraph {command}`")
    if command == "query" and words and QUERY_NAME.fullmatch(words[0]):
        report.check((REPO / "sparql" / "queries" / f"{words[0]}.rq").is_file(), where, f"shipped query `{words[0]}`")


# ------------------------------------------------------------------ documents


def _code_and_spans(text: str) -> Iterator[tuple[int, str, bool]]:
    """(line number, text, is a backtick span) for each code line and each inline code span."""
    fenced = False
    held = ""
    prose: list[tuple[int, str]] = []
    for number, line in enumerate(text.splitlines(), 1):
        if line.lstrip().startswith("```"):
            fenced = not fenced
        elif fenced and line.rstrip().endswith("\\"):
            held += line.rstrip()[:-1] + " "
        elif fenced:
            yield number, held + line, False
            held = ""
        else:
            prose.append((number, line))
    yield from _spans(prose)


def _spans(prose: list[tuple[int, str]]) -> Iterator[tuple[int, str, bool]]:
    """Inline code spans of the prose lines, a span going on over a line break within a paragraph."""
    starts: list[int] = []
    joined = ""
    for _number, line in prose:
        starts.append(len(joined))
        joined += (line if line.strip() else "\0") + "\n"
    for match in SPAN.finditer(joined):
        line_index = max(i for i, start in enumerate(starts) if start <= match.start())
        yield prose[line_index][0], match.group(1).replace("\n", " "), True


def check_text(text: str, doc: Path, report: Report) -> None:
    """Check every name of one document's text."""
    name = doc.relative_to(REPO) if doc.is_relative_to(REPO) else doc
    for number, line in enumerate(text.splitlines(), 1):
        where = f"{name}:{number}"
        for match in DOTTED.finditer(line):
            dotted = match.group(1).rstrip(".")
            if dotted in ENTRY_POINT_GROUPS or dotted in NOT_MODULES:
                continue
            report.check(dotted_exists(dotted), where, f"python name `{dotted}`")
        for match in PATH.finditer(SPAN.sub(" ", line)):
            path = match.group(1)
            if not PLACEHOLDER.search(path) and "_assets" not in path:
                report.check(path_exists(path), where, f"path {path}")
        for match in LINK.finditer(line):
            target = match.group(1)
            if re.match(r"[a-z]+:", target) or target.startswith("#"):
                continue
            report.check(path_exists(target, doc.parent), where, f"link target {target}")
    for number, code, span in _code_and_spans(text):
        where = f"{name}:{number}"
        for match in PATH.finditer(code):
            path = match.group(1)
            if not PLACEHOLDER.search(path) and "_assets" not in path:
                report.check(path_exists(path), where, f"path {path}")
        for match in PACKAGE_PATH.finditer(code):
            report.check(path_exists("claimgraph/" + match.group(1)), where, f"package path {match.group(1)}")
        check_command_text(code, where, report, span)


def check_docs(docs: list[Path] = DOCS) -> Report:
    report = Report()
    for doc in docs:
        check_text(doc.read_text(encoding="utf-8"), doc, report)
    return report


def test_docs_name_only_what_exists() -> None:
    report = check_docs()
    print(f"{report.checked} names checked in {len(DOCS)} documents")
    assert not report.missing, "names in the docs that do not exist:\n" + "\n".join(report.missing)
    assert report.checked >= MIN_NAMES


def test_checker_finds_wrong_names(tmp_path: Path) -> None:
    doc = tmp_path / "wrong.md"
    text = "\n".join([
        "Binding is `claimgraph.rdf.sparql.bind` and `claimgraph.rdf.binding.no_such_function`.",
        "See `claimgraph/canonical/embeddings.py`, `bench/no_such_bench.py` and [a page](nowhere.md).",
        "In prose, docs/no-such-doc.md and the module `canonical/sentence_model.py`.",
        "Run `claimgraph --store s canonicalise` or `claimgraph ingest --no-such-option x`.",
        "```bash",
        "claimgraph --store s query no-such-query",
        "```",
        "Fine: `claimgraph.rdf.binding`, `sparql/queries/link-bases.rq`, `claimgraph --store s query link-bases`.",
    ])
    report = Report()
    check_text(text, doc, report)
    found = "\n".join(report.missing)
    for wrong in ("claimgraph.rdf.sparql.bind", "no_such_function", "canonical/embeddings.py", "bench/no_such_bench.py",
                  "nowhere.md", "docs/no-such-doc.md", "canonical/sentence_model.py", "canonicalise", "--no-such-option",
                  "no-such-query"):
        assert wrong in found
    assert len(report.missing) == 10
    assert report.checked == 16
