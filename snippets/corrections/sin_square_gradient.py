"""The corrected example gives x.grad = 2x*cos(x**2), which is not what the article printed."""
import torch

x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
z = x.pow(2).sin()
z.sum().backward()  # sum() makes one number; each x[i] reaches only z[i]

values = x.detach()
analytic = 2 * values * torch.cos(values**2)
printed_by_article = torch.tensor([0.5403, 1.0806, 1.6209])
print("x.grad:", x.grad)
print("analytic derivative:", analytic)
print("x.grad matches the derivative:", torch.allclose(x.grad, analytic))
print("x.grad matches the article:", torch.allclose(x.grad, printed_by_article, atol=1e-4))
print("article's values equal x*cos(1):",
      torch.allclose(printed_by_article, values * torch.cos(torch.tensor(1.0)), atol=1e-4))
