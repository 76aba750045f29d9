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


def refused(what, action, errors=RuntimeError, words=None):
    """action() must raise one of `errors` (whose message holds `words`, when given); the claim
    does not hold where it runs, or raises another error."""
    try:
        action()
    except errors as exc:
        if words is None or words in str(exc):
            return
        raise DoesNotHold(f"{what} raised another error: {said(exc)}") from None
    raise DoesNotHold(f"{what} ran")


def parts(tensor):
    """The first byte of each block of memory a tensor's values live in."""
    if tensor.layout == torch.sparse_coo:
        return (tensor._indices().data_ptr(), tensor._values().data_ptr())
    if tensor.layout != torch.strided:
        return tuple(t.data_ptr() for t in (*compressed(tensor), tensor.values()))
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
    """The index tensors of a compressed sparse layout: by rows (CSR, BSR) or by columns."""
    if tensor.layout in (torch.sparse_csr, torch.sparse_bsr):
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


@claim(
    "detach.grow-reallocates-x",
    "tensor",
    "Growing x.detach() with resize_ past the end of its storage grows x's storage too: x now reads the new, larger memory.",
    "用 resize_ 把 x.detach() 变大、超出存储的末尾时，x 的存储也跟着变大：x 读的是新的、更大的内存。",
)
def _(sample):
    x = sample.tensor
    if x.layout != torch.strided:
        raise DoesNotApply("it has no strides to resize")
    no_meta(x)
    before = x.untyped_storage().nbytes()
    detached = x.detach()
    attempt("d.resize_(x.numel() + 100)", lambda: detached.resize_(x.numel() + 100))  # past its end
    if x.untyped_storage().nbytes() <= before:
        raise DoesNotHold("after d.resize_(x.numel() + 100), x's storage did not grow")


def counter(tensor):
    """tensor._version; DoesNotApply for a tensor without a version counter (inference)."""
    try:
        return tensor._version
    except RuntimeError as exc:
        raise DoesNotApply(f"x._version raised {said(exc)}") from None


@claim(
    "resize.same-shape-leaves-version",
    "tensor",
    "x.resize_(x.shape) and x.resize_as_(x) to the shape x already has leave x._version as it was.",
    "x.resize_(x.shape) 和 x.resize_as_(x) 调整到 x 已有的形状时，x._version 保持不变。",
)
def _(sample):
    x = sample.tensor
    if x.requires_grad:
        raise DoesNotApply("it requires grad: resize_ refuses it")
    if x.layout != torch.strided:
        raise DoesNotApply("it has no strides to resize")
    version = counter(x)
    attempt("x.resize_(x.shape)", lambda: x.resize_(x.shape))
    attempt("x.resize_as_(x)", lambda: x.resize_as_(x))
    if x._version != version:
        raise DoesNotHold(f"x._version moved from {version} to {x._version}")


@claim(
    "detach_.raises-on-view",
    "tensor",
    "x.detach_() raises when x is a view that autograd tracks (x._is_view() is True).",
    "x 是自动求导跟踪的视图（x._is_view() 为 True）时，x.detach_() 会报错。",
)
def _(sample):
    x = sample.tensor
    if not x._is_view():
        raise DoesNotApply("x._is_view() is False")
    refused("x.detach_()", x.detach_)


@claim(
    "detach_.runs-on-non-view",
    "tensor",
    "x.detach_() runs when x is not a view that autograd tracks, and leaves x without a grad_fn.",
    "x 不是自动求导跟踪的视图时，x.detach_() 可以运行，之后 x 没有 grad_fn。",
)
def _(sample):
    x = sample.tensor
    if x._is_view():
        raise DoesNotApply("x._is_view() is True")
    attempt("x.detach_()", x.detach_)
    if x.grad_fn is not None or x.requires_grad:
        raise DoesNotHold(f"after x.detach_(), grad_fn {type(x.grad_fn).__name__}, requires_grad {x.requires_grad}")


@claim(
    "numpy.write-moves-no-counter",
    "tensor",
    "A write into the array of x.detach().numpy() leaves x._version as it was.",
    "写入 x.detach().numpy() 得到的数组，x._version 保持不变。",
)
def _(sample):
    x = sample.tensor
    try:
        array = x.detach().numpy()
    except Exception as exc:
        raise DoesNotApply(f"x.detach().numpy() raised {said(exc)}") from None
    if x.numel() == 0:
        raise DoesNotApply("it has no elements to write")
    version = counter(x)
    index = (0,) * array.ndim
    array[index] = (not array[index]) if array.dtype == numpy.bool_ else array[index] + 1
    if x._version != version:
        raise DoesNotHold(f"x._version moved from {version} to {x._version}")


@claim(
    "clone.dense-keeps-stride-order",
    "tensor",
    "x.clone() is dense, each element once, with its strides in the same order as x's.",
    "x.clone() 是紧密的，每个元素只存一次，步长的大小顺序与 x 相同。",
)
def _(sample):
    x = sample.tensor
    if x.layout != torch.strided:
        raise DoesNotApply("it has no strides")
    cloned = x.clone()
    if "dense" not in zoo.memory_tags(cloned):
        raise DoesNotHold(f"the clone's strides {cloned.stride()} leave gaps or overlaps")
    if order(x) != order(cloned):
        raise DoesNotHold(f"strides {x.stride()}, the clone's {cloned.stride()}: another order")


def order(tensor):
    """The dimensions of size > 1 and stride > 0, from the largest stride to the smallest."""
    dims = [d for d in range(tensor.dim()) if tensor.shape[d] > 1 and tensor.stride(d) > 0]
    return sorted(dims, key=lambda d: (-tensor.stride(d), d))


