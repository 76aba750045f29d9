"""Each general sentence of the site, as a property checked on every kind of its zoo (generators/zoo.py): for each claim and kind, whether it holds, does not hold (and what happened), or does not apply (and why)."""

# A claim is a sentence a page makes about every tensor (or module), written as a
# check. The check runs on a fresh input of every kind of its zoo, and ends one of three ways:
# it returns (the claim holds), it raises DoesNotHold(what happened), or DoesNotApply(why). An
# operation the claim relies on that raises counts as "does not hold", with its message in full.
# A page cites a claim beside its sentence with {claim}`id`, and the build fails when the claim
# does not hold for a kind that the citation does not except (whatcopy/sphinxext/claims.py).
#
# The registry is the CLAIMS list below, filled by the @claim decorator: id, zoo, the sentence
# in English and in Chinese, and the check. The output is read by whatcopy/reference/
# claims_table.py; its layout (the tables and their columns) is fixed there.
#
# No claim here makes an optimizer (the zoo's optimizer kinds are for other programs): the
# first torch.optim call imports torch._dynamo, 0.9 s of CPU in the page's kernel, which would
# be most of this page's cost in the site's build.

import copy
import itertools
import warnings

import numpy
import torch
import zoo


class DoesNotHold(Exception):
    """The claim is false for this input; the message says what happened instead."""


class DoesNotApply(Exception):
    """The claim says nothing about this input; the message says why."""


CLAIMS = []


def claim(name, zoo_name, en, zh):
    """Register the decorated check as the claim `name` about the kinds of `zoo_name`."""

    def register(check):
        CLAIMS.append((name, zoo_name, en, zh, check))
        return check

    return register


def said(exc):
    """An exception as one line of text, its message in full."""
    return f"{type(exc).__name__}: {' '.join(str(exc).split())}"


def attempt(what, action):
    """action(); an exception it raises makes the claim not hold, naming `what` raised it."""
    try:
        return action()
    except Exception as exc:
        raise DoesNotHold(f"{what} raised {said(exc)}") from None


def parts(tensor):
    """The first byte of each block of memory a tensor's values live in."""
    if tensor.layout == torch.sparse_coo:
        return (tensor._indices().data_ptr(), tensor._values().data_ptr())
    if tensor.layout == torch.sparse_csr:
        return tuple(t.data_ptr() for t in (tensor.crow_indices(), tensor.col_indices(), tensor.values()))
    if tensor.layout == torch.sparse_csc:
        return tuple(t.data_ptr() for t in (tensor.ccol_indices(), tensor.row_indices(), tensor.values()))
    return (tensor.untyped_storage().data_ptr(),)


def byte_ranges(tensor):
    """(start, end) of each block of memory a tensor's values live in; none for no bytes."""
    if tensor.layout == torch.strided:
        blocks = [tensor.untyped_storage()]
    elif tensor.layout == torch.sparse_coo:
        blocks = [tensor._indices().untyped_storage(), tensor._values().untyped_storage()]
    else:
        blocks = [t.untyped_storage() for t in (tensor.values(), *compressed(tensor))]
    return [(b.data_ptr(), b.data_ptr() + b.nbytes()) for b in blocks if b.nbytes()]


def compressed(tensor):
    if tensor.layout == torch.sparse_csr:
        return tensor.crow_indices(), tensor.col_indices()
    return tensor.ccol_indices(), tensor.row_indices()


def share_memory(a, b):
    """Whether any byte of memory holds values of both tensors."""
    return any(s < e2 and s2 < e for s, e in byte_ranges(a) for s2, e2 in byte_ranges(b))


def no_meta(tensor):
    if tensor.is_meta:
        raise DoesNotApply("a meta tensor has no memory and no values")


def writable(tensor):
    """Raise DoesNotApply for a tensor with no value to write (meta, no elements)."""
    no_meta(tensor)
    if tensor.numel() == 0:
        raise DoesNotApply("it has no elements to write")


