"""Protocol-buffer text format (.pbtxt) for the wire-codec messages: printing and parsing.

Output follows the text format TensorFlow writes: fields in number order, sub-messages in braces indented
by two spaces, strings C-escaped (octal for non-printable and non-ASCII bytes), enums by name where edgelite
knows the enum (data types, checkpoint versions, variable synchronization/aggregation), floats in the shortest
form that reads back to the same float32. The parser accepts that output and the usual variations
(':' before a brace, '<>' braces, '[a, b]' lists, adjacent strings, '#' comments, enums by number).
"""
from __future__ import annotations

import math
import re
from typing import Any, Dict, List, Tuple

import numpy as np

from edgelite.summary._wire import Field, Message

_DATA_TYPES = ["DT_INVALID", "DT_FLOAT", "DT_DOUBLE", "DT_INT32", "DT_UINT8", "DT_INT16", "DT_INT8", "DT_STRING",
               "DT_COMPLEX64", "DT_INT64", "DT_BOOL", "DT_QINT8", "DT_QUINT8", "DT_QINT32", "DT_BFLOAT16",
               "DT_QINT16", "DT_QUINT16", "DT_UINT16", "DT_COMPLEX128", "DT_HALF", "DT_RESOURCE", "DT_VARIANT",
               "DT_UINT32", "DT_UINT64"]
_DATA_TYPE_NAMES = {i: n for i, n in enumerate(_DATA_TYPES)}
_DATA_TYPE_NAMES.update({i + 100: n + "_REF" for i, n in enumerate(_DATA_TYPES) if i})
_SYNC = {0: "VARIABLE_SYNCHRONIZATION_AUTO", 1: "VARIABLE_SYNCHRONIZATION_NONE",
         2: "VARIABLE_SYNCHRONIZATION_ON_WRITE", 3: "VARIABLE_SYNCHRONIZATION_ON_READ"}
_AGG = {0: "VARIABLE_AGGREGATION_NONE", 1: "VARIABLE_AGGREGATION_SUM", 2: "VARIABLE_AGGREGATION_MEAN",
        3: "VARIABLE_AGGREGATION_ONLY_FIRST_REPLICA"}
_VERSIONS = {0: "LEGACY", 1: "V1", 2: "V2"}
# (message class name, field name) -> enum value names; enums not listed print and parse as numbers.
_ENUMS: Dict[Tuple[str, str], Dict[int, str]] = {
    ("AttrValue", "type"): _DATA_TYPE_NAMES, ("ListValue", "type"): _DATA_TYPE_NAMES,
    ("TensorProto", "dtype"): _DATA_TYPE_NAMES, ("TensorInfo", "dtype"): _DATA_TYPE_NAMES, ("SaverDef", "version"): _VERSIONS,
    ("VariableDef", "synchronization"): _SYNC, ("VariableDef", "aggregation"): _AGG,
}


class ParseError(ValueError):
    """Text that is not a valid text-format message of the expected type."""


def _enum_names(msg_type: type, field: Field) -> Dict[int, str]:
    return _ENUMS.get((msg_type.__name__, field.name), {})


def _escape(raw: bytes) -> str:
    out = []
    for b in raw:
        ch = chr(b)
        if ch == "\n":
            out.append("\\n")
        elif ch == "\r":
            out.append("\\r")
        elif ch == "\t":
            out.append("\\t")
        elif ch in "\"'\\":
            out.append("\\" + ch)
        elif 0x20 <= b < 0x7F:
            out.append(ch)
        else:
            out.append("\\%03o" % b)
    return "".join(out)


def _float32_text(value: float) -> str:
    """Python protobuf's spelling of a float field: str() of the float with the fewest significant digits
    (at least six) that reads back to the same float32, so 1.0, 100.0, 1e-05, 123456790.0."""
    if math.isnan(value):
        return "nan"
    if math.isinf(value):
        return "inf" if value > 0 else "-inf"
    target = np.float32(value)
    value = float(target)
    digits = 6
    rounded = float("%.*g" % (digits, value))
    while np.float32(rounded) != target:
        digits += 1
        rounded = float("%.*g" % (digits, value))
    return str(rounded)


