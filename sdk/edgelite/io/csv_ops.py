"""tf.io.decode_csv: split CSV records into typed columns (RFC 4180 quoting, per-column defaults)."""
from __future__ import annotations

from typing import Any, Optional

import numpy as np

from edgelite.framework import dtypes, errors, ops
from edgelite.framework.op_def_registry import register_op

_CSV_TYPES = (dtypes.float32, dtypes.float64, dtypes.int32, dtypes.int64, dtypes.string)
_INT_RANGE = {"int32": (-2 ** 31, 2 ** 31 - 1), "int64": (-2 ** 63, 2 ** 63 - 1)}


def _split_record(rec: str, delim: str, quote: bool) -> list:
    """The fields of one record; with quote, a field may be "quoted" with "" as an escaped quote."""
    if not quote:
        return rec.split(delim)
    fields, i, n = [], 0, len(rec)
    while True:
        if i < n and rec[i] == '"':
            buf, i = [], i + 1
            while True:
                if i >= n:
                    raise errors.InvalidArgumentError(None, None, "Quoted field has to end with quote followed by "
                                                                  "delim or end")
                if rec[i] == '"':
                    if i + 1 < n and rec[i + 1] == '"':
                        buf.append('"')
                        i += 2
                        continue
                    i += 1
                    break
                buf.append(rec[i])
                i += 1
            if i < n and rec[i] != delim:
                raise errors.InvalidArgumentError(None, None, "Quote inside a string has to be escaped by another "
                                                              "quote")
            fields.append("".join(buf))
        else:
            j = rec.find(delim, i)
            j = n if j < 0 else j
            field = rec[i:j]
            if '"' in field:
                raise errors.InvalidArgumentError(None, None, "Unquoted fields cannot have quotes inside")
            fields.append(field)
            i = j
        if i >= n:
            return fields
        i += 1
        if i == n:
            fields.append("")
            return fields


def _convert(text: str, dt: dtypes.DType, col: int, row: int) -> Any:
    if dt == dtypes.string:
        return text.encode("utf-8")
    bad = errors.InvalidArgumentError(None, None, f"Field {col} in record {row} is not a valid "
                                                  f"{'float' if dt == dtypes.float32 else dt.name}: {text}")
    try:
        if dt.is_integer:
            v = int(text.strip(), 10)
            lo, hi = _INT_RANGE[dt.name]
            if not lo <= v <= hi:
                raise bad
            return v
        return float(text)
    except ValueError:
        raise bad from None


def _decode_csv_kernel(ctx: Any, records: np.ndarray, defaults: list) -> Any:
    delim = ctx.attrs["field_delim"]
    quote = ctx.attrs["use_quote_delim"]
    na = ctx.attrs["na_value"]
    cols = list(ctx.attrs["select_cols"]) or list(range(len(defaults)))
    types = [dtypes.as_dtype(t) for t in ctx.attrs["OUT_TYPE"]]
    flat = records.reshape(-1)
    columns: list = [[] for _ in defaults]
    for row, rec in enumerate(flat):
        text = rec.decode("utf-8") if isinstance(rec, bytes) else str(rec)
        fields = _split_record(text, delim, quote)
        if ctx.attrs["select_cols"]:
            if len(fields) <= cols[-1]:
                raise errors.InvalidArgumentError(None, None, f"Expect {cols[-1] + 1} fields but have {len(fields)} "
                                                              f"in record {row}")
        elif len(fields) != len(defaults):
            raise errors.InvalidArgumentError(None, None, f"Expect {len(defaults)} fields but have {len(fields)} in "
                                                          f"record {row}")
        for k, c in enumerate(cols):
            field = fields[c]
            if field == "" or field == na:
                if defaults[k].size == 0:
                    raise errors.InvalidArgumentError(None, None, f"Field {k} is required but missing in record "
                                                                  f"{row}!")
                columns[k].append(defaults[k].reshape(-1)[0])
            else:
                columns[k].append(_convert(field, types[k], k, row))
    out = []
    for k, t in enumerate(types):
        arr = np.empty(len(flat), dtype=object if t == dtypes.string else t.as_numpy_dtype)
        arr[:] = columns[k]
        out.append(arr.reshape(records.shape))
    return out[0] if len(out) == 1 else out


register_op("DecodeCSV", inputs=["records: string", "record_defaults: N * T"], outputs=[],
            kernel=_decode_csv_kernel, shape_fn=lambda op: [op.inputs[0].shape] * (len(op.inputs) - 1),
            dtype_fn=lambda op: [dtypes.as_dtype(t) for t in op.get_attr("OUT_TYPE")],
            attrs={"field_delim": ",", "use_quote_delim": True, "na_value": "", "select_cols": []})


def decode_csv(records: Any, record_defaults: list, field_delim: str = ",", use_quote_delim: bool = True,
               name: Optional[str] = None, na_value: str = "", select_cols: Optional[list] = None) -> list:
    """Convert CSV records to one tensor per column; each column's dtype and default come from record_defaults."""
    if select_cols is not None:
        if any(select_cols[i] >= select_cols[i + 1] for i in range(len(select_cols) - 1)):
            raise ValueError("select_cols is not strictly increasing.")
        if select_cols and select_cols[0] < 0:
            raise ValueError("select_cols contains negative values.")
        if len(select_cols) != len(record_defaults):
            raise ValueError("Length of select_cols and record_defaults do not match.")
    if len(field_delim) != 1:
        raise ValueError("field_delim should be only 1 char")
    with ops.name_scope(name, "DecodeCSV", [records]) as scope:
        records = ops.convert_to_tensor(records, dtype=dtypes.string, name="records")
        defaults = []
        for i, d in enumerate(record_defaults):
            t = ops.convert_to_tensor(d, name=f"record_defaults_{i}")
            if t.dtype.base_dtype not in _CSV_TYPES:
                raise TypeError(f"Value passed to parameter 'record_defaults' has DataType {t.dtype.name} not in list "
                                f"of allowed values: float32, float64, int32, int64, string")
            defaults.append(t)
        attrs = {"OUT_TYPE": [t.dtype.base_dtype for t in defaults], "field_delim": field_delim,
                 "use_quote_delim": bool(use_quote_delim), "na_value": na_value,
                 "select_cols": list(select_cols or [])}
        g = records.graph
        op = g.create_op("DecodeCSV", [records] + defaults, None, name=scope, attrs=dict(attrs, N=len(defaults)))
        return list(op.outputs)
