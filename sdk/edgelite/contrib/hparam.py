"""tf.contrib.training.HParams (TF 1.15): typed hyperparameters set from keywords, a `name=value` string or json.

TF1 training scripts (NMT, tensor2tensor-style models) keep their settings in an HParams and override them from
one command-line flag, so the parse grammar, type coercions and error texts follow TF 1.15.
"""
from __future__ import annotations

import json
import numbers
import re
from typing import Any, Callable, Dict, Optional

# One clause: name, optional [index], '=', then a bare token or a bracketed list; clauses are comma-separated.
_CLAUSE = re.compile(r"""
  (?P<name>[a-zA-Z][\w.]*)
  (\[\s*(?P<index>\d+)\s*\])?
  \s*=\s*
  ((?P<val>[^,\[]*) | \[(?P<vals>[^\]]*)\])
  ($|,\s*)""", re.VERBOSE)


def _parse_fail(name: str, var_type: type, value: str, values: str) -> None:
    raise ValueError("Could not parse hparam '%s' of type '%s' with value '%s' in %s"
                     % (name, var_type.__name__, value, values))


def _reuse_fail(name: str, values: str) -> None:
    raise ValueError("Multiple assignments to variable '%s' in %s" % (name, values))


def _token_parser(name: str, type_: type, values: str) -> Callable[[str], Any]:
    """The converter for one token: the type itself, except bools also read true/True/false/False or an integer."""
    if type_ != bool:
        return type_

    def parse_bool(token: str) -> bool:
        if token in ("true", "True"):
            return True
        if token in ("false", "False"):
            return False
        try:
            return bool(int(token))
        except ValueError:
            _parse_fail(name, type_, token, values)

    return parse_bool


def _store_scalar(name: str, parsed: Any, index: Optional[str], values: str, results: dict) -> None:
    """Record `name=v` as a value, or `name[i]=v` as {i: v}; any second assignment to the same slot is an error."""
    if not index:
        if name in results:
            _reuse_fail(name, values)
        results[name] = parsed
        return
    if name in results and not isinstance(results[name], dict):
        _reuse_fail(name, values)
    slots = results.setdefault(name, {})
    position = int(index)
    if position in slots:
        _reuse_fail("{}[{}]".format(name, position), values)
    slots[position] = parsed


def parse_values(values: str, type_map: Dict[str, type], ignore_unknown: bool = False) -> dict:
    """Map each name in a 'a=1,b=[x,y],c[0]=2' string to its value(s), converted with type_map's types."""
    results: dict = {}
    pos = 0
    while pos < len(values):
        match = _CLAUSE.match(values, pos)
        if not match:
            raise ValueError("Malformed hyperparameter value: %s" % values[pos:])
        pos = match.end()
        clause = match.groupdict()
        name = clause["name"]
        if name not in type_map:
            if ignore_unknown:
                continue
            raise ValueError("Unknown hyperparameter type for %s" % name)
        type_ = type_map[name]
        parse = _token_parser(name, type_, values)
        if clause["val"] is not None:
            try:
                parsed = parse(clause["val"])
            except ValueError:
                _parse_fail(name, type_, clause["val"], values)
            _store_scalar(name, parsed, clause["index"], values, results)
        elif clause["vals"] is not None:
            if clause["index"] is not None:
                raise ValueError("Assignment of a list to a list index.")
            if name in results:
                _reuse_fail(name, values)
            try:
                results[name] = [parse(token) for token in re.split("[ ,]", clause["vals"]) if token]
            except ValueError:
                _parse_fail(name, type_, clause["vals"], values)
        else:
            _parse_fail(name, type_, "", values)
    return results


def _cast_to_type_if_compatible(name: str, param_type: type, value: Any) -> Any:
    """`value` as `param_type`, refusing the lossy or surprising casts (float->int, str<->number, bool<->other)."""
    fail_msg = "Could not cast hparam '%s' of type '%s' from value %r" % (name, param_type, value)
    if type(value) == param_type:  # exact type: isinstance would let True pass for int
        return value
    if issubclass(param_type, type(None)):
        return value
    if issubclass(param_type, (str, bytes)) and not isinstance(value, (str, bytes)):
        raise ValueError(fail_msg)
    if issubclass(param_type, bool) != isinstance(value, bool):
        raise ValueError(fail_msg)
    if issubclass(param_type, numbers.Integral) and not isinstance(value, numbers.Integral):
        raise ValueError(fail_msg)
    if issubclass(param_type, numbers.Number) and not isinstance(value, numbers.Number):
        raise ValueError(fail_msg)
    return param_type(value)


