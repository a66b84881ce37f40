from chatbot.cli import main

raise SystemExit(main())