@claim(
    "clone.under-no-grad-is-leaf",
    "tensor",
    "x.clone() taken under torch.no_grad() or torch.inference_mode() has no grad_fn and is a leaf.",
    "在 torch.no_grad() 或 torch.inference_mode() 下调用 x.clone()，结果没有 grad_fn，是叶子张量。",
)
def _(sample):
    x = sample.tensor
    for name, mode in (("no_grad()", torch.no_grad), ("inference_mode()", torch.inference_mode)):
        with mode():
            cloned = attempt(f"x.clone() under {name}", x.clone)
        if cloned.grad_fn is not None or not cloned.is_leaf:
            raise DoesNotHold(f"under {name}, grad_fn {type(cloned.grad_fn).__name__}, is_leaf {cloned.is_leaf}")


@claim(
    "clone-detach.either-order-same",
    "tensor",
    "x.detach().clone() and x.clone().detach() give the same values, dtype, layout, strides, conjugate bit, requires_grad and is_leaf.",
    "x.detach().clone() 和 x.clone().detach() 得到的值、dtype、布局、步长、共轭位、requires_grad 和 is_leaf 都相同。",
)
def _(sample):
    x = sample.tensor
    no_meta(x)
    a = attempt("x.detach().clone()", lambda: x.detach().clone())
    b = attempt("x.clone().detach()", lambda: x.clone().detach())
    differ = [name for name, (p, q) in described(a, b).items() if p != q]
    if differ:
        raise DoesNotHold(f"they differ in {', '.join(differ)}")


def described(a, b):
    """What two tensors are, side by side: {what: (a's, b's)}."""

    def strides(t):
        return t.stride() if t.layout == torch.strided else None

    return {
        "values": (True, torch.equal(snapshot(a), snapshot(b))),
        "dtype": (a.dtype, b.dtype),
        "layout": (a.layout, b.layout),
        "shape": (a.shape, b.shape),
        "strides": (strides(a), strides(b)),
        "conjugate bit": (a.is_conj(), b.is_conj()),
        "requires_grad": (a.requires_grad, b.requires_grad),
        "is_leaf": (a.is_leaf, b.is_leaf),
        "type": (type(a), type(b)),
    }


@claim(
    "clone-detach.new-tensor-same",
    "tensor",
    "torch.tensor(x) and x.new_tensor(x) give what x.detach().clone() gives: the same values, dtype, layout, conjugate bit, requires_grad and is_leaf.",
    "torch.tensor(x) 和 x.new_tensor(x) 得到的与 x.detach().clone() 相同：值、dtype、布局、共轭位、requires_grad 和 is_leaf 都一样。",
)
def _(sample):
    x = sample.tensor
    no_meta(x)
    expected = x.detach().clone()
    for name, make in (("torch.tensor(x)", lambda: torch.tensor(x)), ("x.new_tensor(x)", lambda: x.new_tensor(x))):
        made = attempt(name, make)
        found = described(expected, made)
        differ = [k for k, (p, q) in found.items() if p != q and k not in ("strides", "type")]
        if differ:
            raise DoesNotHold(f"{name} differs from x.detach().clone() in {', '.join(differ)}")


@claim(
    "deepcopy.view-copies-whole-storage",
    "tensor",
    "copy.deepcopy of a tensor that reads part of a larger storage copies that whole storage.",
    "对只读取一块更大存储中一部分的张量做 copy.deepcopy，会复制整块存储。",
)
def _(sample):
    x = sample.tensor
    if x.layout != torch.strided or x.is_meta:
        raise DoesNotApply("it has no storage of its own to measure")
    whole = x.untyped_storage().nbytes()
    if whole <= x.numel() * x.element_size():
        raise DoesNotApply("it reads all of its storage")
    if not x.is_leaf:
        raise DoesNotApply("it is not a leaf, and copy.deepcopy refuses a tensor with a history")
    copied = attempt("copy.deepcopy(x)", lambda: copy.deepcopy(x))
    if copied.untyped_storage().nbytes() != whole:
        raise DoesNotHold(f"x's storage has {whole} bytes, the copy's {copied.untyped_storage().nbytes()}")


@claim(
    "deepcopy.leaf-copies",
    "tensor",
    "copy.deepcopy(x) works for every leaf x.",
    "对每个叶子张量 x，copy.deepcopy(x) 都能成功。",
)
def _(sample):
    x = sample.tensor
    if not x.is_leaf:
        raise DoesNotApply("it is not a leaf")
    attempt("copy.deepcopy(x)", lambda: copy.deepcopy(x))


@claim(
    "autograd.computed-has-history",
    "tensor",
    "x * 2, computed while autograd records, has a grad_fn and is not a leaf.",
    "在自动求导记录时计算的 x * 2 有 grad_fn，不是叶子张量。",
)
def _(sample):
    doubled_has_history(sample)


@claim(
    "autograd.computed-from-tensor-that-requires-grad-has-history",
    "tensor",
    "x * 2, computed while autograd records from an x that requires grad, has a grad_fn and is not a leaf.",
    "在自动求导记录时，由需要梯度的 x 计算出的 x * 2 有 grad_fn，不是叶子张量。",
)
def _(sample):
    if not sample.tensor.requires_grad:
        raise DoesNotApply("it does not require grad")
    doubled_has_history(sample)


def doubled_has_history(sample):
    """x * 2, computed in the sample's grad mode, has a grad_fn and is no leaf."""
    x = sample.tensor
    with sample.around():
        y = attempt("x * 2", lambda: x * 2)
    if y.grad_fn is None or y.is_leaf:
        raise DoesNotHold(f"x * 2 has grad_fn {y.grad_fn} and is_leaf {y.is_leaf}")


