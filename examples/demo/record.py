"""Re-record the demo's LLM responses (run after changing a prompt template or the demo paper).

Serves examples/demo/responses.json from the fake OpenAI-compatible server,
ingests the demo paper through it with a fresh cache, and keeps that cache as
examples/demo/recordings, which `claimgraph demo` replays offline.

    python examples/demo/record.py
"""

from __future__ import annotations

import shutil
import tempfile
from pathlib import Path

from claimgraph.context import Context
from claimgraph.demo import DEMO_DIR, demo_config, demo_papers
from claimgraph.store import EmbeddedStore
from claimgraph.testing.demo_script import demo_rules
from claimgraph.testing.fake_llm import running_fake_llm
from claimgraph.workflow import IngestOptions, Workflow


def main() -> None:
    recordings = DEMO_DIR / "recordings"
    with tempfile.TemporaryDirectory() as folder, running_fake_llm(demo_rules()) as server:
        cache = Path(folder) / "recordings"
        config = demo_config(base_url=server.base_url, cache_dir=cache, replay_dir=None)
        result = Workflow(Context(EmbeddedStore())).ingest(demo_papers(), IngestOptions(llm=config, canonicalize=False, validate=False))
        failures = [f for report in result.extractions for f in report.failed_calls] + [f.message for f in result.failures]
        if failures:
            raise SystemExit("recording failed:\n" + "\n".join(failures))
        shutil.rmtree(recordings, ignore_errors=True)
        shutil.copytree(cache, recordings)
    print(f"recorded {len(list(recordings.glob('**/*.json')))} responses into {recordings}")


if __name__ == "__main__":
    main()
