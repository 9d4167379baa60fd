# torch.distributions as RL courses use it (Spinning Up, the PyTorch
# REINFORCE example): sampling Categorical, Normal and Bernoulli under a
# seed, log_prob and entropy, a REINFORCE loop on a 3-armed bandit with a
# softmax policy, a Gaussian policy with rsample, and torch.multinomial
# with its own Generator.
import torch
import torch.nn as nn
import torch.nn.functional as F
import torch.optim as optim
from torch.distributions import Bernoulli, Categorical, Normal

torch.manual_seed(0)

# --- sampling, log_prob, entropy ---
probs = torch.tensor([0.1, 0.2, 0.7])
m = Categorical(probs)
print(m)
samples = m.sample((10,))
print(samples, samples.dtype)
print(m.log_prob(torch.tensor([0, 1, 2])))
print(m.entropy(), m.probs, m.logits)
print(torch.bincount(m.sample((1000,)), minlength=3))

m = Categorical(logits=torch.tensor([[1.0, 2.0, 3.0], [0.0, 0.0, 0.0]]))
print(m.batch_shape, m.event_shape, m.sample().shape, m.sample((4,)).shape)
print(m.probs)
print(m.entropy())

n = Normal(torch.tensor([0.0, 1.0]), torch.tensor([1.0, 0.5]))
print(n)
x = n.sample()
print(x, n.log_prob(x))
print(n.entropy(), n.mean, n.stddev, n.variance)
print(n.sample((3,)).shape, n.cdf(torch.tensor([0.0, 1.0])))
print(Normal(0.0, 1.0).log_prob(torch.tensor(0.5)))

b = Bernoulli(torch.tensor([0.3, 0.9]))
print(b.sample((5,)))
print(b.log_prob(torch.tensor([1.0, 0.0])), b.entropy())
print(Bernoulli(logits=torch.tensor(0.0)).probs)

try:
    Categorical(torch.tensor([0.5, -0.1, 0.6]))
except ValueError as e:
    print("ValueError:", str(e).split(" found invalid values")[0])

# --- REINFORCE on a 3-armed bandit ---
true_means = torch.tensor([0.2, 0.5, 0.8])


class Policy(nn.Module):
    def __init__(self, n_arms):
        super(Policy, self).__init__()
        self.logits = nn.Parameter(torch.zeros(n_arms))

    def forward(self):
        return F.softmax(self.logits, dim=-1)


def pull(arm):
    return torch.bernoulli(true_means[arm]).item()


torch.manual_seed(1)
policy = Policy(3)
optimizer = optim.Adam(policy.parameters(), lr=0.1)
eps = torch.finfo(torch.float32).eps
running_reward = 0.0
for episode in range(1, 201):
    saved_log_probs = []
    rewards = []
    for t in range(8):
        probs = policy()
        m = Categorical(probs)
        action = m.sample()
        saved_log_probs.append(m.log_prob(action))
        rewards.append(pull(action))
    returns = torch.tensor(rewards)
    running_reward = 0.05 * returns.mean().item() + (1 - 0.05) * running_reward
    returns = (returns - returns.mean()) / (returns.std() + eps)
    policy_loss = []
    for log_prob, R in zip(saved_log_probs, returns):
        policy_loss.append(-log_prob * R)
    optimizer.zero_grad()
    policy_loss = torch.stack(policy_loss).sum()
    policy_loss.backward()
    optimizer.step()
    if episode % 40 == 0:
        print('Episode {}\tLast reward: {:.2f}\tAverage reward: {:.2f}\tloss {:.4f}'.format(
            episode, sum(rewards) / len(rewards), running_reward, policy_loss.item()))
print(policy().detach(), policy.logits.grad)
print(Categorical(logits=policy.logits).entropy().item())

# --- a Gaussian policy with rsample (reparameterisation) ---
torch.manual_seed(2)
mu = torch.zeros(2, requires_grad=True)
log_std = torch.zeros(2, requires_grad=True)
opt = optim.SGD([mu, log_std], lr=0.05)
target = torch.tensor([1.0, -2.0])
for step in range(50):
    dist = Normal(mu, log_std.exp())
    a = dist.rsample((16,))
    loss = ((a - target) ** 2).sum(-1).mean() - 0.01 * dist.entropy().sum()
    opt.zero_grad()
    loss.backward()
    opt.step()
    if step % 10 == 9:
        print(step, round(loss.item(), 4), mu.detach(), log_std.detach())
logp = Normal(mu, log_std.exp()).log_prob(target).sum()
logp.backward()
print(logp, mu.grad)

# --- multinomial and Categorical with a Generator ---
g = torch.Generator().manual_seed(123)
weights = torch.tensor([1.0, 2.0, 3.0, 4.0])
print(torch.multinomial(weights, 4, generator=g))
print(torch.multinomial(weights, 8, replacement=True, generator=g))
print(torch.multinomial(weights.repeat(2, 1), 2, generator=g))
g2 = torch.Generator().manual_seed(123)
print(torch.multinomial(weights, 4, generator=g2))
print(g.initial_seed(), torch.initial_seed())
state = g.get_state()
first = torch.multinomial(weights, 5, replacement=True, generator=g)
g.set_state(state)
print(first, torch.equal(first, torch.multinomial(weights, 5, replacement=True, generator=g)))
c = Categorical(probs=weights / weights.sum())
idx = torch.multinomial(c.probs, 6, True, generator=torch.Generator().manual_seed(5))
print(idx, c.log_prob(idx).sum())
print(torch.rand(3, generator=torch.Generator().manual_seed(5)), torch.randn(2, generator=g))
