"""What each operator of PyTorch's OpInfo database returns on its sample inputs, in each kind of input it supports: memory shared with the input or a copy, a view or not, and what its schema declares."""

import itertools
import random
import re
import warnings

import numpy
import torch

# What this program relies on in torch.testing._internal, the package of PyTorch's own test
# suite (not a public API), all in this one place. check_database() checks it first, so a torch
# release that changes any of it stops this program with that name, instead of printing a
# table with rows missing.
DATABASE_MODULE = "torch.testing._internal.common_methods_invocations"
DATABASE = "op_db"  # the list of OpInfo entries
OPINFO_ATTRIBUTES = (
    "full_name",  # name, plus "." and the variant's name where an entry has one
    "name",
    "aten_name",  # the ATen operator the entry tests
    "aliases",  # the other names of the same operator, each with its .name
    "op",  # the function to call: op(sample.input, *sample.args, **sample.kwargs)
    "inplace_variant",  # the in-place function, or None
    "supports_autograd",
    "supported_dtypes",  # supported_dtypes(device_type)
    "supported_backward_dtypes",
    # sample_inputs_func(entry, device, dtype, requires_grad): the samples. (Not through
    # entry.sample_inputs, which looks for the running unittest up the call stack with
    # inspect.stack() twice per entry: 20 s of 25 here.)
    "sample_inputs_func",
)
SAMPLE_ATTRIBUTES = ("input", "args", "kwargs")
FEWEST_RUN = 500  # fewer entries that run means the database or its samples changed
FEWEST_SAMPLED = 0.95  # the share of entries whose samples must be made without an error

# The kinds of input, in this order; an entry runs on each that it supports (its dtypes; a
# sparse kind where its function accepts one). Named as in the site's input zoo. name -> (the
# dtype of the OpInfo samples it is made from, how it is made from a sample's input: None for
# that input as OpInfo made it, the dtypes the entry must also support).
KINDS = {
    "float32": (torch.float32, None, ()),
    "float64": (torch.float64, None, ()),
    "int64": (torch.int64, None, ()),
    "bool": (torch.bool, None, ()),
    "complex64": (torch.complex64, None, ()),
    # the same values with the conjugate bit set (x.is_conj()); detached, so not a view itself
    "complex64-conj": (torch.complex64, lambda x: x.conj_physical().conj().detach(), ()),
    # the same values with the negative bit set (x.is_neg()), as .imag of a conjugate has it
    "float32-neg": (
        torch.float32,
        lambda x: torch.complex(torch.zeros_like(x), -x).conj().imag.detach(),
        (torch.complex64,),
    ),
    "sparse-coo": (torch.float32, lambda x: x.to_sparse(), ()),
    "sparse-csr": (torch.float32, lambda x: x.to_sparse_csr() if x.dim() >= 2 else None, ()),
}
SAMPLES = 4  # the first samples in the first kind, each also run on a transposed or strided copy
OTHER_SAMPLES = 2  # the first samples in each other kind, as given
# An entry whose schema declares that it returns an alias of an input may or may not copy,
# depending on the arguments (to() copies when the dtype changes): up to this many samples in
# these kinds (OpInfo's samples of to() all ask for float64), SAMPLES in each other kind.
ALIAS_SAMPLES = 24
ALIAS_KINDS = ("float32", "float64")
DEVICE = torch.empty(0).device.type  # "cuda" when run under torch.set_default_device("cuda")
LISTED = 3  # inputs named per answer, where the answer depends on the input within a kind
NOT_RUN = ("no dtype", "no samples", "did not run")
# Properties whose ATen operator has another name.
ATEN_NAMES = {"T": "numpy_T", "H": "matrix_H"}
# Bindings that call no ATen operator of their name: Tensor.data returns the tensor's
# variable_data() (torch.profiler records no operator; tests/test_op_reference.py checks it).
NO_OPERATOR = ("data",)
# Operators the database has no entry for that learners look up, each run on the inputs of
# another entry's samples: name -> (function, {options}); options: "like" (the entry whose
# samples, default clone), "args" (the arguments after the input, or a function of the input
# that gives them), "in_place" (the in-place function), "grad" (False: inputs that do not
# require grad), "kinds" (the kinds to run, default every kind "like" supports), "array" (True:
# the input is a NumPy array of the kind's values).
PLAIN_KINDS = ("float32", "float64", "int64", "bool", "complex64")
# view(dtype) reinterprets the input's bytes as another dtype of the same size
SAME_SIZE = {
    torch.float32: torch.int32,
    torch.float64: torch.int64,
    torch.int64: torch.float64,
    torch.bool: torch.uint8,
    torch.complex64: torch.int64,
}
ADDED = {
    "detach": (torch.Tensor.detach, {"in_place": torch.Tensor.detach_}),
    "data": (lambda x: x.data, {}),
    "numpy": (torch.Tensor.numpy, {"grad": False}),
    "from_numpy": (torch.from_numpy, {"array": True, "kinds": PLAIN_KINDS}),
    "as_tensor": (torch.as_tensor, {}),
    "as_tensor.ndarray": (torch.as_tensor, {"array": True, "kinds": PLAIN_KINDS}),
    "tensor": (torch.tensor, {}),
    "cpu": (torch.Tensor.cpu, {}),
    "type": (torch.Tensor.type, {"args": (torch.float64,)}),
    "copy_": (lambda x: torch.empty_like(x).copy_(x), {}),
    "view.dtype": (torch.Tensor.view, {"args": lambda x: (SAME_SIZE[x.dtype],)}),
    "indices": (torch.Tensor.indices, {"kinds": ("sparse-coo",)}),
    "values": (torch.Tensor.values, {"kinds": ("sparse-coo", "sparse-csr")}),
    "crow_indices": (torch.Tensor.crow_indices, {"kinds": ("sparse-csr",)}),
    "col_indices": (torch.Tensor.col_indices, {"kinds": ("sparse-csr",)}),
}


