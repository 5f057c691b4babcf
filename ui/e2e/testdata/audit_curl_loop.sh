#!/usr/bin/env bash
# The baseline of BenchmarkAuditSync (BENCHMARKS.md): the audit log read
# the way a script does it, with curl and jq: the earliest entry, then
# pages of 1000 after the last id, each entry written as one JSON line,
# until a page is short. Usage: audit_curl_loop.sh BASE_URL HEADER_FILE OUT
# (HEADER_FILE holds "Authorization: Bearer ...": the token stays out of
# the process list). Prints the number of requests made.
set -euo pipefail
base=$1 header=$2 out=$3
page=$(mktemp)
trap 'rm -f "$page"' EXIT
: >"$out"
curl -sSf -H @"$header" "$base/api/v1/logs/audit/earliest" | jq -c .log >>"$out"
from=$(tail -n 1 "$out" | jq -r .id)
requests=1
while :; do
  curl -sSf -H @"$header" -o "$page" "$base/api/v1/logs/audit?from=$from&take=1000"
  requests=$((requests + 1))
  n=$(jq -c '.[]' "$page" | tee -a "$out" | wc -l)
  if [ "$n" -lt 1000 ]; then break; fi
  from=$(tail -n 1 "$out" | jq -r .id)
done
echo "$requests"