@claim(
    "grad.accumulates-in-place",
    "tensor",
    "A second backward() adds into x.grad in place: a name bound to x.grad after the first one sees the sum.",
    "第二次 backward() 把梯度原地加到 x.grad 上：第一次之后绑定到 x.grad 的名字看到的是总和。",
)
def _(sample):
    accumulate(sample, create_graph=False)


@claim(
    "grad.create-graph-replaces",
    "tensor",
    "With backward(create_graph=True), a second backward() replaces x.grad with a new tensor: a name bound to the first x.grad keeps the first gradient.",
    "使用 backward(create_graph=True) 时，第二次 backward() 用一个新张量替换 x.grad：绑定到第一个 x.grad 的名字保留第一次的梯度。",
)
def _(sample):
    accumulate(sample, create_graph=True)


def accumulate(sample, create_graph):
    """Two backward() passes of (x * x).sum() into a leaf x that requires grad: whether the
    first .grad object was added into (create_graph False) or replaced (True)."""
    x = sample.tensor
    if not (x.is_leaf and x.requires_grad):
        raise DoesNotApply("it is not a leaf that requires grad")
    if x.grad is not None:
        raise DoesNotApply("its .grad is already filled in")
    if x.layout != torch.strided or x.is_complex():
        raise DoesNotApply("(x * x).sum() of it is not a real number to call backward() on")

    def backward():
        with sample.around():
            loss = (x * x).sum()
        loss.backward(create_graph=create_graph)

    attempt("backward()", backward)
    first = x.grad
    if first is None:
        raise DoesNotHold("backward() left x.grad None")
    kept = first.detach().clone()
    attempt("a second backward()", backward)
    if not create_graph and not (x.grad is first and not torch.equal(first.detach(), kept)):
        raise DoesNotHold("the second backward() did not add into the first .grad tensor")
    if create_graph and not (x.grad is not first and torch.equal(first.detach(), kept)):
        raise DoesNotHold("the second backward() added into the first .grad tensor")


@claim(
    "inplace.leaf-edit-raises-at-once",
    "tensor",
    "An in-place edit of a leaf that requires grad, while autograd records, raises at the edit, before any backward().",
    "在自动求导记录时，原地修改需要梯度的叶子张量会在修改时立即报错，不等到 backward()。",
)
def _(sample):
    x = sample.tensor
    if not (x.is_leaf and x.requires_grad):
        raise DoesNotApply("it is not a leaf that requires grad")
    refused("x.mul_(2)", lambda: x.mul_(2))


@claim(
    "view.write-shows-in-base",
    "tensor",
    "A write through a view (x._is_view() is True) shows in its base, and a write of every value of the base shows in the view.",
    "通过视图（x._is_view() 为 True）写入，基张量里看得到；改写基张量的每个值，视图里也看得到。",
)
def _(sample):
    x, base = sample.tensor, sample.base
    if base is None or not x._is_view():
        raise DoesNotApply("it is not a view made from a base")
    writable(x)
    before = snapshot(base)
    with torch.no_grad():  # (a view of a leaf that requires grad can be written only here)
        what = write(x, "x")
    if not changed(before, base):
        raise DoesNotHold(f"{what} (under no_grad()) left the base unchanged")
    before = snapshot(x)
    what = "base.logical_not_()" if base.dtype == torch.bool else "base.mul_(2)"
    with torch.no_grad():
        attempt(what, base.logical_not_ if base.dtype == torch.bool else lambda: base.mul_(2))
    if not changed(before, x):
        raise DoesNotHold(f"{what} (under no_grad()) left the view unchanged")


@claim(
    "data.shares-memory-own-counter",
    "tensor",
    "x.data reads x's memory, and an in-place write through it leaves x._version as it was.",
    "x.data 读的是 x 的内存，通过它原地写入，x._version 保持不变。",
)
def _(sample):
    aliases(sample, "x.data", lambda x: x.data)


def aliases(sample, name, make):
    """Does not hold unless make(x) reads x's memory and a write through it leaves x._version."""
    x = sample.tensor
    writable(x)
    version = counter(x)
    alias = attempt(name, lambda: make(x))
    if not share_memory(alias, x):
        raise DoesNotHold(f"{name} has memory of its own")
    before = snapshot(x)
    with torch.no_grad():  # (an alias that is a leaf requiring grad can be written only here)
        what = write(alias, "a")
    if not changed(before, x):
        raise DoesNotHold(f"{what} (a = {name}) left x unchanged")
    if x._version != version:
        raise DoesNotHold(f"{what} (a = {name}) moved x._version from {version} to {x._version}")


@claim(
    "inference.no-version-counter",
    "tensor",
    "An inference tensor has no version counter: reading x._version raises.",
    "推理张量没有版本计数器：读取 x._version 会报错。",
)
def _(sample):
    x = sample.tensor
    if not x.is_inference():
        raise DoesNotApply("it is not an inference tensor")
    try:
        version = x._version
    except RuntimeError:
        return
    raise DoesNotHold(f"x._version reads {version}")