def check_database():
    """The OpInfo entries, once everything listed above is there."""
    where = f"generators/operators.py (torch {torch.__version__})"
    try:
        import expecttest  # noqa: F401  (torch.testing._internal imports it)
    except ModuleNotFoundError:
        raise RuntimeError(
            f"{where}: torch.testing._internal needs the expecttest package: pip install "
            "expecttest (requirements/generators.txt pins its version)"
        ) from None
    module = __import__(DATABASE_MODULE, fromlist=[DATABASE])
    entries = getattr(module, DATABASE, None)
    if not isinstance(entries, list) or not entries:
        raise RuntimeError(f"{where}: {DATABASE_MODULE}.{DATABASE} is no longer a list")
    for entry in entries:
        missing = [name for name in OPINFO_ATTRIBUTES if not hasattr(entry, name)]
        if missing:
            raise RuntimeError(
                f"{where}: the OpInfo entry {getattr(entry, 'name', entry)!r} has no "
                f"{', '.join(missing)}: update OPINFO_ATTRIBUTES and the code that uses them"
            )
    return entries


class Sample:
    """An input and the arguments after it, as an OpInfo SampleInput has them."""

    def __init__(self, input, args=(), kwargs=None):
        self.input, self.args, self.kwargs = input, tuple(args), kwargs or {}


class Added:
    """An entry for an operator of ADDED, run on the inputs of another entry's samples."""

    def __init__(self, name, function, like, options):
        self.full_name = self.name = name
        self.aten_name = name.split(".")[0]
        self.aliases = ()
        self.op, self.inplace_variant = function, options.get("in_place")
        self.supports_autograd = like.supports_autograd and options.get("grad", True)
        self.supported_dtypes = like.supported_dtypes
        self.supported_backward_dtypes = like.supported_backward_dtypes
        self.kinds, self.array = options.get("kinds"), options.get("array", False)
        args = options.get("args", ())

        def samples(_, *arguments):
            for sample in like.sample_inputs_func(like, *arguments):
                x = sample.input
                yield Sample(x, args(x) if callable(args) else args)

        self.sample_inputs_func = samples


def added(entries):
    """The entries of ADDED that the database lacks."""
    by_name = {entry.full_name: entry for entry in entries}
    result = []
    for name, (function, options) in ADDED.items():
        if name in by_name:
            continue
        like = options.get("like", "clone")
        if like not in by_name:
            raise RuntimeError(f"generators/operators.py: ADDED needs an OpInfo entry {like!r}")
        result.append(Added(name, function, by_name[like], options))
    return result


def leaves(value):
    """The tensors and NumPy arrays in a value: itself, or those in a list, tuple or dict."""
    if isinstance(value, (torch.Tensor, numpy.ndarray)):
        return [value]
    if isinstance(value, dict):
        value = list(value.values())
    if isinstance(value, (list, tuple)):
        return [t for item in value for t in leaves(item)]
    return []


