#!/usr/bin/env bash
# Device check for a machine with an NVIDIA GPU (compute capability >= 8.0):
# builds the GPU back end and its tests, runs the device tests (real GPU,
# 1 KiB ... 256 MiB against the CPU, both kernel families in both CTR transfer
# modes), the emulator/runtime tests, measures kernel-only and end-to-end
# throughput of both kernel families (constant-time, tables) and both CTR
# transfer modes (ship, keystream, and what the calibration picks), and
# refreshes the instruction counts of the performance model from PTX and real
# SASS. Writes everything to a results folder. Budget: < 5 min.
#
# Results: kernel-only.txt ("BENCH kernel <cipher> <family> <op> 64MiB: X Gb/s"),
# end-to-end.txt ("BENCH e2e <cipher> <family> CTR ship|keystream|auto->mode"
# and ECB, 128 MiB), ctr-calibration.txt (the first-use choice per cipher and
# family), model-ptx-sm80.md / model-ptx-sm90.md / model-sass.md.
#
#   gpu/check.sh [results-dir]        (default: ./gpu-check-<host>-<date>)
# Environment: CUDACXX / nvcc on PATH, JOBS (default: nproc), BENCH (a command
# line for the lead's benchmark, run if set, e.g. "build/bench/gpucrypto_bench --backend cuda").
set -euo pipefail

src=$(cd "$(dirname "$0")/.." && pwd)
out=${1:-"$PWD/gpu-check-$(hostname -s)-$(date +%Y%m%d-%H%M%S)"}
build="$out/build"
jobs=${JOBS:-$(nproc)}
mkdir -p "$out"
exec > >(tee "$out/check.log") 2>&1
deadline=$((SECONDS + 290))
left() { echo $((deadline - SECONDS > 10 ? deadline - SECONDS : 10)); }

echo "== machine"
nvidia-smi || echo "nvidia-smi failed: no driver?"
nvidia-smi --query-gpu=name,compute_cap,driver_version,pcie.link.gen.max,pcie.link.width.max \
  --format=csv > "$out/gpus.csv" || true
nvcc=${CUDACXX:-$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)}
"$nvcc" --version | tail -2

echo "== build (sm_80, sm_90 + compute_90 PTX: the default, gpu/README.md)"
# --threads=0: nvcc compiles the architectures of a file in parallel (the
# ML-KEM kernels are the long pole of the build).
cmake -S "$src" -B "$build" -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_COMPILER="$nvcc" \
  -DCMAKE_CUDA_FLAGS=--threads=0 -DGPUCRYPTO_CUDA_RESOURCE_USAGE=ON > "$out/cmake.log"
grep "CUDA architectures" "$out/cmake.log" || true
timeout "$(left)" cmake --build "$build" -j"$jobs" --target gpucrypto_gpu \
  > "$out/build-gpu.log" 2>&1 || { tail -30 "$out/build-gpu.log"; exit 1; }
grep -E "Compiling entry|registers" "$out/build-gpu.log" > "$out/resource-usage.txt" || true

timeout "$(left)" cmake --build "$build" -j"$jobs" \
  --target gpu_device_test gpu_kernels_test gpu_ct_kernels_test gpu_runtime_test gpu_mlkem_test \
  > "$out/build-tests.log" 2>&1 || { tail -30 "$out/build-tests.log"; exit 1; }

status=0
echo "== architectures embedded in gpucrypto.so (built with the tests)"
ctest --test-dir "$build" -R '^cli\.cuda_archs$' -V > "$out/cuda_archs.txt" 2>&1 || status=1
grep -E "embedded|configured|FAIL|SKIP" "$out/cuda_archs.txt" || true

echo "== device tests"
timeout "$(left)" "$build/test/gpu_device_test" --gtest_output=xml:"$out/gpu_device_test.xml" |
  tee "$out/gpu_device_test.txt" || status=1
