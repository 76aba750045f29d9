"""requires_grad_(False) stops new gradients for a parameter; an optimizer that holds it can still update it while its .grad is a tensor (through the state of earlier steps or weight decay): SGD with momentum moved a frozen weight whose .grad zero_grad(set_to_none=False) had left as zeros, and left it alone once zero_grad() had set .grad to None."""
import torch


def frozen_weight_after_a_step(set_to_none):
    torch.manual_seed(0)
    layer = torch.nn.Linear(2, 1)
    optimizer = torch.optim.SGD(layer.parameters(), lr=0.1, momentum=0.9)
    x = torch.ones(4, 2)
    layer(x).sum().backward()
    optimizer.step()  # one step of training: the momentum buffers hold the last update
    layer.weight.requires_grad_(False)  # freeze the weight
    before = layer.weight.clone()
    optimizer.zero_grad(set_to_none=set_to_none)
    layer(x).sum().backward()  # the bias still trains
    optimizer.step()
    return layer.weight.grad, torch.equal(before, layer.weight)


grad, unchanged = frozen_weight_after_a_step(set_to_none=False)
print("zero_grad(set_to_none=False), frozen weight.grad:", grad)
print("zero_grad(set_to_none=False), frozen weight unchanged by the step:", unchanged)
grad, unchanged = frozen_weight_after_a_step(set_to_none=True)
print("zero_grad(), frozen weight.grad:", grad)
print("zero_grad(), frozen weight unchanged by the step:", unchanged)