def tensors(value):
    """The tensors in a value (nested in lists, tuples and dicts)."""
    return [t for t in leaves(value) if isinstance(t, torch.Tensor)]


def memory(value):
    """The blocks of memory (device, first byte, end) that a value's elements live in: a strided
    tensor's storage, a sparse tensor's indices' and values', a NumPy array's bytes; None for
    another layout."""
    if isinstance(value, numpy.ndarray):
        start, end = numpy.lib.array_utils.byte_bounds(value)
        return [(torch.device("cpu"), start, end)] if end > start else []
    if value.layout == torch.sparse_coo:
        parts = [value._indices(), value._values()]
    elif value.layout in (torch.sparse_csr, torch.sparse_bsr):
        parts = [value.crow_indices(), value.col_indices(), value.values()]
    elif value.layout in (torch.sparse_csc, torch.sparse_bsc):
        parts = [value.ccol_indices(), value.row_indices(), value.values()]
    elif value.layout == torch.strided:
        parts = [value]
    else:
        return None
    blocks = []
    for part in parts:
        storage = part.untyped_storage()
        if storage.nbytes():
            blocks.append((part.device, storage.data_ptr(), storage.data_ptr() + storage.nbytes()))
    return blocks


def overlap(first, second):
    """Whether any byte of two values' blocks of memory (memory()) is the same byte."""
    first, second = first or [], second or []
    return any(x[0] == y[0] and x[1] < y[2] and y[1] < x[2] for x in first for y in second)


def relaid(tensor):
    """The same shape and values in another layout, in memory of its own (not a view):
    ("transposed", copy) for a matrix or a batch of them, ("strided", copy) using every other
    element of its memory otherwise; None for a tensor that has no other layout."""
    if (
        not isinstance(tensor, torch.Tensor)
        or tensor.layout != torch.strided
        or tensor.numel() < 2
        or not tensor.is_contiguous()
    ):
        return None
    if tensor.dim() >= 2 and tensor.shape[-1] > 1 and tensor.shape[-2] > 1:
        kind, strides = "transposed", tensor.mT.contiguous().mT.stride()
    else:
        kind, strides = "strided", tuple(2 * s for s in tensor.stride())
    with torch.no_grad():
        copy = torch.empty_strided(tensor.shape, strides, dtype=tensor.dtype, device=tensor.device)
        copy.copy_(tensor)
    return kind, copy.requires_grad_(tensor.requires_grad)


def layout(value):
    """The word that starts an input's description; none for a sparse tensor or an array."""
    if isinstance(value, numpy.ndarray) or (
        isinstance(value, torch.Tensor) and value.layout != torch.strided
    ):
        return None
    if not isinstance(value, torch.Tensor):
        return "list"
    return "contiguous" if value.is_contiguous() else "non-contiguous"


def short(value):
    """An argument, described the same way in every run."""
    if isinstance(value, torch.Tensor):
        return "tensor" + str(tuple(value.shape))
    if isinstance(value, list):
        return "[" + ", ".join(short(v) for v in value) + "]"
    if isinstance(value, tuple):
        return "(" + ", ".join(short(v) for v in value) + ("," if len(value) == 1 else "") + ")"
    if isinstance(value, float):
        return f"{value:g}"
    if isinstance(value, (bool, int, str, type(None), torch.dtype, torch.memory_format)):
        return repr(value).replace("torch.", "")
    return type(value).__name__


def describe(layout_word, kind, x, sample):
    """Which input a run had: its layout, kind, shape, and the other arguments."""
    shape = str(tuple(x.shape)) if isinstance(x, (torch.Tensor, numpy.ndarray)) else ""
    arguments = [short(a) for a in sample.args]
    arguments += [f"{k}={short(v)}" for k, v in sorted(sample.kwargs.items())]
    text = " ".join(filter(None, [layout_word, kind, shape]))
    return text + (f" with {', '.join(arguments)}" if arguments else "")


