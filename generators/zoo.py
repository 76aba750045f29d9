"""The input zoo: named kinds of tensor, module and optimizer that a general sentence is tried on; run as a program, it prints each kind with its tags."""

# A sentence that speaks of "a tensor" holds only for the kinds of tensor it was tried on. This
# module makes those kinds on demand, each fresh, by a short name that stays stable (claims,
# pages and other generators name kinds by it): `make("sparse-coo")`. Each kind has a one-line
# description in English and in Chinese, and tags that name groups of kinds: the tags a kind
# declares say how it was made (`made-under-no-grad`, `saved-tensor-hooks`); the rest are read
# off the tensor it made (dtype, layout, contiguity, leaf, view, inference ...: tags()).
#
# Standard library and torch only. Tensors are made on the default device, so the zoo also runs
# under torch.set_default_device("cuda"); the kinds that name another device (`meta`) or memory
# torch does not own (`float32-frombuffer`) say so. Imported by the generators beside it
# (generators/claims.py); run as a program it prints the catalogue (its transcript is
# transcripts/<device>/generators/zoo.txt, so a renamed or changed kind shows in review).

import array
import contextlib
import dataclasses
import itertools
import warnings

import torch


@dataclasses.dataclass(frozen=True)
class Kind:
    """A named kind of input: how to make one, and what it is, in English and in Chinese."""

    name: str
    en: str
    zh: str
    maker: object  # () -> the value, or (value, base), or a Sample's fields as a dict
    declared: tuple = ()  # tags about how it was made; tags() adds those read off the value
    zoo: str = "tensor"  # "tensor", "module" or "optimizer"


@dataclasses.dataclass
class Sample:
    """One fresh input of a kind, with what a check may need besides it."""

    kind: Kind
    value: object  # the tensor; a module; (module, optimizer)
    base: object = None  # the tensor this one is a view or slice of, where it has one
    around: object = contextlib.nullcontext  # () -> a context to compute with it in
    warnings: tuple = ()  # "Category: message" of each warning raised while making it

    @property
    def tensor(self):
        return self.value


def values(shape, dtype=torch.float32):
    """1, 2, 3 ... in `shape` (never 0, so that a write of 0 shows); alternating for bool. A
    tensor of its own, not a view of the range it was made from."""
    count = 1
    for size in shape:
        count *= size
    flat = torch.arange(1, count + 1)
    if dtype == torch.bool:
        flat = flat % 2 == 1
    elif dtype.is_complex:
        flat = torch.complex(flat.float(), -flat.float()).to(dtype)
    else:
        flat = flat.to(dtype)
    return flat.reshape(shape).clone()


def leaf(shape=(3, 4), dtype=torch.float32):
    """A leaf tensor that requires grad."""
    return values(shape, dtype).requires_grad_()


def sparse_coo(coalesced=True, requires_grad=False):
    """A 3x4 sparse COO tensor with three values (two of them at one index when uncoalesced)."""
    indices = torch.tensor([[0, 1, 2, 2], [1, 3, 0, 0]] if not coalesced else [[0, 1, 2], [1, 3, 0]])
    data = torch.arange(1.0, indices.shape[1] + 1)
    tensor = torch.sparse_coo_tensor(indices, data, (3, 4), check_invariants=True)
    tensor = tensor.coalesce() if coalesced else tensor
    return tensor.requires_grad_(requires_grad)


def frombuffer():
    buffer = bytearray(array.array("f", range(1, 13)).tobytes())
    return torch.frombuffer(buffer, dtype=torch.float32)


def after_backward(create_graph):
    """A leaf whose .grad a backward() filled in (with create_graph: a .grad with history)."""
    x = leaf()
    (x * x).sum().backward(create_graph=create_graph)
    return x


def retaining():
    y = leaf() * 2
    y.retain_grad()
    return y


def with_hook():
    x = leaf()
    x.register_hook(lambda grad: grad * 2)
    return x


def saved_tensor_hooks_copy():
    """A leaf to compute with under saved-tensor hooks that save a copy of each saved tensor."""

    def around():
        return torch.autograd.graph.saved_tensors_hooks(lambda t: t.clone(), lambda t: t)

    return {"value": leaf(), "around": around}


class Subclass(torch.Tensor):
    """A subclass of torch.Tensor that adds nothing."""


def no_grad(make):
    with torch.no_grad():
        return make()


def inference(make):
    with torch.inference_mode():
        return make()


