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