@claim(
    "copies.start-without-hooks",
    "tensor",
    "x.detach(), x.clone() and copy.deepcopy(x) of a tensor with a hook start without hooks.",
    "对带钩子的张量调用 x.detach()、x.clone() 和 copy.deepcopy(x)，得到的新张量都没有钩子。",
)
def _(sample):
    x = sample.tensor
    if not x._backward_hooks:
        raise DoesNotApply("it has no hooks")
    made = {
        "x.detach()": x.detach(),
        "x.clone()": x.clone(),
        "copy.deepcopy(x)": attempt("copy.deepcopy(x)", lambda: copy.deepcopy(x)),
    }
    hooked = [name for name, t in made.items() if t._backward_hooks]
    if hooked:
        raise DoesNotHold(f"{', '.join(hooked)} kept hooks")


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
    "deepcopy.module-keeps-forward-hooks",
    "module",
    "copy.deepcopy(module) keeps the forward hooks and forward pre-hooks registered on the module.",
    "copy.deepcopy(module) 保留注册在模块上的前向钩子和前向预钩子。",
)
def _(sample):
    module = sample.value
    before = (len(module._forward_hooks), len(module._forward_pre_hooks))
    if not any(before):
        raise DoesNotApply("it has no forward hooks")
    copied = copy.deepcopy(module)
    after = (len(copied._forward_hooks), len(copied._forward_pre_hooks))
    if after != before:
        raise DoesNotHold(f"forward hooks and pre-hooks: {before}, the copy's {after}")


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


# Claims that the sweep of pages A (inplace, training, questions, corrections, memory, values,
# errors) added: kept in one block so that the two sweeps' claims merge without conflict.


@claim(
    "version.write-moves-counter",
    "tensor",
    "x has a version counter, x._version, and an in-place write into x moves it.",
    "x 有版本计数器 x._version，原地写入 x 会让它变化。",
)
def _(sample):
    x = sample.tensor
    version = attempt("x._version", lambda: x._version)
    with torch.no_grad():  # (a leaf that requires grad can be written only here)
        attempt("x.zero_()", x.zero_)
    if x._version == version:
        raise DoesNotHold(f"after x.zero_(), x._version is still {version}")


@claim(
    "view.shares-version-counter",
    "tensor",
    "A view (x._is_view() is True) shares its base's version counter: an in-place write through the view moves base._version.",
    "视图（x._is_view() 为 True）与它的基张量共用版本计数器：通过视图原地写入，base._version 也随之变化。",
)
def _(sample):
    x, base = sample.tensor, sample.base
    if base is None or not x._is_view():
        raise DoesNotApply("it is not a view made from a base")
    version = counter(base)
    with torch.no_grad():  # (a view of a leaf that requires grad can be written only here)
        attempt("x.zero_()", x.zero_)
    if base._version == version:
        raise DoesNotHold(f"after x.zero_() through the view, base._version is still {version}")


def edited_then_backward(sample, square, edit_name, edit):
    """The loss (x * x).sum() (square) or (x * 2).sum(), an in-place edit of x by `edit`, then
    backward(): None when backward() ran, else what it raised."""
    x = sample.tensor
    if not x.requires_grad:
        raise DoesNotApply("it does not require grad, so autograd records nothing")
    with sample.around():
        loss = attempt("the loss", lambda: ((x * x) if square else (x * 2)).sum())
    loss = loss.real if loss.is_complex() else loss
    attempt(edit_name, lambda: edit(x))
    try:
        loss.backward()
    except RuntimeError as exc:
        return said(exc)
    return None


@claim(
    "saved.data-edit-goes-unnoticed",
    "tensor",
    "After an in-place write through x.data into a tensor that autograd saved, backward() runs without an error.",
    "通过 x.data 原地写入自动求导保存的张量之后，backward() 照常运行，不报错。",
)
def _(sample):
    raised = edited_then_backward(sample, True, "x.data.zero_()", lambda x: x.data.zero_())
    if raised:
        raise DoesNotHold(f"after x.data.zero_(), backward() of (x * x).sum() raised {raised}")


@claim(
    "unsaved.edit-leaves-backward-running",
    "tensor",
    "After an in-place write through x.detach() into x, backward() of (x * 2).sum(), which saved no value of x, runs.",
    "通过 x.detach() 原地写入 x 之后，(x * 2).sum() 没有保存 x 的值，它的 backward() 照常运行。",
)
def _(sample):
    raised = edited_then_backward(sample, False, "x.detach().zero_()", lambda x: x.detach().zero_())
    if raised:
        raise DoesNotHold(f"after x.detach().zero_(), backward() of (x * 2).sum() raised {raised}")


def handed_to_pack_hook(sample, what, action):
    """What `action()` returns, run (around the sample) under saved-tensor hooks whose pack hook
    keeps each tensor it is handed, and those tensors."""
    packed = []

    def pack(tensor):
        packed.append(tensor)
        return tensor

    with sample.around(), torch.autograd.graph.saved_tensors_hooks(pack, lambda t: t):
        result = attempt(what, action)
    return result, packed


@claim(
    "saved-hooks.see-saved-tensors",
    "tensor",
    "Under torch.autograd.graph.saved_tensors_hooks, x * x hands the pack hook each tensor it saves for backward: x, twice.",
    "在 torch.autograd.graph.saved_tensors_hooks 下，x * x 把它为反向传播保存的每个张量都交给打包钩子：两次，都是 x。",
)
def _(sample):
    x = sample.tensor
    if not x.requires_grad:
        raise DoesNotApply("it does not require grad, so autograd saves nothing")
    _, packed = handed_to_pack_hook(sample, "x * x", lambda: x * x)
    if len(packed) != 2 or any(t is not x and not share_memory(t, x) for t in packed):
        raise DoesNotHold(f"the pack hook received {len(packed)} tensors for x * x")