def snapshot(tensor):
    """A copy of a tensor's values, to compare later."""
    dense = tensor.to_dense() if tensor.layout != torch.strided else tensor
    return dense.detach().clone().resolve_conj().resolve_neg()


def write(tensor, name):
    """An in-place write of new values into `tensor`; returns what was written, in words.
    One element of a strided tensor; every value (mul_(2)) of a sparse one."""
    if tensor.layout != torch.strided:
        attempt(f"{name}.mul_(2)", lambda: tensor.mul_(2))
        return f"{name}.mul_(2)"
    index = (0,) * tensor.dim()
    old = tensor[index].item()
    new = (not old) if tensor.dtype == torch.bool else old + 1
    where = f"{name}[{', '.join('0' * tensor.dim())}]"

    def assign():
        tensor[index] = new

    attempt(f"{where} = {new}", assign)
    return f"{where} = {new}"


def changed(before, tensor):
    return not torch.equal(before, snapshot(tensor))


# ---------------------------------------------------------------------------------------------
# Claims about tensors


@claim(
    "detach.new-object-same-memory",
    "tensor",
    "x.detach() returns a new tensor object that reads the same memory as x.",
    "x.detach() 返回一个新的张量对象，它读的是 x 的同一块内存。",
)
def _(sample):
    x = sample.tensor
    detached = x.detach()
    if detached is x:
        raise DoesNotHold("x.detach() is x itself")
    no_meta(x)
    if parts(detached) != parts(x):
        raise DoesNotHold("x.detach() has memory of its own")


@claim(
    "detach.no-history",
    "tensor",
    "x.detach() has no grad_fn, does not require grad, and is a leaf.",
    "x.detach() 没有 grad_fn，不需要梯度，是叶子张量。",
)
def _(sample):
    detached = sample.tensor.detach()
    if detached.grad_fn is not None or detached.requires_grad or not detached.is_leaf:
        raise DoesNotHold(
            f"grad_fn {type(detached.grad_fn).__name__}, requires_grad "
            f"{detached.requires_grad}, is_leaf {detached.is_leaf}"
        )


@claim(
    "detach.write-shows-both-ways",
    "tensor",
    "An in-place write of values through x or through x.detach() shows in the other.",
    "通过 x 或 x.detach() 原地写入的值，在另一个张量里也看得到。",
)
def _(sample):
    x = sample.tensor
    writable(x)
    detached = x.detach()
    before = snapshot(x)
    what = write(detached, "d")
    if not changed(before, x):
        raise DoesNotHold(f"{what} (d = x.detach()) left x unchanged")
    before = snapshot(detached)
    with torch.no_grad():  # (a leaf that requires grad can be written only here)
        what = write(x, "x")
    if not changed(before, detached):
        raise DoesNotHold(f"{what} (under no_grad()) left d = x.detach() unchanged")


@claim(
    "detach.shape-edit-stays-local",
    "tensor",
    "An in-place change of shape or strides through x.detach() (unsqueeze_) leaves x's shape and strides as they were.",
    "通过 x.detach() 原地改变形状或步长（unsqueeze_），x 的形状和步长保持原样。",
)
def _(sample):
    x = sample.tensor
    shape = tuple(x.shape)
    strides = x.stride() if x.layout == torch.strided else None
    detached = x.detach()
    try:
        detached.unsqueeze_(0)
    except Exception as exc:
        raise DoesNotApply(f"d.unsqueeze_(0) raised {said(exc)}") from None
    now = x.stride() if x.layout == torch.strided else None
    if tuple(x.shape) != shape or now != strides:
        raise DoesNotHold(f"after d.unsqueeze_(0), x has shape {tuple(x.shape)}, strides {now}")


@claim(
    "detach.shares-version-counter",
    "tensor",
    "x.detach() shares x's version counter: an in-place operation through it moves x._version too.",
    "x.detach() 与 x 共用版本计数器：通过它做原地操作，x._version 也随之变化。",
)
def _(sample):
    x = sample.tensor
    before = attempt("x._version", lambda: x._version)
    detached = x.detach()
    attempt("d.zero_()", detached.zero_)
    if x._version == before:
        raise DoesNotHold(f"after d.zero_() (d = x.detach()), x._version is still {before}")


