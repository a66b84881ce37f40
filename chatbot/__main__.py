"""``python -m chatbot``: the command line (:func:`chatbot.cli.main`)."""

try:
    from chatbot.cli import main
except KeyboardInterrupt:  # Ctrl-C while the app's modules load: the shell's status for it, never a traceback
    raise SystemExit(130) from None

raise SystemExit(main())