def enable_grad_in_no_grad(make):
    with torch.no_grad(), torch.enable_grad():
        return make()


def inference_false_inside(make):
    with torch.inference_mode(), torch.inference_mode(False):
        return make()


def view_of(base, view):
    """(a view of `base` made by `view`, the base)."""
    return view(base), base


def in_mode(mode, base, view):
    """A view of `base` made inside a grad mode, and its base."""
    return mode(lambda: view(base)), base


def complex_part(part):
    z = values((3, 4), torch.complex64)
    return part(z), z


# ---------------------------------------------------------------------------------------------
# The kinds of tensor. (name, English, Chinese, maker, declared tags)

K = Kind
TENSORS = [
    # How the values lie in memory (float32, no grad)
    K(
        "float32-contiguous",
        "A 3x4 float32 tensor in row-major order.",
        "一个按行连续存放的 3x4 float32 张量。",
        lambda: values((3, 4)),
    ),
    K(
        "float32-0d",
        "A tensor with no dimensions: one number.",
        "没有维度的张量：只有一个数。",
        lambda: torch.tensor(3.0),
    ),
    K(
        "float32-empty",
        "A 0x3 tensor: no elements.",
        "形状为 0x3 的张量：没有元素。",
        lambda: torch.empty(0, 3),
    ),
    K(
        "float32-transposed",
        "The transpose of a 4x3 tensor: a view, dense but not row-major.",
        "4x3 张量的转置：视图，紧密但不是按行存放。",
        lambda: view_of(values((4, 3)), lambda b: b.t()),
    ),
    K(
        "float32-permuted",
        "A 2x3x4 tensor with its dimensions permuted (2, 0, 1): dense, not row-major.",
        "维度按 (2, 0, 1) 重排的 2x3x4 张量：紧密，但不是按行存放。",
        lambda: view_of(values((2, 3, 4)), lambda b: b.permute(2, 0, 1)),
    ),
    K(
        "float32-stepped",
        "Every other column of a 4x6 tensor ([:, ::2]): gaps between the values.",
        "4x6 张量每隔一列取一列（[:, ::2]）：值之间有空隙。",
        lambda: view_of(values((4, 6)), lambda b: b[:, ::2]),
    ),
    K(
        "float32-gapped-transposed",
        "Every other column of a transposed 4x8 tensor (.t()[:, ::2]): gaps, strides not in row-major order.",
        "转置后的 4x8 张量每隔一列取一列（.t()[:, ::2]）：有空隙，步长也不是按行的顺序。",
        lambda: view_of(values((4, 8)), lambda b: b.t()[:, ::2]),
    ),
    K(
        "float32-expanded",
        "One row of 3 shown 4 times by expand(): a stride of 0.",
        "用 expand() 把一行 3 个值显示成 4 行：步长为 0。",
        lambda: view_of(values((3,)), lambda b: b.expand(4, 3)),
    ),
    K(
        "float32-overlapping",
        "as_strided() over 10 values with shape (4, 3) and strides (2, 1): rows overlap.",
        "用 as_strided() 在 10 个值上取形状 (4, 3)、步长 (2, 1)：各行互相重叠。",
        lambda: view_of(values((10,)), lambda b: b.as_strided((4, 3), (2, 1))),
    ),
    K(
        "float32-overlapping-columns",
        "as_strided() over 10 values with shape (3, 4) and strides (1, 2): columns overlap, and the strides are not in row-major order.",
        "用 as_strided() 在 10 个值上取形状 (3, 4)、步长 (1, 2)：各列互相重叠，步长也不是按行的顺序。",
        lambda: view_of(values((10,)), lambda b: b.as_strided((3, 4), (1, 2))),
    ),
    K(
        "float32-storage-offset",
        "A 3x4 view of elements 10 to 21 of a 40-element tensor: part of a larger storage.",
        "40 个元素的张量中第 10 到 21 个元素的 3x4 视图：只占一块更大存储的一部分。",
        lambda: view_of(values((40,)), lambda b: b[10:22].view(3, 4)),
        ("storage-offset",),
    ),
    K(
        "float32-detached-slice",
        "The same slice, detached: not a view in autograd's terms, but still part of the larger storage.",
        "同样的切片再调用 detach()：按自动求导的说法不是视图，但仍是那块更大存储的一部分。",
        lambda: view_of(values((40,)), lambda b: b[10:22].view(3, 4).detach()),
        ("storage-offset",),
    ),
    K(
        "float32-4d",
        "A 2x3x4x4 tensor in row-major order (NCHW).",
        "按行连续存放的 2x3x4x4 张量（NCHW）。",
        lambda: values((2, 3, 4, 4)),
    ),
    K(
        "float32-channels-last",
        "A 2x3x4x4 tensor in channels_last memory format (NHWC order in memory).",
        "内存格式为 channels_last 的 2x3x4x4 张量（内存中按 NHWC 顺序）。",
        lambda: values((2, 3, 4, 4)).contiguous(memory_format=torch.channels_last),
    ),
    K(
        "float32-channels-last-sliced",
        "Every other row and column of a channels_last tensor ([:, :, ::2, ::2]): gaps, channels_last order.",
        "channels_last 张量每隔一行一列取值（[:, :, ::2, ::2]）：有空隙，顺序仍是 channels_last。",
        lambda: view_of(values((2, 3, 4, 4)).contiguous(memory_format=torch.channels_last), lambda b: b[:, :, ::2, ::2]),
    ),
    K(
        "float32-frombuffer",
        "A tensor of 12 values over a Python bytearray (torch.frombuffer): memory torch did not allocate, a storage that cannot grow; always in CPU memory.",
        "建在 Python bytearray 上、有 12 个值的张量（torch.frombuffer）：内存不是 torch 分配的，存储不能变大；总在 CPU 内存中。",
        frombuffer,
        ("foreign-memory",),
    ),
    K(
        "float32-meta",
        "A tensor on the meta device: shape and dtype, no memory, no values.",
        "meta 设备上的张量：有形状和数据类型，没有内存，也没有值。",
        lambda: torch.empty(3, 4, device="meta"),
    ),
    # Dtypes and the conjugate and negative bits
    K(
        "float16-contiguous",
        "A 3x4 float16 tensor.",
        "3x4 的 float16 张量。",
        lambda: values((3, 4), torch.float16),
    ),
    K(
        "bfloat16-contiguous",
        "A 3x4 bfloat16 tensor.",
        "3x4 的 bfloat16 张量。",
        lambda: values((3, 4), torch.bfloat16),
    ),
    K(
        "float64-contiguous",
        "A 3x4 float64 tensor.",
        "3x4 的 float64 张量。",
        lambda: values((3, 4), torch.float64),
    ),
    K(
        "int64-contiguous",
        "A 3x4 int64 tensor.",
        "3x4 的 int64 张量。",
        lambda: values((3, 4), torch.int64),
    ),
    K(
        "int32-contiguous",
        "A 3x4 int32 tensor.",
        "3x4 的 int32 张量。",
        lambda: values((3, 4), torch.int32),
    ),
    K(
        "uint8-contiguous",
        "A 3x4 uint8 tensor.",
        "3x4 的 uint8 张量。",
        lambda: values((3, 4), torch.uint8),
    ),
    K(
        "bool-contiguous",
        "A 3x4 bool tensor.",
        "3x4 的 bool 张量。",
        lambda: values((3, 4), torch.bool),
    ),
    K(
        "float8-e4m3fn-contiguous",
        "A 3x4 float8_e4m3fn tensor: 8-bit floating point, which few operations accept.",
        "3x4 的 float8_e4m3fn 张量：8 位浮点数，支持它的运算很少。",
        lambda: values((3, 4)).to(torch.float8_e4m3fn),
    ),
    K(
        "complex64-contiguous",
        "A 3x4 complex64 tensor.",
        "3x4 的 complex64 张量。",
        lambda: values((3, 4), torch.complex64),
    ),
    K(
        "complex128-contiguous",
        "A 3x4 complex128 tensor.",
        "3x4 的 complex128 张量。",
        lambda: values((3, 4), torch.complex128),
    ),
    K(
        "complex64-conj",
        "z.conj() of a complex64 z: a view with the conjugate bit set, nothing computed yet.",
        "complex64 张量 z 的 z.conj()：设置了共轭位的视图，还没有计算任何值。",
        lambda: complex_part(lambda z: z.conj()),
    ),
    K(
        "complex64-transposed",
        "The transpose of a complex64 tensor.",
        "complex64 张量的转置。",
        lambda: view_of(values((4, 3), torch.complex64), lambda b: b.t()),
    ),
    K(
        "float32-neg-bit",
        "z.conj().imag of a complex64 z: a float32 view with the negative bit set.",
        "complex64 张量 z 的 z.conj().imag：设置了取负位的 float32 视图。",
        lambda: complex_part(lambda z: z.conj().imag),
    ),
    K(
        "float32-real-of-complex",
        "z.real of a complex64 z: a float32 view that reads every other float of z's memory.",
        "complex64 张量 z 的 z.real：float32 视图，每隔一个浮点数读取 z 的内存。",
        lambda: complex_part(lambda z: z.real),
    ),
    K(
        "float32-view-as-real",
        "torch.view_as_real(z) of a complex64 z: a 3x4x2 float32 view of its memory.",
        "complex64 张量 z 的 torch.view_as_real(z)：它的内存上的 3x4x2 float32 视图。",
        lambda: complex_part(torch.view_as_real),
    ),
    K(
        "complex64-view-as-complex",
        "torch.view_as_complex() of a 3x4x2 float32 tensor: a complex64 view of its memory.",
        "3x4x2 float32 张量的 torch.view_as_complex()：它的内存上的 complex64 视图。",
        lambda: view_of(values((3, 4, 2)), torch.view_as_complex),
    ),
    K(
        "float32-viewed-as-int32",
        "x.view(torch.int32) of a float32 x: the same bytes read as another dtype.",
        "float32 张量 x 的 x.view(torch.int32)：把同样的字节当作另一种数据类型读取。",
        lambda: view_of(values((3, 4)), lambda b: b.view(torch.int32)),
    ),
    K(
        "int64-transposed",
        "The transpose of an int64 tensor.",
        "int64 张量的转置。",
        lambda: view_of(values((4, 3), torch.int64), lambda b: b.t()),
    ),
    K(
        "bool-stepped",
        "Every other column of a bool tensor.",
        "bool 张量每隔一列取一列。",
        lambda: view_of(values((4, 6), torch.bool), lambda b: b[:, ::2]),
    ),
    K(
        "complex64-requires-grad",
        "A complex64 leaf that requires grad.",
        "需要梯度的 complex64 叶子张量。",
        lambda: leaf(dtype=torch.complex64),
    ),
    K(
        "complex64-conj-of-leaf",
        "z.conj() of a complex64 leaf that requires grad: a conjugate view with history.",
        "需要梯度的 complex64 叶子张量的 z.conj()：带历史的共轭视图。",
        lambda: view_of(leaf(dtype=torch.complex64), lambda b: b.conj()),
    ),
    # Sparse layouts
    K(
        "sparse-coo",
        "A coalesced 3x4 sparse COO tensor with three values.",
        "已合并（coalesced）的 3x4 稀疏 COO 张量，有三个值。",
        sparse_coo,
    ),
    K(
        "sparse-coo-uncoalesced",
        "A sparse COO tensor that lists one index twice (not coalesced).",
        "同一个索引出现两次的稀疏 COO 张量（未合并）。",
        lambda: sparse_coo(coalesced=False),
    ),
    K(
        "sparse-coo-requires-grad",
        "A coalesced sparse COO leaf that requires grad.",
        "需要梯度的已合并稀疏 COO 叶子张量。",
        lambda: sparse_coo(requires_grad=True),
    ),
    K(
        "sparse-coo-hybrid",
        "A sparse COO tensor of shape 3x3 with rows as its values: one sparse dimension, one dense.",
        "形状 3x3 的稀疏 COO 张量，值是整行：一个稀疏维度，一个稠密维度。",
        lambda: torch.sparse_coo_tensor(torch.tensor([[0, 2]]), values((2, 3)), (3, 3)).coalesce(),
    ),
    K(
        "sparse-csr",
        "The 3x4 tensor in sparse CSR layout.",
        "稀疏 CSR 布局的 3x4 张量。",
        lambda: sparse_coo().to_sparse_csr(),
    ),
    K(
        "sparse-csc",
        "The 3x4 tensor in sparse CSC layout.",
        "稀疏 CSC 布局的 3x4 张量。",
        lambda: sparse_coo().to_sparse_csc(),
    ),
    K(
        "sparse-bsr",
        "A 4x4 tensor in sparse BSR layout: 2x2 blocks, compressed by rows.",
        "稀疏 BSR 布局的 4x4 张量：2x2 的块，按行压缩。",
        lambda: values((4, 4)).to_sparse_bsr((2, 2)),
    ),
    K(
        "sparse-bsc",
        "A 4x4 tensor in sparse BSC layout: 2x2 blocks, compressed by columns.",
        "稀疏 BSC 布局的 4x4 张量：2x2 的块，按列压缩。",
        lambda: values((4, 4)).to_sparse_bsc((2, 2)),
    ),
    # Autograd roles
    K(
        "leaf-requires-grad",
        "A float32 leaf that requires grad.",
        "需要梯度的 float32 叶子张量。",
        leaf,
    ),
    K(
        "non-leaf",
        "x * 2 of a leaf x that requires grad: has a grad_fn.",
        "需要梯度的叶子张量 x 算出的 x * 2：有 grad_fn。",
        lambda: leaf() * 2,
    ),
    K(
        "non-leaf-retains-grad",
        "A non-leaf after retain_grad().",
        "调用过 retain_grad() 的非叶子张量。",
        retaining,
        ("retains-grad",),
    ),
    K(
        "parameter",
        "An nn.Parameter.",
        "一个 nn.Parameter。",
        lambda: torch.nn.Parameter(values((3, 4))),
    ),
    K(
        "parameter-no-grad",
        "An nn.Parameter made with requires_grad=False.",
        "用 requires_grad=False 创建的 nn.Parameter。",
        lambda: torch.nn.Parameter(values((3, 4)), requires_grad=False),
    ),
    K(
        "view-of-leaf",
        "x[1:] of a leaf x that requires grad: a view with a grad_fn.",
        "需要梯度的叶子张量 x 的 x[1:]：带 grad_fn 的视图。",
        lambda: view_of(leaf(), lambda b: b[1:]),
    ),
    K(
        "view-of-view",
        "x.view(2, 6)[:, ::2] of a leaf x that requires grad: a view of a view; its _base is x.",
        "需要梯度的叶子张量 x 的 x.view(2, 6)[:, ::2]：视图的视图，它的 _base 是 x。",
        lambda: view_of(leaf(), lambda b: b.view(2, 6)[:, ::2]),
    ),
    K(
        "view-of-non-leaf",
        "y[1:] of y = x * 2, x a leaf that requires grad.",
        "y = x * 2（x 是需要梯度的叶子张量）的 y[1:]。",
        lambda: view_of(leaf() * 2, lambda b: b[1:]),
    ),
    K(
        "view-of-parameter",
        "p[1:] of an nn.Parameter p.",
        "nn.Parameter p 的 p[1:]。",
        lambda: view_of(torch.nn.Parameter(values((3, 4))), lambda b: b[1:]),
    ),
    K(
        "parameter-over-slice",
        "An nn.Parameter made from a slice of a larger tensor: it reads part of that tensor's storage.",
        "用一个更大张量的切片创建的 nn.Parameter：它读的是那块存储的一部分。",
        lambda: view_of(values((40,)), lambda b: torch.nn.Parameter(b[10:22].view(3, 4))),
        ("storage-offset",),
    ),
    K(
        "leaf-with-grad",
        "A leaf whose .grad a backward() has filled in.",
        "已由 backward() 填好 .grad 的叶子张量。",
        lambda: after_backward(False),
    ),
    K(
        "leaf-grad-has-history",
        "A leaf after backward(create_graph=True): its .grad has a grad_fn.",
        "调用 backward(create_graph=True) 之后的叶子张量：它的 .grad 带有 grad_fn。",
        lambda: after_backward(True),
        ("create-graph",),
    ),
    K(
        "leaf-with-hook",
        "A leaf that requires grad, with a hook registered by register_hook().",
        "需要梯度、用 register_hook() 注册了钩子的叶子张量。",
        with_hook,
        ("hooked",),
    ),
    K(
        "computed-from-no-grad-inputs",
        "a * 2 of a tensor a that needs no grad: computed, yet a leaf.",
        "不需要梯度的张量 a 算出的 a * 2：是算出来的，却是叶子张量。",
        lambda: values((3, 4)) * 2,
    ),
    K(
        "detached-leaf",
        "x.detach() of a leaf x that requires grad.",
        "需要梯度的叶子张量 x 的 x.detach()。",
        lambda: view_of(leaf(), lambda b: b.detach()),
    ),
    K(
        "tensor-subclass",
        "An instance of a subclass of torch.Tensor (as_subclass).",
        "torch.Tensor 子类的实例（as_subclass）。",
        lambda: values((3, 4)).as_subclass(Subclass),
    ),
    K(
        "saved-tensor-hooks-copy",
        "A leaf that requires grad, used under saved-tensor hooks that save a copy.",
        "需要梯度的叶子张量，在保存副本的保存张量钩子（saved-tensor hooks）下参与计算。",
        saved_tensor_hooks_copy,
        ("saved-tensor-hooks",),
    ),
    # Made under a grad mode
    K(
        "computed-under-no-grad",
        "x * 2 of a leaf x that requires grad, computed under no_grad().",
        "在 no_grad() 下由需要梯度的叶子张量 x 算出的 x * 2。",
        lambda: no_grad(lambda: leaf() * 2),
        ("made-under-no-grad",),
    ),
    K(
        "view-made-under-no-grad",
        "x[1:] of a leaf x that requires grad, taken under no_grad().",
        "在 no_grad() 下取的 x[1:]，x 是需要梯度的叶子张量。",
        lambda: in_mode(no_grad, leaf(), lambda b: b[1:]),
        ("made-under-no-grad",),
    ),
    K(
        "computed-enable-grad-in-no-grad",
        "x * 2 computed under enable_grad() nested in no_grad().",
        "在嵌套于 no_grad() 之内的 enable_grad() 下算出的 x * 2。",
        lambda: enable_grad_in_no_grad(lambda: leaf() * 2),
        ("enable-grad-in-no-grad",),
    ),
    K(
        "inference-tensor",
        "A tensor made inside inference_mode(): an inference tensor.",
        "在 inference_mode() 中创建的张量：推理张量。",
        lambda: inference(lambda: values((3, 4))),
        ("made-in-inference-mode",),
    ),
    K(
        "inference-tensor-requires-grad",
        "A tensor made inside inference_mode() and set to require grad there: an inference leaf that requires grad.",
        "在 inference_mode() 中创建并在其中设为需要梯度的张量：需要梯度的推理叶子张量。",
        lambda: inference(lambda: values((3, 4)).requires_grad_()),
        ("made-in-inference-mode",),
    ),
    K(
        "computed-in-inference-mode",
        "x * 2 of a leaf x that requires grad, computed inside inference_mode().",
        "在 inference_mode() 中由需要梯度的叶子张量 x 算出的 x * 2。",
        lambda: inference(lambda: leaf() * 2),
        ("made-in-inference-mode",),
    ),
    K(
        "view-made-in-inference-mode",
        "x[1:] of an ordinary tensor x, taken inside inference_mode().",
        "在 inference_mode() 中对普通张量 x 取的 x[1:]。",
        lambda: in_mode(inference, values((3, 4)), lambda b: b[1:]),
        ("made-in-inference-mode",),
    ),
    K(
        "view-of-leaf-made-in-inference-mode",
        "x[1:] of a leaf x that requires grad, taken inside inference_mode().",
        "在 inference_mode() 中取的 x[1:]，x 是需要梯度的叶子张量。",
        lambda: in_mode(inference, leaf(), lambda b: b[1:]),
        ("made-in-inference-mode",),
    ),
    K(
        "inference-mode-false-inside",
        "A tensor made under inference_mode(False) nested in inference_mode().",
        "在嵌套于 inference_mode() 之内的 inference_mode(False) 下创建的张量。",
        lambda: inference_false_inside(lambda: values((3, 4))),
        ("inference-mode-false-inside",),
    ),
]