@claim(
    "saved-hooks.number-saved-without-hook",
    "tensor",
    "x * 2 saves the number 2 for backward as a tensor of its own (grad_fn._saved_other) without handing it to the pack hook of torch.autograd.graph.saved_tensors_hooks.",
    "x * 2 把数字 2 存成一个单独的张量（grad_fn._saved_other）留给反向传播，却不把它交给 torch.autograd.graph.saved_tensors_hooks 的打包钩子。",
)
def _(sample):
    x = sample.tensor
    if not x.requires_grad:
        raise DoesNotApply("it does not require grad, so autograd saves nothing")
    y, packed = handed_to_pack_hook(sample, "x * 2", lambda: x * 2)
    if y.grad_fn is None:
        raise DoesNotHold("x * 2 has no grad_fn, so nothing was saved")
    kept = attempt("y.grad_fn._saved_other", lambda: y.grad_fn._saved_other)
    if not isinstance(kept, torch.Tensor) or kept.item() != 2:
        raise DoesNotHold(f"grad_fn._saved_other is {kept!r}")
    if packed:
        raise DoesNotHold(f"the pack hook received {len(packed)} tensor(s) for x * 2")


@claim(
    "inference-mode.result-is-inference",
    "tensor",
    "x * 2 computed under torch.inference_mode() is an inference tensor; computed under torch.no_grad(), it is not.",
    "在 torch.inference_mode() 下计算的 x * 2 是推理张量；在 torch.no_grad() 下计算的则不是。",
)
def _(sample):
    x = sample.tensor
    with torch.inference_mode():
        inferred = attempt("x * 2 under inference_mode()", lambda: x * 2)
    with torch.no_grad():
        plain = attempt("x * 2 under no_grad()", lambda: x * 2)
    if not inferred.is_inference() or plain.is_inference():
        raise DoesNotHold(
            f"is_inference(): {inferred.is_inference()} under inference_mode(), "
            f"{plain.is_inference()} under no_grad()"
        )


# (end of the sweep A block)

# Claims that the sweep of pages B (the other pages) added.


@claim(
    "detach.untracked-view",
    "tensor",
    "x.detach() is not a view that autograd tracks: x.detach()._is_view() is False and x.detach()._base is None.",
    "x.detach() 不是自动求导追踪的视图：x.detach()._is_view() 为 False，x.detach()._base 为 None。",
)
def _(sample):
    detached = sample.tensor.detach()
    if detached._is_view() or detached._base is not None:
        base = "None" if detached._base is None else "a tensor"
        raise DoesNotHold(f"x.detach()._is_view() is {detached._is_view()}, x.detach()._base is {base}")


@claim(
    "clone.node-only-when-recording",
    "tensor",
    "x.clone() has a grad_fn when x requires grad and autograd records, and none when x does not require grad or the clone is taken under torch.no_grad() or torch.inference_mode().",
    "x 需要梯度且自动求导在记录时，x.clone() 有 grad_fn；x 不需要梯度，或在 torch.no_grad()、torch.inference_mode() 下调用时，x.clone() 没有 grad_fn。",
)
def _(sample):
    x = sample.tensor
    with sample.around():
        cloned = attempt("x.clone()", x.clone)
    if (cloned.grad_fn is not None) != x.requires_grad:
        raise DoesNotHold(f"x.requires_grad is {x.requires_grad}, x.clone().grad_fn is {type(cloned.grad_fn).__name__}")
    for name, mode in (("no_grad()", torch.no_grad), ("inference_mode()", torch.inference_mode)):
        with mode():
            cloned = attempt(f"x.clone() under {name}", x.clone)
        if cloned.grad_fn is not None:
            raise DoesNotHold(f"under {name}, x.clone().grad_fn is {type(cloned.grad_fn).__name__}")


@claim(
    "clone.holds-its-elements-only",
    "tensor",
    "x.clone() and x.detach().clone() store x's elements and no more: the storage of each has x.numel() * x.element_size() bytes, also when x is a view of a larger storage.",
    "x.clone() 和 x.detach().clone() 只存 x 自己的元素：两者的存储都是 x.numel() * x.element_size() 字节，x 是更大存储上的视图时也一样。",
)
def _(sample):
    x = sample.tensor
    if x.layout != torch.strided:
        raise DoesNotApply("it has no storage of its own (sparse)")
    no_meta(x)
    size = x.numel() * x.element_size()
    for name, make in (("x.clone()", x.clone), ("x.detach().clone()", lambda: x.detach().clone())):
        made = attempt(name, make)
        if made.untyped_storage().nbytes() != size:
            raise DoesNotHold(f"the storage of {name} has {made.untyped_storage().nbytes()} bytes for {size} bytes of elements")


@claim(
    "backward.fills-grad-of-leaves",
    "tensor",
    "backward() fills x.grad when x is a leaf that requires grad, and leaves it None when x is not a leaf and did not call retain_grad().",
    "x 是需要梯度的叶子张量时，backward() 会填好 x.grad；x 不是叶子张量、也没有调用 retain_grad() 时，x.grad 仍是 None。",
)
def _(sample):
    x = sample.tensor
    if not x.requires_grad:
        raise DoesNotApply("it does not require grad")
    if x.retains_grad:
        raise DoesNotApply("it called retain_grad()")
    with warnings.catch_warnings():  # (reading .grad of a non-leaf warns; that is the point)
        warnings.simplefilter("ignore")
        if x.grad is not None:
            raise DoesNotApply("its .grad is already filled in")

        def backward():
            with sample.around():
                loss = (x * x).sum()
            loss = loss.real if loss.is_complex() else loss
            loss.backward()

        attempt("(x * x).sum().backward()", backward)
        grad = x.grad
    if x.is_leaf and grad is None:
        raise DoesNotHold("x is a leaf, and backward() left x.grad None")
    if not x.is_leaf and grad is not None:
        raise DoesNotHold("x is not a leaf, and backward() filled x.grad")


