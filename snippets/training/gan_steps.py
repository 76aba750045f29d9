"""The usual GAN step: detach fake for D's update, and keep it attached for G's update."""
import torch

rng = torch.manual_seed(0)
generator = torch.nn.Linear(2, 2)
discriminator = torch.nn.Linear(2, 1)
g_optimizer = torch.optim.SGD(generator.parameters(), lr=0.1)
d_optimizer = torch.optim.SGD(discriminator.parameters(), lr=0.1)
bce = torch.nn.BCEWithLogitsLoss()
real = torch.randn(4, 2) + 3.0
fake = generator(torch.randn(4, 2))

# discriminator step: fake is only data here
d_optimizer.zero_grad()
d_loss = bce(discriminator(real), torch.ones(4, 1)) + bce(discriminator(fake.detach()), torch.zeros(4, 1))
d_loss.backward()
d_optimizer.step()
print("after D step, generator.weight.grad:", generator.weight.grad)

# generator step: the gradient must flow through D into G, so no detach
g_optimizer.zero_grad()
g_loss = bce(discriminator(fake), torch.ones(4, 1))
g_loss.backward()
print("after G step, generator.weight.grad is None:", generator.weight.grad is None)
print("after G step, discriminator.weight.grad:", discriminator.weight.grad)
g_optimizer.step()

# the same generator step with fake detached teaches G nothing
g_optimizer.zero_grad()
bce(discriminator(fake.detach()), torch.ones(4, 1)).backward()
print("G step on fake.detach(), generator.weight.grad:", generator.weight.grad)

# the next discriminator step starts by clearing what the generator step left in D's .grad
d_optimizer.zero_grad()
print("after d_optimizer.zero_grad(), discriminator.weight.grad:", discriminator.weight.grad)
