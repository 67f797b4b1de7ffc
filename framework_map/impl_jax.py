"""JAX implementations of the framework map's records (imported only where jax is installed).

Each function is printed verbatim by the exports ("as JAX"); it takes jax arrays
and returns the result (JAX arrays are immutable: ``.at[...]`` returns a new one).
"""

import jax.numpy as jnp


def scatter_nd(data, indices, updates, method):
    where = tuple(indices[..., j] for j in range(indices.shape[-1]))
    return getattr(data.at[where], method)(updates, mode="drop")


def scatter_nd_sub(data, indices, updates):
    where = tuple(indices[..., j] for j in range(indices.shape[-1]))
    return data.at[where].add(-updates, mode="drop")


def element_index(indices, axis):
    where = list(jnp.indices(indices.shape, sparse=True))
    where[axis] = indices
    return tuple(where)


def scatter_elements(data, indices, updates, axis, method, init=None):
    where = element_index(indices, axis)
    if init is not None:  # use_init_val = false: written cells start from the neutral value
        data = data.at[where].set(init, mode="drop")
    return getattr(data.at[where], method)(updates, mode="drop")


def scatter_elements_mean(data, indices, updates, axis, include_self):
    where = element_index(indices, axis)
    total = jnp.zeros_like(data).at[where].add(updates, mode="drop")
    count = jnp.zeros(data.shape, jnp.int32).at[where].add(1, mode="drop")
    hit = count > 0
    if include_self:
        total, count = total + data, count + 1
    count = count.astype(data.dtype)
    if jnp.issubdtype(data.dtype, jnp.integer):
        mean = jnp.floor_divide(total, jnp.maximum(count, 1))
    else:
        mean = total / jnp.maximum(count, 1)
    return jnp.where(hit, mean, data)


def scatter_update(data, indices, updates, axis):
    return data.at[(slice(None),) * axis + (indices,)].set(updates, mode="drop")


def tensor_scatter(past_cache, write_indices, update, axis, mode):
    batch, max_len, seq = past_cache.shape[0], past_cache.shape[axis], update.shape[axis]
    if write_indices is None:  # left out: every batch entry writes from position 0
        write_indices = jnp.zeros(batch, jnp.int32)
    pos = write_indices[:, None] + jnp.arange(seq)  # (batch, seq): the cache positions written
    if mode == "circular":
        pos = pos % max_len
    rows = jnp.arange(batch)[:, None]
    cache = jnp.moveaxis(past_cache, axis, 1)  # the sequence axis next to the batch axis
    out = cache.at[rows, pos].set(jnp.moveaxis(update, axis, 1), mode="drop")
    return jnp.moveaxis(out, 1, axis)


def slice_scatter(data, updates, start, stop, step, axes):
    where = [slice(None)] * data.ndim
    for a, b, e, s in zip(range(len(start)) if axes is None else axes, start, stop, step):
        where[a] = slice(b, e, s)  # Python's slice: Slice-8's clamping and negative values
    return data.at[tuple(where)].set(updates)
