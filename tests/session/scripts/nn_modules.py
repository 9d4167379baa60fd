# Module constructors, reprs (torch 1.13's text), structure, attributes and identity.
manual_seed(0)  # expect: <torch._C.Generator at ...
Linear(2, 3)  # expect: Linear(in_features=2, out_features=3, bias=True)
Linear(2, 3, bias=False)  # expect: Linear(in_features=2, out_features=3, bias=False)
Embedding(27, 10)  # expect: Embedding(27, 10)
LayerNorm(16)  # expect: LayerNorm((16,), eps=1e-05, elementwise_affine=True)
LayerNorm((2, 3), eps=1e-6, elementwise_affine=False)  # expect: LayerNorm((2, 3), eps=1e-06, elementwise_affine=False)
Dropout()  # expect: Dropout(p=0.5, inplace=False)
Dropout(p=0.1)  # expect: Dropout(p=0.1, inplace=False)
ReLU()  # expect: ReLU()
LeakyReLU()  # expect: LeakyReLU(negative_slope=0.01)
LeakyReLU(0.2)  # expect: LeakyReLU(negative_slope=0.2)
Tanh()  # expect: Tanh()
Sigmoid()  # expect: Sigmoid()
GELU()  # expect: GELU(approximate='none')
GELU(approximate='tanh')  # expect: GELU(approximate='tanh')
SiLU()  # expect: SiLU()
Softmax(dim=1)  # expect: Softmax(dim=1)
Flatten()  # expect: Flatten(start_dim=1, end_dim=-1)
model = Sequential(Linear(2, 64), Tanh(), Linear(64, 3))
model
# expect: Sequential(
# expect:   (0): Linear(in_features=2, out_features=64, bias=True)
# expect:   (1): Tanh()
# expect:   (2): Linear(in_features=64, out_features=3, bias=True)
# expect: )
print(len(model), model[0].in_features, model[-1].out_features, model[1])
# expect: 3 2 3 Tanh()
print(model(zeros(5, 2)).shape)  # expect: torch.Size([5, 3])
print([num_params(c) for c in model.children()])  # expect: [192, 0, 195]
for layer in model:
    print(layer)
# expect: Linear(in_features=2, out_features=64, bias=True)
# expect: Tanh()
# expect: Linear(in_features=64, out_features=3, bias=True)
# parameters(): a generator of the same tensor objects every call, shared with the layers
ps = list(model.parameters())
print(len(ps), ps[0] is next(model.parameters()), ps[0] is model[0].weight, ps[3] is model[2].bias)
# expect: 4 True True True
for name, p in model.named_parameters():
    print(name, list(p.shape), p.requires_grad)
# expect: 0.weight [64, 2] True
# expect: 0.bias [64] True
# expect: 2.weight [3, 64] True
# expect: 2.bias [3] True
print(num_params(model), sum(p.numel() for p in model.parameters()), MLP([2, 64, 3]).num_params)  # expect: 387 387 387
# Containers keep the modules given to them.
l = Linear(4, 4)
s = Sequential(l, ReLU())
print(s[0] is l, s[0].weight is l.weight)  # expect: True True
# Assigning a parameter (a Parameter: a plain tensor is refused, below).
w = nn.Parameter(ones(3, 64))
model[2].weight = w
print(model[2].weight is w, model[2].weight.requires_grad, model(zeros(1, 2)).shape)
# expect: True True torch.Size([1, 3])
print(model[2].bias.shape, Linear(2, 3, bias=False).bias)  # expect: torch.Size([3]) None
# Configuration attributes, train/eval.
print(Embedding(5, 3).embedding_dim, LayerNorm(4).normalized_shape, Dropout(0.25).p)
# expect: 3 (4,) 0.25
print(model.training, model.eval().training, model[0].training, model.train().training)
# expect: True False False True
d = Dropout(0.5)
_ = d.eval()
print(d(ones(4)))  # expect: tensor([1., 1., 1., 1.])
# ModuleList and MLP.
layers = ModuleList([Linear(4, 4) for _ in range(3)])
print(len(layers), layers[1].out_features)  # expect: 3 4
_ = layers.append(Tanh())
print(len(layers))  # expect: 4
MLP([2, 16, 16, 3], act='relu')
# expect: Sequential(
# expect:   (0): Linear(in_features=2, out_features=16, bias=True)
# expect:   (1): ReLU()
# expect:   (2): Linear(in_features=16, out_features=16, bias=True)
# expect:   (3): ReLU()
# expect:   (4): Linear(in_features=16, out_features=3, bias=True)
# expect: )
print(MLP([2, 8, 3])[1])  # expect: Tanh()
blk = Block(16, 4)
print(blk(randn(2, 5, 16)).shape, blk.attn.n_head, [n for n, c in blk.named_children()])
# expect: torch.Size([2, 5, 16]) 4 ['ln1', 'attn', 'ln2', 'mlp']
CausalSelfAttention(8, 2)
# expect: CausalSelfAttention(
# expect:   (qkv): Linear(in_features=8, out_features=24, bias=True)
# expect:   (proj): Linear(in_features=8, out_features=8, bias=True)
# expect:   (drop): Dropout(p=0.0, inplace=False)
# expect: )
# zero_grad on the module: torch 1.13 zeroes the gradients; set_to_none=True drops them
model(randn(4, 2)).sum().backward()
print(model[0].weight.grad is None)  # expect: False
model.zero_grad()
print(model[0].weight.grad is None, model[0].weight.grad.abs().sum().item())  # expect: False 0.0
model.zero_grad(set_to_none=True)
print(model[0].weight.grad is None)  # expect: True
# Errors
Tanh()[0]  # expect error: TypeError: 'Tanh' object is not subscriptable
model[3]  # expect error: IndexError: index 3 is out of range
len(Linear(2, 2))  # expect error: TypeError: object of type 'Linear' has no len()
model[0].weight = ones(2, 2)  # expect error: TypeError: cannot assign 'torch.FloatTensor' as parameter 'weight' (torch.nn.Parameter or None expected)
model[0].weight = 3  # expect error: TypeError: cannot assign 'int' as parameter 'weight' (torch.nn.Parameter or None expected)
model.foo = 1  # a plain attribute, as on any Python object
print(model.foo, [n for n, _ in model.named_children()])  # expect: 1 ['0', '1', '2']
Sequential(Linear(2, 2), 3)  # expect error: TypeError: int is not a Module subclass
MLP([2, 3], act='swish')  # expect error: ValueError: MLP act must be one of
GELU(approximate='fast')(ones(2))  # expect error: RuntimeError: approximate argument must be either none or tanh.
Dropout(1.5)  # expect error: ValueError: dropout probability has to be between 0 and 1, but got 1.5
model('x')  # expect error: TypeError: linear(): argument 'input' (position 1) must be Tensor, not str
Linear(3, 2)(zeros(4, 5))  # expect error: RuntimeError
layers(zeros(1, 4))  # expect error: NotImplementedError: Module [ModuleList] is missing the required "forward" function
