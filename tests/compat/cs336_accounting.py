# CS336-style accounting: parameters, bytes, FLOPs of a small model.
import torch
import torch.nn as nn

class Block(nn.Module):
    def __init__(self, d_model, d_ff):
        super().__init__()
        self.ln = nn.LayerNorm(d_model)
        self.up = nn.Linear(d_model, d_ff)
        self.down = nn.Linear(d_ff, d_model)

    def forward(self, x):
        return x + self.down(torch.relu(self.up(self.ln(x))))

class Model(nn.Module):
    def __init__(self, vocab, d_model, d_ff, n_layers):
        super().__init__()
        self.emb = nn.Embedding(vocab, d_model)
        self.blocks = nn.ModuleList([Block(d_model, d_ff) for _ in range(n_layers)])
        self.head = nn.Linear(d_model, vocab, bias=False)

    def forward(self, idx):
        x = self.emb(idx)
        for blk in self.blocks:
            x = blk(x)
        return self.head(x)

model = Model(vocab=100, d_model=16, d_ff=64, n_layers=3)
num_params = sum(p.numel() for p in model.parameters())
print("parameters:", num_params)
for name, p in model.named_parameters():
    if name.startswith("blocks.0"):
        print(f"{name:24s} {str(tuple(p.shape)):12s} {p.numel():6d}")
bytes_fp32 = num_params * 4
print(f"fp32 weights: {bytes_fp32} bytes = {bytes_fp32 / 1024:.1f} KiB")
print(f"with Adam state: {bytes_fp32 * 4 / 1024:.1f} KiB")
B, T = 8, 32
x = torch.zeros(B, T, dtype=torch.long)
logits = model(x)
print(logits.shape, logits.numel())
flops = 0
for name, m in model.named_modules():
    if isinstance(m, nn.Linear):
        flops += 2 * B * T * m.in_features * m.out_features
print(f"forward matmul FLOPs: {flops:,}")
print(f"training step ~ {3 * flops / 1e6:.2f} MFLOPs")
