"""Image preprocessing as fed to a vision model: uint8 HWC -> float32, scale, per-channel normalize,
CHW layout. Mixed dtypes, broadcasting over the channel axis and a transposed contiguous output."""
import numpy as np

from ._util import nbytes

NAME = "image_preprocess"
MEMORY_BOUND = True
_HW = {"small": (64, 64), "default": (2048, 2048), "gpu": (8192, 8192)}


def kernel(img, mean, std):
    x = img.astype(np.float32) / 255.0
    x = (x - mean) / std
    return np.ascontiguousarray(np.transpose(x, (2, 0, 1)))


def make_inputs(size, rng):
    h, w = _HW[size]
    img = rng.integers(0, 256, (h, w, 3), dtype=np.uint8)
    mean = np.array([0.485, 0.456, 0.406], dtype=np.float32)
    std = np.array([0.229, 0.224, 0.225], dtype=np.float32)
    return img, mean, std


def BYTES(inputs):
    img = inputs[0]
    return nbytes(*inputs) + img.size * 4
