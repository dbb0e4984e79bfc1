#!/usr/bin/env bash
# CTest devd_systemd_units: systemd-analyze verify on the units, instantiated for a drive
# "dev0", with ExecStart pointing at the built daemon. Any message fails the test.
# Usage: verify-units.sh SYSTEMD_ANALYZE SMARTSSD_DEVD
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
for u in socket service; do
    sed "s|/usr/local/bin/smartssd-devd|$2|" "$here/smartssd-devd@.$u" >"$work/smartssd-devd@.$u"
    ln -s "smartssd-devd@.$u" "$work/smartssd-devd@dev0.$u"
done
out=$("$1" verify --man=no "$work/smartssd-devd@dev0.socket" "$work/smartssd-devd@dev0.service" 2>&1) || {
    echo "$out"; exit 1; }
if [[ -n "$out" ]]; then
    echo "$out"
    exit 1
fi
echo "smartssd-devd@.socket and smartssd-devd@.service verify clean"
