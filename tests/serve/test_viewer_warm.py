"""A server started to warm the viewer answers the first hub search from its cache."""

from __future__ import annotations

import json
import urllib.request
from pathlib import Path

from claimgraph.serve.server import ServeOptions, running_server


def test_a_warmed_server_has_the_hub_list_before_the_first_search(demo_store: Path, monkeypatch) -> None:
    computed: list[str] = []
    from claimgraph.serve.viewer import api

    original = api.all_hubs

    def counting(ctx):  # the hub list is computed once: by the warm-up, not by the search
        computed.append("hubs")
        return original(ctx)

    monkeypatch.setattr(api, "all_hubs", counting)
    with running_server(demo_store, ServeOptions(port=0, warm_viewer=True, log_requests=False, workers=1)) as server:
        assert server.service.warmed.wait(timeout=600), "the warm-up never finished"
        assert computed == ["hubs"]
        with urllib.request.urlopen(f"{server.base_url}/viewer/api/hubs?q=a") as answer:
            assert answer.status == 200 and "hubs" in json.loads(answer.read())
        assert computed == ["hubs"]
