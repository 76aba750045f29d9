"""A forward hook that keeps each output keeps its graph's saved tensors alive until a backward() frees them; keeping output.detach() keeps none of them."""
import weakref

import torch

model = torch.nn.Sequential(torch.nn.Linear(4, 8), torch.nn.Linear(8, 1))  # each saves its input


def saved_tensors_alive(keep, run_backward):
    saved, kept = [], []

    def pack(tensor):  # autograd calls it for every tensor it saves for backward
        saved.append(weakref.ref(tensor))
        return tensor

    handle = model[0].register_forward_hook(lambda module, inputs, output: kept.append(keep(output)))
    with torch.autograd.graph.saved_tensors_hooks(pack, lambda tensor: tensor):
        for step in range(3):
            loss = model(torch.ones(1, 4) * step).sum()
            if run_backward:
                loss.backward()  # frees the saved tensors of this step's graph
    handle.remove()
    del loss
    return f"{sum(ref() is not None for ref in saved)} of {len(saved)}"


print("| the hook keeps | saved tensor objects alive, no backward() (evaluation) | saved tensor objects alive, backward() each step |")
print("| --- | --- | --- |")
for name, keep in [("output", lambda output: output), ("output.detach()", lambda output: output.detach())]:
    print(f"| {name} | {saved_tensors_alive(keep, False)} | {saved_tensors_alive(keep, True)} |")
