"""The revisions, oldest first: 0001 encounters and records, 0002 tokens, 0003 checkpoints,
0004 settings (the digest of the server's token), 0005 each encounter's status."""
