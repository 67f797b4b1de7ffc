"""PyTorch implementations of the framework map's records (imported only where torch is installed).

Each function is printed verbatim by the exports ("as PyTorch"), so it stays short and
self-contained: it takes torch tensors and returns the result as a new tensor.
"""

import math

import torch


def scatter_elements(data, indices, updates, axis):
    indices = torch.where(indices < 0, indices + data.shape[axis], indices)
    return data.scatter(axis, indices, updates)


def scatter_elements_add(data, indices, updates, axis):
    indices = torch.where(indices < 0, indices + data.shape[axis], indices)
    return data.scatter_add(axis, indices, updates)


def scatter_elements_reduce(data, indices, updates, axis, reduce, include_self):
    indices = torch.where(indices < 0, indices + data.shape[axis], indices)
    return data.scatter_reduce(axis, indices, updates, reduce=reduce, include_self=include_self)


def scatter_nd_put(data, indices, updates, accumulate):
    return data.index_put(tuple(indices.unbind(-1)), updates, accumulate=accumulate)


def scatter_nd_sub(data, indices, updates):
    return data.index_put(tuple(indices.unbind(-1)), -updates, accumulate=True)


def linear_indices(indices, lead):
    size = torch.tensor(lead, dtype=indices.dtype)
    if ((indices < -size) | (indices >= size)).any():
        raise IndexError(f"indices out of range for the leading dimensions {tuple(lead)}")
    indices = torch.where(indices < 0, indices + size, indices)
    strides = torch.tensor([math.prod(lead[j + 1:]) for j in range(len(lead))], dtype=indices.dtype)
    return (indices * strides).sum(-1).reshape(-1)


def scatter_nd_reduce(data, indices, updates, reduce, include_self):
    k = indices.shape[-1]
    rows = data.reshape(-1, *data.shape[k:])
    flat = linear_indices(indices, data.shape[:k])
    src = updates.reshape(-1, *data.shape[k:])
    return rows.index_reduce(0, flat, src, reduce, include_self=include_self).reshape(data.shape)


def scatter_update(data, indices, updates, axis):
    flat = torch.where(indices < 0, indices + data.shape[axis], indices).reshape(-1)
    src = updates.reshape(*data.shape[:axis], -1, *data.shape[axis + 1:])
    return data.index_copy(axis, flat, src)


def tensor_scatter(past_cache, write_indices, update, axis, mode):
    batch, max_len, seq = past_cache.shape[0], past_cache.shape[axis], update.shape[axis]
    if write_indices is None:  # left out: every batch entry writes from position 0
        write_indices = torch.zeros(batch, dtype=torch.int64)
    pos = write_indices[:, None] + torch.arange(seq)  # (batch, seq): the cache positions written
    if mode == "circular":
        pos = pos % max_len
    rows = torch.arange(batch)[:, None]
    out = past_cache.movedim(axis, 1).index_put((rows, pos), update.movedim(axis, 1))
    return out.movedim(1, axis)


def nested_slice_scatter(data, updates, bounds):
    if not bounds:
        return updates
    (a, r), rest = bounds[0], bounds[1:]
    part = data[(slice(None),) * a + (slice(r.start, r.stop, r.step),)]
    return torch.slice_scatter(data, nested_slice_scatter(part, updates, rest), a, r.start, r.stop, r.step)


def slice_scatter(data, updates, start, stop, step, axes):
    bounds = []
    for a, b, e, s in zip(range(len(start)) if axes is None else axes, start, stop, step):
        a %= data.dim()
        r = range(*slice(b, e, s).indices(data.shape[a]))  # Slice-8's positions (Python's slice)
        if s < 0:  # torch.slice_scatter needs a positive step: the same positions walked forwards
            r, updates = r[::-1], updates.flip(a)
        bounds.append((a, r))
    return nested_slice_scatter(data, updates, bounds)
