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