@claim(
    "deepcopy.refuses-non-leaf",
    "tensor",
    "copy.deepcopy(x) raises when x is not a leaf.",
    "x 不是叶子张量时，copy.deepcopy(x) 会报错。",
)
def _(sample):
    x = sample.tensor
    if x.is_leaf:
        raise DoesNotApply("it is a leaf")
    refused("copy.deepcopy(x)", lambda: copy.deepcopy(x))


def with_grad(sample):
    """The sample's tensor with its .grad filled in: the one it has, or one backward() of
    (x * x).sum() gives a leaf that requires grad. DoesNotApply where there is none to fill."""
    x = sample.tensor
    with warnings.catch_warnings():  # (reading .grad of a non-leaf warns)
        warnings.simplefilter("ignore")
        if x.grad is not None:
            return x
    if not (x.is_leaf and x.requires_grad):
        raise DoesNotApply("it has no .grad, and is not a leaf that requires grad")
    if x.layout != torch.strided or x.is_complex():
        raise DoesNotApply("(x * x).sum() of it is not a real number to call backward() on")

    def backward():
        with sample.around():
            loss = (x * x).sum()
        loss.backward()

    attempt("(x * x).sum().backward()", backward)
    if x.grad is None:
        raise DoesNotApply("backward() left its .grad None")
    return x


@claim(
    "copies.clone-leaves-grad-behind",
    "tensor",
    "x.clone() and x.detach().clone() of a tensor with a .grad start without one.",
    "对带 .grad 的张量调用 x.clone() 或 x.detach().clone()，得到的新张量都没有 .grad。",
)
def _(sample):
    x = with_grad(sample)
    with warnings.catch_warnings():  # (reading .grad of a non-leaf warns)
        warnings.simplefilter("ignore")
        carried = [name for name, made in (("x.clone()", x.clone()), ("x.detach().clone()", x.detach().clone())) if made.grad is not None]
    if carried:
        raise DoesNotHold(f"{', '.join(carried)} has a .grad")


@claim(
    "deepcopy.grad-kept-but-not-by-parameter",
    "tensor",
    "copy.deepcopy(x) of a leaf with a .grad has a copy of that .grad, in memory of its own, when x is a plain tensor, and no .grad when x is an nn.Parameter.",
    "对带 .grad 的叶子张量 x 做 copy.deepcopy(x)：x 是普通张量时，副本带着这份 .grad 的复制品，放在自己的内存里；x 是 nn.Parameter 时，副本没有 .grad。",
)
def _(sample):
    x = with_grad(sample)
    if not x.is_leaf:
        raise DoesNotApply("it is not a leaf, and copy.deepcopy refuses a tensor with a history")
    copied = attempt("copy.deepcopy(x)", lambda: copy.deepcopy(x))
    if isinstance(x, torch.nn.Parameter):
        if copied.grad is not None:
            raise DoesNotHold("x is an nn.Parameter, and its copy has a .grad")
        return
    if copied.grad is None:
        raise DoesNotHold("x is a plain tensor, and its copy has no .grad")
    if not torch.equal(snapshot(copied.grad), snapshot(x.grad)) or share_memory(copied.grad, x.grad):
        raise DoesNotHold("the copy's .grad differs from x.grad or shares its memory")


@claim(
    "backward.leaves-non-leaf-grad-empty",
    "tensor",
    "backward() leaves x.grad None when x is not a leaf and did not call retain_grad().",
    "x 不是叶子张量、也没有调用 retain_grad() 时，backward() 之后 x.grad 仍是 None。",
)
def _(sample):
    x = sample.tensor
    if x.is_leaf or not x.requires_grad:
        raise DoesNotApply("it is a leaf, or does not require grad")
    if x.retains_grad:
        raise DoesNotApply("it called retain_grad()")

    def backward():
        with sample.around():
            loss = (x * x).sum()
        loss = loss.real if loss.is_complex() else loss
        loss.backward()

    attempt("(x * x).sum().backward()", backward)
    with warnings.catch_warnings():  # (reading .grad of a non-leaf warns; that is the point)
        warnings.simplefilter("ignore")
        if x.grad is not None:
            raise DoesNotHold("backward() filled x.grad")


@claim(
    "numpy.refuses-requires-grad",
    "tensor",
    "x.numpy() raises when x requires grad.",
    "x 需要梯度时，x.numpy() 会报错。",
)
def _(sample):
    x = sample.tensor
    if not x.requires_grad:
        raise DoesNotApply("it does not require grad")
    refused("x.numpy()", x.numpy, Exception, "requires grad")


@claim(
    "modes.record-nothing",
    "tensor",
    "x * 2 computed under torch.no_grad() or torch.inference_mode() has no grad_fn and does not require grad.",
    "在 torch.no_grad() 或 torch.inference_mode() 下计算的 x * 2 没有 grad_fn，也不需要梯度。",
)
def _(sample):
    x = sample.tensor
    for name, mode in (("no_grad()", torch.no_grad), ("inference_mode()", torch.inference_mode)):
        with mode():
            y = attempt(f"x * 2 under {name}", lambda: x * 2)
        if y.grad_fn is not None or y.requires_grad:
            raise DoesNotHold(f"under {name}, x * 2 has grad_fn {type(y.grad_fn).__name__}, requires_grad {y.requires_grad}")


@claim(
    "inference.cannot-be-saved",
    "tensor",
    "An inference tensor cannot be saved for backward: x * w, with a w that requires grad, raises outside inference mode, while x + w, which saves nothing, runs.",
    "推理张量不能保存下来供反向传播使用：在推理模式之外，x * w（w 需要梯度）会报错，而什么也不保存的 x + w 可以运行。",
)
def _(sample):
    x = sample.tensor
    if not x.is_inference():
        raise DoesNotApply("it is not an inference tensor")
    w = torch.ones(x.shape, dtype=x.dtype, requires_grad=True)
    attempt("x + w", lambda: x + w)
    refused("x * w", lambda: x * w)


