# Helpers for the multi-process tests: where the programs are, how to run a command and look at its
# exit code, output and time. Sourced by every tests/mpi/*.test script.
set -u
MPIRUN="$AXON_TOP_BUILDDIR/runtime/mpirun/mpirun"
# make check-cluster: every job through srun --mpi=pmix on AXON_TEST_NODES nodes of the namespace
# cluster (tests/cluster); tests of what only mpirun does call need_mpirun and skip there.
if [ -n "${AXON_TEST_NODES:-}" ]; then
  MPIRUN="$AXON_TOP_SRCDIR/tests/cluster/srun-mpirun"
fi
BIN="$AXON_TOP_BUILDDIR/tests/mpi"
AXON_INFO="$AXON_TOP_BUILDDIR/tools/axon_info"
# Each test runs as if the job may oversubscribe (CI has 2 cores); nothing else of the caller leaks in.
unset PMIX_NAMESPACE PMIX_RANK PMIX_SERVER_URI41 PMIX_SERVER_URI4 PMIX_SERVER_URI3 PMIX_SERVER_URI2 \
  PMIX_SERVER_URI21 OMPI_COMM_WORLD_RANK OMPI_COMM_WORLD_SIZE
# Nor a Slurm allocation the tests run in: mpirun would take its size and nodes (tests/cluster/mpirun_salloc
# checks that).
unset SLURM_JOB_ID SLURM_TASKS_PER_NODE SLURM_NTASKS SLURM_JOB_NUM_NODES SLURM_NNODES SLURM_JOB_NODELIST

fail() { echo "FAIL: $*" >&2; exit 1; }
skip() { echo "SKIP: $*" >&2; exit 77; }

# on_cluster: true under make check-cluster. one_node_only WHY: skips the test there (what it checks is
# mpirun's own behaviour, or happens only within one node).
on_cluster() { [ -n "${AXON_TEST_NODES:-}" ]; }
one_node_only() {
  ! on_cluster || skip "one node only: $*"
}

# The fake CUDA driver (tests/fakecuda): tests that need it call need_fakecuda and load it through
# AXON_CUDA_LIBRARY="$FAKECUDA". It is built only where configure found cuda.h.
FAKECUDA="$AXON_TOP_BUILDDIR/tests/fakecuda/.libs/libaxon_fakecuda.so"
FAKENVML="$AXON_TOP_BUILDDIR/tests/fakecuda/.libs/libaxon_fakenvml.so"
need_fakecuda() {
  [ -e "$FAKECUDA" ] || skip "no fake CUDA driver in this build (configure found no cuda.h)"
}

# run CMD...: runs it with stdin from /dev/null; sets OUT, ERR, CODE and SECS (elapsed, as a decimal).
run() {
  local o e t0 t1
  o=$(mktemp) e=$(mktemp)
  t0=$(date +%s.%N)
  "$@" </dev/null >"$o" 2>"$e"
  CODE=$?
  t1=$(date +%s.%N)
  OUT=$(cat "$o") ERR=$(cat "$e")
  SECS=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.3f", b - a }')
  rm -f "$o" "$e"
}

show() { printf -- '--- command: %s\n--- exit code: %s\n--- stdout:\n%s\n--- stderr:\n%s\n' "$*" "$CODE" "$OUT" "$ERR" >&2; }
expect_code() { [ "$CODE" -eq "$1" ] || { show "$2"; fail "$2: exit code $CODE, expected $1"; }; }
expect_err() { grep -q -- "$1" <<<"$ERR" || { show "$2"; fail "$2: stderr lacks '$1'"; }; }
expect_out() { [ "$OUT" = "$1" ] || { show "$2"; fail "$2: stdout differs from the expected:"$'\n'"$1"; }; }
expect_faster() { awk -v s="$SECS" -v l="$1" 'BEGIN { exit !(s < l) }' || { show "$2"; fail "$2: took $SECS s (limit $1 s)"; }; }
no_rank_left() {
  sleep 0.2
  if pgrep -f "$BIN/$1" >/dev/null; then pgrep -af "$BIN/$1" >&2; fail "ranks of $1 still run"; fi
}
