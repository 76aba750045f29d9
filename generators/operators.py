"""What each operator of PyTorch's OpInfo database returns on its own sample inputs: memory shared with the input or a copy, a view or not, and what its ATen schema declares."""

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

SAMPLES = 4  # the first samples of each entry, each also run on a transposed or strided copy
DTYPES = (torch.float32, torch.float64, torch.int64, torch.bool, torch.complex64)
# An entry whose schema declares that it returns an alias of an input may or may not copy,
# depending on the arguments (to() copies when the dtype changes): up to this many samples,
# in float64 too (OpInfo's samples of to() all ask for float64).
ALIAS_SAMPLES = 24
ALIAS_DTYPES = (torch.float32, torch.float64)
DEVICE = torch.empty(0).device.type  # "cuda" when run under torch.set_default_device("cuda")
LISTED = 3  # inputs named per answer, where the answer depends on the input
NOT_RUN = ("no dtype", "no samples", "did not run")
# Operators the database has no entry for that this site is asked about: name -> (function,
# in-place function, the entry whose samples they run on).
ADDED = {"detach": (torch.Tensor.detach, torch.Tensor.detach_, "clone")}


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


class Added:
    """An entry for an operator of ADDED, with the samples and dtypes of another entry."""

    def __init__(self, name, op, inplace_variant, like):
        self.full_name = self.name = self.aten_name = name
        self.op, self.inplace_variant = op, inplace_variant
        self.supports_autograd = like.supports_autograd
        self.supported_dtypes = like.supported_dtypes
        self.supported_backward_dtypes = like.supported_backward_dtypes
        self.sample_inputs_func = lambda _, *args: like.sample_inputs_func(like, *args)


def added(entries):
    """The entries of ADDED that the database lacks."""
    by_name = {entry.full_name: entry for entry in entries}
    result = []
    for name, (op, inplace_variant, like) in ADDED.items():
        if name in by_name:
            continue
        if like not in by_name:
            raise RuntimeError(f"generators/operators.py: ADDED needs an OpInfo entry {like!r}")
        result.append(Added(name, op, inplace_variant, by_name[like]))
    return result


def tensors(value):
    """The tensors in a value: itself, or those in a list, tuple or dict (nested)."""
    if isinstance(value, torch.Tensor):
        return [value]
    if isinstance(value, dict):
        value = list(value.values())
    if isinstance(value, (list, tuple)):
        return [t for item in value for t in tensors(item)]
    return []


def memory(tensor):
    """(device, first byte, end) of the storage a strided tensor uses; None for no bytes."""
    if tensor.layout != torch.strided or tensor.untyped_storage().nbytes() == 0:
        return None
    start = tensor.untyped_storage().data_ptr()
    return tensor.device, start, start + tensor.untyped_storage().nbytes()


def overlap(a, b):
    """Whether any byte of the two tensors' storages is the same byte of memory."""
    first, second = memory(a), memory(b)
    if first is None or second is None or first[0] != second[0]:
        return False
    return first[1] < second[2] and second[1] < first[2]


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
    if not isinstance(value, torch.Tensor):
        return "list"
    if value.layout != torch.strided:
        return str(value.layout).removeprefix("torch.")
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


def describe(kind, sample, dtype=None):
    """Which input a run had: its layout (and dtype), shape, and the other arguments."""
    shape = str(tuple(sample.input.shape)) if isinstance(sample.input, torch.Tensor) else ""
    arguments = [short(a) for a in sample.args]
    arguments += [f"{k}={short(v)}" for k, v in sorted(sample.kwargs.items())]
    text = " ".join(filter(None, [kind, dtype and short(dtype), shape]))
    return text + (f" with {', '.join(arguments)}" if arguments else "")


class TopLevelCalls(torch.overrides.TorchFunctionMode):
    """Names the ATen operators a call reaches at the top, before any of them calls others,
    with the input itself as an argument: torch's bindings of ATen operators carry their names;
    a function written in Python (F.dropout, torch.atleast_1d) counts as the operator of its
    name only where torch binds one of that name for it to call (F.unfold does not call
    aten::unfold, and torch binds no unfold function: it is left out)."""

    def __init__(self, inputs):
        super().__init__()
        self.inputs, self.names = inputs, []

    def __torch_function__(self, func, types, args=(), kwargs=None):
        name = getattr(func, "__name__", "")
        if name == "__get__":  # a property, such as Tensor.mT
            name = getattr(getattr(func, "__self__", None), "__name__", "")
        bound = not hasattr(func, "__code__") or any(
            hasattr(bindings, name) for bindings in (torch._C._VariableFunctions, torch._C._nn)
        )
        if bound and any(a is i for a in tensors([args, kwargs or {}]) for i in self.inputs):
            self.names.append(name)
        return func(*args, **(kwargs or {}))