# ---------------------------------------------------------------------------------------------
# Modules and optimizers


class WithBuffers(torch.nn.Module):
    """A linear layer with a persistent buffer (`shift`) and a non-persistent one (`scale`)."""

    def __init__(self):
        super().__init__()
        self.linear = torch.nn.Linear(3, 2)
        self.register_buffer("shift", values((2,)))
        self.register_buffer("scale", values((2,)) * 10, persistent=False)

    def forward(self, x):
        return self.linear(x) * self.scale + self.shift


class Tied(torch.nn.Module):
    """An embedding and an output layer that share one weight Parameter."""

    def __init__(self):
        super().__init__()
        self.embed = torch.nn.Embedding(4, 3)
        self.out = torch.nn.Linear(3, 4, bias=False)
        self.out.weight = self.embed.weight

    def forward(self, x):
        return self.out(self.embed(x))


def hooked_linear():
    layer = torch.nn.Linear(3, 2)
    layer.register_forward_pre_hook(lambda module, args: None)
    layer.register_forward_hook(lambda module, args, output: None)
    layer.weight.register_hook(lambda grad: grad)
    return layer


def trained(module):
    """The module after one forward and backward pass: its parameters have a .grad."""
    module(torch.ones(2, 3)).sum().backward()
    return module


def frozen():
    layer = torch.nn.Linear(3, 2)
    layer.requires_grad_(False)
    return layer


