"""tf.nest: flatten, pack and map nested Python structures (lists, tuples, namedtuples, dicts, attrs classes).

Mappings are visited in sorted key order and rebuilt in their own key order, namedtuples and attrs
classes by field, other sequences in order; strings, bytes, sets and numpy arrays are atoms.
"""
from __future__ import annotations

import collections
import collections.abc as abc
from typing import Any, Callable, Iterator

__all__ = ["assert_same_structure", "flatten", "flatten_with_joined_string_paths", "is_nested", "is_sequence",
           "map_structure", "pack_sequence_as"]


def _is_namedtuple(x: Any) -> bool:
    return isinstance(x, tuple) and isinstance(getattr(type(x), "_fields", None), tuple)


def _is_attrs(x: Any) -> bool:
    return getattr(type(x), "__attrs_attrs__", None) is not None


def is_nested(seq: Any) -> bool:
    """Whether seq is a structure nest descends into (a non-string sequence, a mapping or an attrs object)."""
    if isinstance(seq, (str, bytes)):
        return False
    return isinstance(seq, (abc.Sequence, abc.Mapping, abc.MappingView)) or _is_attrs(seq)


is_sequence = is_nested


def _is_composite(x: Any) -> bool:
    from edgelite.framework.sparse_tensor import SparseTensor
    from edgelite.ragged.ragged_tensor import RaggedTensor

    return isinstance(x, (SparseTensor, RaggedTensor))


def _nested(x: Any, expand: bool) -> bool:
    """is_nested, plus composite tensors (SparseTensor, RaggedTensor) when expanding composites."""
    return is_nested(x) or (expand and _is_composite(x))


def _sorted_keys(mapping: Any) -> list:
    return sorted(mapping)


def _items(s: Any) -> list:
    """(key, child) pairs of a nested value in flattening order: sorted keys, field names or indices."""
    if isinstance(s, abc.Mapping):
        return [(k, s[k]) for k in _sorted_keys(s)]
    if _is_namedtuple(s):
        return list(zip(type(s)._fields, s))
    if _is_attrs(s):
        return [(a.name, getattr(s, a.name)) for a in type(s).__attrs_attrs__]
    if _is_composite(s):
        if hasattr(s, "nested_row_splits"):
            return [("flat_values", s.flat_values)] + [(f"row_splits_{i}", t) for i, t in
                                                       enumerate(s.nested_row_splits)]
        return [("indices", s.indices), ("values", s.values), ("dense_shape", s.dense_shape)]
    return list(enumerate(s))


def _children(s: Any) -> list:
    return [v for _, v in _items(s)]


def _walk(s: Any, expand: bool = False) -> Iterator[Any]:
    if not _nested(s, expand):
        yield s
        return
    for child in _children(s):
        yield from _walk(child, expand)


def flatten(structure: Any, expand_composites: bool = False) -> list:
    """The atoms of structure in a fixed depth-first order ([structure] for an atom); with expand_composites a
    SparseTensor gives its indices, values and dense_shape, a RaggedTensor its flat_values and row splits."""
    return list(_walk(structure, expand_composites))


def _sequence_like(instance: Any, args: list) -> Any:
    """A value of instance's kind holding args (given in flattening order)."""
    if isinstance(instance, abc.Mapping):
        by_key = dict(zip(_sorted_keys(instance), args))
        if isinstance(instance, collections.defaultdict):
            out = collections.defaultdict(instance.default_factory)
            for k in instance:
                out[k] = by_key[k]
            return out
        return type(instance)((k, by_key[k]) for k in instance)
    if _is_composite(instance) and hasattr(instance, "nested_row_splits"):
        for new, old in zip(args, _children(instance)):
            _check_component(new.shape, old.shape)
        return type(instance).from_nested_row_splits(args[0], args[1:], validate=False)
    if _is_namedtuple(instance) or _is_attrs(instance) or _is_composite(instance):
        return type(instance)(*args)
    if isinstance(instance, abc.MappingView):
        # Mapping views cannot be constructed; TF gives a list.
        return list(args)
    if isinstance(instance, range):
        return list(args)
    return type(instance)(args)


def _check_component(new: Any, old: Any) -> None:
    """A component packed into a RaggedTensor must fit the static shape of the one it replaces."""
    if new.ndims is None or old.ndims is None or new.ndims != old.ndims:
        new.merge_with(old)
        return
    for i, (a, b) in enumerate(zip(new.as_list(), old.as_list())):
        if a is not None and b is not None and a != b:
            def text(dims: list) -> str:
                return "[" + ",".join("?" if d is None else str(d) for d in dims) + "]"
            raise ValueError(f"Dimension {i} in both shapes must be equal, but are {a} and {b}. Shapes are "
                             f"{text(new.as_list())} and {text(old.as_list())}.")


def _pack(structure: Any, flat: list, index: int, expand: bool) -> tuple:
    packed = []
    for child in _children(structure):
        if _nested(child, expand):
            index, sub = _pack(child, flat, index, expand)
            packed.append(sub)
        else:
            packed.append(flat[index])
            index += 1
    return index, _sequence_like(structure, packed)


