#!/bin/bash
# mpirun's behaviour on plain programs (no MPI): exit codes and messages of failing ranks, signals to
# mpirun, time limits, output passed through exactly (whole lines, tags), stdin to rank 0 only, the
# environment of the ranks, host checks, the working directory and --mps (with a fake MPS control
# program); and that mpirun leaves nothing in TMPDIR and no rank behind.
# Usage: bash tests/mpirun/mpirun_behaviour.sh /path/to/mpirun
set -u
MPIRUN=${1:?usage: mpirun_behaviour.sh /path/to/mpirun}
case $MPIRUN in /*) ;; *) MPIRUN=$PWD/$MPIRUN ;; esac

fail() { echo "FAIL: $*" >&2; exit 1; }

# Everything this script makes lives in $work; mpirun gets an empty TMPDIR of its own, checked at the end.
work=$(mktemp -d "${TMPDIR:-/tmp}/mpirun_behaviour.XXXXXX") || fail "mktemp"
trap 'rm -rf "$work"' EXIT
mkdir "$work/tmp"
export TMPDIR=$work/tmp
unset MPIEXEC_TIMEOUT PMIX_NAMESPACE PMIX_RANK PMIX_SERVER_URI41 PMIX_SERVER_URI4 PMIX_SERVER_URI3 \
  PMIX_SERVER_URI2 PMIX_SERVER_URI21 AXON_MPIRUN_MPS AXON_MPS_CONTROL CUDA_MPS_PIPE_DIRECTORY \
  CUDA_MPS_LOG_DIRECTORY

# run [--stdin FILE] CMD...: sets OUT, ERR (as text), CODE and SECS; the raw stdout stays in $work/out.
run() {
  local in=/dev/null t0 t1
  if [ "$1" = --stdin ]; then in=$2; shift 2; fi
  t0=$(date +%s.%N)
  "$@" <"$in" >"$work/out" 2>"$work/err"
  CODE=$?
  t1=$(date +%s.%N)
  OUT=$(cat "$work/out") ERR=$(cat "$work/err")
  SECS=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.3f", b - a }')
}
show() { printf -- '--- %s\n--- exit code: %s, %s s\n--- stdout:\n%s\n--- stderr:\n%s\n' "$1" "$CODE" "$SECS" "$OUT" "$ERR" >&2; }
expect_code() { [ "$CODE" -eq "$1" ] || { show "$2"; fail "$2: exit code $CODE, expected $1"; }; }
expect_err() { grep -q -- "$1" <<<"$ERR" || { show "$2"; fail "$2: stderr lacks '$1'"; }; }
expect_out() { [ "$OUT" = "$1" ] || { show "$2"; fail "$2: stdout differs from the expected:"$'\n'"$1"; }; }
expect_no_err() { [ -z "$ERR" ] || { show "$2"; fail "$2: stderr is not empty"; }; }
expect_faster() { awk -v s="$SECS" -v l="$1" 'BEGIN { exit !(s < l) }' || { show "$2"; fail "$2: took $SECS s (limit $1 s)"; }; }
# no_process PATTERN WHAT: no process whose command line starts with PATTERN is left.
no_process() {
  sleep 0.2
  if pgrep -f "^$1" >/dev/null; then pgrep -af "^$1" >&2; fail "$2: processes '$1' are left"; fi
}
tmp_empty() { [ -z "$(ls -A "$TMPDIR")" ] || fail "$1: mpirun left in TMPDIR: $(ls -A "$TMPDIR")"; }

# ---- command line ----
run "$MPIRUN" --version
expect_code 0 "--version"
grep -q '^mpirun (Axon MPI) [0-9]' <<<"$OUT" || { show --version; fail "--version: no version line"; }
run "$MPIRUN" --help
expect_code 0 "--help"
grep -q 'Usage: mpirun' <<<"$OUT" || { show --help; fail "--help: no usage"; }
expect_no_err "--help"
run "$MPIRUN" --frobnicate true
expect_code 1 "unknown option"
expect_err "unknown option '--frobnicate'" "unknown option"
run "$MPIRUN" -n 2
expect_code 1 "no program"
expect_err "no program to run" "no program"
run "$MPIRUN" -n 0 true
expect_code 1 "-n 0"
run "$MPIRUN" -n 2 axon-no-such-program-here
expect_code 127 "missing program"
expect_err "cannot run 'axon-no-such-program-here': No such file or directory" "missing program"
run "$MPIRUN" -n 2 /etc/passwd
expect_code 126 "program not executable"
tmp_empty "command line"

# ---- success: output passes through exactly, mpirun says nothing ----
run "$MPIRUN" -n 3 echo hi
expect_code 0 "echo at 3 ranks"
expect_out $'hi\nhi\nhi' "echo at 3 ranks"
expect_no_err "echo at 3 ranks"
run "$MPIRUN" -n 3 hostname
expect_code 0 "non-MPI program at 3 ranks"
run "$MPIRUN" printf abc
[ "$(cat "$work/out"; echo x)" = "abcx" ] || { show "no newline"; fail "a last line without newline is changed"; }
run "$MPIRUN" sh -c 'seq 1 200000'
seq 1 200000 >"$work/expected"
cmp -s "$work/out" "$work/expected" || fail "large output of one rank is not passed through exactly"
# Long lines from 3 ranks at once are never cut into each other.
line=$(printf 'x%.0s' $(seq 1 300))
run "$MPIRUN" -n 3 sh -c "i=0; while [ \$i -lt 2000 ]; do echo \"r\$OMPI_COMM_WORLD_RANK $line\"; i=\$((i+1)); done"
expect_code 0 "interleaving"
[ "$(grep -c -E "^r[0-2] $line\$" "$work/out")" -eq 6000 ] || fail "output lines of ranks were mixed mid-line"
[ "$(wc -l <"$work/out")" -eq 6000 ] || fail "output lines were lost or added"
run "$MPIRUN" -n 2 --tag-output sh -c 'echo out; echo err >&2'
expect_code 0 "--tag-output"
OUT=$(sort <<<"$OUT") ERR=$(sort <<<"$ERR")
expect_out $'[1,0]<stdout>:out\n[1,1]<stdout>:out' "--tag-output"
[ "$ERR" = $'[1,0]<stderr>:err\n[1,1]<stderr>:err' ] || { show "--tag-output"; fail "--tag-output: stderr"; }

# ---- environment of the ranks ----
run "$MPIRUN" -n 3 sh -c 'echo "$OMPI_COMM_WORLD_RANK/$OMPI_COMM_WORLD_SIZE $OMPI_COMM_WORLD_LOCAL_RANK/$OMPI_COMM_WORLD_LOCAL_SIZE $MPI_LOCALRANKID/$MPI_LOCALNRANKS $PMI_RANK/$PMI_SIZE $PMIX_RANK $AXON_LAUNCHER"'
expect_code 0 "rank environment"
OUT=$(sort <<<"$OUT")
expect_out $'0/3 0/3 0/3 0/3 0 mpirun\n1/3 1/3 1/3 1/3 1 mpirun\n2/3 2/3 2/3 2/3 2 mpirun' "rank environment"
run "$MPIRUN" -n 2 sh -c 'test -n "$PMIX_NAMESPACE" && test -n "$PMIX_SERVER_URI41" && echo "$AXON_OVERSUBSCRIBED"'
expect_code 0 "PMIx environment"
cores=$(getconf _NPROCESSORS_ONLN)
run "$MPIRUN" -n $((cores + 1)) sh -c 'echo $AXON_OVERSUBSCRIBED'
expect_out "$(yes 1 | head -n $((cores + 1)))" "AXON_OVERSUBSCRIBED beyond $cores cores"
run "$MPIRUN" -n 2 -x AXON_T1=value -genv AXON_T2 'two words' sh -c 'echo "$AXON_T1:$AXON_T2"'
expect_out $'value:two words\nvalue:two words' "-x VAR=value, -genv"
AXON_T3=exported run "$MPIRUN" -x AXON_T3 sh -c 'echo "$AXON_T3"'
expect_out "exported" "-x VAR"
run "$MPIRUN" -n 2 -wdir / pwd
expect_out $'/\n/' "-wdir"
run "$MPIRUN" -wdir "$work/no-such-dir" pwd
expect_code 1 "-wdir missing"

# ---- stdin goes to rank 0 only ----
echo data >"$work/in"
run --stdin "$work/in" "$MPIRUN" -n 2 sh -c 'cat'
expect_code 0 "stdin"
expect_out "data" "stdin"
seq 1 100000 >"$work/in"
run --stdin "$work/in" "$MPIRUN" -n 2 sh -c '[ "$OMPI_COMM_WORLD_RANK" = 0 ] && cat || cat >/dev/null'
cmp -s "$work/out" "$work/in" || fail "large stdin is not passed to rank 0 exactly"
echo data | "$MPIRUN" -n 2 cat >"$work/out" 2>&1
[ "$(cat "$work/out")" = "data" ] || fail "stdin from a pipe: got '$(cat "$work/out")'"

# ---- failures: one message naming the rank, its code, the rest of the job killed ----
run "$MPIRUN" sh -c 'exit 3'
expect_code 3 "exit 3"
expect_err "mpirun: rank 0 (pid [0-9]*) exited with code 3" "exit 3"
run "$MPIRUN" -n 3 sh -c 'if [ "$OMPI_COMM_WORLD_RANK" = 1 ]; then exit 5; fi; exec sleep 60.25'
expect_code 5 "exit 5 on rank 1"
expect_err "rank 1 (pid" "exit 5 on rank 1"
[ "$(grep -c mpirun: <<<"$ERR")" -eq 1 ] || { show "one message"; fail "more than one message from mpirun"; }
expect_faster 5 "exit 5 on rank 1"
no_process "sleep 60.25" "exit 5 on rank 1"
run "$MPIRUN" -n 3 sh -c 'if [ "$OMPI_COMM_WORLD_RANK" = 2 ]; then kill -SEGV $$; fi; exec sleep 60.5'
expect_code 139 "SIGSEGV on rank 2"
expect_err "rank 2" "SIGSEGV on rank 2"
expect_err "signal 11" "SIGSEGV on rank 2"
expect_faster 5 "SIGSEGV on rank 2"
no_process "sleep 60.5" "SIGSEGV on rank 2"
# Ranks that ignore SIGTERM get SIGKILL a second later.
run "$MPIRUN" -n 2 sh -c 'trap "" TERM; if [ "$OMPI_COMM_WORLD_RANK" = 1 ]; then exit 4; fi; sleep 60.75'
expect_code 4 "SIGTERM ignored"
expect_faster 5 "SIGTERM ignored"
no_process "sleep 60.75" "SIGTERM ignored"
tmp_empty "failures"

# ---- time limit ----
run "$MPIRUN" -n 2 --timeout 1 sleep 61.25
expect_code 124 "--timeout"
expect_err "exceeded the time limit of 1 s" "--timeout"
expect_faster 5 "--timeout"
no_process "sleep 61.25" "--timeout"
MPIEXEC_TIMEOUT=1 run "$MPIRUN" -n 2 sleep 61.25
expect_code 124 "MPIEXEC_TIMEOUT"
expect_faster 5 "MPIEXEC_TIMEOUT"
no_process "sleep 61.25" "MPIEXEC_TIMEOUT"

# ---- signals to mpirun reach the ranks ----
"$MPIRUN" -n 2 sleep 61.5 </dev/null >/dev/null 2>"$work/err" &
pid=$!
sleep 0.5
kill -TERM $pid
wait $pid
CODE=$?
[ "$CODE" -eq 143 ] || fail "SIGTERM to mpirun: exit code $CODE, expected 143"
no_process "sleep 61.5" "SIGTERM to mpirun"
"$MPIRUN" -n 2 sleep 61.5 </dev/null >/dev/null 2>"$work/err" &
pid=$!
sleep 0.5
kill -INT $pid
wait $pid
CODE=$?
[ "$CODE" -eq 130 ] || fail "SIGINT to mpirun: exit code $CODE, expected 130"
no_process "sleep 61.5" "SIGINT to mpirun"
tmp_empty "signals"

# ---- --mps: a private MPS daemon, started before the ranks and told to quit however the job ends ----
# The fake control program logs each call: "start PIPE LOG" for -d, else "stdin: INPUT PIPE".
mpslog=$work/mps.log
cat >"$work/fake-mps-control" <<EOF
#!/bin/sh
if [ "\$1" = -d ]; then
  echo "start \$CUDA_MPS_PIPE_DIRECTORY \$CUDA_MPS_LOG_DIRECTORY" >>"$mpslog"
else
  echo "stdin: \$(cat) \$CUDA_MPS_PIPE_DIRECTORY" >>"$mpslog"
fi
exit 0
EOF
chmod +x "$work/fake-mps-control"
export AXON_MPS_CONTROL=$work/fake-mps-control
# expect_mps_log WHAT: the fake was started once, then told "quit" once, both with the same directory,
# which is gone; sets mps_pipe.
expect_mps_log() {
  local log
  log=$(cat "$mpslog" 2>/dev/null)
  [ "$(wc -l <<<"$log")" -eq 2 ] || fail "$1: the MPS control program's calls:"$'\n'"$log"
  mps_pipe=$(sed -n '1s/^start \([^ ]*\) .*/\1/p' <<<"$log")
  [ "$(sed -n 1p <<<"$log")" = "start $mps_pipe ${mps_pipe%/pipe}/log" ] || fail "$1: the start was: $log"
  case $mps_pipe in "$TMPDIR"/axon-mps-*/pipe) ;; *) fail "$1: the pipe directory is '$mps_pipe'" ;; esac
  [ "$(sed -n 2p <<<"$log")" = "stdin: quit $mps_pipe" ] || fail "$1: no quit after the start: $log"
  [ ! -e "${mps_pipe%/pipe}" ] || fail "$1: the MPS directory ${mps_pipe%/pipe} is left"
  rm -f "$mpslog"
}
run "$MPIRUN" -n 2 sh -c 'echo "[$CUDA_MPS_PIPE_DIRECTORY]"'
expect_out $'[]\n[]' "no --mps"
[ ! -e "$mpslog" ] || fail "no --mps: the MPS control program was called: $(cat "$mpslog")"
run "$MPIRUN" --mps -n 2 sh -c \
  'test -d "$CUDA_MPS_PIPE_DIRECTORY" && test -d "$CUDA_MPS_LOG_DIRECTORY" && echo "$CUDA_MPS_PIPE_DIRECTORY"'
