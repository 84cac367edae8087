#!/bin/bash
# The entries of /dev/shm, for run-mpi-test's leak check.
#   shm-entries.sh list          every name in /dev/shm, one a line
#   shm-entries.sh unused NAME.. those of the names that still exist and that no process maps or holds open
#                             (a segment of a job still running is in use; one nobody uses is left over)
set -u
case "${1:-}" in
list)
  ls -A /dev/shm 2>/dev/null
  ;;
unused)
  shift
  [ $# -gt 0 ] || exit 0
  used=$( { cat /proc/[0-9]*/maps 2>/dev/null | awk '$6 ~ "^/dev/shm/" { sub("^/dev/shm/", "", $6); print $6 }'
            for fd in /proc/[0-9]*/fd/*; do readlink "$fd" 2>/dev/null; done | sed -n 's|^/dev/shm/||p'
          } | sed 's/ (deleted)$//' | sort -u)
  for name in "$@"; do
    [ -e "/dev/shm/$name" ] || continue
    grep -qxF -- "$name" <<<"$used" || echo "$name"
  done
  ;;
*)
  echo "usage: shm-entries.sh list | unused NAME..." >&2
  exit 2
  ;;
esac