def stepped(optimizer_class, **options):
    """A Linear(3, 2) and an optimizer of it after one step: (module, optimizer)."""
    module = torch.nn.Linear(3, 2)
    optimizer = optimizer_class(module.parameters(), lr=0.1, **options)
    module(torch.ones(2, 3)).sum().backward()
    optimizer.step()
    return {"value": (module, optimizer)}


def repeated():
    layer = torch.nn.Linear(3, 3)
    return torch.nn.Sequential(*[layer] * 3)


M = lambda *args: Kind(*args, zoo="module")
MODULES = [
    M(
        "linear",
        "An nn.Linear(3, 2).",
        "一个 nn.Linear(3, 2)。",
        lambda: torch.nn.Linear(3, 2),
    ),
    M(
        "batchnorm",
        "An nn.BatchNorm1d(3): buffers for the running statistics and an int64 counter.",
        "一个 nn.BatchNorm1d(3)：有记录滑动统计量的缓冲区和一个 int64 计数器。",
        lambda: torch.nn.BatchNorm1d(3),
    ),
    M(
        "non-persistent-buffer",
        "A module with a persistent buffer and a non-persistent one (persistent=False).",
        "有一个持久缓冲区和一个非持久缓冲区（persistent=False）的模块。",
        WithBuffers,
    ),
    M(
        "tied-weights",
        "An embedding and an output layer that share one weight Parameter.",
        "嵌入层和输出层共用同一个权重 Parameter。",
        Tied,
        ("tied",),
    ),
    M(
        "repeated-layer",
        "nn.Sequential(*[layer] * 3): one layer object three times.",
        "nn.Sequential(*[layer] * 3)：同一个层对象出现三次。",
        repeated,
        ("tied",),
    ),
    M(
        "with-hooks",
        "A Linear with a forward pre-hook, a forward hook and a hook on its weight.",
        "带前向预钩子、前向钩子，权重上也注册了钩子的 Linear。",
        hooked_linear,
        ("hooked",),
    ),
    M(
        "weight-norm",
        "A Linear with weight norm (torch.nn.utils.parametrizations.weight_norm): its weight is computed.",
        "加了权重归一化的 Linear（torch.nn.utils.parametrizations.weight_norm）：它的权重是算出来的。",
        lambda: torch.nn.utils.parametrizations.weight_norm(torch.nn.Linear(3, 2)),
        ("parametrized",),
    ),
    M(
        "frozen",
        "A Linear whose parameters do not require grad.",
        "参数都不需要梯度的 Linear。",
        frozen,
    ),
    M(
        "with-grad",
        "A Linear after one backward(): its parameters have a .grad.",
        "做过一次 backward() 的 Linear：它的参数有 .grad。",
        lambda: trained(torch.nn.Linear(3, 2)),
        ("has-grad",),
    ),
    M(
        "lstm",
        "An nn.LSTM(3, 2): its weights kept in one flat buffer where the backend uses one.",
        "一个 nn.LSTM(3, 2)：后端需要时，它的权重放在一块连续的缓冲区里。",
        lambda: torch.nn.LSTM(3, 2),
    ),
]

