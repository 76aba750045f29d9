"""For a CPU tensor x, x.cpu().detach() and x.detach().cpu() both return x's own memory; a move that copies, shown with the meta device, is recorded when it comes before detach() and not after."""
# device-dependent: on a GPU, x.cpu() copies into host memory and records ToCopyBackward0; on the CPU it returns x itself
import torch

x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)  # on the run's default device
EXPRESSIONS = {
    "x.cpu()": lambda: x.cpu(),
    "x.cpu().detach()": lambda: x.cpu().detach(),
    "x.detach().cpu()": lambda: x.detach().cpu(),
    "x.to('meta')": lambda: x.to("meta"),  # the meta device: a real move, but no memory
    "x.to('meta').detach()": lambda: x.to("meta").detach(),
    "x.detach().to('meta')": lambda: x.detach().to("meta"),
}

print("x is a leaf that requires grad on", x.device.type)
print("| expression | result is x | grad_fn | requires_grad | shares x's memory |")
print("| --- | --- | --- | --- | --- |")
for name, expression in EXPRESSIONS.items():
    result = expression()
    grad_fn = type(result.grad_fn).__name__ if result.grad_fn is not None else "-"
    if result.is_meta:
        shares = "- (no memory)"
    else:
        shares = "yes" if result.untyped_storage().data_ptr() == x.untyped_storage().data_ptr() else "no"
    print(f"| {name} | {'yes' if result is x else 'no'} | {grad_fn} | {result.requires_grad} | {shares} |")
array = x.detach().cpu().numpy()
array[0] = 100.0
print("x after writing to x.detach().cpu().numpy():", x)
