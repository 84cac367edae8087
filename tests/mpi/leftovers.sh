#!/bin/bash
# The entries of a shared directory (/dev/shm, /tmp), for run-mpi-test's check that a job leaves none.
#   leftovers.sh list DIR          every name in DIR, one a line
#   leftovers.sh unused DIR NAME.. those of the names that still exist in DIR and that no process uses: a
#                                  file nobody maps or holds open, a directory nobody has open or works in
#                                  (what a job still running in a concurrent test uses is not left over)
set -u
case "${1:-}" in
list)
  ls -A "$2" 2>/dev/null
  ;;
unused)
  dir=$2
  shift 2
  [ $# -gt 0 ] || exit 0
  used=$( { cat /proc/[0-9]*/maps 2>/dev/null | awk '{ print $6 }'
            for link in /proc/[0-9]*/fd/* /proc/[0-9]*/cwd; do readlink "$link" 2>/dev/null; done
          } | sed -n "s|^$dir/\([^/]*\).*|\1|p" | sed 's/ (deleted)$//' | sort -u)
  for name in "$@"; do
    [ -e "$dir/$name" ] || continue
    grep -qxF -- "$name" <<<"$used" || echo "$name"
  done
  ;;
*)
  echo "usage: leftovers.sh list DIR | unused DIR NAME..." >&2
  exit 2
  ;;
esac
