"""Per-ruleset sense: how the built-in styles (aggressive, cautious) play each ruleset."""
