# Bad input to the generators is an error with a message; the session goes on.
random.choice([])  # expect error: IndexError: Cannot choose from an empty sequence
random.randrange(0)  # expect error: ValueError: empty range for randrange()
random.randint(5, 1)  # expect error: ValueError: empty range for randrange() (5, 2, -3)
random.randrange(0, 10, 0)  # expect error: ValueError: zero step for randrange()
random.sample([1, 2], 3)  # expect error: ValueError: Sample larger than population or is negative
random.choices('ab', weights=[1], k=2)  # expect error: ValueError: The number of weights does not match the population
random.choices('ab', weights=[0, 0])  # expect error: ValueError: Total of weights must be greater than zero
random.shuffle((1, 2))  # expect error: TypeError: 'tuple' object does not support item assignment
random.seed([1])  # expect error: TypeError: The only supported seed types are: None,
print(0 <= random.getrandbits(200) < 2**200)  # expect: True
random.getrandbits(-1)  # expect error: ValueError: number of bits must be non-negative
random.setstate((2, (), None))  # expect error: ValueError: state vector is the wrong size
randn(3, generator=5)  # expect error: TypeError: randn() received an invalid combination of arguments - got (int, generator=int)
zeros(3, generator=Generator())  # expect error: TypeError: zeros() received an invalid combination of arguments - got (int, generator=torch._C.Generator)
Generator().set_state(zeros(3))  # expect error: TypeError: RNG state must be a torch.ByteTensor
Generator().set_state(zeros(3, dtype=uint8))  # expect error: RuntimeError: Expected either a CPUGeneratorImplStateLegacy of size 5048 or a CPUGeneratorImplState of size 5056 but found the input RNG state size to be 3
s = get_rng_state()
s[8] = 0
s[9] = 0
set_rng_state(s)  # expect error: RuntimeError: Invalid mt19937 state
multinomial(tensor([0.5, -0.1]), 1)  # expect error: RuntimeError: probability tensor contains either `inf`, `nan` or element < 0
multinomial(tensor([0.5, 0.5]), 3)  # expect error: RuntimeError: cannot sample n_sample > prob_dist.size(-1) samples without replacement
randperm(-1)  # expect error: RuntimeError: Trying to create tensor with negative dimension -1: [-1]
bernoulli(tensor([2.0]))  # expect error: RuntimeError: Expected p_in >= 0 && p_in <= 1 to be true, but got false.
empty(2).bernoulli_(2.0)  # expect error: RuntimeError: bernoulli_ expects p to be in [0, 1], but got p=2
empty(2).exponential_(-1)  # expect error: RuntimeError: exponential_ expects lambda >= 0.0, but found lambda=-1
print(empty(2).exponential_(0))  # expect: tensor([inf, inf])
print(random.random() < 1, Generator().initial_seed() == 67280421310721)  # expect: True True
manual_seed(-1)  # expect: <torch._C.Generator at ...
print(initial_seed())  # expect: 18446744073709551615
g = Generator()
print(g.initial_seed(), g.device, g.manual_seed(3) is g)  # expect: 67280421310721 cpu True
