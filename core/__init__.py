"""What every app shares and nothing app-specific: the request guards, error pages, rate limits
and task helpers. Imports nothing from tournaments or scoring."""
