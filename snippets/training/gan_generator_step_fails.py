"""A discriminator step on D(fake) frees the generator's graph: the generator step then fails."""
import torch

rng = torch.manual_seed(0)
generator = torch.nn.Linear(2, 2)
discriminator = torch.nn.Linear(2, 1)
bce = torch.nn.BCEWithLogitsLoss()
real = torch.randn(4, 2) + 3.0
fake = generator(torch.randn(4, 2))

# discriminator step, fake not detached
d_loss = bce(discriminator(real), torch.ones(4, 1)) + bce(discriminator(fake), torch.zeros(4, 1))
d_loss.backward()  # also runs through the generator and frees its saved values
print("discriminator step: done")

# generator step: make D call the fake samples real
g_loss = bce(discriminator(fake), torch.ones(4, 1))
g_loss.backward()  # raises RuntimeError
