#!/usr/bin/env bash
# A real Spark standalone cluster on this machine, from the Spark distribution that the pyspark
# package ships: one master on 127.0.0.1 and one worker on each of 127.0.0.2-4, each worker's
# drive served by its own smartssd-devd (started by the driver, StandaloneClusterCheck). The
# driver asserts every scan task's executor host and the answers. Before the cluster, the
# READMEs' pyspark examples run as written, README.md's and smartssd-spark/README.md's
# (src/test/pyspark/readme_check.py).
#
# The distribution: $SPARK_HOME, else the pyspark venv that bin/ensure-pyspark installs (bin/test
# runs it through bin/ensure-deps), else the pyspark package that python3 imports. Without one
# (or with another version than the pinned 4.1.3) the check is skipped, saying so; exit 0.
# Needs the ordinary build first (mvn verify: the connector's -all.jar, the test classes and
# smartssd-devd, and examples/loganalyzer for smartssd-spark's README example; exit 2 when any is
# missing). Every port is chosen by the OS; every wait is bounded and says what it
# waited for. Usage: standalone.sh [WORKERS (default 3)]
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/../../../.." && pwd)
SPARK_VERSION=4.1.3
WORKERS=${1:-3}
WAIT_S=${SMARTSSD_CLUSTER_WAIT_S:-600}   # a hang detector; a loaded 2-core machine is slow

skip() { echo "SKIPPED Spark standalone cluster check: $*"; exit 0; }

spark_home=${SPARK_HOME:-}
python=python3
if [[ -z "$spark_home" ]] && venv=$("$ROOT/bin/ensure-pyspark" --check); then
    python=$venv/bin/python
fi
if [[ -z "$spark_home" ]]; then
    spark_home=$("$python" -c 'import os, pyspark; print(os.path.dirname(pyspark.__file__))' \
        2>/dev/null) || skip "no Spark distribution: set SPARK_HOME, or run bin/ensure-pyspark"
fi
[[ -x "$spark_home/bin/spark-class" ]] || skip "$spark_home has no bin/spark-class"
[[ -f "$spark_home/jars/spark-core_2.13-$SPARK_VERSION.jar" ]] ||
    skip "$spark_home is not Spark $SPARK_VERSION (Scala 2.13): no jars/spark-core_2.13-$SPARK_VERSION.jar"

all_jar=$(compgen -G "$ROOT/smartssd-spark/target/smartssd-spark-*-all.jar" | head -1 || true)
classes=$ROOT/smartssd-spark/target/test-classes
devd=$ROOT/native/target/cmake-release/firmware-tasklets/emu/smartssd-devd
# the README check runs bin/loganalyzer, which needs its module's classpath file
analyzer=$ROOT/examples/loganalyzer/target/classpath.txt
for need in "$all_jar" "$classes/org/smartssd/spark/StandaloneClusterCheck.class" "$devd" "$analyzer"; do
    [[ -n "$need" && -e "$need" ]] || { echo "standalone.sh: missing ${need:-the -all.jar}: run 'mvn verify' (all modules) first" >&2; exit 2; }
done

# The READMEs' pyspark examples as written, on this distribution's pyspark (local sessions)
readme_check=$ROOT/smartssd-spark/src/test/pyspark/readme_check.py
if py_bin=$(dirname "$(command -v "$python")") && "$python" -c 'import pyspark' 2>/dev/null; then
    readme_log=$(mktemp "${TMPDIR:-/tmp}/smartssd-readme.XXXXXX")
    readme_start=$(date +%s)
    if PATH=$py_bin:$PATH "$python" "$readme_check" "$ROOT" >"$readme_log" 2>&1; then
        grep '^readme_check:' "$readme_log"
        rm -f "$readme_log"
        echo "README pyspark check: $(( $(date +%s) - readme_start ))s"
    else
        tail -n 60 "$readme_log"
        rm -f "$readme_log"
        echo "standalone.sh: a README's pyspark example failed ($readme_check)" >&2
        exit 1
    fi