@claim(
    "clone.own-memory",
    "tensor",
    "x.clone() has memory of its own: a write into the clone leaves x unchanged.",
    "x.clone() 有自己的内存：写入副本不会改变 x。",
)
def _(sample):
    x = sample.tensor
    writable(x)
    cloned = x.clone()
    if share_memory(cloned, x):
        raise DoesNotHold("x.clone() shares memory with x")
    before = snapshot(x)
    what = write(cloned, "c")
    if changed(before, x):
        raise DoesNotHold(f"{what} (c = x.clone()) changed x")


@claim(
    "clone.keeps-dense-strides",
    "tensor",
    "The clone of a dense tensor without gaps or overlaps has the same strides as the tensor.",
    "没有空隙也没有重叠的紧密张量，克隆出的张量与它步长相同。",
)
def _(sample):
    x = sample.tensor
    if x.layout != torch.strided:
        raise DoesNotApply("it has no strides")
    if "dense" not in zoo.tags(sample):
        raise DoesNotApply("it has gaps or overlaps")
    cloned = x.clone()
    if cloned.stride() != x.stride():
        raise DoesNotHold(f"strides {x.stride()}, the clone's {cloned.stride()}")


@claim(
    "clone.packs-the-rest-contiguous",
    "tensor",
    "The clone of a tensor with gaps or overlaps comes back contiguous (row-major strides).",
    "有空隙或重叠的张量，克隆出的张量是连续的（按行的步长）。",
)
def _(sample):
    x = sample.tensor
    if x.layout != torch.strided:
        raise DoesNotApply("it has no strides")
    if "dense" in zoo.tags(sample):
        raise DoesNotApply("it is dense, without gaps or overlaps")
    cloned = x.clone()
    if not cloned.is_contiguous():
        raise DoesNotHold(f"strides {x.stride()}, the clone's {cloned.stride()}: not contiguous")


@claim(
    "clone.records-clone-backward",
    "tensor",
    "x.clone() of a tensor that requires grad has grad_fn CloneBackward0.",
    "对需要梯度的张量调用 x.clone()，结果的 grad_fn 是 CloneBackward0。",
)
def _(sample):
    x = sample.tensor
    if not x.requires_grad:
        raise DoesNotApply("it does not require grad")
    name = type(x.clone().grad_fn).__name__
    if name != "CloneBackward0":
        raise DoesNotHold(f"the clone's grad_fn is {name}")


@claim(
    "detach-clone.new-leaf-own-memory",
    "tensor",
    "x.detach().clone() is a leaf that does not require grad, with memory of its own.",
    "x.detach().clone() 是不需要梯度的叶子张量，有自己的内存。",
)
def _(sample):
    x = sample.tensor
    copied = x.detach().clone()
    if copied.requires_grad or not copied.is_leaf:
        raise DoesNotHold(f"requires_grad {copied.requires_grad}, is_leaf {copied.is_leaf}")
    no_meta(x)
    if share_memory(copied, x):
        raise DoesNotHold("it shares memory with x")


@claim(
    "real.returns-itself",
    "tensor",
    "x.real is x itself.",
    "x.real 就是 x 本身。",
)
def _(sample):
    x = sample.tensor
    real = attempt("x.real", lambda: x.real)
    if real is not x:
        kind = "a view of x" if real._is_view() and real._base is x else "another tensor"
        raise DoesNotHold(f"x.real is {kind}, {str(real.dtype).removeprefix('torch.')}")


