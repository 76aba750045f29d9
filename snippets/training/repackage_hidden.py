"""A function that detaches every tensor in a nested recurrent state lets LSTM and GRU state cross batch boundaries: each batch's backward() covers its own batch."""
import torch


def repackage_hidden(state):
    """Detach a tensor, or every tensor in a (nested) tuple or list, such as an LSTM's (h, c).
    The name is the one PyTorch's word-language-model example gives this helper."""
    if isinstance(state, torch.Tensor):
        return state.detach()
    return type(state)(repackage_hidden(part) for part in state)


rng = torch.manual_seed(0)
batches = torch.randn(3, 5, 1, 2)  # 3 batches of 5 time steps
for name, network in [("LSTM", torch.nn.LSTM(2, 3, num_layers=2)), ("GRU", torch.nn.GRU(2, 3, num_layers=2))]:
    optimizer = torch.optim.SGD(network.parameters(), lr=0.1)
    state = None  # the module starts from zeros
    for number, batch in enumerate(batches, start=1):
        if state is not None:
            state = repackage_hidden(state)  # keep the values, drop the history of earlier batches
        output, state = network(batch, state)
        loss = output.pow(2).sum()
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        print(f"{name} batch {number} loss:", round(loss.item(), 4))
    parts = state if isinstance(state, tuple) else (state,)
    print(f"{name} state, tensors:", len(parts))
    print(f"{name} state after repackage_hidden, every grad_fn None:",
          all(part.grad_fn is None for part in repackage_hidden(state)))
