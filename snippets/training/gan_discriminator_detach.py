"""The discriminator's loss on D(fake) reaches the generator's parameters unless fake is detached."""
import torch

rng = torch.manual_seed(0)
generator = torch.nn.Linear(2, 2)
discriminator = torch.nn.Linear(2, 1)
bce = torch.nn.BCEWithLogitsLoss()
real = torch.randn(4, 2) + 3.0
fake = generator(torch.randn(4, 2))


def discriminator_loss(fake_input):
    """Real samples should score 1, fake ones 0."""
    return bce(discriminator(real), torch.ones(4, 1)) + bce(discriminator(fake_input), torch.zeros(4, 1))


discriminator_loss(fake).backward(retain_graph=True)
print("D(fake): generator.weight.grad:", generator.weight.grad.flatten())
generator.zero_grad()
discriminator.zero_grad()
discriminator_loss(fake.detach()).backward()
print("D(fake.detach()): generator.weight.grad:", generator.weight.grad)
print("D(fake.detach()): discriminator.weight.grad is None:", discriminator.weight.grad is None)