class TopLevelCalls(torch.overrides.TorchFunctionMode):
    """The ATen operators a call reaches at the top with the input itself as an argument, and
    where (a position or a keyword). A function written in Python (F.dropout) counts as the
    operator of its name only where torch binds one of that name (not F.unfold)."""

    def __init__(self, inputs):
        super().__init__()
        self.inputs, self.calls = inputs, []

    def holds(self, value):
        return any(a is i for a in leaves(value) for i in self.inputs)

    def __torch_function__(self, func, types, args=(), kwargs=None):
        kwargs = kwargs or {}
        name = getattr(func, "__name__", "")
        if name == "__get__":  # a property, such as Tensor.mT
            name = getattr(getattr(func, "__self__", None), "__name__", "")
        if hasattr(func, "overloadpacket"):  # torch.ops.aten.slice.Tensor: "slice"
            name = func.overloadpacket.__name__
        bound = not hasattr(func, "__code__") or any(
            hasattr(bindings, name) for bindings in (torch._C._VariableFunctions, torch._C._nn)
        )
        where = {i for i, a in enumerate(args) if self.holds(a)}
        where |= {k for k, a in kwargs.items() if self.holds(a)}
        if bound and where:
            self.calls.append((name, frozenset(where)))
        return func(*args, **kwargs)


def run(function, x, sample):
    """(result, the torch functions it called on x itself: (name, where)) of one call."""
    calls = TopLevelCalls(leaves(x))
    with warnings.catch_warnings(), calls:
        warnings.simplefilter("ignore")  # deprecations and the like: not what is measured
        result = function(x, *sample.args, **sample.kwargs)
    return result, calls.calls


def outcome(result, inputs, arguments):
    """(memory, view, grad_fn) of one call: how its result relates to the input tensors."""
    outputs = leaves(result)
    if not outputs:
        return "no tensor", "no", "-"
    bases = {id(t) for t in inputs}
    bases |= {id(t._base) for t in inputs if isinstance(t, torch.Tensor) and t._is_view()}
    others = [a for a in arguments if not any(a is i for i in inputs)]
    blocks = {id(v): memory(v) for v in outputs + inputs + others}
    out, into = [blocks[id(o)] for o in outputs], [blocks[id(i)] for i in inputs]
    if any(o is i for o in outputs for i in inputs):
        shared = "same tensor"
    elif any(overlap(o, i) for o in out for i in into):
        shared = "shares"
    elif any(overlap(o, blocks[id(a)]) for o in out for a in others):
        shared = "shares an argument"
    elif not inputs:
        shared = "no tensor input"  # a factory such as torch.ones
    elif any(b is None for b in out + into):
        shared = "not strided"  # a layout without memory to compare
    elif not any(out) or not any(into):
        shared = "no elements"
    else:
        shared = "copies"
    outputs = [o for o in outputs if isinstance(o, torch.Tensor)]
    if any(o._is_view() and id(o._base) in bases for o in outputs):
        view = "yes"
    elif any(o._is_view() for o in outputs):
        view = "other base"
    else:
        view = "no"
    grad_fn = next((type(o.grad_fn).__name__ for o in outputs if o.grad_fn is not None), "-")
    return shared, view, grad_fn


def summary(answers, ignored=()):
    """The one answer the runs gave, or 'depends: ...' naming which input gave which: a kind
    whose runs all gave that answer by its name, and otherwise the inputs (the first few);
    answers (answer, kind, input) in `ignored` do not make it depend."""
    counted = [a for a in answers if a[0] not in ignored] or answers
    distinct = list(dict.fromkeys(a for a, _, _ in counted))
    if len(distinct) == 1:
        return distinct[0]
    given = {}
    for answer, kind, _ in counted:
        given.setdefault(kind, set()).add(answer)
    parts = []
    for answer in distinct:
        kinds = [kind for kind, answers in given.items() if answers == {answer}]
        who = [w for a, k, w in counted if a == answer and given[k] != {answer}]
        who = list(dict.fromkeys(who))
        more = f"; {len(who) - LISTED} more" if len(who) > LISTED else ""
        parts.append(f"{answer} for {'; '.join(kinds + who[:LISTED])}{more}")
    return "depends: " + " · ".join(parts)


def view_summary(answers):
    """Like summary, but 'other base' (a view of something other than the input) counts as
    'no' when deciding whether the answer depends on the input."""
    others = {a for a, _, _ in answers} - {"yes"}
    if "yes" in {a for a, _, _ in answers} or len(others) < 2:
        return summary(answers)
    return "no or other base"


TENSOR_TYPES = ("Tensor", "Optional[Tensor]", "List[Tensor]", "List[Optional[Tensor]]")