@claim(
    "copy.copy-shares-memory-own-counter",
    "tensor",
    "copy.copy(x) reads x's memory, and an in-place write through it leaves x._version as it was.",
    "copy.copy(x) 读的是 x 的内存，通过它原地写入，x._version 保持不变。",
)
def _(sample):
    with warnings.catch_warnings():  # (copy.copy of a tensor with a hook warns, naming an address)
        warnings.simplefilter("ignore")
        aliases(sample, "copy.copy(x)", copy.copy)


@claim(
    "cpu-as_tensor.return-itself",
    "tensor",
    "For a tensor x on the CPU, x.cpu() and torch.as_tensor(x) return x itself.",
    "对 CPU 上的张量 x，x.cpu() 和 torch.as_tensor(x) 都返回 x 本身。",
)
def _(sample):
    x = sample.tensor
    if x.device.type != "cpu":
        raise DoesNotApply(f"it is on {x.device}, not on the CPU")
    new = [name for name, make in (("x.cpu()", x.cpu), ("torch.as_tensor(x)", lambda: torch.as_tensor(x))) if attempt(name, make) is not x]
    if new:
        raise DoesNotHold(f"{' and '.join(new)} returned a new tensor")


@claim(
    "reshape.copies-where-view-raises",
    "tensor",
    "x.reshape(shape) shares x's memory where x.view(shape) works, and copies where x.view(shape) raises (tried with the shapes (-1,) and x's shape reversed).",
    "x.view(shape) 能用时，x.reshape(shape) 与 x 共用内存；x.view(shape) 报错时，x.reshape(shape) 复制（试过的形状是 (-1,) 和 x 的形状倒过来）。",
)
def _(sample):
    x = sample.tensor
    if x.layout != torch.strided:
        raise DoesNotApply("it has no strides")
    writable(x)
    for shape in ((-1,), tuple(reversed(x.shape))):
        try:
            x.view(shape)
            viewed = True
        except RuntimeError:
            viewed = False
        reshaped = attempt(f"x.reshape({shape})", lambda s=shape: x.reshape(s))
        if share_memory(reshaped, x) != viewed:
            what = "shares x's memory" if not viewed else "copies"
            raise DoesNotHold(f"x.view({shape}) {'works' if viewed else 'raises'}, and x.reshape({shape}) {what}")


@claim(
    "views.shift-refused-where-dense",
    "tensor",
    "Under torch.no_grad(), x[1:] = x[:-1], its slices sharing elements, raises RuntimeError (... refer to a single memory location) where both slices are dense, without gaps or overlaps, and nothing where either has gaps or overlaps.",
    "在 torch.no_grad() 下运行 x[1:] = x[:-1]（两个切片有共同的元素）：两个切片都紧密、无空隙也无重叠时，报 RuntimeError（... refer to a single memory location）；其中一个有空隙或重叠时，不报错。",
)
def _(sample):
    x = sample.tensor
    if x.layout != torch.strided:
        raise DoesNotApply("it has no strides")
    no_meta(x)
    if x.dim() == 0:
        raise DoesNotApply("it has no dimension to slice")
    later, earlier = x[1:], x[:-1]
    if not set(zoo.offsets(later)) & set(zoo.offsets(earlier)):
        raise DoesNotApply("x[1:] and x[:-1] share no element")

    def shift():
        with torch.no_grad():
            x[1:] = x[:-1]

    if all("dense" in zoo.memory_tags(t) for t in (later, earlier)):
        refused("x[1:] = x[:-1]", shift, words="single memory location")
    else:
        attempt("x[1:] = x[:-1]", shift)


@claim(
    "clone.not-a-view",
    "tensor",
    "x.clone() is not a view: its _base is None and _is_view() is False.",
    "x.clone() 不是视图：它的 _base 为 None，_is_view() 为 False。",
)
def _(sample):
    cloned = attempt("x.clone()", sample.tensor.clone)
    if cloned._base is not None or cloned._is_view():
        raise DoesNotHold(f"x.clone()._is_view() is {cloned._is_view()}")


@claim(
    "modes.four-ways-cut-x",
    "tensor",
    "Each of x.detach() * 2, x * 2 under torch.no_grad(), x * 2 under torch.inference_mode(), and, for a leaf x (requires_grad_(False) refuses a non-leaf), x * 2 after x.requires_grad_(False) does not require grad: no gradient flows from it back into x.",
    "x.detach() * 2、torch.no_grad() 下的 x * 2、torch.inference_mode() 下的 x * 2，以及（对叶子张量 x；requires_grad_(False) 拒绝非叶子张量）x.requires_grad_(False) 之后的 x * 2，都不需要梯度：梯度不会从它们流回 x。",
)
def _(sample):
    x = sample.tensor
    if not x.requires_grad:
        raise DoesNotApply("it does not require grad, so no gradient flows into it anyway")
    results = {"x.detach() * 2": attempt("x.detach() * 2", lambda: x.detach() * 2)}
    for name, mode in (("no_grad()", torch.no_grad), ("inference_mode()", torch.inference_mode)):
        with mode():
            results[f"x * 2 under {name}"] = attempt(f"x * 2 under {name}", lambda: x * 2)
    if x.is_leaf:
        attempt("x.requires_grad_(False)", lambda: x.requires_grad_(False))
        results["x * 2 after x.requires_grad_(False)"] = attempt("x * 2", lambda: x * 2)
    wrong = [name for name, y in results.items() if y.requires_grad]
    if wrong:
        raise DoesNotHold(f"{', '.join(wrong)} requires grad")


