"""The offline demo: synthetic papers, hand-written model replies, and their recordings.

``examples/demo/responses.json`` holds the replies; examples/demo/record.py
serves them from the fake OpenAI-compatible server once (the script is
``claimgraph.testing.demo_script``) and keeps what the client received as
``examples/demo/recordings`` (a response cache directory), which
``claimgraph demo`` replays without any network.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Any

from claimgraph.assets import asset_path
from claimgraph.llm.config import LLMConfig

DEMO_MODEL = "claimgraph-demo-recorded"
DEMO_DIR = asset_path("examples", "demo")
DEMO_PAPERS = ("soil-warming.md", "soil-moisture.md", "synthetic-arche-ripples.json")


def demo_papers() -> list[Path]:
    return [asset_path("examples", "papers", name) for name in DEMO_PAPERS]


def demo_config(**overrides: Any) -> LLMConfig:
    """Settings the recordings were made with; by default replaying them, sending nothing."""
    base = LLMConfig(model=DEMO_MODEL, cache_dir=None, replay_dir=DEMO_DIR / "recordings", max_retries=0)
    return replace(base, **overrides)
