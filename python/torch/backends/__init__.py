"""torch.backends: which accelerator back ends exist (none besides the CPU)."""

import types

mps = types.SimpleNamespace(is_available=lambda: False, is_built=lambda: False)
cudnn = types.SimpleNamespace(deterministic=False, benchmark=False, enabled=False,
                              is_available=lambda: False)
