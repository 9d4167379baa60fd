"""torch.ao.nn: see torch.ao."""
