#!/bin/bash
# Checks an installed Axon: the wrappers compile C and C++ (and serve as nvcc's host compiler when nvcc
# is there), the programs run through the installed mpirun and mpiexec, the library answers to both
# libmpi.so.12 and libmpich.so.12, pkg-config finds it, and axon_sim runs. Usage: check-install.sh PREFIX
set -euo pipefail
prefix=${1:?usage: check-install.sh PREFIX}
src=$(cd "$(dirname "$0")/../.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }

for f in bin/mpicc bin/mpicxx bin/mpirun bin/mpiexec bin/axon_info bin/axon_sim include/mpi.h include/mpi-ext.h \
         lib/libmpi.so.12 lib/libmpich.so.12 lib/pkgconfig/axon.pc; do
  [ -e "$prefix/$f" ] || fail "$prefix/$f is not installed"
done
[ "$(readlink -f "$prefix/lib/libmpich.so.12")" = "$(readlink -f "$prefix/lib/libmpi.so.12")" ] ||
  fail "libmpich.so.12 is not the same library as libmpi.so.12"

"$prefix/bin/mpicc" -Wall -Werror -o "$work/hello" "$src/tests/mpi/hello.c"
out=$("$prefix/bin/mpirun" -n 4 "$work/hello" | sort)
[ "$out" = "$(printf 'Hello from rank %d of 4\n' 0 1 2 3)" ] || fail "mpirun -n 4 hello printed: $out"
out=$("$prefix/bin/mpiexec" -n 3 "$work/hello" | wc -l)
[ "$out" -eq 3 ] || fail "mpiexec -n 3 hello printed $out lines"

cat >"$work/hello.cc" <<'CC'
#include <mpi.h>
#include <iostream>
int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    int rank;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    std::cout << "C++ rank " << rank << std::endl;
    MPI_Finalize();
}
CC
"$prefix/bin/mpicxx" -Wall -Werror -o "$work/hello_cxx" "$work/hello.cc"
out=$("$prefix/bin/mpirun" -n 2 "$work/hello_cxx" | sort)
[ "$out" = $'C++ rank 0\nC++ rank 1' ] || fail "mpicxx-built program printed: $out"

PKG_CONFIG_PATH="$prefix/lib/pkgconfig" pkg-config --cflags --libs axon | grep -q -- -lmpi ||
  fail "pkg-config axon does not give -lmpi"

out=$("$prefix/bin/axon_sim" --topo nodes=2,ranks_per_node=2 --coll allreduce --sizes 8)
grep -q 'recursive_doubling\*' <<<"$out" || fail "the installed axon_sim printed: $out"

# The cost model's validation script runs against the install (one collective, one size: its format).
here=$(cd "$(dirname "$0")/../.." && pwd)
out=$("$here/bench/validate-model" -c "allreduce barrier" -s 8 "$prefix" 2>&1) ||
  fail "bench/validate-model failed: $out"
grep -q '^  allreduce  *recursive_doubling  *8 ' <<<"$out" && grep -q '^# [0-9]* rows: median |error|' <<<"$out" ||
  fail "bench/validate-model printed: $out"
# Replayed (-R), the table gives the same rows without running anything; under another tuning (-m) the
# same measured times get other predictions.
printf '%s\n' "$out" >"$work/validate.txt"
again=$("$here/bench/validate-model" -R "$work/validate.txt" "$prefix" 2>&1) || fail "validate-model -R failed: $again"
[ "$(grep '^  ' <<<"$out")" = "$(grep '^  ' <<<"$again")" ] || fail "validate-model -R printed: $again"
sed -n 's/^# tuning: //p' "$work/validate.txt" | sed 's/^call = .*/call = 0.001/' >"$work/slow-calls"
slow=$("$here/bench/validate-model" -R "$work/validate.txt" -m "$work/slow-calls" "$prefix" 2>&1) ||
  fail "validate-model -R -m failed: $slow"
[ "$(awk '/^  / { print $1, $2, $3, $5 }' <<<"$out")" = "$(awk '/^  / { print $1, $2, $3, $5 }' <<<"$slow")" ] &&
  ! [ "$(awk '/^  / { print $4 }' <<<"$out")" = "$(awk '/^  / { print $4 }' <<<"$slow")" ] ||
  fail "validate-model -R -m printed: $slow"

# The GPU targets' script, on the fake driver where the build has one (numbers meaningless: the script).
fake="$here/tests/fakecuda/.libs/libaxon_fakecuda.so"
if [ -e "$fake" ]; then
  out=$(AXON_CUDA_LIBRARY="$fake" "$here/bench/gpu-targets" -q "$prefix" 2>&1) || fail "bench/gpu-targets -q failed: $out"
  [ "$(grep -c '^|' <<<"$out")" -eq 14 ] || fail "bench/gpu-targets -q printed: $out"
  out=$(AXON_CUDA_LIBRARY="$fake" "$here/bench/cuda-overhead" -r 1 "$prefix" 2>&1) || fail "bench/cuda-overhead failed: $out"
  [ "$(grep -c ' [0-9.]*  *[0-9.]*  *[0-9]\.[0-9]*$' <<<"$out")" -eq 5 ] || fail "bench/cuda-overhead printed: $out"
fi

if [ -x /usr/local/cuda/bin/nvcc ]; then
  cp "$work/hello.cc" "$work/hello_nv.cu"
  /usr/local/cuda/bin/nvcc -ccbin "$prefix/bin/mpicxx" -o "$work/hello_nv" "$work/hello_nv.cu" ||
    fail "nvcc -ccbin mpicxx cannot build a program"
  out=$("$prefix/bin/mpirun" -n 2 "$work/hello_nv" | wc -l)
  [ "$out" -eq 2 ] || fail "the nvcc-built program printed $out lines"
fi
echo "check-install: ok ($prefix)"