O = lambda *args: Kind(*args, zoo="optimizer")
OPTIMIZERS = [
    O(
        "sgd",
        "Plain SGD after one step: no state.",
        "走过一步的普通 SGD：没有状态。",
        lambda: stepped(torch.optim.SGD),
    ),
    O(
        "sgd-momentum",
        "SGD with momentum=0.9 after one step: a momentum buffer per parameter.",
        "momentum=0.9 的 SGD 走过一步：每个参数有一个动量缓冲区。",
        lambda: stepped(torch.optim.SGD, momentum=0.9),
        ("stateful",),
    ),
    O(
        "adam",
        "Adam after one step: exp_avg, exp_avg_sq and step per parameter.",
        "走过一步的 Adam：每个参数有 exp_avg、exp_avg_sq 和 step。",
        lambda: stepped(torch.optim.Adam),
        ("stateful",),
    ),
]

ZOOS = {"tensor": TENSORS, "module": MODULES, "optimizer": OPTIMIZERS}
KINDS = {kind.name: kind for kind in itertools.chain(*ZOOS.values())}


def kind(name):
    """The kind of that name; a KeyError names the known ones."""
    if name not in KINDS:
        raise KeyError(f"no kind {name!r} in generators/zoo.py; known: {', '.join(KINDS)}")
    return KINDS[name]