expect_code 0 "--mps"
expect_no_err "--mps"
expect_mps_log "--mps"
expect_out "$mps_pipe"$'\n'"$mps_pipe" "--mps: both ranks see the daemon's pipe directory"
AXON_MPIRUN_MPS=1 run "$MPIRUN" -n 2 true
expect_code 0 "AXON_MPIRUN_MPS=1"
expect_mps_log "AXON_MPIRUN_MPS=1"
run "$MPIRUN" --mps -n 2 sh -c 'exit 3'
expect_code 3 "--mps, a rank exits 3"
expect_mps_log "--mps, a rank exits 3"
run "$MPIRUN" --mps -n 2 --timeout 1 sleep 61.75
expect_code 124 "--mps --timeout"
expect_mps_log "--mps --timeout"
no_process "sleep 61.75" "--mps --timeout"
"$MPIRUN" --mps -n 2 sleep 61.75 </dev/null >/dev/null 2>"$work/err" &
pid=$!
sleep 0.5
kill -TERM $pid
wait $pid
CODE=$?
[ "$CODE" -eq 143 ] || fail "--mps, SIGTERM to mpirun: exit code $CODE, expected 143"
expect_mps_log "--mps, SIGTERM to mpirun"
# A daemon the user runs already: mpirun starts none, and the ranks keep the user's variables.
CUDA_MPS_PIPE_DIRECTORY=/user/mps/pipe run "$MPIRUN" --mps -n 2 sh -c 'echo "$CUDA_MPS_PIPE_DIRECTORY"'
expect_code 0 "--mps with the user's daemon"
expect_out $'/user/mps/pipe\n/user/mps/pipe' "--mps with the user's daemon"
expect_no_err "--mps with the user's daemon"
[ ! -e "$mpslog" ] || fail "--mps with the user's daemon: the control program was called: $(cat "$mpslog")"
# No control program, or one that fails: an error naming --mps, and no rank starts.
AXON_MPS_CONTROL=/nonexistent run "$MPIRUN" --mps -n 1 sh -c "touch '$work/ran'"
expect_code 1 "--mps without the control program"
expect_err "mpirun: --mps: cannot start nvidia-cuda-mps-control" "--mps without the control program"
[ ! -e "$work/ran" ] || fail "--mps without the control program: a rank ran"
printf '#!/bin/sh\necho "no GPU here" >&2\nexit 2\n' >"$work/failing-mps-control"
chmod +x "$work/failing-mps-control"
AXON_MPS_CONTROL=$work/failing-mps-control run "$MPIRUN" --mps -n 1 sh -c "touch '$work/ran'"
expect_code 1 "--mps, the control program fails"
expect_err "mpirun: --mps: .*exited with code 2: no GPU here" "--mps, the control program fails"
[ ! -e "$work/ran" ] || fail "--mps, the control program fails: a rank ran"
unset AXON_MPS_CONTROL
tmp_empty "--mps"

# ---- hosts ----
printf '# hosts\nlocalhost slots=2\n\n%s\n' "$(hostname)" >"$work/hosts"
run "$MPIRUN" --hostfile "$work/hosts" -n 2 true
expect_code 0 "hostfile with this machine"
run "$MPIRUN" --host "localhost,$(hostname)" -n 2 true
expect_code 0 "--host with this machine"
printf 'localhost\nothermachine slots=4\n' >"$work/hosts"
run "$MPIRUN" --hostfile "$work/hosts" -n 2 true
expect_code 1 "hostfile with another machine"
expect_err "othermachine" "hostfile with another machine"
expect_err "srun --mpi=pmix" "hostfile with another machine"
run "$MPIRUN" -H othermachine true
expect_code 1 "--host another machine"
run "$MPIRUN" --hostfile "$work/no-such-file" true
expect_code 1 "unreadable hostfile"

tmp_empty "the end"
exit 0
