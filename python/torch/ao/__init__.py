"""torch.ao (architecture optimization: quantization, sparsity). nndb has
no quantized tensors; what is here are the float modules that torch.ao
re-exports (torch.ao.nn.quantized.MaxPool2d is torch.nn.MaxPool2d)."""
