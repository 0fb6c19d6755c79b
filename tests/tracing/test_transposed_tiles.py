"""SIMD transposed tiles of bytes (npcompile/inductor/_transposed_tiles.py): which tile calls get them, then two
Inductor tests against NumPy: the tile function itself over shapes, strides and byte types, and compiled
channels-last -> channels-first copies (several channel counts, dtypes, odd sizes with tails, strided inputs)."""

import numpy as np
import pytest
import torch

from npcompile import _compile as C
from npcompile.inductor._transposed_tiles import with_byte_tiles

from .conftest import same

_PREFIX = "#include <torch/csrc/inductor/cpp_prefix.h>"


def _call(t, m, n):
    return f"transpose_mxn<{t},static_cast<int64_t>({m}),static_cast<int64_t>({n}L),false>"


def test_tiles_are_added_once_for_each_byte_tile_shape_called():
    calls = [_call("uint8_t", 16, 3) + "(a, 3L, t, 16);", _call("uint8_t", 16, 3) + "(b, 3L, t, 16);",
             _call("bool", 16, 2) + "(c, 2L, t, 16);", _call("float", 16, 3) + "(d, 3L, t, 16);"]
    source = "\n".join([_PREFIX, *calls])
    out = with_byte_tiles(source)
    assert out.count("namespace npc_byte_tiles {") == 1
    assert out.count("inline void transpose_mxn<uint8_t, 16, 3, false>") == 1
    assert out.count("inline void transpose_mxn<bool, 16, 2, false>") == 1
    assert "transpose_mxn<float, 16, 3, false>" not in out
    assert out.index("npc_byte_tiles") > out.index(_PREFIX) and out.endswith(source[len(_PREFIX):])


def test_sources_without_byte_tiles_are_unchanged():
    for source in [_PREFIX + "\nkernel();", _PREFIX + _call("float", 16, 3) + "(d, 3L, t, 16);",
                   _PREFIX + "transpose_mxn<uint8_t,false>(a, 3L, t, 16, M, N);"]:
        assert with_byte_tiles(source) is source


def test_tiles_only_while_our_cpu_graphs_compile():
    """A plain torch.compile in the same process keeps Inductor's kernel sources."""
    from torch._inductor.codegen.cpp import KernelGroup

    from npcompile.inductor import _accurate_vector_code

    inductors = KernelGroup.codegen_group
    with _accurate_vector_code():
        assert KernelGroup.codegen_group is not inductors
    assert KernelGroup.codegen_group is inductors


# (ctype, M, N, ld_src) for the tile test: whole vectors of 8 to 64 bytes and another M, rows of 1 to 8 bytes
# (2 to 6 take the SIMD path), contiguous (ld_src == N, the SIMD path) and strided rows; int8 and bool tiles
_SHAPES = ([("uint8_t", m, n, ld) for m in (8, 16, 32, 64, 5) for n in (1, 2, 3, 4, 5, 6, 8) for ld in (n, n + 2)]
           + [(t, 16, n, n) for t in ("int8_t", "bool") for n in (3, 8)])


@pytest.mark.inductor
def test_tile_function_transposes_every_shape_as_numpy():
    from torch._inductor.codecache import CppPythonBindingsCodeCache

    rng = np.random.default_rng(0)
    lines, expected, src_off, dst_off = [], [], 0, 0
    src = rng.integers(0, 256, sum(m * ld for _, m, _, ld in _SHAPES), dtype=np.uint8)
    for t, m, n, ld in _SHAPES:
        if t == "bool":
            src[src_off:src_off + m * ld] &= 1
        tile = src[src_off:src_off + m * ld].reshape(m, ld)[:, :n]
        ld_dst = m + 3  # the rows of dst, with bytes between them that must stay as they were
        want = np.full((n, ld_dst), 0xAB, dtype=np.uint8)
        want[:, :m] = tile.T
        expected.append(want.ravel())
        lines.append(f"{_call(t, m, n)}(reinterpret_cast<const {t}*>(in_ptr0 + {src_off}), {ld}L, "
                     f"reinterpret_cast<{t}*>(out_ptr0 + {dst_off}), {ld_dst}L);")
        src_off += m * ld
        dst_off += n * ld_dst
    source = with_byte_tiles(f'{_PREFIX}\nextern "C" void kernel(const uint8_t* in_ptr0, uint8_t* out_ptr0) {{\n'
                             + "\n".join(lines) + "\n}\n")
    assert "npc_byte_tiles" in source
    kernel = CppPythonBindingsCodeCache.load_pybinding(["const uint8_t*", "uint8_t*"], source)
    out = torch.full((dst_off,), 0xAB, dtype=torch.uint8)
    kernel(torch.from_numpy(src), out)
    np.testing.assert_array_equal(out.numpy(), np.concatenate(expected))


def _chw(x):
    return np.ascontiguousarray(np.transpose(x, (2, 0, 1)))


def _copies(u1, u2, u3, u4, u5, u8, i8, i16, f32, f64, b2, wide):
    return (_chw(u1), _chw(u2), _chw(u3), _chw(u4), _chw(u5), _chw(u8), _chw(i8), _chw(i16), _chw(f32), _chw(f64),
            _chw(b2), _chw(wide[..., :3]), _chw(u3[:, ::2]), (_chw(u3).astype(np.float32) / 255.0 - 0.5) / 0.25)


@pytest.mark.inductor
def test_compiled_channels_last_copies_match_numpy():
    from torch._inductor.utils import run_and_get_code

    rng = np.random.default_rng(1)
    hw = (5, 7)  # 35 pixels: two whole tiles of 16 and a tail of 3

    def img(n, dtype=np.uint8):
        return rng.integers(-100 if np.dtype(dtype).kind in "if" else 0, 200, (*hw, n)).astype(dtype)

    args = (img(1), img(2), img(3), img(4), img(5), img(8), img(3, np.int8), img(3, np.int16), img(3, np.float32),
            img(3, np.float64), img(2, bool), img(4))
    got, codes = run_and_get_code(C.compile(_copies), *args)
    assert same(got, _copies(*args))
    code = "\n".join(codes)
    assert "NPC_BYTE_TILE_uint8_t_" in code  # the tiles were used (without them the bytes are the same)
