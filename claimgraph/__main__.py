from claimgraph.cli import main

raise SystemExit(main())