def schemas(name):
    """The dispatcher's schemas of the ATen operator of that name (not TorchScript's own, such as
    aten::as_tensor's or aten::__getitem__'s for lists and dicts), without out= overloads; none
    for a binding of NO_OPERATOR."""
    if name in NO_OPERATOR:
        return []
    aten = f"aten::{ATEN_NAMES.get(name, name)}"
    found = []
    for schema in torch._C._jit_get_schemas_for_operator(aten):
        if schema.overload_name.endswith("out") or any(
            a.kwarg_only and a.alias_info and a.alias_info.is_write for a in schema.arguments
        ):
            continue
        try:
            torch._C._dispatch_find_schema_or_throw(aten, schema.overload_name)
        except RuntimeError:  # TorchScript's, not the dispatcher's
            continue
        found.append(schema)
    return found


def returns(schema):
    """What a schema declares it returns, without names: 'Tensor(a)', '(Tensor, Tensor)'."""
    declared = str(schema).rsplit(" -> ", 1)[1]
    return re.sub(r"(\S) \w+(?=[,)]|$)", r"\1", declared).replace("|", "\\|")


def argument(schema, where):
    """The schema's argument at a position or keyword of a call, or None."""
    if isinstance(where, int):
        positional = [a for a in schema.arguments if not a.kwarg_only]
        return positional[where] if where < len(positional) else None
    return next((a for a in schema.arguments if a.name == where), None)


def fitting(found, where):
    """The overloads that take a tensor (or a list of them) where the call passed the input."""
    return [
        schema
        for schema in found
        if all(
            (a := argument(schema, w)) is not None and str(a.type) in TENSOR_TYPES for w in where
        )
    ]


def declares_alias(found, where):
    """Whether the schemas declare that the result may alias the input, passed at `where`: True,
    False, or None where the overloads disagree. An input passed where the schema marks no alias
    (src in copy_(Tensor(a!) self, Tensor src)) is not what a declared alias is of."""
    answers = set()
    for schema in found:
        alias = any(r.alias_info is not None for r in schema.returns)
        marked = [argument(schema, w) for w in where]
        if alias and all(str(a.type) == "Tensor" and a.alias_info is None for a in marked):
            alias = False
        answers.add(alias)
    return answers.pop() if len(answers) == 1 else None


def names(entry, suffix=""):
    """The names an operator of the entry may have, in this order: its ATen name, its name with
    _ for . and the name's last part, plus `suffix`."""
    found = [entry.aten_name, entry.name.replace(".", "_"), entry.name.split(".")[-1]]
    return list(dict.fromkeys(name + suffix for name in found))


def declaration(entry, calls, family):
    """(the schema cell, whether it declares an alias of the input: True, False, or None where
    its overloads disagree, the operator's name) of the first operator named in `family` that
    the entry called on the input; ("-", None, None) where it called none."""
    for name, where in calls:
        if name not in family:
            continue
        found = fitting(schemas(name), where)
        if found:
            kinds = " / ".join(dict.fromkeys(returns(s) for s in found))
            cell = f"aten::{ATEN_NAMES.get(name, name)} -> {kinds}"
            return cell, declares_alias(found, where), name
    return "-", None, None


def verdict(alias, memory_answers):
    """How the runs that called the schema's operator on the input compare with it."""
    answers = set(memory_answers)
    shared, copied = answers & {"same tensor", "shares"}, answers & {"copies"}
    if alias is None or not (shared or copied):
        return "-"
    if alias and not shared:
        return "declares an alias, copied"
    if not alias and shared:
        return "declares no alias, shared"
    return "agrees"


def empty(value):
    """Whether a sample's input is tensors without a single element."""
    found = tensors(value)
    return bool(found) and all(t.numel() == 0 for t in found)


def kinds_of(entry):
    """The kinds of input the entry runs on: those whose dtypes it supports (and that it asks
    for, for an operator of ADDED)."""
    supported = entry.supported_dtypes(DEVICE)
    asked = getattr(entry, "kinds", None) or KINDS
    return [
        kind
        for kind, (dtype, _, needs) in KINDS.items()
        if kind in asked and dtype in supported and all(d in supported for d in needs)
    ]


