#!/usr/bin/env bash
# Every check that needs a GPU, as one prepared run for a lent GPU machine (its image has torch 2.11 with CUDA,
# triton, numpy, pytest and hypothesis, and no network).  From a session with a device: run the command
# `bash benchmarks/gpu_check.sh` with timeout_s=590; the logs and JSON land in $OUT.  Each stage has its own time
# limit and writes as it goes, so a slow stage costs its own results only.
#   1. tests/cuda: the device context, wrap_numpy on CUDA tensors (values, gradcheck, no host copy), the mixed
#      pattern, Triton code through Inductor, the eager shim on the GPU, the resolution of compiled draws.
#   2. benchmarks.wrap_numpy_example: issue 5's example on 1024x64 float32/float64 tensors.
#   3. the suite at the default sizes (NumPy takes 5 ms to 1 s per call on the CPU there; the "gpu" sizes take
#      minutes per kernel in NumPy), NumPy arrays in and out under torch.device("cuda"), then on CUDA tensors
#      through wrap_numpy (--tensors).  The runner writes its JSON after each kernel.
set -uo pipefail
cd "$(dirname "$0")/.."
OUT=${OUT:-/tmp/npc_gpu_check}
mkdir -p "$OUT"
export PYTHONPATH=$PWD PYTHONUNBUFFERED=1 CI=1
py=python3

{ nvidia-smi -L; $py -c "import torch, numpy; print('torch', torch.__version__, 'numpy', numpy.__version__,
torch.cuda.get_device_name() if torch.cuda.is_available() else 'no CUDA')"; $py -c "import triton; print('triton',
triton.__version__)"; } 2>&1 | tee "$OUT/env.txt"
timeout 170 $py -m pytest -p no:cacheprovider -q -rfE tests/cuda 2>&1 | tail -60 > "$OUT/cuda_tests.txt"
tail -3 "$OUT/cuda_tests.txt"
timeout 60 $py -m benchmarks.wrap_numpy_example 2>&1 | tail -14 | tee "$OUT/wrap_numpy_example.txt"
for mode in numpy_io tensors; do
    extra=$([ $mode = tensors ] && echo --tensors)
    timeout 140 $py -m benchmarks --device cuda --size default --repeat 5 $extra --json "$OUT/suite_$mode.json" \
        > "$OUT/suite_$mode.txt" 2> "$OUT/suite_$mode.log"
    tail -40 "$OUT/suite_$mode.txt"
done
