"""Model.summary(): Keras's fixed-width layer table (name/type, output shape, parameters, connections)."""
from __future__ import annotations

from typing import Any, Callable, List, Optional

import numpy as np


def _count(weights: list) -> int:
    return int(sum(int(np.prod(w.shape.as_list(), dtype=np.int64)) for w in weights))


def _bytes(weights: list) -> int:
    return int(sum(int(np.prod(w.shape.as_list(), dtype=np.int64)) * w.dtype.base_dtype.size for w in weights))


def readable_size(size: float) -> str:
    """'148.00 Byte', '1.50 KB', ... (powers of 1024)."""
    units = ["Byte", "KB", "MB", "GB", "TB", "PB"]
    unit = 0
    while size >= 1024 and unit < len(units) - 1:
        size /= 1024.0
        unit += 1
    return f"{size:.2f} {units[unit]}"


def _row(fields: List[str], positions: List[int], emit: Callable) -> None:
    """One table row; text too wide for its column continues on following lines."""
    left = [str(f) for f in fields]
    first = True
    while first or any(left):
        first = False
        line = ""
        for col, text in enumerate(left):
            start = positions[col - 1] if col else 0
            last = col == len(positions) - 1
            width = positions[col] - start - (0 if last else 3)
            piece = text[:width]
            if col == 0:
                line += " "
            line += piece
            left[col] = text[width:]
            line += " " * (positions[col] - len(line))
        emit(line)


def _is_chain(model: Any) -> bool:
    """True when every layer takes the previous one's single output (the narrow, sequential-like table)."""
    if len(model.inputs) != 1 or len(model.outputs) != 1:
        return False
    previous = model.inputs[0]
    for node in model._nodes:
        if len(node.input_tensors) != 1 or len(node.output_tensors) != 1 or node.input_tensors[0] is not previous:
            return False
        previous = node.output_tensors[0]
    return True


def _shape_text(layer: Any) -> str:
    from .input_layer import InputLayer
    try:
        shape = layer.output_shape
    except AttributeError:
        return "multiple"
    if isinstance(layer, InputLayer):
        return str([shape])
    return str(shape)


def print_summary(model: Any, line_length: Optional[int] = None, positions: Optional[list] = None,
                  print_fn: Optional[Callable] = None) -> None:
    """Prints (or passes to print_fn line by line) the summary table of a built model."""
    from .network import Sequential
    emit = print_fn or print
    chain = isinstance(model, Sequential) or _is_chain(model)
    line_length = line_length or (65 if chain else 98)
    fractions = positions or ([0.45, 0.85, 1.0] if chain else [0.33, 0.55, 0.67, 1.0])
    if fractions[-1] <= 1:
        positions = [int(line_length * p) for p in fractions]
    else:
        positions = list(fractions)
    header = ["Layer (type)", "Output Shape", "Param #"] + ([] if chain else ["Connected to"])
    emit(f'Model: "{model.name}"')
    emit("_" * line_length)
    _row(header, positions, emit)
    emit("=" * line_length)
    layers = model.layers
    for layer in layers:
        # Keras shows no shapes for the layers of a subclassed model: they may be called any number of times
        shape = "multiple" if model._is_subclassed else _shape_text(layer)
        fields = [f"{layer.name} ({type(layer).__name__})", shape, str(_count(layer.weights))]
        if not chain:
            links = []
            for node in layer._inbound_nodes:
                if node in model._nodes:
                    for t in node.input_tensors:
                        source = t._keras_history
                        links.append(f"{source.layer.name}[{source.layer._inbound_nodes.index(source)}][0]")
            fields.append(str(links) if links else "[]")
        _row(fields, positions, emit)
        emit(" " * line_length)
    emit("=" * line_length)
    trainable, fixed = model.trainable_weights, model.non_trainable_weights
    total_count = _count(trainable) + _count(fixed)
    total_bytes = _bytes(trainable) + _bytes(fixed)
    emit(f"Total params: {total_count} ({readable_size(total_bytes)})")
    emit(f"Trainable params: {_count(trainable)} ({readable_size(_bytes(trainable))})")
    emit(f"Non-trainable params: {_count(fixed)} ({readable_size(_bytes(fixed))})")
    emit("_" * line_length)