def make(name_or_kind):
    """A fresh Sample of the kind; warnings raised while making it are kept, not shown."""
    chosen = kind(name_or_kind) if isinstance(name_or_kind, str) else name_or_kind
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        made = chosen.maker()
    if isinstance(made, dict):
        sample = Sample(chosen, **made)
    elif isinstance(made, tuple) and chosen.zoo == "tensor":
        sample = Sample(chosen, made[0], base=made[1])
    else:
        sample = Sample(chosen, made)
    sample.warnings = tuple(f"{w.category.__name__}: {w.message}" for w in caught)
    return sample


def offsets(tensor):
    """The storage offsets of every element of a strided tensor (small tensors only)."""
    ranges = [range(size) for size in tensor.shape]
    start = tensor.storage_offset()
    return [
        start + sum(i * s for i, s in zip(index, tensor.stride()))
        for index in itertools.product(*ranges)
    ]


def memory_tags(tensor):
    """dense / gapped / overlapping, contiguous or not, channels-last: read off the strides."""
    found = set()
    where = offsets(tensor)
    if len(set(where)) < len(where):
        found.add("overlapping")
    elif where and max(where) - min(where) + 1 != len(where):
        found.add("gapped")
    else:
        found.add("dense")
    if 0 in tensor.stride() and tensor.numel() > 1:
        found.add("zero-stride")
    found.add("contiguous" if tensor.is_contiguous() else "non-contiguous")
    strides = tensor.stride()
    if tensor.dim() == 4 and sorted(range(4), key=lambda d: -strides[d]) == [0, 2, 3, 1]:
        found.add("channels-last")  # the channel dimension is the one next in memory
    if tensor.storage_offset():
        found.add("storage-offset")
    return found


