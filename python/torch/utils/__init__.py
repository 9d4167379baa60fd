"""torch.utils."""
