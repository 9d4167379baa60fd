"""torch.testing (being written)."""
