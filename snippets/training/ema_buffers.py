"""A parameters-only EMA keeps BatchNorm's statistics from the moment of the copy; AveragedModel does not."""
import copy

import torch
from torch.optim.swa_utils import AveragedModel, get_ema_multi_avg_fn

rng = torch.manual_seed(0)
model = torch.nn.Sequential(torch.nn.Linear(2, 2), torch.nn.BatchNorm1d(2))
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
decay = 0.5

hand_written = copy.deepcopy(model)  # averages model.parameters() only
averaged = AveragedModel(model, multi_avg_fn=get_ema_multi_avg_fn(decay))
averaged_buffers = AveragedModel(model, multi_avg_fn=get_ema_multi_avg_fn(decay), use_buffers=True)
averaged.update_parameters(model)  # the first update copies, so all three start from model
averaged_buffers.update_parameters(model)

for step in range(3):
    batch = torch.randn(8, 2) + 3.0
    loss = model(batch).pow(2).sum()
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    with torch.no_grad():
        for average, current in zip(hand_written.parameters(), model.parameters()):
            average[...] = torch.lerp(average, current, 1 - decay)
    averaged.update_parameters(model)
    averaged_buffers.update_parameters(model)

print("weights equal, hand-written and AveragedModel:", torch.equal(hand_written[0].weight, averaged.module[0].weight))
print("weights equal, AveragedModel with and without buffers:",
      torch.equal(averaged.module[0].weight, averaged_buffers.module[0].weight))
probe = torch.ones(1, 2)
print("BatchNorm buffers after 3 steps:")
print("| model | running_mean | num_batches_tracked | eval output |")
print("| --- | --- | --- | --- |")
for name, network in [("training model", model), ("hand-written EMA", hand_written),
                      ("AveragedModel", averaged.module), ("AveragedModel, use_buffers", averaged_buffers.module)]:
    norm = network[1]
    network = network.eval()
    with torch.no_grad():
        output = [round(v, 4) for v in network(probe).flatten().tolist()]
    mean = [round(v, 4) for v in norm.running_mean.tolist()]
    print(f"| {name} | {mean} | {norm.num_batches_tracked.item()} | {output} |")
