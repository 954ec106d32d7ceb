from vigile.cli import entry

entry()