def tensor_tags(tensor):
    """What a tensor is, read off it."""
    dtype = str(tensor.dtype).removeprefix("torch.")
    found = {dtype, tensor.layout.__repr__().removeprefix("torch.").replace("_", "-")}
    if tensor.dtype.is_complex:
        found.add("complex")
    else:
        found.add("real")
        found.add("floating" if tensor.dtype.is_floating_point else "integral")
    if tensor.dtype == torch.bool:
        found.add("bool")
    if tensor.layout != torch.strided:
        found.add("sparse")
    found.add(f"{tensor.dim()}d")
    if tensor.numel() == 0:
        found.add("empty")
    if tensor.is_meta:
        found.add("meta")
    if tensor.is_conj():
        found.add("conj-bit")
    if tensor.is_neg():
        found.add("neg-bit")
    found.add("requires-grad" if tensor.requires_grad else "no-grad")
    found.add("leaf" if tensor.is_leaf else "non-leaf")
    if isinstance(tensor, torch.nn.Parameter):
        found.add("parameter")
    elif type(tensor) is not torch.Tensor:
        found.add("subclass")
    if tensor.is_inference():
        found.add("inference")
    if tensor._is_view():
        found.add("view")
        if tensor._base is not None and tensor._base._is_view():
            found.add("view-of-view")
    if tensor.is_leaf and tensor.grad is not None:
        found.add("has-grad")
        if tensor.grad.grad_fn is not None:
            found.add("grad-has-history")
    if tensor.layout == torch.strided:
        found |= memory_tags(tensor)
    return found


def tags(sample):
    """A sample's tags, sorted: those its kind declares and those read off what it made."""
    found = set(sample.kind.declared)
    if sample.kind.zoo == "tensor":
        found |= tensor_tags(sample.tensor)
    if sample.kind.zoo == "module":
        module = sample.value
        if list(module.buffers()):
            found.add("buffers")
        if any(not p.requires_grad for p in module.parameters()):
            found.add("no-grad")
    return tuple(sorted(found))


def select(zoo_name, items):
    """The names of the kinds of a zoo that are named, or carry a tag named, in `items`."""
    chosen = []
    for entry in ZOOS[zoo_name]:
        if entry.name in items or set(tags(make(entry))) & set(items):
            chosen.append(entry.name)
    return chosen


if __name__ == "__main__":
    device = torch.empty(0).device.type
    for name, entries in ZOOS.items():
        print(f"kinds of {name} on {device}: {len(entries)}")
    print()
    print("| kind | zoo | tags | warnings when made |")
    print("| --- | --- | --- | --- |")
    for entry in itertools.chain(*ZOOS.values()):
        sample = make(entry)
        warned = " / ".join(sample.warnings) or "-"
        print(f"| {entry.name} | {entry.zoo} | {' '.join(tags(sample))} | {warned} |")
