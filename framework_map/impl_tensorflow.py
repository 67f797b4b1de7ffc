"""TensorFlow implementations of the framework map's records (imported only where tensorflow is installed).

Each function is printed verbatim by the exports ("as TensorFlow"); it takes tf
tensors and returns the result as a new tensor.
"""

import math

import tensorflow as tf


def normalise(indices, sizes):
    sizes = tf.constant(sizes, dtype=indices.dtype)
    tf.debugging.assert_less(indices, sizes, message="index out of range")
    tf.debugging.assert_greater_equal(indices, -sizes, message="index out of range")
    return tf.where(indices < 0, indices + sizes, indices)


def scatter_nd(data, indices, updates, op):
    indices = normalise(indices, data.shape[:indices.shape[-1]])
    return op(data, indices, updates)


def scatter_nd_into(data, indices, updates):
    indices = normalise(indices, data.shape[:indices.shape[-1]])
    return data + tf.scatter_nd(indices, updates, tf.shape(data, out_type=indices.dtype))


def scatter_nd_prod(data, indices, updates):
    k = indices.shape[-1]
    indices = normalise(indices, data.shape[:k])
    cells = tf.reshape(tf.range(math.prod(data.shape[:k]), dtype=indices.dtype), data.shape[:k])
    segments = tf.reshape(tf.gather_nd(cells, indices), [-1])
    rows = tf.reshape(data, [-1, *data.shape[k:]])
    src = tf.reshape(updates, [-1, *data.shape[k:]])
    product = tf.math.unsorted_segment_prod(src, segments, num_segments=rows.shape[0])
    return tf.reshape(rows * product, data.shape)


def element_coordinates(indices, axis, size):
    indices = normalise(indices, size)
    grid = tf.meshgrid(*[tf.range(n, dtype=indices.dtype) for n in indices.shape], indexing="ij")
    grid[axis] = indices
    return tf.stack(grid, axis=-1)


def scatter_elements(data, indices, updates, axis, op, init=None):
    coords = element_coordinates(indices, axis, data.shape[axis])
    if init is not None:  # use_init_val = false: written cells start from the neutral value
        data = tf.tensor_scatter_nd_update(data, coords, tf.fill(tf.shape(updates), tf.cast(init, data.dtype)))
    return op(data, coords, updates)


def scatter_elements_mean(data, indices, updates, axis, include_self):
    coords = element_coordinates(indices, axis, data.shape[axis])
    total = tf.tensor_scatter_nd_add(tf.zeros_like(data), coords, updates)
    count = tf.tensor_scatter_nd_add(tf.zeros(data.shape, data.dtype), coords, tf.ones_like(updates))
    hit = count > 0
    if include_self:
        total, count = total + data, count + 1
    count = tf.maximum(count, tf.ones_like(count))
    mean = tf.math.floordiv(total, count) if data.dtype.is_integer else total / count
    return tf.where(hit, mean, data)


def scatter_update(data, indices, updates, axis):
    r = len(indices.shape)
    indices = normalise(indices, data.shape[axis])
    front = tf.experimental.numpy.moveaxis(data, axis, 0)
    moved = tf.experimental.numpy.moveaxis(updates, list(range(axis, axis + r)), list(range(r)))
    out = tf.tensor_scatter_nd_update(front, indices[..., None], moved)
    return tf.experimental.numpy.moveaxis(out, 0, axis)


def tensor_scatter(past_cache, write_indices, update, axis, mode):
    batch, max_len, seq = past_cache.shape[0], past_cache.shape[axis], update.shape[axis]
    if write_indices is None:  # left out: every batch entry writes from position 0
        write_indices = tf.zeros([batch], tf.int64)
    pos = write_indices[:, None] + tf.range(seq, dtype=write_indices.dtype)  # (batch, seq): positions written
    if mode == "circular":
        pos = pos % max_len
    rows = tf.broadcast_to(tf.range(batch, dtype=pos.dtype)[:, None], tf.shape(pos))
    cache = tf.experimental.numpy.moveaxis(past_cache, axis, 1)  # the sequence axis next to the batch axis
    moved = tf.experimental.numpy.moveaxis(update, axis, 1)
    out = tf.tensor_scatter_nd_update(cache, tf.stack([rows, pos], axis=-1), moved)
    return tf.experimental.numpy.moveaxis(out, 1, axis)


def slice_scatter(data, updates, start, stop, step, axes):
    r = len(data.shape)
    begin, end, strides, whole = [0] * r, [0] * r, [1] * r, (1 << r) - 1
    for a, b, e, s in zip(range(len(start)) if axes is None else axes, start, stop, step):
        a %= r
        begin[a], end[a], strides[a] = b, e, s
        whole &= ~(1 << a)  # mask bits: the axes taken whole
    return tf.raw_ops.TensorStridedSliceUpdate(input=data, begin=begin, end=end, strides=strides, value=updates,
                                               begin_mask=whole, end_mask=whole)
