"""`Round.offlineModel`: the round's target as the PWA can run it offline (server/offline)."""
