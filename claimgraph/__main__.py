from claimgraph.cli.main import main

raise SystemExit(main())
