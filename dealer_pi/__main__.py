from dealer_pi.cli import main

raise SystemExit(main())