def _scalar_text(msg_type: type, field: Field, value: Any) -> str:
    kind = field.kind
    if kind in ("string", "bytes"):
        return '"' + _escape(value.encode("utf-8") if isinstance(value, str) else bytes(value)) + '"'
    if kind == "bool":
        return "true" if value else "false"
    if kind == "float":
        return _float32_text(float(value))
    if kind == "double":
        v = float(value)
        return "nan" if math.isnan(v) else ("inf" if v == math.inf else ("-inf" if v == -math.inf else repr(v)))
    if kind == "enum":
        return _enum_names(msg_type, field).get(int(value), str(int(value)))
    return str(int(value))


def _print(msg: Message, indent: int, lines: List[str]) -> None:
    pad = "  " * indent
    for field in sorted(type(msg).FIELDS, key=lambda f: f.number):
        raw = object.__getattribute__(msg, field.name)
        if field.is_map:
            # A map prints as one entry message per key, keys sorted (as protobuf's text format does).
            items = [field.kind(key=key, value=raw[key]) for key in sorted(raw)]
        elif field.repeated:
            items = list(raw)
        elif raw is None or not msg._is_set(field):
            continue
        elif not field.is_message and field.oneof is None and not field.repeated and raw == _default(field):
            continue
        else:
            items = [raw]
        for item in items:
            if field.is_message:
                lines.append(f"{pad}{field.name} {{")
                _print(item, indent + 1, lines)
                lines.append(pad + "}")
            else:
                lines.append(f"{pad}{field.name}: {_scalar_text(type(msg), field, item)}")


def _default(field: Field) -> Any:
    return {"string": "", "bytes": b"", "bool": False, "float": 0.0, "double": 0.0}.get(field.kind, 0)


def message_to_string(msg: Message) -> str:
    """The message in protocol-buffer text format (ending with a newline unless empty)."""
    lines: List[str] = []
    _print(msg, 0, lines)
    return "".join(line + "\n" for line in lines)


# ---- parsing ------------------------------------------------------------------------------------------------
_TOKEN = re.compile(r"""\s+|\#[^\n]*|(?P<str>"(?:[^"\\\n]|\\.)*"|'(?:[^'\\\n]|\\.)*')|"""
                    r"""(?P<num>-?(?:0[xX][0-9a-fA-F]+|(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?[fF]?))|"""
                    r"""(?P<id>-?[A-Za-z_][A-Za-z0-9_.]*)|(?P<sym>[:{}<>\[\],;])""")
_SIMPLE_ESCAPES = {"n": 10, "r": 13, "t": 9, '"': 34, "'": 39, "\\": 92, "a": 7, "b": 8, "f": 12, "v": 11, "?": 63}


def _tokens(text: str) -> List[Tuple[str, str]]:
    out, pos = [], 0
    while pos < len(text):
        m = _TOKEN.match(text, pos)
        if m is None:
            raise ParseError(f"Unexpected character {text[pos]!r} at offset {pos}")
        pos = m.end()
        if m.lastgroup:
            out.append((m.lastgroup, m.group(m.lastgroup)))
    return out


def _unescape(quoted: str) -> bytes:
    body = quoted[1:-1].encode("utf-8")
    out = bytearray()
    i = 0
    while i < len(body):
        b = body[i]
        if b != 92:
            out.append(b)
            i += 1
            continue
        i += 1
        if i >= len(body):
            raise ParseError(f"Bad escape at the end of {quoted}")
        ch = chr(body[i])
        if ch in _SIMPLE_ESCAPES:
            out.append(_SIMPLE_ESCAPES[ch])
            i += 1
        elif ch in "01234567":
            j = i
            while j < len(body) and j < i + 3 and chr(body[j]) in "01234567":
                j += 1
            out.append(int(body[i:j], 8) & 0xFF)
            i = j
        elif ch in "xX":
            j = i + 1
            while j < len(body) and j < i + 3 and chr(body[j]) in "0123456789abcdefABCDEF":
                j += 1
            if j == i + 1:
                raise ParseError(f"Bad \\x escape in {quoted}")
            out.append(int(body[i + 1:j], 16))
            i = j
        else:
            raise ParseError(f"Unknown escape \\{ch} in {quoted}")
    return bytes(out)


