#!/bin/sh
# stamp.sh: one line saying when, on what and from which tree a measurement was taken: the date
# (UTC), the CPU, its cores and memory, the operating system and the commit (with "+changes" when
# the working tree differs from it). Every table make bench and make docs-numbers print starts
# with it. BENCH_COMMIT names the commit where the tree is a copy without git's history.
cpu=$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo 2> /dev/null | head -n 1)
mem=$(awk '/^MemTotal:/ { printf "%.0f GiB", $2 / 1048576 }' /proc/meminfo 2> /dev/null)
os=$(sed -n 's/^PRETTY_NAME="\(.*\)"$/\1/p' /etc/os-release 2> /dev/null)
if [ -n "${BENCH_COMMIT:-}" ]; then
    commit=$BENCH_COMMIT
else
    commit=$(git rev-parse --short HEAD 2> /dev/null) || commit="not a git checkout"
    [ -n "$(git status --porcelain --untracked-files=no 2> /dev/null)" ] && commit="$commit+changes"
fi
echo "Measured $(date -u '+%Y-%m-%d %H:%M') UTC; ${cpu:-$(uname -m)}, $(getconf _NPROCESSORS_ONLN 2> /dev/null || echo '?') cores, ${mem:-? GiB}; ${os:-$(uname -s)}; commit $commit."
