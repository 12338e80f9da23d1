"""Quality: deterministic repair scripts, the gate, ShEx validation and semantic rules."""
