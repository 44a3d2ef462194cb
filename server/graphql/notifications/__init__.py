"""Notifications in GraphQL: the inbox, its live feed and the email preferences."""
