"""Every error message and warning the error atlas explains, as the installed torch prints it: for each, the code that triggers it, the message in full, and the fix, run, with what it printed."""

import contextlib
import dataclasses
import io
import textwrap
import warnings

import torch

# How each entry is printed (whatcopy/reference/atlas.py reads it back; the page is drawn from
# it): a line `entry: <id> | <topic>`, then blocks, each a line that names it and its text
# indented by four spaces:
#   code:                     the trigger, run after PRELUDE in a namespace of its own
#   raises <Exception>:       the message, str(exception), as torch (or Python) wrote it
#   warns <Category>:         the message of a warning the trigger raised
#   fix:                      the fix, run the same way
#   after the fix, nothing raised or warned:   what the fix printed
# A message is printed whole. Three things a doctest transcript cannot hold are written as a
# terminal shows them: tabs expanded (tab stops of 8), a line of only spaces left empty, line
# breaks at the very end dropped.
#
# Each entry names where its message comes from in torch 2.13's source (`source`: the file and
# function, as TORCH_SHOW_CPP_STACKTRACES=1 or the Python traceback names them;
# tests/test_error_atlas.py checks them) and, where one was found, a public thread in which a
# learner met it (`seen`). The cause and the fix in words, per language, and the section of
# the site that explains it, are in docs/error_atlas.yaml.
PRELUDE = "import copy\nimport numpy as np\nimport torch"
FEWEST = 60  # fewer messages than this means entries stopped raising: the atlas would be thin
DEVICE = torch.empty(0).device.type  # "cuda" when run under torch.set_default_device("cuda")
TOPICS = ("backward", "leaves", "inplace", "views", "modes", "copies", "numpy", "scalars",
          "devices", "hooks", "modules")  # fmt: skip


@dataclasses.dataclass(frozen=True)
class Entry:
    ident: str  # the entry's anchor on the page: err-<ident>
    topic: str
    source: str  # where torch raises it: file (function)
    code: str
    fix: str
    seen: str = ""  # a public thread where a learner met it
    without_cuda: bool = False  # the message exists only where torch has no CUDA


def entry(ident, topic, source, code, fix, seen="", without_cuda=False):
    return Entry(
        ident, topic, source, textwrap.dedent(code).strip(), textwrap.dedent(fix).strip(), seen,
        without_cuda,
    )  # fmt: skip


