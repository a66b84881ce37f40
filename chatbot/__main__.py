from chatbot.cli import main; raise SystemExit(main())  # noqa: E702, I001
