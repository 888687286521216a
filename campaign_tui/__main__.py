from campaign_tui.cli import main

raise SystemExit(main())