ENTRIES = [
    # --- backward(): the graph -----------------------------------------------------------
    entry(
        "backward-twice", "backward", "torch/csrc/autograd/saved_variable.cpp (SavedVariable::unpack)",
        """
        x = torch.tensor([1.0, 2.0], requires_grad=True)
        loss = (x * x).sum()
        loss.backward()
        loss.backward()
        """,
        """
        x = torch.tensor([1.0, 2.0], requires_grad=True)
        for step in range(2):
            loss = (x * x).sum()  # a new graph each time
            loss.backward()
        print("x.grad after two backward passes:", x.grad)
        """,
        seen="https://github.com/yinizhizhu/GNMOT/issues/12",
    ),
    entry(
        "no-grad-fn", "backward", "torch/csrc/autograd/python_engine.cpp (THPEngine_run_backward)",
        """
        x = torch.tensor([1.0, 2.0])
        loss = (x * 3).sum()
        loss.backward()
        """,
        """
        x = torch.tensor([1.0, 2.0], requires_grad=True)
        loss = (x * 3).sum()
        loss.backward()
        print("x.grad:", x.grad)
        """,
        seen="https://jishuzhan.net/article/1722447953278275585",
    ),
    entry(
        "scalar-outputs", "backward", "torch/autograd/__init__.py (_make_grads)",
        """
        x = torch.tensor([1.0, 2.0], requires_grad=True)
        y = x * 3
        y.backward()
        """,
        """
        x = torch.tensor([1.0, 2.0], requires_grad=True)
        y = x * 3
        y.sum().backward()
        print("x.grad:", x.grad)
        """,
    ),
    entry(
        "grad-shape", "backward", "torch/autograd/__init__.py (_make_grads)",
        """
        x = torch.tensor([1.0, 2.0], requires_grad=True)
        y = x * 3
        y.backward(torch.ones(3))
        """,
        """
        x = torch.tensor([1.0, 2.0], requires_grad=True)
        y = x * 3
        y.backward(torch.ones_like(y))
        print("x.grad:", x.grad)
        """,
    ),
    entry(
        "grad-unused", "backward", "torch/csrc/autograd/python_engine.cpp (THPEngine_run_backward)",
        """
        x = torch.tensor([1.0, 2.0], requires_grad=True)
        unused = torch.tensor([5.0], requires_grad=True)
        grads = torch.autograd.grad((x * 3).sum(), [x, unused])
        """,
        """
        x = torch.tensor([1.0, 2.0], requires_grad=True)
        unused = torch.tensor([5.0], requires_grad=True)
        grads = torch.autograd.grad((x * 3).sum(), [x, unused], allow_unused=True)
        print("gradients:", grads)
        """,
    ),
    entry(
        "out-requires-grad", "backward", "torch/csrc/autograd/VariableTypeUtils.h (throw_error_out_requires_grad)",
        """
        x = torch.tensor([1.0, 2.0], requires_grad=True)
        out = torch.empty(2)
        result = torch.add(x, 1, out=out)
        """,
        """
        x = torch.tensor([1.0, 2.0], requires_grad=True)
        result = torch.add(x, 1)  # a new tensor, recorded
        print("result:", result)
        """,
        seen="https://discuss.pytorch.org/t/inplace-operation-changes-is-leaf-attribute/120297",
    ),
    entry(
        "create-graph-cycle", "backward", "torch/csrc/autograd/engine.cpp (Engine::execute)",
        """
        x = torch.tensor([1.0, 2.0], requires_grad=True)
        (x ** 3).sum().backward(create_graph=True)
        """,
        """
        x = torch.tensor([1.0, 2.0], requires_grad=True)
        (grad,) = torch.autograd.grad((x ** 3).sum(), x, create_graph=True)
        print("first derivative:", grad)
        print("x.grad:", x.grad)
        """,
    ),
    entry(
        "complex-backward", "backward", "torch/autograd/__init__.py (_make_grads)",
        """
        z = torch.tensor([1.0 + 2.0j], requires_grad=True)
        loss = (z * z).sum()  # a complex number
        loss.backward()
        """,
        """
        z = torch.tensor([1.0 + 2.0j], requires_grad=True)
        loss = (z * z).abs().sum()  # a real number
        loss.backward()
        print("z.grad:", z.grad)
        """,
        seen="https://github.com/Yu-Group/adaptive-wavelets/issues/4",
    ),
    entry(
        "grad-input-no-grad", "backward", "torch/csrc/autograd/python_engine.cpp (THPEngine_run_backward)",
        """
        image = torch.tensor([0.5, 0.25])
        weight = torch.tensor([2.0, 3.0], requires_grad=True)
        score = (image * weight).sum()
        torch.autograd.grad(score, image)  # the gradient for the input
        """,
        """
        image = torch.tensor([0.5, 0.25], requires_grad=True)  # before computing with it
        weight = torch.tensor([2.0, 3.0], requires_grad=True)
        score = (image * weight).sum()
        print(torch.autograd.grad(score, image))
        """,
        seen="https://github.com/bubbliiiing/yolo3-pytorch/issues/110",
    ),
    # --- leaves and requires_grad --------------------------------------------------------
    entry(
        "leaf-in-place", "leaves", "torch/csrc/autograd/VariableTypeUtils.h (check_inplace)",
        """
        w = torch.tensor([1.0, 2.0], requires_grad=True)
        w.add_(1)
        """,
        """
        w = torch.tensor([1.0, 2.0], requires_grad=True)
        with torch.no_grad():
            w.add_(1)
        print("w:", w, "is_leaf:", w.is_leaf)
        """,
        seen="https://discuss.pytorch.org/t/leaf-variable-was-used-in-an-inplace-operation/308",
    ),
    entry(
        "leaf-view-in-place", "leaves", "torch/csrc/autograd/VariableTypeUtils.h (check_inplace)",
        """
        w = torch.tensor([1.0, 2.0], requires_grad=True)
        w[:1].mul_(10)
        """,
        """
        w = torch.tensor([1.0, 2.0], requires_grad=True)
        with torch.no_grad():
            w[:1].mul_(10)
        print("w:", w, "is_leaf:", w.is_leaf)
        """,
    ),
    entry(
        "requires-grad-non-leaf", "leaves", "torch/csrc/autograd/utils/error_messages.h (requires_grad_leaf_error)",
        """
        x = torch.tensor([1.0, 2.0], requires_grad=True)
        y = x * 2
        y.requires_grad_(False)
        """,
        """
        x = torch.tensor([1.0, 2.0], requires_grad=True)
        y = x * 2
        value = y.detach()  # the same values, out of the graph
        print("value.requires_grad:", value.requires_grad, "y.requires_grad:", y.requires_grad)
        """,
    ),
    entry(
        "requires-grad-integer", "leaves", "torch/csrc/autograd/generated/python_variable_methods.cpp (THPVariable_requires_grad_)",
        """
        counts = torch.tensor([1, 2])
        counts.requires_grad_()
        """,
        """
        counts = torch.tensor([1, 2]).float()
        counts.requires_grad_()
        print("counts:", counts)
        """,
    ),
    entry(
        "requires-grad-integer-factory", "leaves", "torch/csrc/autograd/variable.h (set_requires_grad)",
        """
        x = torch.tensor([1, 2], requires_grad=True)
        """,
        """
        x = torch.tensor([1.0, 2.0], requires_grad=True)
        print("x:", x)
        """,
    ),
    entry(
        "non-leaf-grad", "leaves", "build/aten/src/ATen/core/TensorBody.h (TensorBase::grad)",
        """
        x = torch.tensor([1.0, 2.0], requires_grad=True)
        y = x * 2
        y.sum().backward()
        print("y.grad:", y.grad)
        """,
        """
        x = torch.tensor([1.0, 2.0], requires_grad=True)
        y = x * 2
        y.retain_grad()
        y.sum().backward()
        print("y.grad:", y.grad)
        """,
    ),
    entry(
        "retain-grad-no-grad", "leaves", "torch/csrc/autograd/variable.cpp (VariableHooks::retain_grad)",
        """
        x = torch.tensor([1.0, 2.0])
        x.retain_grad()
        """,
        """
        x = torch.tensor([1.0, 2.0], requires_grad=True)
        y = x * 2  # a non-leaf in the graph
        y.retain_grad()
        y.sum().backward()
        print("y.grad:", y.grad)
        """,
    ),
    entry(
        "optimize-non-leaf", "leaves", "torch/optim/optimizer.py (Optimizer.add_param_group)",
        """
        w = torch.zeros(2, requires_grad=True).double()
        optimizer = torch.optim.SGD([w], lr=0.1)
        """,
        """
        w = torch.zeros(2, dtype=torch.float64, requires_grad=True)
        optimizer = torch.optim.SGD([w], lr=0.1)
        print("w.is_leaf:", w.is_leaf)
        """,
    ),
    entry(
        "is-leaf-read-only", "leaves", "Python (a read-only attribute of torch._C.TensorBase)",
        """
        x = torch.tensor([1.0, 2.0], requires_grad=True)
        y = x * 2
        y.is_leaf = True
        """,
        """
        x = torch.tensor([1.0, 2.0], requires_grad=True)
        y = x * 2
        start = y.detach().requires_grad_()  # a new leaf with y's values
        print("start.is_leaf:", start.is_leaf)
        """,
    ),
    entry(
        "grad-none-zero", "leaves", "Python (an attribute of None)",
        """
        w = torch.tensor([1.0, 2.0], requires_grad=True)
        w.grad.zero_()
        """,
        """
        w = torch.tensor([1.0, 2.0], requires_grad=True)
        (w * w).sum().backward()  # .grad exists from the first backward() on
        w.grad.zero_()
        print("w.grad:", w.grad)
        """,
    ),
    entry(
        "grad-none-update", "leaves", "Python (arithmetic with None)",
        """
        w = torch.tensor([1.0, 2.0], requires_grad=True)
        (w * w).sum().backward()
        w = w - 0.1 * w.grad  # w is now a non-leaf: its .grad stays None
        (w * w).sum().backward()
        w = w - 0.1 * w.grad
        """,
        """
        w = torch.tensor([1.0, 2.0], requires_grad=True)
        for step in range(2):
            (w * w).sum().backward()
            with torch.no_grad():
                w -= 0.1 * w.grad
            w.grad = None
        print("w:", w, "is_leaf:", w.is_leaf)
        """,
    ),
    entry(
        "detach-view-in-place", "leaves", "torch/csrc/autograd/VariableTypeManual.cpp (detach_)",
        """
        x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
        part = (x * 2)[:2]
        part.detach_()
        """,
        """
        x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
        part = (x * 2)[:2].detach()
        print("part:", part)
        """,
    ),
    entry(
        "grad-assign-size", "leaves", "torch/csrc/autograd/python_variable.cpp (THPVariable_set_grad)",
        """
        w = torch.zeros(2, requires_grad=True)
        w.grad = torch.ones(3)
        """,
        """
        w = torch.zeros(2, requires_grad=True)
        w.grad = torch.ones_like(w)  # w's shape
        print("w.grad:", w.grad)
        """,
        seen="https://github.com/pytorch/pytorch/issues/72515",
    ),
    entry(
        "grad-assign-dtype", "leaves", "torch/csrc/autograd/python_variable.cpp (THPVariable_set_grad)",
        """
        w = torch.zeros(2, requires_grad=True)  # float32
        w.grad = torch.ones(2, dtype=torch.float64)
        """,
        """
        w = torch.zeros(2, requires_grad=True)
        w.grad = torch.ones(2, dtype=torch.float64).to(w.dtype)
        print("w.grad:", w.grad)
        """,
        seen="https://github.com/pytorch/pytorch/issues/111317",
    ),
    # --- in-place edits and the version counter ------------------------------------------
    entry(
        "saved-tensor-modified", "inplace", "torch/csrc/autograd/saved_variable.cpp (SavedVariable::unpack)",
        """
        x = torch.tensor([1.0, 2.0], requires_grad=True)
        y = x.sigmoid()  # sigmoid saves its output for backward
        y.mul_(2)
        y.sum().backward()
        """,
        """
        x = torch.tensor([1.0, 2.0], requires_grad=True)
        y = x.sigmoid()
        y = y * 2  # a new tensor: the saved output is untouched
        y.sum().backward()
        print("x.grad:", x.grad)
        """,
    ),
    entry(
        "saved-leaf-modified", "inplace", "torch/csrc/autograd/saved_variable.cpp (SavedVariable::unpack)",
        """
        w = torch.tensor([1.0, 2.0], requires_grad=True)
        loss = (w * w).sum()  # mul saves w
        with torch.no_grad():
            w -= 0.1  # an update before backward()
        loss.backward()
        """,
        """
        w = torch.tensor([1.0, 2.0], requires_grad=True)
        loss = (w * w).sum()
        loss.backward()  # first the gradient, then the update
        with torch.no_grad():
            w -= 0.1 * w.grad
        print("w:", w)
        """,
    ),
    entry(
        "broadcast-in-place", "inplace", "aten/src/ATen/TensorIterator.cpp (mark_resize_outputs)",
        """
        row = torch.ones(3)
        row.add_(torch.ones(2, 3))
        """,
        """
        row = torch.ones(3)
        grid = row + torch.ones(2, 3)  # a new tensor of the broadcast shape
        print("grid.shape:", grid.shape)
        """,
    ),
    entry(
        "cast-in-place", "inplace", "aten/src/ATen/TensorIterator.cpp (compute_types)",
        """
        counts = torch.tensor([1, 2])
        counts.mul_(0.5)
        """,
        """
        counts = torch.tensor([1, 2])
        halves = counts * 0.5  # a new float tensor
        print("halves:", halves)
        """,
    ),
    entry(
        "copy-size", "inplace", "aten/src/ATen/ExpandUtils.cpp (infer_size_impl)",
        """
        dst = torch.zeros(3)
        dst.copy_(torch.ones(4))
        """,
        """
        dst = torch.zeros(3)
        dst.copy_(torch.ones(4)[:3])
        print("dst:", dst)
        """,
    ),
    entry(
        "out-resized", "inplace", "aten/src/ATen/native/Resize.cpp (resize_output_check)",
        """
        out = torch.zeros(2)
        result = torch.add(torch.ones(3), 1, out=out)
        """,
        """
        out = torch.zeros(3)
        result = torch.add(torch.ones(3), 1, out=out)
        print("result is out:", result is out, "out:", out)
        """,
    ),
    entry(
        "resize-requires-grad", "inplace", "torch/csrc/autograd/VariableTypeManual.cpp (resize_)",
        """
        w = torch.tensor([1.0, 2.0], requires_grad=True)
        w.resize_(4)
        """,
        """
        w = torch.tensor([1.0, 2.0], requires_grad=True)
        longer = torch.cat([w, torch.zeros(2)])  # a new tensor, recorded
        print("longer:", longer)
        """,
    ),
    entry(
        "storage-not-resizable", "inplace", "aten/src/ATen/native/Resize.cpp (resize_bytes_cpu)",
        """
        a = np.zeros(2, dtype=np.float32)
        t = torch.from_numpy(a)
        t.resize_(4)
        """,
        """
        a = np.zeros(2, dtype=np.float32)
        t = torch.tensor(a)  # memory of its own, which torch may resize
        t.resize_(4)
        print("t.shape:", t.shape)
        """,
    ),
    entry(
        "storage-out-of-bounds", "inplace", "aten/src/ATen/native/Resize.h (checkInBoundsForStorage)",
        """
        x = torch.arange(3.0)
        longer = x.as_strided((10,), (1,))
        """,
        """
        x = torch.arange(3.0)
        pairs = x.as_strided((2, 2), (1, 1))  # overlapping windows within elements 0..2
        print("pairs:", pairs)
        """,
    ),
    # --- views ---------------------------------------------------------------------------
    entry(
        "view-not-compatible", "views", "aten/src/ATen/native/TensorShape.cpp (view_impl)",
        """
        t = torch.arange(6.0).reshape(2, 3).t()
        flat = t.view(6)
        """,
        """
        t = torch.arange(6.0).reshape(2, 3).t()
        flat = t.reshape(6)  # copies when no view can do it
        print("flat:", flat)
        """,
    ),
    entry(
        "no-grad-view", "views", "torch/csrc/autograd/variable.cpp (handle_view_on_rebase)",
        """
        x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
        y = x * 1
        with torch.no_grad():
            head = y[:2]
        head.mul_(2)
        """,
        """
        x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
        y = x * 1
        head = y[:2]  # view and edit both outside no_grad(): the edit is recorded
        head.mul_(2)
        y.sum().backward()
        print("x.grad:", x.grad)
        """,
        seen="https://github.com/pytorch/pytorch/pull/103185",
    ),
    entry(
        "inference-view", "views", "torch/csrc/autograd/variable.cpp (handle_view_on_rebase)",
        """
        x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
        with torch.inference_mode():
            head = x[:2]
        head.mul_(2)
        """,
        """
        x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
        with torch.inference_mode():
            head = x[:2]
            head.mul_(2)  # view and edit both inside: not recorded
        print("x:", x)
        """,
    ),
    entry(
        "multi-output-view", "views", "torch/csrc/autograd/variable.cpp (handle_view_on_rebase)",
        """
        x = torch.tensor([1.0, 2.0, 3.0, 4.0], requires_grad=True)
        first, second = (x * 1).split(2)
        first.mul_(2)
        """,
        """
        x = torch.tensor([1.0, 2.0, 3.0, 4.0], requires_grad=True)
        first, second = (x * 1).split(2)
        first = first * 2  # out of place
        torch.cat([first, second]).sum().backward()
        print("x.grad:", x.grad)
        """,
        seen="https://github.com/pytorch/pytorch/issues/36608",
    ),
    entry(
        "custom-function-view", "views", "torch/csrc/autograd/variable.cpp (handle_view_on_rebase)",
        """
        relu = torch.nn.ReLU(inplace=True)
        handle = relu.register_full_backward_hook(lambda module, grad_in, grad_out: None)
        x = torch.tensor([-1.0, 2.0], requires_grad=True)
        out = relu(x * 1)
        """,
        """
        relu = torch.nn.ReLU()  # not in place
        handle = relu.register_full_backward_hook(lambda module, grad_in, grad_out: None)
        x = torch.tensor([-1.0, 2.0], requires_grad=True)
        out = relu(x * 1)
        out.sum().backward()
        print("x.grad:", x.grad)
        """,
        seen="https://github.com/ccarliu/m3ae/issues/15",
    ),
    entry(
        "expand-write", "views", "aten/src/ATen/MemoryOverlap.cpp (assert_no_internal_overlap)",
        """
        grid = torch.zeros(3).expand(2, 3)
        grid.add_(1)
        """,
        """
        grid = torch.zeros(3).expand(2, 3).clone()  # memory of its own for each element
        grid.add_(1)
        print("grid:", grid)
        """,
    ),
    entry(
        "view-dtype-size", "views", "aten/src/ATen/native/TensorConversions.cpp (view_dtype)",
        """
        x = torch.tensor([1.0, 2.0, 3.0])
        wide = x.view(torch.float64)
        """,
        """
        x = torch.tensor([1.0, 2.0, 3.0])
        wide = x.to(torch.float64)  # converts the values, in new memory
        print("wide:", wide)
        """,
    ),
    entry(
        "channels-last-rank", "views", "c10/core/TensorImpl.h (empty_tensor_restride)",
        """
        x = torch.arange(6.0)
        copy = x.clone(memory_format=torch.channels_last)
        """,
        """
        x = torch.arange(6.0).reshape(1, 2, 3, 1)  # channels_last needs four dimensions
        copy = x.clone(memory_format=torch.channels_last)
        print("copy.stride():", copy.stride())
        """,
    ),
    entry(
        "overlap-shift", "views", "aten/src/ATen/MemoryOverlap.cpp (assert_no_partial_overlap)",
        """
        x = torch.arange(5.0)
        x[1:] = x[:-1]  # shift right by one, in place
        """,
        """
        x = torch.arange(5.0)
        x[1:] = x[:-1].clone()  # the values read into new memory first
        print("x:", x)
        """,
        seen="https://github.com/khorrams/IGOS_pp/issues/2",
    ),
    entry(
        "view-as-real-conj", "views", "aten/src/ATen/native/ComplexHelper.h (view_as_real)",
        """
        z = torch.tensor([1.0 + 2.0j]).conj()  # the conjugate bit set, nothing computed
        pairs = torch.view_as_real(z)
        """,
        """
        z = torch.tensor([1.0 + 2.0j]).conj()
        pairs = torch.view_as_real(z.resolve_conj())  # a copy with the conjugation done
        print("pairs:", pairs)
        """,
        seen="https://github.com/state-spaces/s4/issues/15",
    ),
    entry(
        "view-as-complex-stride", "views",
        "aten/src/ATen/native/ComplexHelper.h (computeStrideForViewAsComplex)",
        """
        parts = torch.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])  # real parts, imaginary parts
        pairs = parts.t()  # one (real, imaginary) pair per row, strides (1, 3)
        z = torch.view_as_complex(pairs)
        """,
        """
        parts = torch.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
        pairs = parts.t().contiguous()  # a copy, laid out pair after pair
        print("z:", torch.view_as_complex(pairs))
        """,
    ),
    entry(
        "sparse-storage", "views", "c10/core/TensorImpl.cpp (throw_storage_access_error)",
        """
        s = torch.eye(2).to_sparse()
        d = s.detach()
        shared = s.untyped_storage().data_ptr() == d.untyped_storage().data_ptr()
        """,
        """
        s = torch.eye(2).to_sparse()
        d = s.detach()
        shared = s.values().untyped_storage().data_ptr() == d.values().untyped_storage().data_ptr()
        print("s and s.detach() share the values' storage:", shared)
        """,
        seen="https://github.com/pytorch/pytorch/issues/58755",
    ),
    entry(
        "sparse-data-ptr", "views", "c10/core/TensorImpl.cpp (throw_data_ptr_access_error)",
        """
        s = torch.eye(2).to_sparse()
        address = s.data_ptr()
        """,
        """
        s = torch.eye(2).to_sparse()
        address = s.values().data_ptr()  # the stored values' first element
        print("a data pointer:", address != 0)
        """,
        seen="https://github.com/microsoft/DirectML/issues/425",
    ),
    # --- grad modes and inference tensors ------------------------------------------------
    entry(
        "inference-saved", "modes", "torch/csrc/autograd/saved_variable.cpp (SavedVariable::SavedVariable)",
        """
        with torch.inference_mode():
            features = torch.ones(2)
        w = torch.tensor([1.0, 2.0], requires_grad=True)
        loss = (w * features).sum()
        """,
        """
        with torch.inference_mode():
            features = torch.ones(2)
        w = torch.tensor([1.0, 2.0], requires_grad=True)
        loss = (w * features.clone()).sum()  # a clone made outside is an ordinary tensor
        loss.backward()
        print("w.grad:", w.grad)
        """,        seen="https://github.com/facebookresearch/dinov2/issues/472",
    ),
    entry(
        "inference-in-place", "modes", "c10/core/TensorImpl.h (VariableVersion::bump)",
        """
        with torch.inference_mode():
            total = torch.zeros(2)
        total.add_(1)
        """,
        """
        with torch.inference_mode():
            total = torch.zeros(2)
            total.add_(1)  # inside inference mode
        print("total:", total)
        """,
    ),
    entry(
        "inference-version", "modes", "c10/core/TensorImpl.h (VariableVersion::current_version)",
        """
        with torch.inference_mode():
            total = torch.zeros(2)
        print("version:", total._version)
        """,
        """
        with torch.no_grad():
            total = torch.zeros(2)  # no_grad() makes ordinary tensors
        print("version:", total._version)
        """,
    ),
    entry(
        "inference-requires-grad", "modes", "c10/core/TensorImpl.cpp (TensorImpl::set_requires_grad)",
        """
        with torch.inference_mode():
            start = torch.zeros(2)
        start.requires_grad_()
        """,
        """
        with torch.inference_mode():
            start = torch.zeros(2)
        start = start.clone().requires_grad_()  # clone outside: an ordinary leaf
        print("start:", start)
        """,
    ),
    entry(
        "no-grad-without-call", "modes", "Python (the with statement)",
        """
        with torch.no_grad:
            y = torch.ones(2) * 2
        """,
        """
        with torch.no_grad():
            y = torch.ones(2) * 2
        print("y:", y)
        """,
    ),
    # --- copies and constructors ---------------------------------------------------------
    entry(
        "deepcopy-non-leaf", "copies", "torch/_tensor.py (Tensor.__deepcopy__)",
        """
        x = torch.tensor([1.0, 2.0], requires_grad=True)
        y = x * 2
        y_copy = copy.deepcopy(y)
        """,
        """
        x = torch.tensor([1.0, 2.0], requires_grad=True)
        y = x * 2
        y_copy = y.detach().clone()  # the values, without the history
        print("y_copy:", y_copy)
        """,
    ),
    entry(
        "tensor-from-tensor", "copies", "torch/csrc/utils/tensor_new.cpp (tensor_ctor)",
        """
        source = torch.tensor([1.0, 2.0])
        copied = torch.tensor(source)
        """,
        """
        source = torch.tensor([1.0, 2.0])
        copied = source.detach().clone()
        print("copied:", copied)
        """,
    ),
    entry(
        "new-tensor-from-tensor", "copies", "torch/csrc/utils/tensor_new.cpp (new_tensor)",
        """
        source = torch.tensor([1.0, 2.0])
        copied = source.new_tensor(source)
        """,
        """
        source = torch.tensor([1.0, 2.0])
        copied = source.detach().clone()
        print("copied:", copied)
        """,
    ),
    entry(
        "tensor-constructor-number", "copies", "torch/csrc/utils/tensor_new.cpp (legacy_new_from_sequence)",
        """
        x = torch.Tensor(3.5)
        """,
        """
        x = torch.tensor(3.5)
        print("x:", x)
        """,
    ),
    entry(
        "tensor-constructor-dtype", "copies", "torch/csrc/utils/python_arg_parser.cpp (PythonArgParser::print_error)",
        """
        x = torch.Tensor([1, 2], dtype=torch.int64)
        """,
        """
        x = torch.tensor([1, 2], dtype=torch.int64)
        print("x:", x)
        """,
    ),
    entry(
        "typed-storage", "copies", "torch/storage.py (_warn_typed_storage_removal)",
        """
        x = torch.tensor([1.0, 2.0])
        storage = x.storage()
        """,
        """
        x = torch.tensor([1.0, 2.0])
        storage = x.untyped_storage()
        print("bytes:", storage.nbytes())
        """,
    ),
    # --- NumPy -----------------------------------------------------------------------------
    entry(
        "numpy-requires-grad", "numpy", "torch/csrc/utils/tensor_numpy.cpp (tensor_to_numpy)",
        """
        w = torch.tensor([1.0, 2.0], requires_grad=True)
        array = w.numpy()
        """,
        """
        w = torch.tensor([1.0, 2.0], requires_grad=True)
        array = w.detach().numpy()  # shares w's memory on the CPU
        print("array:", array)
        """,
    ),
    entry(
        "numpy-conj", "numpy", "torch/csrc/utils/tensor_numpy.cpp (tensor_to_numpy)",
        """
        z = torch.tensor([1 + 2j]).conj()
        array = z.numpy()
        """,
        """
        z = torch.tensor([1 + 2j]).conj()
        array = z.resolve_conj().numpy()  # the conjugate, in memory of its own
        print("array:", array)
        """,
    ),
    entry(
        "numpy-neg", "numpy", "torch/csrc/utils/tensor_numpy.cpp (tensor_to_numpy)",
        """
        imag = torch.tensor([1 + 2j]).conj().imag
        array = imag.numpy()
        """,
        """
        imag = torch.tensor([1 + 2j]).conj().imag
        array = imag.resolve_neg().numpy()
        print("array:", array)
        """,
    ),
    entry(
        "numpy-sparse", "numpy", "torch/csrc/utils/tensor_numpy.cpp (tensor_to_numpy)",
        """
        s = torch.eye(2).to_sparse()
        array = s.numpy()
        """,
        """
        s = torch.eye(2).to_sparse()
        array = s.to_dense().numpy()
        print("array:", array.tolist())
        """,
    ),
    entry(
        "numpy-bfloat16", "numpy", "torch/csrc/utils/tensor_numpy.cpp (aten_to_numpy_dtype)",
        """
        x = torch.tensor([1.5, 2.5], dtype=torch.bfloat16)
        array = x.numpy()
        """,
        """
        x = torch.tensor([1.5, 2.5], dtype=torch.bfloat16)
        array = x.float().numpy()  # a float32 copy NumPy can hold
        print("array:", array)
        """,
    ),
    entry(
        "numpy-device", "numpy", "torch/csrc/utils/tensor_numpy.cpp (tensor_to_numpy)",
        """
        x = torch.zeros(2, device="meta")  # a device without data here; on a GPU: cuda:0
        array = x.numpy()
        """,
        """
        x = torch.zeros(2, device="meta")
        array = torch.zeros_like(x, device="cpu").numpy()  # a tensor in CPU memory converts
        print("array:", array)
        """,
    ),
    entry(
        "numpy-negative-stride", "numpy", "torch/csrc/utils/tensor_numpy.cpp (tensor_from_numpy)",
        """
        a = np.arange(3.0)[::-1]
        t = torch.from_numpy(a)
        """,
        """
        a = np.arange(3.0)[::-1]
        t = torch.from_numpy(a.copy())  # a copy with positive strides
        print("t:", t)
        """,
    ),
    entry(
        "numpy-not-writable", "numpy", "torch/csrc/utils/tensor_numpy.cpp (tensor_from_numpy)",
        """
        a = np.arange(3.0)
        a.flags.writeable = False
        t = torch.from_numpy(a)
        """,
        """
        a = np.arange(3.0)
        a.flags.writeable = False
        t = torch.tensor(a)  # a copy, which torch may write into
        print("t:", t)
        """,
    ),
    entry(
        "numpy-object", "numpy", "torch/csrc/utils/tensor_numpy.cpp (numpy_dtype_to_aten)",
        """
        a = np.array([1.0, None])
        t = torch.from_numpy(a)
        """,
        """
        a = np.array([1.0, None])
        t = torch.from_numpy(a.astype(np.float64))  # None becomes nan
        print("t:", t)
        """,
    ),
    entry(
        "from-numpy-list", "numpy", "torch/csrc/utils/tensor_numpy.cpp (tensor_from_numpy)",
        """
        t = torch.from_numpy([1.0, 2.0])
        """,
        """
        t = torch.tensor([1.0, 2.0])
        print("t:", t)
        """,
    ),
    # --- Python numbers --------------------------------------------------------------------
    entry(
        "scalar-requires-grad", "scalars", "torch/csrc/autograd/generated/python_variable_methods.cpp (THPVariable_float_scalar)",
        """
        w = torch.tensor([1.0, 2.0], requires_grad=True)
        loss = (w * w).sum()
        logged = float(loss)
        """,
        """
        w = torch.tensor([1.0, 2.0], requires_grad=True)
        loss = (w * w).sum()
        logged = loss.item()
        print("logged:", logged)
        """,
        seen="https://github.com/CederGroupHub/chgnet/issues/245",
    ),
    entry(
        "item-many", "scalars", "aten/src/ATen/native/Scalar.cpp (item)",
        """
        losses = torch.tensor([0.5, 0.25, 0.75])
        value = losses.item()
        """,
        """
        losses = torch.tensor([0.5, 0.25, 0.75])
        value = losses.mean().item()  # one element
        print("value:", value, "all:", losses.tolist())
        """,
    ),
    entry(
        "float-many", "scalars", "torch/csrc/autograd/generated/python_variable_methods.cpp (dispatch_to)",
        """
        losses = torch.tensor([0.5, 0.25, 0.75])
        value = float(losses)
        """,
        """
        losses = torch.tensor([0.5, 0.25, 0.75])
        values = losses.tolist()
        print("values:", values)
        """,
    ),
    entry(
        "bool-many", "scalars", "aten/src/ATen/native/prim_native_functions.cpp (is_nonzero)",
        """
        x = torch.tensor([1.0, 2.0])
        if x > 0:
            print("positive")
        """,
        """
        x = torch.tensor([1.0, 2.0])
        if (x > 0).all():
            print("all positive")
        """,
    ),
    # --- devices and dtypes ----------------------------------------------------------------
    entry(
        "device-mismatch-meta", "devices", "torch/_prims_common/__init__.py (check_same_device)",
        """
        x = torch.ones(2)
        y = torch.ones(2, device="meta")
        total = x + y
        """,
        """
        x = torch.ones(2)
        y = torch.ones(2, device="meta")
        total = x + torch.ones_like(y, device=x.device)  # both on x's device
        print("total:", total)
        """,
    ),
    entry(
        "linear-dtype", "devices", "aten/src/ATen/native/LinearAlgebra.cpp (addmm meta)",
        """
        layer = torch.nn.Linear(3, 1)
        batch = torch.ones(2, 3, dtype=torch.float64)
        out = layer(batch)
        """,
        """
        layer = torch.nn.Linear(3, 1)
        batch = torch.ones(2, 3, dtype=torch.float64)
        out = layer(batch.to(layer.weight.dtype))
        print("out.dtype:", out.dtype)
        """,
    ),
    entry(
        "conv-dtype", "devices", "aten/src/ATen/native/Convolution.cpp (conv2d_symint)",
        """
        conv = torch.nn.Conv2d(1, 1, 2)
        image = torch.ones(1, 1, 3, 3, dtype=torch.float64)
        out = conv(image)
        """,
        """
        conv = torch.nn.Conv2d(1, 1, 2)
        image = torch.ones(1, 1, 3, 3, dtype=torch.float64)
        out = conv(image.float())
        print("out.shape:", out.shape)
        """,
    ),
    entry(
        "cuda-not-compiled", "devices", "torch/cuda/__init__.py (_lazy_init)",
        """
        x = torch.ones(2, device="cuda")
        """,
        """
        device = "cuda" if torch.cuda.is_available() else "cpu"
        x = torch.ones(2, device=device)
        print("x.device:", x.device)
        """,
        without_cuda=True,
    ),
    entry(
        "no-accelerator", "devices", "aten/src/ATen/DeviceAccelerator.cpp (getAccelerator)",
        """
        pinned = torch.ones(2).pin_memory()
        """,
        """
        x = torch.ones(2)
        if torch.cuda.is_available():  # pinned memory is for copies to a GPU
            x = x.pin_memory()
        print("x.is_pinned():", x.is_pinned())
        """,
        without_cuda=True,
    ),
    entry(
        "meta-module-to", "devices", "aten/src/ATen/native/Copy.cpp (copy_impl)",
        """
        layer = torch.nn.Linear(2, 1, device="meta")  # shapes, no values
        layer.to("cpu")
        """,
        """
        layer = torch.nn.Linear(2, 1, device="meta")
        layer.to_empty(device="cpu")  # memory on the CPU, its values not set
        layer.reset_parameters()  # the layer's own initial values
        print("weight:", layer.weight.device, tuple(layer.weight.shape))
        """,
        seen="https://github.com/AI4Bharat/IndicF5/issues/28",
    ),
    # --- hooks -----------------------------------------------------------------------------
    entry(
        "hook-no-grad", "hooks", "torch/_tensor.py (Tensor.register_hook)",
        """
        x = torch.tensor([1.0, 2.0], requires_grad=True)
        handle = x.detach().register_hook(lambda grad: grad)
        """,
        """
        x = torch.tensor([1.0, 2.0], requires_grad=True)
        handle = x.register_hook(lambda grad: print("gradient seen:", grad))
        (x * 3).sum().backward()
        """,
    ),
    entry(
        "hook-changed-size", "hooks", "torch/csrc/autograd/custom_function.cpp (check_variable_result)",
        """
        x = torch.tensor([1.0, 2.0], requires_grad=True)
        y = x * 2
        handle = y.register_hook(lambda grad: grad.sum())
        y.sum().backward()
        """,
        """
        x = torch.tensor([1.0, 2.0], requires_grad=True)
        y = x * 2
        handle = y.register_hook(lambda grad: grad * 0.5)  # same shape and dtype
        y.sum().backward()
        print("x.grad:", x.grad)
        """,
    ),
    entry(
        "hook-changed-type", "hooks", "torch/csrc/autograd/custom_function.cpp (check_variable_result)",
        """
        x = torch.tensor([1.0, 2.0], requires_grad=True)
        y = x * 2
        handle = y.register_hook(lambda grad: grad.double())
        y.sum().backward()
        """,
        """
        x = torch.tensor([1.0, 2.0], requires_grad=True)
        y = x * 2
        handle = y.register_hook(lambda grad: grad.clamp(-1.0, 1.0))  # float32 in, float32 out
        y.sum().backward()
        print("x.grad:", x.grad)
        """,
    ),
    entry(
        "pack-hook-in-place", "hooks", "torch/csrc/autograd/saved_variable.cpp (SavedVariable::set_hooks_and_pack_data)",
        """
        x = torch.tensor([1.0, 2.0], requires_grad=True)
        with torch.autograd.graph.saved_tensors_hooks(lambda t: t.mul_(1), lambda t: t):
            y = (x * 1).sin()
        """,
        """
        x = torch.tensor([1.0, 2.0], requires_grad=True)
        with torch.autograd.graph.saved_tensors_hooks(lambda t: t.clone(), lambda t: t):
            y = (x * 1).sin()
        y.sum().backward()
        print("x.grad:", x.grad)
        """,
    ),
    # --- modules, state_dict, training loops -----------------------------------------------
    entry(
        "state-dict-size", "modules", "torch/nn/modules/module.py (Module.load_state_dict)",
        """
        model = torch.nn.Linear(3, 3)
        model.load_state_dict(torch.nn.Linear(3, 2).state_dict())
        """,
        """
        model = torch.nn.Linear(3, 2)  # the same shapes as the saved one
        keys = model.load_state_dict(torch.nn.Linear(3, 2).state_dict())
        print(keys)
        """,
    ),
    entry(
        "state-dict-missing", "modules", "torch/nn/modules/module.py (Module.load_state_dict)",
        """
        model = torch.nn.Linear(3, 3)
        model.load_state_dict({"weight": torch.zeros(3, 3)})
        """,
        """
        model = torch.nn.Linear(3, 3)
        keys = model.load_state_dict({"weight": torch.zeros(3, 3)}, strict=False)
        print(keys)
        """,
    ),
    entry(
        "parameter-assign", "modules", "torch/nn/modules/module.py (Module.__setattr__)",
        """
        model = torch.nn.Linear(2, 1)
        model.weight = torch.zeros(1, 2)
        """,
        """
        model = torch.nn.Linear(2, 1)
        with torch.no_grad():
            model.weight.copy_(torch.zeros(1, 2))  # new values, the same Parameter
        print("model.weight:", model.weight)
        """,
    ),
    entry(
        "tuple-detach", "modules", "Python (an attribute of a tuple)",
        """
        lstm = torch.nn.LSTM(2, 2)
        output, state = lstm(torch.ones(1, 1, 2))
        state = state.detach()
        """,
        """
        lstm = torch.nn.LSTM(2, 2)
        output, state = lstm(torch.ones(1, 1, 2))
        state = tuple(s.detach() for s in state)  # h and c, each detached
        print("grad_fn of h and c:", [s.grad_fn for s in state])
        """,
    ),
    entry(
        "detch-typo", "modules", "Python (an attribute the class does not have)",
        """
        x = torch.tensor([1.0, 2.0], requires_grad=True)
        value = x.detch()
        """,
        """
        x = torch.tensor([1.0, 2.0], requires_grad=True)
        value = x.detach()
        print("value:", value)
        """,
    ),
]


