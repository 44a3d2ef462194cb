from server.cli.modelbuild import main

raise SystemExit(main())