def pack_sequence_as(structure: Any, flat_sequence: Any, expand_composites: bool = False) -> Any:
    """flat_sequence rebuilt in the shape of structure (the inverse of flatten)."""
    if not is_nested(flat_sequence):
        raise TypeError(f"Attempted to pack value:\n  {flat_sequence}\ninto a structure, but found incompatible "
                        f"type `{type(flat_sequence)}` instead.")
    if not isinstance(flat_sequence, abc.Mapping):
        # a mapping is indexed by position as TF does (so a dict fails with KeyError)
        flat_sequence = list(flat_sequence)
    if not _nested(structure, expand_composites):
        if len(flat_sequence) != 1:
            raise ValueError(f"The target structure is of type `{type(structure)}`\n  {structure}\nHowever the input "
                             f"is a sequence ({type(flat_sequence)}) of length {len(flat_sequence)}.\n  "
                             f"{flat_sequence}\nnest cannot guarantee that it is safe to map one to the other.")
        return flat_sequence[0]
    atoms = len(flatten(structure, expand_composites))
    if atoms != len(flat_sequence):
        raise ValueError(f"Could not pack sequence. Structure had {atoms} atoms, but flat_sequence had "
                         f"{len(flat_sequence)} items.  Structure: {structure}, flat_sequence: {flat_sequence}.")
    return _pack(structure, flat_sequence, 0, expand_composites)[1]


def _describe(x: Any) -> str:
    return f"type={type(x).__name__} str={x}"


class _Dot:
    def __repr__(self) -> str:
        return "."


def _same_type(a: Any, b: Any) -> bool:
    ta, tb = type(a), type(b)
    if ta is tb:
        return True
    if isinstance(a, list) and isinstance(b, list):
        return True
    if isinstance(a, abc.Mapping) and isinstance(b, abc.Mapping):
        return True
    return _is_namedtuple(a) and _is_namedtuple(b) and ta.__name__ == tb.__name__ and ta._fields == tb._fields


def _mismatch(a: Any, b: Any, check_types: bool, expand: bool) -> Any:
    """(exception class, detail) for the first difference between a and b, or None if they match."""
    seq_a, seq_b = _nested(a, expand), _nested(b, expand)
    if seq_a != seq_b:
        seq, atom = (a, b) if seq_a else (b, a)
        return ValueError, f'Substructure "{_describe(seq)}" is a sequence, while substructure "{_describe(atom)}" ' \
                           "is not"
    if not seq_a:
        return None
    if check_types:
        if not _same_type(a, b):
            return TypeError, (f"The two namedtuples don't have the same sequence type. First structure "
                               f"{_describe(a)} has type {type(a).__name__}, while second structure {_describe(b)} "
                               f"has type {type(b).__name__}")
        if isinstance(a, abc.Mapping) and set(a) != set(b):
            return ValueError, (f"The two dictionaries don't have the same set of keys. First structure has keys "
                                f"{_describe(_sorted_keys(a))}, while second structure has keys "
                                f"{_describe(_sorted_keys(b))}")
    ca, cb = _children(a), _children(b)
    if len(ca) != len(cb):
        return ValueError, (f"The two structures don't have the same number of elements. First structure: "
                            f"{_describe(a)}. Second structure: {_describe(b)}")
    for x, y in zip(ca, cb):
        found = _mismatch(x, y, check_types, expand)
        if found is not None:
            return found
    return None


def _dotted(structure: Any, expand: bool) -> Any:
    dot = _Dot()
    if not _nested(structure, expand):
        return dot
    return pack_sequence_as(structure, [dot] * len(flatten(structure, expand)), expand)


def assert_same_structure(nest1: Any, nest2: Any, check_types: bool = True, expand_composites: bool = False) -> None:
    """ValueError if the nestings differ, TypeError if (with check_types) sequence types differ."""
    found = _mismatch(nest1, nest2, check_types, expand_composites)
    if found is None:
        return
    cls, detail = found
    raise cls(f"The two structures don't have the same nested structure.\n\nFirst structure: {_describe(nest1)}\n\n"
              f"Second structure: {_describe(nest2)}\n\nMore specifically: {detail}\nEntire first structure:\n"
              f"{_dotted(nest1, expand_composites)}\nEntire second structure:\n{_dotted(nest2, expand_composites)}")


def map_structure(func: Callable, *structure: Any, **kwargs: Any) -> Any:
    """func applied to the matching atoms of the structures, packed like the first one."""
    if not callable(func):
        raise TypeError(f"func must be callable, got: {func}")
    if not structure:
        raise ValueError("Must provide at least one structure")
    check_types = kwargs.pop("check_types", True)
    expand = kwargs.pop("expand_composites", False)
    if kwargs:
        raise ValueError("Only valid keyword arguments are `check_types` and `expand_composites`, not: "
                         f"`{'`, `'.join(kwargs)}`")
    for other in structure[1:]:
        assert_same_structure(structure[0], other, check_types=check_types, expand_composites=expand)
    flats = [flatten(s, expand) for s in structure]
    return pack_sequence_as(structure[0], [func(*atoms) for atoms in zip(*flats)], expand)


def _paths(s: Any, prefix: tuple) -> Iterator[tuple]:
    if not is_nested(s):
        yield prefix, s
        return
    for key, child in _items(s):
        yield from _paths(child, prefix + (key,))


def flatten_with_joined_string_paths(structure: Any, separator: str = "/", expand_composites: bool = False) -> list:
    """(path, atom) pairs where path joins the keys, field names or indices leading to the atom."""
    return [(separator.join(str(k) for k in path), atom) for path, atom in _paths(structure, ())]
