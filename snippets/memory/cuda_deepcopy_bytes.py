"""Expected on a GPU: copy.deepcopy(model) allocates as many bytes again as the model's parameters and buffers; without a GPU it skips."""
# device-dependent: torch.cuda.memory_allocated() counts CUDA memory, so only a GPU run can measure
import copy

import torch

if not torch.cuda.is_available():
    print("CUDA measurement: skipped, torch.cuda.memory_allocated() needs a GPU and this run has none")
else:
    model = torch.nn.Sequential(torch.nn.Linear(256, 256), torch.nn.BatchNorm1d(256), torch.nn.Linear(256, 10)).cuda()
    model_bytes = sum(t.nbytes for t in list(model.parameters()) + list(model.buffers()))
    print("bytes of the model's parameters and buffers:", model_bytes)
    before = torch.cuda.memory_allocated()
    duplicate = copy.deepcopy(model)
    print("bytes added by copy.deepcopy(model), rounded up by the allocator:",
          torch.cuda.memory_allocated() - before)
    del duplicate
    print("bytes added after del duplicate:", torch.cuda.memory_allocated() - before)
