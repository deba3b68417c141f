"""tf.contrib.training.HParams as TF 1.15 documents it: typed values, the parse grammar, json, errors.

TensorFlow 2 has no tf.contrib, so the expected values follow TF 1.15's hparam docstrings and its parse rules:
values keep the type of the first value, lists the type of their first element.
"""
from __future__ import annotations

import json

import pytest

import edgelite as tf
from edgelite.contrib.hparam import parse_values

HParams = tf.contrib.training.HParams


def test_values_attributes_and_reprs() -> None:
    hp = HParams(lr=0.1, units=100, act="relu", layers=[64, 32])
    assert (hp.lr, hp.units, hp.act, hp.layers) == (0.1, 100, "relu", [64, 32])
    assert hp.values() == {"lr": 0.1, "units": 100, "act": "relu", "layers": [64, 32]}
    assert str(hp) == "lr=0.1,units=100,act=relu,layers=[64, 32]"
    assert repr(hp) == "HParams([('act', 'relu'), ('layers', [64, 32]), ('lr', 0.1), ('units', 100)])"
    assert "lr" in hp and "momentum" not in hp


def test_parse_scalars_with_type_coercion() -> None:
    hp = HParams(n=1, x=2.0, name="relu6", path="/a/b=c/d", flag=False)
    assert hp.parse("n=12, x=-2.5e3 ,name=tanh,path=/x=y/z,") is hp
    assert hp.values() == {"n": 12, "x": -2500.0, "name": "tanh", "path": "/x=y/z", "flag": False}
    hp.parse("x=3,name=")  # an integer token is a valid float; an empty token is the empty string
    assert hp.x == 3.0 and type(hp.x) is float and hp.name == ""
    for token, expected in [("true", True), ("False", False), ("1", True), ("0", False), ("True", True)]:
        assert hp.parse("flag=" + token).flag is expected


def test_parse_lists() -> None:
    hp = HParams(ids=[1], rates=[0.5, 0.25], acts=["relu"])
    hp.parse("ids=[3,4, 5],acts=[tanh,elu],rates=[1]")
    assert hp.ids == [3, 4, 5] and hp.acts == ["tanh", "elu"] and hp.rates == [1.0]
    hp.parse("acts=[]")
    assert hp.acts == []


@pytest.mark.parametrize("text, message", [
    ("zzz=1", "Unknown hyperparameter type for zzz"),
    ("n=1.5", "Could not parse hparam 'n' of type 'int' with value '1.5' in n=1.5"),
    ("x=fast", "Could not parse hparam 'x' of type 'float' with value 'fast' in x=fast"),
    ("flag=yes", "Could not parse hparam 'flag' of type 'bool' with value 'yes' in flag=yes"),
    ("ids=[1,b]", "Could not parse hparam 'ids' of type 'int' with value '1,b' in ids=[1,b]"),
    ("n=[1]", "Must not pass a list for single-valued parameter: n"),
    ("ids=7", "Must pass a list for multi-valued parameter: ids."),
    ("n=1,n=2", "Multiple assignments to variable 'n' in n=1,n=2"),
    ("n 1", "Malformed hyperparameter value: n 1"),
    ("ids[0]=[1,2]", "Assignment of a list to a list index."),
])
def test_parse_errors(text: str, message: str) -> None:
    hp = HParams(n=1, x=2.0, flag=True, ids=[1, 2])
    with pytest.raises(ValueError) as info:
        hp.parse(text)
    assert str(info.value) == message


def test_parse_values_index_grammar() -> None:
    assert parse_values("a[0]=5,a[3]=7,b=2", {"a": int, "b": int}) == {"a": {0: 5, 3: 7}, "b": 2}
    assert parse_values("a[1]=x,zz=3", {"a": str}, ignore_unknown=True) == {"a": {1: "x"}}
    with pytest.raises(ValueError, match=r"Multiple assignments to variable 'a\[1\]'"):
        parse_values("a[1]=1,a[1]=2", {"a": int})
    with pytest.raises(ValueError, match="Multiple assignments to variable 'a'"):
        parse_values("a=1,a[0]=2", {"a": int})