class _Parser:
    def __init__(self, text: str) -> None:
        self.toks = _tokens(text)
        self.pos = 0

    def peek(self) -> Tuple[str, str]:
        return self.toks[self.pos] if self.pos < len(self.toks) else ("end", "")

    def take(self) -> Tuple[str, str]:
        tok = self.peek()
        if tok[0] == "end":
            raise ParseError("Unexpected end of input")
        self.pos += 1
        return tok

    def accept(self, sym: str) -> bool:
        if self.peek() == ("sym", sym):
            self.pos += 1
            return True
        return False

    def expect(self, sym: str) -> None:
        if not self.accept(sym):
            raise ParseError(f"Expected '{sym}', found {self.peek()[1]!r}")

    def message(self, msg: Message, closer: str) -> None:
        by_name = type(msg)._by_name()
        while True:
            kind, text = self.peek()
            if closer and kind == "sym" and text == closer:
                self.pos += 1
                return
            if kind == "end":
                if closer:
                    raise ParseError(f"Expected '{closer}' before the end of input")
                return
            kind, name = self.take()
            if kind != "id":
                raise ParseError(f"Expected a field name, found {name!r}")
            field = by_name.get(name)
            if field is None:
                raise ParseError(f'Message type "{type(msg).__name__}" has no field named "{name}".')
            if field.is_message:
                self.accept(":")
                if self.accept("["):
                    while not self.accept("]"):
                        self.sub_message(msg, field)
                        self.accept(",")
                else:
                    self.sub_message(msg, field)
            else:
                self.expect(":")
                if self.accept("["):
                    while not self.accept("]"):
                        self.store(msg, field, self.scalar(type(msg), field))
                        self.accept(",")
                else:
                    self.store(msg, field, self.scalar(type(msg), field))
            if not self.accept(","):
                self.accept(";")

    def sub_message(self, msg: Message, field: Field) -> None:
        if self.accept("{"):
            closer = "}"
        elif self.accept("<"):
            closer = ">"
        else:
            raise ParseError(f"Expected '{{' after {field.name}, found {self.peek()[1]!r}")
        sub = field.kind()
        self.message(sub, closer)
        self.store(msg, field, sub)

    @staticmethod
    def store(msg: Message, field: Field, value: Any) -> None:
        if field.is_map:
            getattr(msg, field.name)[value.key] = value.value
        elif field.repeated:
            getattr(msg, field.name).append(value)
        else:
            setattr(msg, field.name, value)

    def scalar(self, msg_type: type, field: Field) -> Any:
        kind, text = self.take()
        fk = field.kind
        if fk in ("string", "bytes"):
            if kind != "str":
                raise ParseError(f"Expected a string for {field.name}, found {text!r}")
            raw = _unescape(text)
            while self.peek()[0] == "str":
                raw += _unescape(self.take()[1])
            if fk == "bytes":
                return raw
            try:
                return raw.decode("utf-8")
            except UnicodeDecodeError:
                raise ParseError(f"String field {field.name} is not valid UTF-8") from None
        if fk == "bool":
            if text in ("true", "True", "t", "1"):
                return True
            if text in ("false", "False", "f", "0"):
                return False
            raise ParseError(f"Expected a bool for {field.name}, found {text!r}")
        if fk in ("float", "double"):
            low = text.lower().lstrip("-")
            if kind == "id" and low in ("inf", "infinity", "nan"):
                value = math.nan if low == "nan" else math.inf
                return -value if text.startswith("-") else value
            if kind != "num":
                raise ParseError(f"Expected a number for {field.name}, found {text!r}")
            return float(text.rstrip("fF")) if not text.lower().startswith(("0x", "-0x")) else float(int(text, 16))
        if fk == "enum" and kind == "id":
            for number, name in _enum_names(msg_type, field).items():
                if name == text:
                    return number
            raise ParseError(f"Unknown enum value {text} for field {field.name}")
        if kind != "num":
            raise ParseError(f"Expected an integer for {field.name}, found {text!r}")
        try:
            return int(text, 0) if text.lower().startswith(("0x", "-0x")) else int(text)
        except ValueError:
            raise ParseError(f"Expected an integer for {field.name}, found {text!r}") from None


def parse(text: str, message_type: type) -> Message:
    """A new message_type parsed from text format; ParseError on bad input."""
    msg = message_type()
    _Parser(text).message(msg, "")
    return msg