def inputs_of(entry, kind, sample, first):
    """The kind's input made from the sample's, and, in the entry's first kind, a copy of it in
    another layout where there is one: (layout word, input) each."""
    x, make = sample.input, KINDS[kind][1]
    if make is not None:
        if not isinstance(x, torch.Tensor):
            return []
        try:
            x = make(x.detach())
        except Exception:
            return []
        if x is None:
            return []
    found = [(layout(x), x)]
    if first and (other := relaid(x)):
        found.append(other)
    if getattr(entry, "array", False):
        found = [(None, x.detach().numpy()) for _, x in found if x.layout == torch.strided]
    return found


def in_place_target(kind, x, sample):
    """A fresh tensor for the in-place variant to write into: x's values and layout."""
    if kind in ("transposed", "strided"):
        return relaid(sample.input.detach())[1]
    return x.detach().clone(memory_format=torch.preserve_format)


def writable(x, grad):
    """A copy of x (values, shape and strides) for an in-place method to write to, so that the
    sample's input stays as it was: not a leaf where x requires grad and `grad` holds. x itself
    where it was made for this run (a sparse kind, a conjugate or negative bit)."""
    if not isinstance(x, torch.Tensor) or x.layout != torch.strided or x.is_conj() or x.is_neg():
        return x
    copy = torch.empty_strided(x.shape, x.stride(), dtype=x.dtype, device=x.device)
    with torch.set_grad_enabled(grad):
        return copy.copy_(x)


def wrapped(entry, calls):
    """The method of the entry's name, where the entry's function called only clone on the input
    and the method on that copy (the database's zero_ is x.clone().zero_()); else None."""
    called = {name for name, _ in calls}
    if "clone" not in called or called & set(names(entry)):
        return None
    return getattr(torch.Tensor, entry.name, None)


def seed():
    """Seed the generators of torch on DEVICE (torch.manual_seed would also queue one for
    each device type torch has not started, with a stack trace each time: 1 s in all)."""
    torch.default_generator.manual_seed(0)
    if DEVICE == "cuda":
        torch.cuda.manual_seed(0)


def samples_of(entry, dtype, grad, count):
    """The entry's first `count` samples with elements in that dtype, seeded; None where the
    database could not make them."""
    seed()
    random.seed(0)
    numpy.random.seed(0)
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            made = entry.sample_inputs_func(entry, DEVICE, dtype, grad)
            made = (s for s in made if not empty(s.input))  # they tell nothing of memory
            samples = list(itertools.islice(made, count))
    except Exception:
        return None
    for sample in samples:
        missing = [name for name in SAMPLE_ATTRIBUTES if not hasattr(sample, name)]
        if missing:
            raise RuntimeError(f"generators/operators.py: a SampleInput has no {missing}")
    return samples


class Run:
    """One call: how its result relates to the input, and which input it was."""

    def __init__(self, answers, kind, who, calls, grad):
        self.memory, self.view, self.grad_fn = answers
        self.kind, self.who, self.calls, self.grad = kind, who, calls, grad


