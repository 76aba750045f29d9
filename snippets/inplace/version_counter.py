"""In-place writes move a tensor's version counter; views and detach() share the counter, clone() starts its own."""
import torch

x = torch.zeros(4)
print("new tensor:", x._version)

x += 1  # in place
x[0] = 5.0  # in place
print("after 2 in-place writes:", x._version)

y = x * 2  # out of place: x is only read
print("after an out-of-place op:", x._version)

view, detached, cloned = x[1:], x.detach(), x.clone()
view[0] = 7.0  # one more write, through the view
print("x._version:", x._version)
print("view._version:", view._version)
print("detached._version:", detached._version)
print("cloned._version:", cloned._version)
