"""detach_() refuses a view, whether or not it is part of a graph; detach() works on it."""
import torch

x = torch.tensor([1.0, 2.0, 3.0, 4.0], requires_grad=True)
in_graph = (x * 2)[1:]  # a view in the graph
try:
    result = in_graph.detach_()
    print("view in the graph: detach_() ok")
except RuntimeError as error:
    print("view in the graph: detach_() ->", f"{type(error).__name__}: {error}")

base = torch.zeros(4)  # needs no grad at all
tail = base[1:]
print("tail._is_view():", tail._is_view())
print("tail.requires_grad:", tail.requires_grad)
print("tail.detach().requires_grad:", tail.detach().requires_grad)
result = tail.detach_()  # raises RuntimeError