@claim(
    "modes.write-moves-x-version",
    "tensor",
    "An in-place write into x moves x._version whichever way x was kept out of the graph: through x.detach(), inside torch.no_grad(), inside torch.inference_mode(), or, for a leaf x, after x.requires_grad_(False).",
    "不论用哪种方式把 x 排除在计算图外，原地写入 x 都会改动 x._version：经由 x.detach()、在 torch.no_grad() 里、在 torch.inference_mode() 里，或（对叶子张量 x）在 x.requires_grad_(False) 之后。",
)
def _(sample):
    x = sample.tensor
    writable(x)
    counter(x)
    ways = {
        "through x.detach()": lambda: write(x.detach(), "d"),
        "under no_grad()": lambda: write_in(torch.no_grad, x),
        "under inference_mode()": lambda: write_in(torch.inference_mode, x),
    }
    if x.is_leaf:
        ways["after x.requires_grad_(False)"] = lambda: write(x.requires_grad_(False), "x")
    for name, way in ways.items():
        before = x._version
        what = attempt(f"a write {name}", way)
        if x._version == before:
            raise DoesNotHold(f"{what} {name} left x._version at {before}")


def write_in(mode, x):
    with mode():
        return write(x, "x")


@claim(
    "modes.enable-grad-inside-no-grad-records",
    "tensor",
    "x * 2 of an x that requires grad, computed under torch.enable_grad() nested in torch.no_grad(), has a grad_fn.",
    "对需要梯度的 x，在嵌套于 torch.no_grad() 中的 torch.enable_grad() 下计算的 x * 2 有 grad_fn。",
)
def _(sample):
    x = sample.tensor
    if not x.requires_grad:
        raise DoesNotApply("it does not require grad")
    with torch.no_grad(), torch.enable_grad():
        y = attempt("x * 2", lambda: x * 2)
    if y.grad_fn is None:
        raise DoesNotHold("x * 2 has no grad_fn")


@claim(
    "module.eval-sets-every-submodule",
    "module",
    "module.eval() sets the training flag of the module and of each of its submodules to False, and module.train() sets it back to True.",
    "module.eval() 把模块及其每个子模块的 training 标志设为 False，module.train() 再把它设回 True。",
)
def _(sample):
    module = sample.value
    module.eval()
    training = [name or "(the module)" for name, m in module.named_modules() if m.training]
    if training:
        raise DoesNotHold(f"after eval(), {', '.join(training)} still training")
    module.train()
    evaluating = [name or "(the module)" for name, m in module.named_modules() if not m.training]
    if evaluating:
        raise DoesNotHold(f"after train(), {', '.join(evaluating)} not training")


@claim(
    "requires_grad.off-refused-on-non-leaf",
    "tensor",
    "x.requires_grad_(False) raises when x is not a leaf, and on a leaf it runs and leaves x.requires_grad False.",
    "x 不是叶子张量时，x.requires_grad_(False) 会报错；x 是叶子张量时，它可以运行，之后 x.requires_grad 为 False。",
)
def _(sample):
    x = sample.tensor
    if not x.is_leaf:
        try:
            x.requires_grad_(False)
        except RuntimeError:
            return
        raise DoesNotHold("x is not a leaf, and x.requires_grad_(False) ran")
    attempt("x.requires_grad_(False)", lambda: x.requires_grad_(False))
    if x.requires_grad:
        raise DoesNotHold("after x.requires_grad_(False), x.requires_grad is still True")


@claim(
    "hooks.refused-without-grad",
    "tensor",
    "x.register_hook(fn) raises when x does not require grad.",
    "x 不需要梯度时，x.register_hook(fn) 会报错。",
)
def _(sample):
    x = sample.tensor
    if x.requires_grad:
        raise DoesNotApply("it requires grad")
    refused("x.register_hook(fn)", lambda: x.register_hook(lambda grad: grad))


@claim(
    "leaf.no-grad-fn",
    "tensor",
    "A leaf (x.is_leaf is True) has no grad_fn.",
    "叶子张量（x.is_leaf 为 True）没有 grad_fn。",
)
def _(sample):
    x = sample.tensor
    if not x.is_leaf:
        raise DoesNotApply("it is not a leaf")
    if x.grad_fn is not None:
        raise DoesNotHold(f"x.is_leaf is True, and x.grad_fn is {type(x.grad_fn).__name__}")


@claim(
    "view.base-is-root",
    "tensor",
    "The _base of a view (x._is_view() is True) is not itself a view: it is the root of the chain of views.",
    "视图（x._is_view() 为 True）的 _base 本身不是视图：它是视图链最开头的那个张量。",
)
def _(sample):
    x = sample.tensor
    if not x._is_view():
        raise DoesNotApply("x._is_view() is False")
    if x._base is None or x._base._is_view():
        raise DoesNotHold("x._base is None" if x._base is None else "x._base is itself a view")


@claim(
    "backward.needs-one-element",
    "tensor",
    "backward() without an argument raises on an output with more than one element, and runs on one with a single element.",
    "不带参数调用时，backward() 对多于一个元素的输出报错，对只有一个元素的输出可以运行。",
)
def _(sample):
    x = sample.tensor
    if not x.requires_grad:
        raise DoesNotApply("it does not require grad, so nothing computed from it has a graph")
    if x.layout != torch.strided or x.is_complex():
        raise DoesNotApply("x * 2 of it is not a real dense output to call backward() on")
    with sample.around():
        y = x * 2
    if y.numel() > 1:
        try:
            y.backward()
        except RuntimeError:
            return
        raise DoesNotHold(f"backward() ran on an output of {y.numel()} elements")
    attempt("backward() of a one-element output", y.backward)


# (end of the sweep B block)

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
