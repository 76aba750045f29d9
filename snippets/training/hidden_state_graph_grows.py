"""Without detach() the hidden state drags the graph of every earlier batch along; with it, one batch's."""
import torch

rng = torch.manual_seed(0)
cell = torch.nn.RNNCell(2, 3)
batches = torch.randn(4, 5, 1, 2)  # 4 batches of 5 time steps each


def graph_nodes(tensor):
    """How many backward functions autograd would visit from this tensor."""
    seen, stack = set(), [tensor.grad_fn]
    while stack:
        node = stack.pop()
        if node is not None and node not in seen:
            seen.add(node)
            stack.extend(child for child, _ in node.next_functions)
    return len(seen)


hidden_kept = torch.zeros(1, 3)
hidden_detached = torch.zeros(1, 3)
print("graph nodes behind the hidden state after each batch:")
print("| batch | without detach | with detach |")
print("| --- | --- | --- |")
for number, batch in enumerate(batches, start=1):
    hidden_detached = hidden_detached.detach()  # truncated BPTT: cut at the batch boundary
    for step in batch:
        hidden_kept = cell(step, hidden_kept)
        hidden_detached = cell(step, hidden_detached)
    print(f"| {number} | {graph_nodes(hidden_kept)} | {graph_nodes(hidden_detached)} |")