def examine(entry):
    """The row of one entry."""
    aliases = ", ".join(a.name.removeprefix("torch.") for a in entry.aliases) or "-"
    kinds = kinds_of(entry)
    if not kinds:
        return [entry.full_name, aliases, "no dtype"] + ["-"] * 7
    _, alias, _ = declaration(entry, [(n, {0}) for n in names(entry)], names(entry))
    runs, versions, called_in_place = [], [], []  # Run, (version moved, kind, who), calls
    made, direct = {}, None  # samples by (dtype, grad); the method the entry's function wraps
    for kind in kinds:
        dtype, make, _ = KINDS[kind]
        first = kind == kinds[0]
        grad = (
            make is None
            and entry.supports_autograd
            and dtype in entry.supported_backward_dtypes(DEVICE)
        )
        count = SAMPLES if first or alias else OTHER_SAMPLES
        count = ALIAS_SAMPLES if alias and kind in ALIAS_KINDS else count
        # a kind made from another's inputs (detached) takes that kind's samples
        key = dtype if make is not None and dtype in made else (dtype, grad)
        if key not in made:
            made[key] = made[dtype] = samples_of(entry, dtype, grad, count)
        samples = (made[key] or [])[:count]
        for sample in samples:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")  # sparse CSR support "is in beta state"
                inputs = inputs_of(entry, kind, sample, first)
            for layout_word, x in inputs:
                who = describe(layout_word, kind, x, sample)
                try:
                    if direct is None:
                        result, calls = run(entry.op, x, sample)
                        direct = wrapped(entry, calls) or False
                    if direct:
                        given = x
                        x = writable(given, True)
                        try:
                            result, calls = run(direct, x, sample)
                        except RuntimeError:  # resize_: "cannot resize variables that require grad"
                            x = writable(given, False)
                            result, calls = run(direct, x, sample)
                    else:
                        result, calls = run(entry.op, x, sample)
                except Exception:
                    continue
                arguments = tensors([sample.args, sample.kwargs])
                answers = outcome(result, leaves(x), arguments)
                needs_grad = any(t.requires_grad for t in tensors(x))
                runs.append(Run(answers, kind, who, calls, needs_grad))
                if entry.inplace_variant is None or make is not None:
                    continue
                if not isinstance(x, torch.Tensor):
                    continue
                target = in_place_target(layout_word, x, sample)
                before = target._version
                try:
                    returned, calls = run(entry.inplace_variant, target, sample)
                except Exception:
                    continue
                called_in_place += calls
                moved = f"+{target._version - before}"
                moved += "" if returned is target else ", another tensor"
                versions.append((moved, kind, who))
    if not runs:
        why = "no samples" if all(m is None for m in made.values()) else "did not run"
        return [entry.full_name, aliases, why] + ["-"] * 7
    family = names(entry) + names(entry, "_")
    schema, alias, operator = declaration(entry, [c for r in runs for c in r.calls], family)
    in_place = "-"
    if entry.inplace_variant is not None:
        in_place = summary(versions) if versions else "did not run"
        in_place_schema, _, _ = declaration(entry, called_in_place, names(entry, "_"))
        if in_place_schema != "-":
            in_place += f" ({in_place_schema})"
    grad_fns = [r.grad_fn for r in runs if r.grad]
    backward = entry.supports_autograd and entry.supported_backward_dtypes(DEVICE)
    learns = any(KINDS[r.kind][0] in backward for r in runs) if backward else False
    no_grad_fn = "no input required grad" if learns else "no autograd"
    return [
        entry.full_name,
        aliases,
        summary([(r.memory, r.kind, r.who) for r in runs], ignored=("no elements",)),
        view_summary([(r.view, r.kind, r.who) for r in runs]),
        " / ".join(dict.fromkeys(grad_fns)) if grad_fns else no_grad_fn,
        schema,
        verdict(alias, [r.memory for r in runs if operator in {n for n, _ in r.calls}]),
        in_place,
        ", ".join(dict.fromkeys(r.kind for r in runs)),
        str(len(runs)),
    ]


database = check_database()
extra = added(database)
threads = torch.get_num_threads()
torch.set_num_threads(1)  # the samples are small: more threads only wait (3 s of CPU in 4)
rows = [examine(entry) for entry in database + extra]
torch.set_num_threads(threads)
ran = [row for row in rows if row[2] not in NOT_RUN]
sampled = [row for row in rows if row[2] != "no samples"]
if len(ran) < FEWEST_RUN or len(sampled) < FEWEST_SAMPLED * len(rows):
    raise RuntimeError(
        f"generators/operators.py (torch {torch.__version__}): only {len(ran)} of {len(rows)} "
        f"OpInfo entries ran, {len(sampled)} made their samples: has {DATABASE_MODULE} changed?"
    )

print(f"OpInfo entries: {len(database)}")
print(f"added: {', '.join(e.name for e in extra) or '-'}")
print(f"kinds of input: {', '.join(KINDS)}")
print(f"samples in an entry's first kind: {SAMPLES}")
print(f"samples in each other kind: {OTHER_SAMPLES}")
print(
    f"samples of an entry whose schema declares an alias: {ALIAS_SAMPLES} in "
    f"{' and '.join(ALIAS_KINDS)}, {SAMPLES} in each other kind"
)
print(f"entries that ran: {len(ran)}")
print(f"share memory with the input: {sum(r[2] in ('same tensor', 'shares') for r in ran)}")
print(f"views of the input: {sum(r[3] == 'yes' for r in ran)}")
print(f"depend on the input: {sum('depends' in r[2] or 'depends' in r[3] for r in ran)}")
print(f"schema and run disagree: {sum(r[6].startswith('declares') for r in ran)}")
print()
print(f"Every entry on {DEVICE}:")
header = ["operator", "aliases", "memory", "view", "grad_fn", "schema", "schema vs run"]
header += ["in-place", "kinds", "runs"]
print("| " + " | ".join(header) + " |")
print("|" + " --- |" * len(header))
for row in rows:
    print("| " + " | ".join(row) + " |")
