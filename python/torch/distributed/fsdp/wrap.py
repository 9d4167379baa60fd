"""Auto-wrap policies, as torch.distributed.fsdp.wrap in 1.13: a policy is
called as policy(module=, recurse=, unwrapped_params=) and says whether to
descend into [module] (recurse=True) or to wrap it in its own
FullyShardedDataParallel unit (recurse=False)."""


def always_wrap_policy(*args, **kwargs):
    """Wrap every submodule in its own unit."""
    return True


def lambda_auto_wrap_policy(module, recurse, unwrapped_params, lambda_fn):
    """Wrap the modules for which lambda_fn(module) is True."""
    if recurse:
        return True
    return lambda_fn(module)


def transformer_auto_wrap_policy(module, recurse, unwrapped_params, transformer_layer_cls):
    """Wrap every module that is an instance of one of transformer_layer_cls."""
    if recurse:
        return True
    return isinstance(module, tuple(transformer_layer_cls))


def size_based_auto_wrap_policy(module, recurse, unwrapped_params, min_num_params=int(1e8),
                                force_leaf_modules=None, exclude_wrap_modules=None):
    """Wrap a module once it holds at least min_num_params parameters not yet
    wrapped."""
    force_leaf_modules = tuple(force_leaf_modules or ())
    if recurse:
        return not isinstance(module, force_leaf_modules)
    return unwrapped_params >= min_num_params and not isinstance(
        module, tuple(exclude_wrap_modules or ()))


__all__ = ["always_wrap_policy", "lambda_auto_wrap_policy", "transformer_auto_wrap_policy",
           "size_based_auto_wrap_policy"]
