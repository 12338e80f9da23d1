"""Demo: cross-model consensus on three scripted runs of one paper.

A generated ARCHE-format paper (claimgraph.testing.synthetic, nothing from the
real corpus) is ingested with the peirce profile. Three scripted "models" answer
with DOT reasoning graphs over its viewpoints:

- model-a: a deduction (rule + case -> conclusion) and an abduction;
- model-b: the same deduction with the conclusion reworded and the rule taken
  from another viewpoint, no abduction, and a negated conclusion of its own;
- model-c: the deduction's rule only, and model-a's abduction.

Each response goes through the real materializer, repair and gate
(``Workflow.store_reasoning``); the paper graph is kept as a run graph after each
(``Workflow.consensus(snapshot=...)``); then the runs are aligned and the consensus
graph written with ``--min-runs 2``. Prints the consensus table and the shipped
agreement and disagreement queries.

    HF_HUB_OFFLINE=1 python bench/consensus_demo.py [--embedder minilm] [--min-runs 2]
"""

from __future__ import annotations

import argparse
import tempfile
from pathlib import Path

from claimgraph.consensus.runs import snapshot_run
from claimgraph.context import Context
from claimgraph.loaders import load_document
from claimgraph.profile.manifest import load_profile
from claimgraph.rdf.queries import read_named_query
from claimgraph.store import EmbeddedStore
from claimgraph.testing.synthetic.arche import write_corpus
from claimgraph.workflow import IngestOptions, Workflow


def label(viewpoint) -> str:
    text = viewpoint.text.replace("\\", "\\\\").replace('"', '\\"')
    return f"({viewpoint.sentence_index},{viewpoint.reference_index},{viewpoint.viewpoint_index}) {text}"


def responses(viewpoints: list) -> dict[str, str]:
    """Three DOT answers over the paper's first viewpoints."""
    v = [label(vp) for vp in viewpoints[:6]]
    conclusion = "(0,0,0) The studied treatment therefore changes the measured outcome."
    reworded = "(0,0,0) Therefore the treatment studied changes the outcome that was measured."
    negated = "(0,0,0) The studied treatment does not change the measured outcome."
    explanation = "(0,0,0) A shared mechanism explains the observed pattern."
    return {
        "model-a": f'''digraph G {{
  r [label="{v[0]}"]; c [label="{v[1]}"]; k [label="{conclusion}"];
  p [label="{v[2]}"]; q [label="{v[3]}"]; h [label="{explanation}"];
  r -> k [label="deduction-rule"]; c -> k [label="deduction-case"];
  p -> h [label="abduction-phenomenon"]; q -> h [label="abduction-knowledge"];
}}''',
        "model-b": f'''digraph G {{
  n1 [label="{v[0]}"]; n2 [label="{v[4]}"]; n3 [label="{reworded}"]; n4 [label="{negated}"];
  n1 -> n3 [label="deduction-rule"]; n2 -> n3 [label="deduction-case"]; n2 -> n4 [label="deduction-case"];
}}''',
        "model-c": f'''digraph G {{
  a [label="{v[0]}"]; b [label="{conclusion}"];
  d [label="{v[2]}"]; e [label="{v[3]}"]; f [label="{explanation}"];
  a -> b [label="deduction-rule"];
  d -> f [label="abduction-phenomenon"]; e -> f [label="abduction-knowledge"];
}}''',
    }


def show(rows: list, columns: list[str]) -> None:
    for row in rows:
        print("  " + " | ".join(row[c].value if c in row else "" for c in columns))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--embedder", default="minilm")
    parser.add_argument("--min-runs", type=int, default=2)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        paths = write_corpus(Path(folder) / "corpus", papers=2)
        document = load_document(paths[0])
        with EmbeddedStore(Path(folder) / "store") as store:
            workflow = Workflow(Context(store, profile=load_profile("peirce")))
            workflow.ingest([paths[0]], IngestOptions(canonicalize=False, validate=False))
            for name, response in responses(document.viewpoints).items():
                result = workflow.store_reasoning(document.paper_id, response, f"{name}.dot")
                verdict = "accepted" if result.repair.gate and result.repair.gate.accepted else "residual"
                print(f"{name}: {result.materialized.nodes} nodes, {result.materialized.edges} edges, gate {verdict}")
                snapshot_run(workflow.ctx, document.paper_id, name)
            result = workflow.consensus(document.paper_id, embedder=args.embedder, min_runs=args.min_runs)
            print()
            for measure, value in result.rows():
                print(f"  {measure:<34} {value}")
            print("\nconsensus-nodes (where the runs agree):")
            show(store.select(read_named_query("consensus-nodes"), {"consensus": result.graph}),
                 ["support", "runs", "kept", "statedBy", "text"])
            print("\nconsensus-disagreements (stated by some runs only; missing from):")
            show(store.select(read_named_query("consensus-disagreements"), {"consensus": result.graph}),
                 ["kind", "support", "missingFrom", "text", "predicate", "objectText"])


if __name__ == "__main__":
    main()
