from server.modelbuild.cli import main

raise SystemExit(main())
