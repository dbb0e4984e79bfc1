#!/usr/bin/env bash
# The solid-state cache's daemon-kill rounds at full count: SIGKILL of smartssd-devd at random
# points of mixed write-dirty / write-clean / evict / clean traffic, checked against a model of
# what was acknowledged (org.smartssd.fs.sscache.CacheCrashRoundsTest; bin/test runs 50).
#   smartssd-fs/crash-rounds.sh [ROUNDS=500] [SEED]
set -euo pipefail
root=$(cd "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")/.." && pwd)
rounds=${1:-500}
seed=${2:-20261123}
cd "$root"
exec mvn -B -ntp -o verify -pl native,native/java,smartssd-fs -Dctest.skip \
  -Dtest=CacheCrashRoundsTest -Dsurefire.failIfNoSpecifiedTests=false \
  -Dsscache.crash.rounds="$rounds" -Dsscache.crash.seed="$seed"