@claim(
    "deepcopy.new-leaf-own-memory",
    "tensor",
    "copy.deepcopy(x) is a leaf with memory of its own and x's requires_grad.",
    "copy.deepcopy(x) 是叶子张量，有自己的内存，requires_grad 与 x 相同。",
)
def _(sample):
    x = sample.tensor
    copied = attempt("copy.deepcopy(x)", lambda: copy.deepcopy(x))
    if not copied.is_leaf or copied.requires_grad != x.requires_grad:
        raise DoesNotHold(f"is_leaf {copied.is_leaf}, requires_grad {copied.requires_grad}")
    no_meta(x)
    if share_memory(copied, x):
        raise DoesNotHold("the copy shares memory with x")


@claim(
    "deepcopy.keeps-shared-memory-shared",
    "tensor",
    "A view and its base, deep-copied in one call, still share memory.",
    "视图和它的基张量在同一次深拷贝中复制后，仍然共用内存。",
)
def _(sample):
    x, base = sample.tensor, sample.base
    if base is None:
        raise DoesNotApply("it is not made from a base tensor")
    no_meta(x)
    base_copy, copied = attempt("copy.deepcopy([base, x])", lambda: copy.deepcopy([base, x]))
    if not share_memory(base_copy, copied):
        raise DoesNotHold("the copies of x and its base have separate memory")


@claim(
    "to.same-dtype-returns-itself",
    "tensor",
    "x.to(x.dtype) returns x itself.",
    "x.to(x.dtype) 返回 x 本身。",
)
def _(sample):
    x = sample.tensor
    if attempt("x.to(x.dtype)", lambda: x.to(x.dtype)) is not x:
        raise DoesNotHold("x.to(x.dtype) is a new tensor")


@claim(
    "to.same-device-returns-itself",
    "tensor",
    "x.to(x.device) and x.to(str(x.device)) return x itself.",
    "x.to(x.device) 和 x.to(str(x.device)) 都返回 x 本身。",
)
def _(sample):
    x = sample.tensor
    moved(x, {"x.device": x.device, "str(x.device)": str(x.device)})


@claim(
    "to.device-with-index-returns-itself",
    "tensor",
    "x.to(device) returns x itself when x is already there, also when the device is written with its index, such as 'cpu:0'.",
    "x 已在目标设备上时，x.to(device) 返回 x 本身；设备写成带编号的形式（如 'cpu:0'）也一样。",
)
def _(sample):
    x = sample.tensor
    text = f"{x.device.type}:{x.device.index or 0}"
    moved(x, {repr(text): text})


def moved(x, spellings):
    """Does not hold unless x.to(each spelling of a device) is x."""
    results = {text: attempt(f"x.to({text})", lambda d=device: x.to(d)) for text, device in spellings.items()}
    new = [text for text, result in results.items() if result is not x]
    if new:
        shared = ["shares memory with x" if share_memory(results[t], x) else "copies" for t in new]
        listed = "; ".join(f"x.to({t}) is a new tensor that {s}" for t, s in zip(new, shared))
        raise DoesNotHold(f"x is on {x.device}; {listed}")


@claim(
    "contiguous.returns-itself",
    "tensor",
    "x.contiguous() returns x itself when x.is_contiguous() is True.",
    "x.is_contiguous() 为 True 时，x.contiguous() 返回 x 本身。",
)
def _(sample):
    x = sample.tensor
    if x.layout != torch.strided or not x.is_contiguous():
        raise DoesNotApply("x.is_contiguous() is False")
    if x.contiguous() is not x:
        raise DoesNotHold("x.contiguous() is a new tensor")


@claim(
    "numpy.shares-memory",
    "tensor",
    "x.detach().numpy() shares x's memory: a write into the array shows in x.",
    "x.detach().numpy() 与 x 共用内存：写入数组，x 里也看得到。",
)
def _(sample):
    x = sample.tensor
    array = attempt("x.detach().numpy()", lambda: x.detach().numpy())
    if x.numel() == 0:
        raise DoesNotApply("it has no elements to write")
    before = snapshot(x)
    index = (0,) * array.ndim
    array[index] = (not array[index]) if array.dtype == numpy.bool_ else array[index] + 1
    if not changed(before, x):
        raise DoesNotHold("a write into the array left x unchanged")