def run(function, x, sample):
    """(result, the names of the torch functions it called on x itself)."""
    calls = TopLevelCalls(tensors(x))
    with warnings.catch_warnings(), calls:
        warnings.simplefilter("ignore")  # deprecations and the like: not what is measured
        result = function(x, *sample.args, **sample.kwargs)
    return result, calls.names


def outcome(result, inputs, arguments):
    """(memory, view, grad_fn) of one call: how its result relates to the input tensors."""
    outputs = tensors(result)
    if not outputs:
        return "no tensor", "no", "-"
    bases = {id(t) for t in inputs} | {id(t._base) for t in inputs if t._is_view()}
    others = [a for a in arguments if not any(a is i for i in inputs)]
    if any(o is i for o in outputs for i in inputs):
        shared = "same tensor"
    elif any(overlap(o, i) for o in outputs for i in inputs):
        shared = "shares"
    elif any(overlap(o, a) for o in outputs for a in others):
        shared = "shares an argument"
    elif not inputs:
        shared = "no tensor input"  # a factory such as torch.ones
    elif any(t.layout != torch.strided for t in outputs + inputs):
        shared = "not strided"  # a sparse tensor: no storage to compare
    elif all(memory(o) is None for o in outputs) or all(memory(i) is None for i in inputs):
        shared = "no elements"
    else:
        shared = "copies"
    if any(o._is_view() and id(o._base) in bases for o in outputs):
        view = "yes"
    elif any(o._is_view() for o in outputs):
        view = "other base"
    else:
        view = "no"
    grad_fn = next((type(o.grad_fn).__name__ for o in outputs if o.grad_fn is not None), "-")
    return shared, view, grad_fn


def summary(answers, ignored=()):
    """The one answer the runs gave, or 'depends: ...' naming which input gave which (the
    first few of each); answers in `ignored` do not make it depend."""
    counted = [(a, who) for a, who in answers if a not in ignored] or answers
    distinct = list(dict.fromkeys(a for a, _ in counted))
    if len(distinct) == 1:
        return distinct[0]
    parts = []
    for answer in distinct:
        who = list(dict.fromkeys(w for a, w in counted if a == answer))
        more = f"; {len(who) - LISTED} more" if len(who) > LISTED else ""
        parts.append(f"{answer} for {'; '.join(who[:LISTED])}{more}")
    return "depends: " + " · ".join(parts)


def view_summary(answers):
    """Like summary, but 'other base' (a view of something other than the input) counts as
    'no' when deciding whether the answer depends on the input."""
    others = {a for a, _ in answers} - {"yes"}
    if "yes" in {a for a, _ in answers} or len(others) < 2:
        return summary(answers)
    return "no or other base"


def schemas(name):
    """The schemas of aten::<name>, without out= and TorchScript-only overloads."""
    return [
        s
        for s in torch._C._jit_get_schemas_for_operator(f"aten::{name}")
        if any("Tensor" in str(a.type) for a in s.arguments)
        and not s.overload_name.startswith("prim")
        and not s.overload_name.endswith("out")
        and not any(a.kwarg_only and a.alias_info and a.alias_info.is_write for a in s.arguments)
    ]


def returns(schema):
    """What a schema declares it returns, without names: 'Tensor(a)', '(Tensor, Tensor)'."""
    declared = str(schema).rsplit(" -> ", 1)[1]
    return re.sub(r"(\S) \w+(?=[,)]|$)", r"\1", declared).replace("|", "\\|")


def declaration(entry, called, suffix=""):
    """(the schema cell, whether it declares an alias of an input: True, False, or None where
    its overloads disagree, the operator's name).

    The operator is the first one the entry's function called on the input that is named
    like the entry (its ATen name, its name with _ for . or the name's last part, plus
    `suffix`); else the one of its ATen name, if ATen has it, not called on the input."""
    named = [entry.aten_name + suffix, entry.name.replace(".", "_") + suffix]
    family = set(named) | {entry.name.split(".")[-1] + suffix}
    for name in dict.fromkeys([n for n in called if n in family] + named):
        found = schemas(name)
        if found:
            kinds = " / ".join(dict.fromkeys(returns(s) for s in found))
            aliases = {any(r.alias_info is not None for r in s.returns) for s in found}
            alias = aliases.pop() if len(aliases) == 1 else None
            return f"aten::{name} -> {kinds}", alias, name
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


def inputs_of(sample):
    """The sample's input as given, and a copy of it in another layout where there is one."""
    other = relaid(sample.input)
    return [(layout(sample.input), sample.input)] + ([other] if other else [])


def in_place_target(kind, x, sample):
    """A fresh tensor for the in-place variant to write into: x's values and layout."""
    if kind in ("transposed", "strided"):
        return relaid(sample.input.detach())[1]
    return x.detach().clone(memory_format=torch.preserve_format)