def test_set_hparam_casts_and_refuses_lossy_values() -> None:
    hp = HParams(n=1, x=1.0, s="a", flag=True, ids=[1])
    hp.set_hparam("x", 3)
    assert hp.x == 3.0 and type(hp.x) is float
    hp.set_hparam("ids", [4, 5])
    assert hp.ids == [4, 5]
    for name, value in [("n", 1.5), ("s", 3), ("flag", 1), ("n", True), ("x", "2")]:
        with pytest.raises(ValueError) as info:
            hp.set_hparam(name, value)
        expected_type = type(hp.values()[name])
        assert str(info.value) == "Could not cast hparam '%s' of type '%s' from value %r" % (name, expected_type, value)
    with pytest.raises(KeyError):
        hp.set_hparam("missing", 1)


def test_add_and_del_hparam() -> None:
    hp = HParams(a=1)
    hp.add_hparam("b", [0.5])
    assert hp.values() == {"a": 1, "b": [0.5]}
    with pytest.raises(ValueError, match="Hyperparameter name is reserved: values"):
        hp.add_hparam("values", 3)
    with pytest.raises(ValueError, match="Hyperparameter name is reserved: a"):
        hp.add_hparam("a", 3)
    with pytest.raises(ValueError, match="Multi-valued hyperparameters cannot be empty: c"):
        hp.add_hparam("c", [])
    hp.del_hparam("a")
    hp.del_hparam("never_added")
    assert hp.values() == {"b": [0.5]} and not hasattr(hp, "a")
    hp.add_hparam("a.b", 0.0)  # dotted names exist only through getattr, as in TF 1.15
    assert getattr(hp.parse("a.b=2.5"), "a.b") == 2.5


def test_json_round_trip_and_override_from_dict() -> None:
    hp = HParams(lr=0.1, units=100, acts=["relu"])
    assert json.loads(hp.to_json()) == hp.values()
    assert hp.to_json(sort_keys=True) == json.dumps(hp.values(), sort_keys=True)
    assert hp.to_json(indent=2) == json.dumps(hp.values(), indent=2)
    hp.parse_json('{"lr": 0.3, "acts": ["tanh", "elu"]}')
    assert hp.lr == 0.3 and hp.acts == ["tanh", "elu"]
    assert hp.override_from_dict({"units": 7}).units == 7
    with pytest.raises(ValueError, match="Must pass a list for multi-valued parameter: acts."):
        hp.parse_json('{"acts": "relu"}')
    other = HParams(lr=0.5)
    other.parse(str(HParams(lr=0.25)))
    assert other.lr == 0.25


def test_get_with_defaults() -> None:
    hp = HParams(n=3, ids=[1, 2])
    assert hp.get("n") == 3 and hp.get("n", 9) == 3 and hp.get("nope", "dflt") == "dflt"
    assert hp.get("ids", [0]) == [1, 2]
    with pytest.raises(ValueError) as info:
        hp.get("n", 2.5)
    assert str(info.value) == ("Hparam 'n' of type '<class 'int'>' is incompatible with default=2.5. "
                               "Could not cast hparam 'n' of type '<class 'int'>' from value 2.5")
    with pytest.raises(ValueError, match="Hparam 'ids' of type 'list<<class 'int'>>' is incompatible with default=5"):
        hp.get("ids", 5)


def test_model_structure_and_set_from_map() -> None:
    hp = HParams(model_structure="crosses", a=1)
    assert hp.get_model_structure() == "crosses" and hp.values() == {"a": 1}
    hp.set_model_structure(None)
    assert hp.get_model_structure() is None
    assert hp.set_from_map({"a": 4}).a == 4