def run(code):
    """(what the code printed, [(kind, category, message)] of what it warned and raised)."""
    namespace = {"__name__": "__atlas__"}
    printed = io.StringIO()
    found = []
    with warnings.catch_warnings(record=True) as caught, contextlib.redirect_stdout(printed):
        warnings.simplefilter("always")
        try:
            exec(PRELUDE + "\n" + code, namespace)  # noqa: S102  (this program's own code)
        except Exception as error:
            found.append(("raises", type(error).__name__, str(error)))
    found[:0] = [("warns", w.category.__name__, str(w.message)) for w in caught]
    return printed.getvalue(), found


def block(text):
    """Text indented by four spaces, as a doctest transcript can hold it."""
    lines = text.rstrip("\n").split("\n")
    return "\n".join("    " + line.expandtabs() if line.strip() else "" for line in lines)


def examine(item):
    """The printed entry, after checking that its code gives a message and its fix none. The
    entry's message is the last one: an error, or the one warning; a warning that comes before
    the error is printed too, in its place."""
    where = f"generators/errors.py, entry {item.ident!r} (torch {torch.__version__})"
    if item.topic not in TOPICS:
        raise RuntimeError(f"{where}: unknown topic {item.topic!r}; TOPICS lists them")
    _, found = run(item.code)
    if not found or (len(found) > 1 and found[-1][0] != "raises"):
        raise RuntimeError(
            f"{where}: the code gave {[f'{k} {c}' for k, c, _ in found] or 'no message'}, "
            "not one error or one warning"
        )
    printed, after = run(item.fix)
    if after:
        raise RuntimeError(f"{where}: the fix still gives {after[0][0]} {after[0][1]}: {after[0][2]}")
    if not printed.strip():
        raise RuntimeError(f"{where}: the fix prints nothing to show its result")
    text = [f"entry: {item.ident} | {item.topic}", "code:", block(item.code)]
    for kind, category, message in found:
        text += [f"{kind} {category}:", block(message)]
    text += ["fix:", block(item.fix), "after the fix, nothing raised or warned:", block(printed)]
    return found[-1], "\n".join(text)


warn_always = torch.is_warn_always_enabled()
torch.set_warn_always(True)  # warnings torch gives once per process, every time here
try:
    left_out = [e.ident for e in ENTRIES if e.without_cuda and torch.cuda.is_available()]
    examined = [examine(e) for e in ENTRIES if e.ident not in left_out]
finally:
    torch.set_warn_always(warn_always)
identifiers = [e.ident for e in ENTRIES]
messages = [message for message, _ in examined]
if len(set(identifiers)) != len(identifiers) or len(set(messages)) != len(messages):
    raise RuntimeError("generators/errors.py: an id or a message is listed twice")
if len(messages) < FEWEST:
    raise RuntimeError(f"generators/errors.py: only {len(messages)} messages, fewer than {FEWEST}")

print(f"messages: {len(messages)}")
print(f"errors: {sum(kind == 'raises' for kind, _, _ in messages)}")
print(f"warnings: {sum(kind == 'warns' for kind, _, _ in messages)}")
print(f"left out on {DEVICE}: {', '.join(left_out) or '-'}")
print(f"prelude: {'; '.join(PRELUDE.splitlines())}")
for _, text in examined:
    print()
    print(text)
