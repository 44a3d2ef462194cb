"""Every `dynabench` command."""
