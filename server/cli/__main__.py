"""`python -m server.cli ...` is `dynabench ...`."""

from server.cli.main import main

raise SystemExit(main())
