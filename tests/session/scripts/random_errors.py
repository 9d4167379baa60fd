# Bad input to the generators is an error with a message; the session goes on.
random.choice([])  # expect error: IndexError: Cannot choose from an empty sequence
random.randrange(0)  # expect error: ValueError: empty range for randrange()
random.randint(5, 1)  # expect error: ValueError: empty range for randrange() (5, 2, -3)
random.randrange(0, 10, 0)  # expect error: ValueError: zero step for randrange()
random.sample([1, 2], 3)  # expect error: ValueError: Sample larger than population or is negative
random.choices('ab', weights=[1], k=2)  # expect error: ValueError: The number of weights does not match the population
random.choices('ab', weights=[0, 0])  # expect error: ValueError: Total of weights must be greater than zero
random.shuffle((1, 2))  # expect error: TypeError: shuffle() needs a list (shuffled in place), not tuple
random.seed([1])  # expect error: TypeError: The only supported seed types are: None, int, float and str (nndb has no bytes), not list
random.getrandbits(64)  # expect error: ValueError: getrandbits(64): nndb's ints are 64-bit, so k must be <= 63
random.setstate((2, (), None))  # expect error: ValueError: state with version other passed to Random.setstate() of version 3
randn(3, generator=5)  # expect error: TypeError: randn(): generator must be a torch.Generator, not int
zeros(3, generator=Generator())  # expect error: TypeError: zeros() got an unexpected keyword argument 'generator'
Generator().set_state(zeros(3))  # expect error: ValueError: set_state(): the state must hold 5056 bytes (what get_state() returns), got 3 elements
s = get_rng_state()
s[8] = 0
s[9] = 0
set_rng_state(s)  # expect error: ValueError: set_rng_state(): the provided generator state is invalid (its 'left' or 'next' field is out of range)
multinomial(tensor([0.5, -0.1]), 1)  # expect error: ValueError: multinomial: probability tensor contains either inf, nan or element < 0
multinomial(tensor([0.5, 0.5]), 3)  # expect error: ValueError: multinomial: cannot sample n_sample > prob_dist.size(-1) samples without replacement
randperm(-1)  # expect error: ValueError: randperm needs n >= 0, got -1
bernoulli(tensor([2.0]))  # expect error: ValueError: bernoulli needs probabilities in [0, 1], got 2 at element 0
empty(2).exponential_(0)  # expect error: ValueError: exponential_ needs lambd > 0, got 0
print(random.random() < 1, initial_seed() == 67280421310721)  # expect: True True
manual_seed(-1)  # expect: <torch._C.Generator object at ...
print(initial_seed())  # expect: -1
g = Generator()
print(g.initial_seed(), g.device, g.manual_seed(3) is g)  # expect: 67280421310721 cpu True
