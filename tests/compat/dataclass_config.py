from dataclasses import dataclass
@dataclass
class GPTConfig:
    block_size: int = 1024
    vocab_size: int = 50304
    n_layer: int = 12
    bias: bool = True
c = GPTConfig(block_size=8, n_layer=2)
print(c, c.vocab_size, c == GPTConfig(8, n_layer=2), c == GPTConfig())
@dataclass
class P:
    x: float
    y: float = 0.0
print(P(1.5), P(1, 2))