@claim(
    "saved.edit-makes-backward-raise",
    "tensor",
    "After an in-place write into a tensor that autograd saved, through x.detach(), backward() raises.",
    "通过 x.detach() 原地写入自动求导保存的张量之后，backward() 会报错。",
)
def _(sample):
    x = sample.tensor
    if not x.requires_grad:
        raise DoesNotApply("it does not require grad, so autograd saves nothing")
    with sample.around():
        loss = (x * x).sum()
    loss = loss.real if loss.is_complex() else loss
    attempt("d.zero_()", x.detach().zero_)
    try:
        loss.backward()
    except RuntimeError as exc:
        if "modified by an inplace operation" in str(exc):
            return
        raise DoesNotHold(f"backward() raised another error: {said(exc)}") from None
    raise DoesNotHold("after d.zero_() (d = x.detach()), backward() of (x * x).sum() ran")


# ---------------------------------------------------------------------------------------------
# Claims about modules


def everything(module):
    """Every parameter and buffer under each name it has (shared ones under each of theirs)."""
    return dict(
        itertools.chain(
            module.named_parameters(remove_duplicate=False),
            module.named_buffers(remove_duplicate=False),
        )
    )


@claim(
    "deepcopy.module-own-memory",
    "module",
    "copy.deepcopy(module) gives every parameter and buffer memory of its own.",
    "copy.deepcopy(module) 给每个参数和缓冲区都分配了自己的内存。",
)
def _(sample):
    module = sample.value
    copied = copy.deepcopy(module)
    shared = [name for name, t in everything(copied).items() if share_memory(t, everything(module)[name])]
    if shared:
        raise DoesNotHold(f"the copy's {', '.join(shared)} share memory with the module's")


@claim(
    "deepcopy.module-keeps-ties",
    "module",
    "A parameter that a module holds under two names is still one parameter in its deep copy.",
    "模块里以两个名字出现的同一个参数，在深拷贝中仍是同一个参数。",
)
def _(sample):
    module = sample.value
    named = list(module.named_parameters(remove_duplicate=False))
    tied = [(a, b) for (a, p), (b, q) in itertools.combinations(named, 2) if p is q]
    if not tied:
        raise DoesNotApply("no parameter appears under two names")
    copied = dict(copy.deepcopy(module).named_parameters(remove_duplicate=False))
    untied = [f"{a} and {b}" for a, b in tied if copied[a] is not copied[b]]
    if untied:
        raise DoesNotHold(f"in the copy, {'; '.join(untied)} are separate parameters")


@claim(
    "deepcopy.module-keeps-hooks",
    "module",
    "copy.deepcopy(module) keeps the hooks registered on the module and on its parameters.",
    "copy.deepcopy(module) 保留注册在模块及其参数上的钩子。",
)
def _(sample):
    module = sample.value

    def hooks(m):
        found = {
            "forward hooks": len(m._forward_hooks),
            "forward pre-hooks": len(m._forward_pre_hooks),
        }
        for name, parameter in m.named_parameters():
            found[f"hooks on {name}"] = len(parameter._backward_hooks or {})
        return found

    before = hooks(module)
    if not any(before.values()):
        raise DoesNotApply("it has no hooks")
    after = hooks(copy.deepcopy(module))
    lost = [f"{key}: {count}, the copy's {after.get(key, 0)}" for key, count in before.items() if after.get(key, 0) != count]
    if lost:
        raise DoesNotHold("; ".join(lost))


@claim(
    "state_dict.has-every-buffer",
    "module",
    "module.state_dict() holds every parameter and buffer of the module.",
    "module.state_dict() 包含模块的每个参数和缓冲区。",
)
def _(sample):
    module = sample.value
    missing = [name for name in everything(module) if name not in module.state_dict()]
    if missing:
        raise DoesNotHold(f"state_dict() has no {', '.join(missing)}")