else
    echo "SKIPPED README pyspark check: $python cannot import pyspark (run bin/ensure-pyspark)"
fi

work=$(mktemp -d "${TMPDIR:-/tmp}/smartssd-standalone.XXXXXX")
pids=()
cleanup() {
    local rc=$?
    for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
    for pid in "${pids[@]}"; do wait "$pid" 2>/dev/null || true; done
    if [[ $rc -ne 0 ]]; then
        for log in "$work"/*.log; do echo "---- $log (last 40 lines)"; tail -n 40 "$log"; done
    fi
    rm -rf "$work"
}
trap cleanup EXIT

# Spark's daemons write their log lines to stderr; a fresh conf folder keeps a user's
# spark-defaults.conf out of the check
mkdir -p "$work/conf"
export SPARK_CONF_DIR=$work/conf SPARK_HOME=$spark_home

# $1 log, $2 process id, $3 extended regex, $4 what: prints the first match, or fails after
# WAIT_S seconds (or when the process exits first) saying what it waited for
await_line() {
    local line
    for ((i = 0; i < WAIT_S * 5; i++)); do
        if line=$(grep -m1 -oE "$3" "$1"); then echo "$line"; return 0; fi
        kill -0 "$2" 2>/dev/null || { echo "standalone.sh: $4: the process exited first" >&2; return 1; }
        sleep 0.2
    done
    echo "standalone.sh: waited ${WAIT_S}s for $4 ('$3' in $1)" >&2
    return 1
}

start=$(date +%s)
SPARK_LOCAL_IP=127.0.0.1 "$spark_home/bin/spark-class" org.apache.spark.deploy.master.Master \
    --host 127.0.0.1 --port 0 --webui-port 0 >"$work/master.log" 2>&1 &
pids+=($!)
# the master has no readiness channel: its port is in its log line, printed once bound
master=$(await_line "$work/master.log" "${pids[0]}" 'spark://127\.0\.0\.1:[0-9]+' "the master's URL")
await_line "$work/master.log" "${pids[0]}" 'New state: ALIVE' "the master to be ALIVE" >/dev/null
echo "master $master"

hosts=()
for ((n = 2; n < 2 + WORKERS; n++)); do
    host=127.0.0.$n
    mkdir -p "$work/worker$n"
    SPARK_LOCAL_IP=$host "$spark_home/bin/spark-class" org.apache.spark.deploy.worker.Worker \
        --host "$host" --port 0 --webui-port 0 --cores 1 --memory 768m \
        --work-dir "$work/worker$n" "$master" >"$work/worker$n.log" 2>&1 &
    pids+=($!)
    hosts+=("$host")
done
for ((n = 2, k = 1; n < 2 + WORKERS; n++, k++)); do
    await_line "$work/worker$n.log" "${pids[$k]}" 'Successfully registered with master' \
        "worker 127.0.0.$n to register with the master" >/dev/null
done
echo "workers ${hosts[*]} registered after $(( $(date +%s) - start ))s"

(cd "$classes" && jar cf "$work/check.jar" org/smartssd/spark/StandaloneClusterCheck*.class \
    org/smartssd/spark/SparkDrive*.class)
SPARK_LOCAL_IP=127.0.0.1 "$spark_home/bin/spark-submit" --master "$master" \
    --deploy-mode client --driver-memory 512m \
    --driver-java-options "-Dsmartssd.devd=$devd" --jars "$all_jar" \
    --class org.smartssd.spark.StandaloneClusterCheck "$work/check.jar" \
    "$master" "$work" "${hosts[@]}" >"$work/driver.log" 2>&1 &
driver=$!
rc=0
wait "$driver" || rc=$?
grep '^CHECK' "$work/driver.log" || true
echo "standalone cluster check: exit $rc after $(( $(date +%s) - start ))s"
exit $rc