class HParams:
    """Hyperparameters as attributes, each typed by its first value (lists by their first element)."""

    def __init__(self, hparam_def: Any = None, model_structure: Any = None, **kwargs: Any) -> None:
        # name -> (scalar type or list element type, whether the value is a list); parse() converts by it.
        self._hparam_types: Dict[str, tuple] = {}
        self._model_structure = model_structure
        if hparam_def:
            raise TypeError("HParams: hparam_def (a serialized HParamDef protocol buffer) is not supported here; "
                            "pass the hyperparameters as keyword arguments")
        for name, value in kwargs.items():
            self.add_hparam(name, value)

    def add_hparam(self, name: str, value: Any) -> None:
        """Add a new hyperparameter; names of existing attributes (methods included) are reserved."""
        if getattr(self, name, None) is not None:
            raise ValueError("Hyperparameter name is reserved: %s" % name)
        if isinstance(value, (list, tuple)):
            if not value:
                raise ValueError("Multi-valued hyperparameters cannot be empty: %s" % name)
            self._hparam_types[name] = (type(value[0]), True)
        else:
            self._hparam_types[name] = (type(value), False)
        setattr(self, name, value)

    def set_hparam(self, name: str, value: Any) -> None:
        """Set an existing hyperparameter, casting to its type (KeyError when it does not exist)."""
        param_type, is_list = self._hparam_types[name]
        if isinstance(value, list):
            if not is_list:
                raise ValueError("Must not pass a list for single-valued parameter: %s" % name)
            setattr(self, name, [_cast_to_type_if_compatible(name, param_type, v) for v in value])
        else:
            if is_list:
                raise ValueError("Must pass a list for multi-valued parameter: %s." % name)
            setattr(self, name, _cast_to_type_if_compatible(name, param_type, value))

    def del_hparam(self, name: str) -> None:
        """Remove a hyperparameter; nothing happens when it is absent."""
        if hasattr(self, name):
            delattr(self, name)
            del self._hparam_types[name]

    def parse(self, values: str) -> "HParams":
        """Override existing hyperparameters from a comma-separated 'name=value' string."""
        type_map = {name: param_type for name, (param_type, _) in self._hparam_types.items()}
        return self.override_from_dict(parse_values(values, type_map))

    def override_from_dict(self, values_dict: dict) -> "HParams":
        """Override existing hyperparameters from a name -> value dictionary."""
        for name, value in values_dict.items():
            self.set_hparam(name, value)
        return self

    def set_from_map(self, values_map: dict) -> "HParams":
        """Deprecated spelling of override_from_dict."""
        return self.override_from_dict(values_dict=values_map)

    def set_model_structure(self, model_structure: Any) -> None:
        self._model_structure = model_structure

    def get_model_structure(self) -> Any:
        return self._model_structure

    def to_json(self, indent: Optional[int] = None, separators: Optional[tuple] = None,
                sort_keys: bool = False) -> str:
        """The values as a JSON object (json.dumps options passed through)."""
        return json.dumps(self.values(), indent=indent, separators=separators, sort_keys=sort_keys)

    def parse_json(self, values_json: str) -> "HParams":
        """Override existing hyperparameters from a JSON object string."""
        return self.override_from_dict(json.loads(values_json))

    def values(self) -> dict:
        """The hyperparameters as a name -> value dictionary."""
        return {name: getattr(self, name) for name in self._hparam_types}

    def get(self, key: str, default: Any = None) -> Any:
        """The value of `key`, or `default` when absent; a default of the wrong type is a ValueError."""
        if key not in self._hparam_types:
            return default
        if default is not None:
            param_type, is_list = self._hparam_types[key]
            type_str = "list<%s>" % param_type if is_list else str(param_type)
            fail_msg = "Hparam '%s' of type '%s' is incompatible with default=%s" % (key, type_str, default)
            if is_list != isinstance(default, list):
                raise ValueError(fail_msg)
            try:
                for item in (default if is_list else [default]):
                    _cast_to_type_if_compatible(key, param_type, item)
            except ValueError as e:
                raise ValueError("%s. %s" % (fail_msg, e))
        return getattr(self, key)

    def __contains__(self, key: str) -> bool:
        return key in self._hparam_types

    def __str__(self) -> str:
        return ",".join("{}={}".format(name, value) for name, value in self.values().items())

    def __repr__(self) -> str:
        return "%s(%s)" % (type(self).__name__, str(sorted(self.values().items())))