@claim(
    "state_dict.shares-memory",
    "module",
    "Each tensor of module.state_dict() shares memory with the module's own parameter or buffer.",
    "module.state_dict() 中的每个张量都与模块自己的参数或缓冲区共用内存。",
)
def _(sample):
    module = sample.value
    own = everything(module)
    apart = [name for name, t in module.state_dict().items() if not share_memory(t, own[name])]
    if apart:
        raise DoesNotHold(f"state_dict()'s {', '.join(apart)} have memory of their own")


# ---------------------------------------------------------------------------------------------
# Every claim on every kind of its zoo


def judge(name, check, kind):
    """("yes" | "no" | "n/a", what happened or why, warnings raised) for one claim on one kind.
    Any other exception is a fault of the check (or of the zoo): it stops the program."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            check(zoo.make(kind))
            verdict, why = "yes", ""
        except DoesNotHold as exc:
            verdict, why = "no", str(exc)
        except DoesNotApply as exc:
            verdict, why = "n/a", str(exc)
        except Exception as exc:
            raise RuntimeError(f"generators/claims.py: the check of {name} failed on {kind.name}") from exc
    return verdict, why, [f"{w.category.__name__}: {w.message}" for w in caught]


def cell(text):
    """Text for a table cell: one line, a | written \\|."""
    return " ".join(str(text).split()).replace("|", "\\|") or "-"


def row(cells):
    print("| " + " | ".join(cell(c) for c in cells) + " |")


def table(header, rows):
    row(header)
    print("|" + " --- |" * len(header))
    for cells in rows:
        row(cells)
    print()


generator = torch.manual_seed(0)  # (nothing printed depends on it; modules start the same each run)
threads = torch.get_num_threads()
torch.set_num_threads(1)  # tiny tensors: more threads only wait
zoos = {name: zoo.ZOOS[name] for name in dict.fromkeys(z for _, z, *_ in CLAIMS)}  # the zoos claims are about
made = {entry.name: zoo.make(entry) for entry in itertools.chain(*zoos.values())}
results = {(name, kind.name): judge(name, check, kind) for name, zoo_name, _, _, check in CLAIMS for kind in zoos[zoo_name]}
torch.set_num_threads(threads)
device = torch.empty(0).device.type
ids = [name for name, *_ in CLAIMS]
if len(set(ids)) != len(ids):
    raise RuntimeError(f"generators/claims.py: a claim id is used twice: {sorted(i for i in ids if ids.count(i) > 1)}")

print(f"claims: {len(CLAIMS)}")
print(f"kinds: {', '.join(f'{name} {len(kinds)}' for name, kinds in zoos.items())}")
print()
print(f"Claims on {device}:")
table(
    ["claim", "zoo", "holds", "does not hold", "does not apply", "en", "zh"],
    [
        [name, zoo_name, *(sum(results[name, k.name][0] == v for k in zoos[zoo_name]) for v in ("yes", "no", "n/a")), en, zh]
        for name, zoo_name, en, zh, _ in CLAIMS
    ],
)
print(f"Kinds on {device}:")
table(
    ["kind", "zoo", "tags", "en", "zh", "warnings when made"],
    [[k.name, k.zoo, " ".join(zoo.tags(made[k.name])), k.en, k.zh, " / ".join(made[k.name].warnings)] for k in itertools.chain(*zoos.values())],
)
for zoo_name, kinds in zoos.items():
    mine = [name for name, z, *_ in CLAIMS if z == zoo_name]
    print(f"Results on {zoo_name} kinds on {device}:")
    table(["kind", *mine], [[k.name, *(results[name, k.name][0] for name in mine)] for k in kinds])
groups = {}  # (claim, result, what happened, warnings) -> the kinds it happened on
for (name, kind), (verdict, why, warned) in results.items():
    if verdict != "yes" or warned:
        groups.setdefault((name, verdict, why, " / ".join(warned)), []).append(kind)
print(f"Where a claim does not hold or does not apply, or warned, on {device}:")
table(["claim", "result", "what happened", "warnings", "kinds"], [[*key, " ".join(kinds)] for key, kinds in groups.items()])
