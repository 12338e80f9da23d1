"""Cross-model consensus: several runs of one paper (one per model or run) kept as run graphs,
their nodes aligned, and a consensus graph saying how many runs support each node and edge."""
