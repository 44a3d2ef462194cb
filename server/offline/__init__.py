"""The built-in classifiers' offline exports, served to the PWA for provisional verdicts (docs/design.md, "A verdict even offline")."""
