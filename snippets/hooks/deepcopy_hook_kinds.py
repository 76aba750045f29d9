"""copy.deepcopy(module) keeps a plain function or a lambda as it is, so their state stays shared with the copy; a bound method, a callable object or a partial is copied with the state it holds."""
import copy
import functools

import torch


class Recorder:
    def __init__(self):
        self.calls = []

    def hook(self, module, inputs, output):
        self.calls.append("call")

    def __call__(self, module, inputs, output):
        self.calls.append("call")


def hook_kinds():
    """Each kind of forward hook, with the list of calls it appends to."""
    calls = []

    def closure(module, inputs, output):
        calls.append("call")

    def append_to(target, module, inputs, output):
        target.append("call")

    lambda_calls = []
    recorder, callable_recorder, partial_calls = Recorder(), Recorder(), []
    return {
        "a function (closure)": (closure, calls),
        "a lambda": (lambda module, inputs, output: lambda_calls.append("call"), lambda_calls),
        "a bound method (recorder.hook)": (recorder.hook, recorder.calls),
        "a callable object (recorder)": (callable_recorder, callable_recorder.calls),
        "functools.partial(append_to, calls)": (functools.partial(append_to, partial_calls), partial_calls),
    }


print("| forward hook | the copy's hook is the same object | the copy's call reached the original's state |")
print("| --- | --- | --- |")
for name, (hook, state) in hook_kinds().items():
    model = torch.nn.Linear(2, 1)
    handle = model.register_forward_hook(hook)
    copied = copy.deepcopy(model)
    output = copied(torch.ones(1, 2))  # only the copy runs
    same = list(copied._forward_hooks.values())[0] is hook
    print(f"| {name} | {'yes' if same else 'no'} | {'yes' if state else 'no'} |")
