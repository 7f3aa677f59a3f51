"""Model adapters behind small protocols (see models.base)."""
