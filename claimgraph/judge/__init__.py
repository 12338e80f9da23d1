"""Judge-feedback repair: k LLM judges vote on reasoning units, rejected units are repaired locally and judged again."""
