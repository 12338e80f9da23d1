"""The import rules and size bounds of docs/architecture.md hold for the code."""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
PACKAGE = REPO / "claimgraph"
ARCHITECTURE = REPO / "docs" / "architecture.md"
MAX_MODULES = 12
MAX_LINES = 420


def allowed_imports() -> dict[str, set[str]]:
    """The table "package | may import" of docs/architecture.md."""
    table: dict[str, set[str]] = {}
    section = ARCHITECTURE.read_text(encoding="utf-8").split("## Import rules", 1)[1]
    for line in section.splitlines():
        match = re.match(r"^\| `([\w_]+)` \|(.*)\|\s*$", line)
        if match:
            table[match.group(1)] = set(re.findall(r"`([\w_]+)`", match.group(2)))
    return table


def top_package(path: Path) -> str:
    return path.relative_to(PACKAGE).parts[0].removesuffix(".py")


def _type_checking_lines(tree: ast.AST) -> set[int]:
    """Line numbers of the statements under ``if TYPE_CHECKING:``."""
    lines: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and getattr(node.test, "id", None) == "TYPE_CHECKING":
            for child in node.body:
                lines.update(range(child.lineno, (child.end_lineno or child.lineno) + 1))
    return lines


def claimgraph_imports(path: Path) -> Iterator[tuple[int, str]]:
    """(line, imported module) for every claimgraph import of a file, type-only ones left out."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    typing_only = _type_checking_lines(tree)
    for node in ast.walk(tree):
        if node.lineno in typing_only if hasattr(node, "lineno") else False:
            continue
        if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("claimgraph."):
            yield node.lineno, node.module
        elif isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.startswith("claimgraph."):
                    yield node.lineno, alias.name


def modules() -> list[Path]:
    return sorted(path for path in PACKAGE.rglob("*.py") if "_assets" not in path.parts)


def test_the_table_names_every_package() -> None:
    table = allowed_imports()
    packages = {top_package(path) for path in modules()} - {"__init__"}
    assert packages - set(table) == set(), "add these packages to the import table in docs/architecture.md"


def test_every_import_follows_the_rules_of_docs_architecture() -> None:
    table = allowed_imports()
    broken = []
    for path in modules():
        importer = top_package(path)
        if importer == "__init__":
            continue
        for line, module in claimgraph_imports(path):
            imported = module.split(".")[1]
            if imported != importer and imported not in table.get(importer, set()):
                broken.append(f"{path.relative_to(REPO)}:{line} imports {module} ({importer} may not import {imported})")
    assert broken == []


def test_nothing_outside_testing_imports_the_test_doubles() -> None:
    offenders = [
        f"{path.relative_to(REPO)}:{line}"
        for path in modules() if top_package(path) != "testing"
        for line, module in claimgraph_imports(path) if module.startswith("claimgraph.testing")
    ]
    assert offenders == []


def test_folders_and_modules_stay_small() -> None:
    folders: dict[Path, int] = {}
    for path in modules():
        if path.name != "__init__.py":
            folders[path.parent] = folders.get(path.parent, 0) + 1
    crowded = {str(folder.relative_to(REPO)): count for folder, count in folders.items() if count > MAX_MODULES}
    long = {str(path.relative_to(REPO)): lines for path in modules() if (lines := len(path.read_text(encoding="utf-8").splitlines())) > MAX_LINES}
    assert (crowded, long) == ({}, {})


def test_the_size_table_of_docs_architecture_matches_the_tree() -> None:
    import subprocess
    import sys

    check = subprocess.run([sys.executable, "-m", "cogapp", "--check", str(ARCHITECTURE)], capture_output=True, text=True, cwd=REPO)
    assert check.returncode == 0, "docs/architecture.md is out of date: run `python -m cogapp -r docs/architecture.md`\n" + check.stdout + check.stderr


# Where a claimgraph module may be imported inside a function, and why: everywhere else imports sit at the top of
# the module, so an import circle cannot hide behind a deferred import. Heavy third-party libraries (faiss, torch,
# pyshex, rdflib, openai, onnxruntime, pypdf, lxml, z3, http.client) are imported where they are used, which keeps
# `import claimgraph` and the command line fast; that is what the deferred imports are for.
DEFERRED_CLAIMGRAPH_IMPORTS = {
    "claimgraph/__init__.py": "claimgraph.open and ClaimGraph load the API on first use, so `import claimgraph.x` stays light",
    "claimgraph/store/__init__.py": "the remote backend (and with it http.client, ssl, socket) loads on first use",
    "claimgraph/cli/": "the command line loads what a command needs when it runs, so --help and each command load only that",
    "claimgraph/loaders/formats/__init__.py": "each format's parser loads when a file of that format is read",
    "claimgraph/llm/backends.py": "the capped HTTP transport (httpx, http.client) loads with the OpenAI client, not with claimgraph.llm",
    "claimgraph/testing/": "test tools, never imported by the package",
}


def deferred_imports(path: Path) -> Iterator[tuple[int, str]]:
    """(line, module) of the claimgraph imports inside functions of a file, type-only ones left out."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    typing_only = _type_checking_lines(tree)
    for function in ast.walk(tree):
        if not isinstance(function, (ast.FunctionDef, ast.AsyncFunctionDef)):
            continue
        for node in ast.walk(function):
            if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("claimgraph") and node.lineno not in typing_only:
                yield node.lineno, node.module


def test_claimgraph_modules_are_imported_at_the_top_except_where_deferring_is_the_point() -> None:
    found = []
    for path in modules():
        relative = path.relative_to(REPO).as_posix()
        if any(relative == place or (place.endswith("/") and relative.startswith(place)) for place in DEFERRED_CLAIMGRAPH_IMPORTS):
            continue
        found += [f"{relative}:{line} imports {module} inside a function" for line, module in deferred_imports(path)]
    assert found == [], "import these at the top of the module (or add the place, with the reason, to DEFERRED_CLAIMGRAPH_IMPORTS)"