grep -q "SKIPPED" "$out/gpu_device_test.txt" && { echo "device tests were SKIPPED: no usable GPU"; status=1; }
grep "^BENCH" "$out/gpu_device_test.txt" > "$out/bench-rows.txt" || true
grep "^BENCH kernel" "$out/gpu_device_test.txt" > "$out/kernel-only.txt" || true
grep "^BENCH e2e" "$out/gpu_device_test.txt" > "$out/end-to-end.txt" || true
grep "^CALIB" "$out/gpu_device_test.txt" > "$out/ctr-calibration.txt" || true
# ML-KEM on the device (all levels and ops against the CPU; gpu/README.md).
timeout "$(left)" "$build/test/gpu_mlkem_test" --gtest_filter='MlkemDevice.*' \
  --gtest_output=xml:"$out/gpu_mlkem_device.xml" | tee "$out/gpu_mlkem_device.txt" || status=1
grep -q "SKIPPED" "$out/gpu_mlkem_device.txt" && { echo "ML-KEM device test was SKIPPED"; status=1; }

# The model's fully unrolled builds take minutes of nvcc: started after the
# device tests (so they do not steal the host cores the end-to-end rows
# measure), in the background while the emulator tests run.
model_pids=()
for tu in kernels kernels_ct; do  # the table family and the constant-time family
  for arch in 80 90; do
    ( timeout "$(left)" "$nvcc" -std=c++20 -I"$src" -DGPUCRYPTO_MODEL_FULL_UNROLL -arch=sm_$arch -O3 -ptx \
        -o "$out/model-$tu-$arch.ptx" "$src/gpu/$tu.cu" > "$out/model-$tu-$arch-ptx.log" 2>&1 ) &
    model_pids+=($!)
  done
  if command -v cuobjdump > /dev/null; then
    ( timeout "$(left)" "$nvcc" -std=c++20 -I"$src" -DGPUCRYPTO_MODEL_FULL_UNROLL -arch=sm_90 -cubin \
        -o "$out/model-$tu-90.cubin" "$src/gpu/$tu.cu" > "$out/model-$tu-90-cubin.log" 2>&1 ) &
    model_pids+=($!)
  fi
done

echo "== emulator and runtime tests"
for t in gpu_kernels_test gpu_ct_kernels_test gpu_runtime_test gpu_mlkem_test; do
  timeout "$(left)" "$build/test/$t" --gtest_output=xml:"$out/$t.xml" > "$out/$t.txt" || status=1
  tail -1 "$out/$t.txt"
done

if [ -n "${BENCH:-}" ]; then
  echo "== benchmark rows"
  timeout "$(left)" $BENCH > "$out/bench.txt" 2>&1 || status=1
fi

echo "== instruction counts for the model (PTX sm_80, sm_90; SASS sm_90 when cuobjdump exists)"
for pid in "${model_pids[@]}"; do wait "$pid" || echo "a model build did not finish in time (see model-*.log)"; done
for arch in 80 90; do
  python3 "$src/gpu/model/count_instructions.py" "$out"/model-kernels*-$arch.ptx > "$out/model-ptx-sm$arch.md" || true
done
cat "$out/model-ptx-sm90.md" || true
if ls "$out"/model-kernels*-90.cubin > /dev/null 2>&1; then
  for c in "$out"/model-kernels*-90.cubin; do cuobjdump -sass "$c"; done > "$out/model90.sass"
  python3 "$src/gpu/model/count_instructions.py" --sass "$out/model90.sass" | tee "$out/model-sass.md"
else
  echo "cuobjdump not found or the cubin builds timed out: SASS counts skipped"
fi
# The ML-KEM model's building blocks (PTX; gpu/model/mlkem_model.py).
"$nvcc" -std=c++20 -I"$src" -arch=sm_90 -O3 -ptx -o "$out/mlkem_probes.ptx" \
  "$src/gpu/model/mlkem_probes.cu" &&
  python3 "$src/gpu/model/mlkem_model.py" "$out/mlkem_probes.ptx" | tee "$out/model-mlkem.md" || true

echo "== done in ${SECONDS}s, status $status, results in $out"
exit $status
