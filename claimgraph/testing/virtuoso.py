"""Start and stop a throw-away Virtuoso open source server (Debian package ``virtuoso-opensource``).

The second SPARQL engine the remote-store tests run against: a database in a
temporary folder, HTTP and SQL ports on the loopback interface, SPARQL UPDATE
granted to the anonymous ``SPARQL`` user of that instance only (it never
listens beyond 127.0.0.1). Endpoints: ``URL/sparql`` for queries and updates,
``URL/sparql-graph-crud`` for Graph Store reads.
"""

from __future__ import annotations

import shutil
import subprocess
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from claimgraph.errors import StoreError
from claimgraph.testing.oxigraph import free_port, stop

SKIP_REASON = "Virtuoso is not installed (Debian: apt-get install -y virtuoso-opensource; .ci/run installs it)"

_INI = """[Database]
DatabaseFile = {folder}/virtuoso.db
ErrorLogFile = {folder}/virtuoso.log
LockFile = {folder}/virtuoso.lck
TransactionFile = {folder}/virtuoso.trx
xa_persistent_file = {folder}/virtuoso.pxa
ErrorLogLevel = 7
FileExtend = 200
Striping = 0
TempStorage = TempDatabase

[TempDatabase]
DatabaseFile = {folder}/virtuoso-temp.db
TransactionFile = {folder}/virtuoso-temp.trx

[Parameters]
ServerPort = 127.0.0.1:{sql_port}
DisableUnixSocket = 1
CheckpointInterval = 60
CaseMode = 2
DirsAllowed = ., {folder}
NumberOfBuffers = 20000
MaxDirtyBuffers = 12000
MaxQueryMem = 512M
ThreadsPerQuery = 2

[HTTPServer]
ServerPort = 127.0.0.1:{http_port}
ServerRoot = {folder}/vsp
ServerThreads = 10
MaxKeepAlives = 10
KeepAliveTimeout = 10
Charset = UTF-8

[SPARQL]
ResultSetMaxRows = 1000000
MaxQueryExecutionTime = 120
DefaultQuery = select distinct ?Concept where {{[] a ?Concept}} LIMIT 1
"""


@dataclass(frozen=True)
class VirtuosoServer:
    url: str
    sql_port: int

    @property
    def query_url(self) -> str:
        return f"{self.url}/sparql"

    @property
    def gsp_url(self) -> str:
        return f"{self.url}/sparql-graph-crud"


def virtuoso_binary() -> str | None:
    return shutil.which("virtuoso-t")


def _isql(sql_port: int, statement: str) -> None:
    isql = shutil.which("isql-vt") or shutil.which("isql")
    if isql is None:
        raise StoreError("isql-vt (part of virtuoso-opensource) is not installed")
    result = subprocess.run([isql, str(sql_port), "dba", "dba", f"exec={statement}"], capture_output=True, text=True, timeout=60, check=False)
    if result.returncode != 0 or "Error" in result.stdout:
        raise StoreError(f"isql {statement!r} failed: {(result.stdout + result.stderr).strip()[:300]}")


def _answers(url: str) -> bool:
    try:
        with urllib.request.urlopen(f"{url}/sparql?query=ASK%7B%7D", timeout=2) as response:
            return response.status == 200
    except (urllib.error.URLError, OSError):
        return False


@contextmanager
def running_virtuoso(folder: Path, startup_seconds: float = 120.0) -> Iterator[VirtuosoServer]:
    """Run virtuoso-t in the foreground on a new database under ``folder``; yields its URLs, stops it on exit."""
    binary = virtuoso_binary()
    if binary is None:
        raise StoreError(SKIP_REASON)
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "vsp").mkdir(exist_ok=True)
    sql_port, http_port = free_port(), free_port()
    ini = folder / "virtuoso.ini"
    ini.write_text(_INI.format(folder=folder, sql_port=sql_port, http_port=http_port), encoding="utf-8")
    process = subprocess.Popen([binary, "+configfile", str(ini), "+foreground"], cwd=folder,
                               stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    url = f"http://127.0.0.1:{http_port}"
    try:
        deadline = time.monotonic() + startup_seconds
        while not _answers(url):
            if process.poll() is not None:
                message = process.stderr.read().decode("utf-8", "replace").strip() if process.stderr else ""
                raise StoreError(f"virtuoso-t exited with code {process.returncode}: {message[-300:]}")
            if time.monotonic() > deadline:
                raise StoreError(f"virtuoso-t did not answer on {url} within {startup_seconds:.0f} s")
            time.sleep(0.2)
        _isql(sql_port, 'GRANT SPARQL_UPDATE TO "SPARQL";')
        _isql(sql_port, "DB.DBA.RDF_DEFAULT_USER_PERMS_SET ('nobody', 7);")
        yield VirtuosoServer(url, sql_port)
    finally:
        stop(process)
