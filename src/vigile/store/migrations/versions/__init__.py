"""The revisions, oldest first: 0001 encounters and records, 0002 tokens, 0003 checkpoints."""
