"""A forward hook that keeps each output keeps its graph, with the tensors the graph saved, until a backward() frees them; keeping output.detach() keeps no graph."""
import weakref

import torch

model = torch.nn.Sequential(torch.nn.Linear(4, 8), torch.nn.ReLU(), torch.nn.Linear(8, 1))


class Saved:
    """What the graph keeps for a tensor it saves: a box holding a detached alias of it."""

    def __init__(self, tensor):
        self.tensor = tensor.detach()


def saved_tensors_alive(keep, run_backward):
    boxes, kept = [], []

    def pack(tensor):  # autograd calls it for every tensor it saves for backward
        box = Saved(tensor)
        boxes.append(weakref.ref(box))  # a weak reference: it keeps nothing alive
        return box

    # the hook on the ReLU, whose outputs are the activations one collects
    handle = model[1].register_forward_hook(lambda module, inputs, output: kept.append(keep(output)))
    with torch.autograd.graph.saved_tensors_hooks(pack, lambda box: box.tensor):
        for step in range(3):
            loss = model(torch.ones(1, 4) * step).sum()
            if run_backward:
                loss.backward()  # a plain backward() frees what this step's graph saved
    handle.remove()
    del loss
    return f"{sum(ref() is not None for ref in boxes)} of {len(boxes)}"


print("| the hook keeps | saved tensors a graph holds, no backward() (evaluation) | saved tensors a graph holds, backward() each step |")
print("| --- | --- | --- |")
for name, keep in [("output", lambda output: output), ("output.detach()", lambda output: output.detach())]:
    print(f"| {name} | {saved_tensors_alive(keep, False)} | {saved_tensors_alive(keep, True)} |")