def seed():
    """Seed the generators of torch on DEVICE (torch.manual_seed would also queue one for
    each device type torch has not started, with a stack trace each time: 1 s in all)."""
    torch.default_generator.manual_seed(0)
    if DEVICE == "cuda":
        torch.cuda.manual_seed(0)


def examine(entry):
    """The row of one OpInfo entry."""
    supported = entry.supported_dtypes(DEVICE)
    dtypes = [d for d in DTYPES if d in supported][:1]
    if not dtypes:
        return [entry.full_name, "no dtype"] + ["-"] * 6
    _, alias, _ = declaration(entry, [])
    if alias:
        dtypes = [d for d in ALIAS_DTYPES if d in supported] or dtypes
    runs, versions = [], []  # (memory, view, grad_fn, who, called), (version moved, who)
    called_in_place = []
    for dtype in dtypes:
        seed()
        random.seed(0)
        numpy.random.seed(0)
        grad = entry.supports_autograd and dtype in entry.supported_backward_dtypes(DEVICE)
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                made = entry.sample_inputs_func(entry, DEVICE, dtype, grad)
                made = (s for s in made if not empty(s.input))  # they tell nothing of memory
                samples = list(itertools.islice(made, ALIAS_SAMPLES if alias else SAMPLES))
        except Exception:
            return [entry.full_name, "no samples"] + ["-"] * 6
        for sample in samples:
            missing = [name for name in SAMPLE_ATTRIBUTES if not hasattr(sample, name)]
            if missing:
                raise RuntimeError(f"generators/operators.py: a SampleInput has no {missing}")
            for kind, x in inputs_of(sample):
                who = describe(kind, sample, dtype if len(dtypes) > 1 else None)
                try:
                    result, called = run(entry.op, x, sample)
                except Exception:
                    continue
                arguments = tensors([sample.args, sample.kwargs])
                runs.append((*outcome(result, tensors(x), arguments), who, called, grad))
                if entry.inplace_variant is None or not isinstance(x, torch.Tensor):
                    continue
                target = in_place_target(kind, x, sample)
                before = target._version
                try:
                    returned, called = run(entry.inplace_variant, target, sample)
                except Exception:
                    continue
                called_in_place += called
                moved = f"+{target._version - before}"
                moved += "" if returned is target else ", another tensor"
                versions.append((moved, who))
    if not runs:
        return [entry.full_name, "did not run"] + ["-"] * 6
    schema, alias, operator = declaration(entry, [n for r in runs for n in r[4]])
    in_place = "-"
    if entry.inplace_variant is not None:
        in_place = summary(versions) if versions else "did not run"
        in_place_schema, _, _ = declaration(entry, called_in_place, "_")
        if in_place_schema != "-":
            in_place += f" ({in_place_schema})"
    grad_fns = [r[2] for r in runs if r[5]]
    return [
        entry.full_name,
        summary([(r[0], r[3]) for r in runs], ignored=("no elements",)),
        view_summary([(r[1], r[3]) for r in runs]),
        " / ".join(dict.fromkeys(grad_fns)) if grad_fns else "no autograd",
        schema,
        verdict(alias, [r[0] for r in runs if operator in r[4]]),
        in_place,
        str(len(runs)),
    ]


database = check_database()
extra = added(database)
threads = torch.get_num_threads()
torch.set_num_threads(1)  # the samples are small: more threads only wait (3 s of CPU in 4)
rows = [examine(entry) for entry in database + extra]
torch.set_num_threads(threads)
ran = [row for row in rows if row[1] not in NOT_RUN]
sampled = [row for row in rows if row[1] != "no samples"]
if len(ran) < FEWEST_RUN or len(sampled) < FEWEST_SAMPLED * len(rows):
    raise RuntimeError(
        f"generators/operators.py (torch {torch.__version__}): only {len(ran)} of {len(rows)} "
        f"OpInfo entries ran, {len(sampled)} made their samples: has {DATABASE_MODULE} changed?"
    )

print(f"OpInfo entries: {len(database)}")
print(f"added: {', '.join(f'{e.name} (samples of {ADDED[e.name][2]})' for e in extra) or '-'}")
print(f"entries that ran: {len(ran)}")
print(f"share memory with the input: {sum(r[1] in ('same tensor', 'shares') for r in ran)}")
print(f"views of the input: {sum(r[2] == 'yes' for r in ran)}")
print(f"depend on the input: {sum('depends' in r[1] or 'depends' in r[2] for r in ran)}")
print(f"schema and run disagree: {sum(r[5].startswith('declares') for r in ran)}")
print()
print(f"Every entry on {DEVICE}:")
header = ["operator", "memory", "view", "grad_fn", "schema", "schema vs run", "in-place", "runs"]
print("| " + " | ".join(header) + " |")
print("|" + " --- |" * len(header))
for row in rows:
    print("| " + " | ".join(row) + " |")
