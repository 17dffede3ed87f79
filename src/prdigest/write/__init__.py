"""Writers turn a digest context into prose: `deterministic` (always works) and the LLM one."""
