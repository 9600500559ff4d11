#!/usr/bin/env bash
# Runs the local TLS walk-through of docs/tls.md exactly as written: every ```sh block between the
# walkthrough:start and walkthrough:end markers, in order, in one shell, from the repository root. Then
# checks that the output holds, in order, every expected line the blocks show as `#   <line>` comments.
# Ports are chosen free here (the walk-through's defaults may be taken on a shared machine); everything
# it started is stopped and its directory removed at the end, whatever happened.
#   bash scripts/tls-walkthrough.sh        exit 0 when the walk-through works as documented
set -euo pipefail
cd "$(dirname "$0")/.."

DOC=docs/tls.md
TRIAL=$(mktemp -d)
export TRIAL

# The blocks, and the lines they promise to print.
awk '/<!-- walkthrough:start/{on=1; next} /<!-- walkthrough:end/{on=0} on && /^```sh$/{code=1; next}
  on && /^```$/{code=0; next} on && code' "$DOC" > "$TRIAL/walkthrough.sh"
sed -n 's/^#   //p' "$TRIAL/walkthrough.sh" > "$TRIAL/expected.txt"
if [ ! -s "$TRIAL/walkthrough.sh" ] || [ ! -s "$TRIAL/expected.txt" ]; then
  echo "tls-walkthrough: no walk-through found in $DOC" >&2
  exit 1
fi

# Free ports on loopback, one per setting of step 1.
read -r PORT CADDY_HTTP_PORT CADDY_HTTPS_PORT PEBBLE_PORT PEBBLE_MANAGEMENT_PORT PETSTORE_INTERNAL_PORT < <(node -e '
  const net = require("node:net");
  const servers = [1, 2, 3, 4, 5, 6].map(() => net.createServer().listen(0, "127.0.0.1"));
  Promise.all(servers.map((s) => new Promise((r) => s.on("listening", r)))).then(() => {
    console.log(servers.map((s) => s.address().port).join(" "));
    servers.forEach((s) => s.close());
  });')
export PORT CADDY_HTTP_PORT CADDY_HTTPS_PORT PEBBLE_PORT PEBBLE_MANAGEMENT_PORT PETSTORE_INTERNAL_PORT

# The walk-through in a shell of its own process group, so that every server it started is stopped.
status=0
setsid bash -c "set -euo pipefail; trap 'kill \$(jobs -p) 2> /dev/null || true' EXIT
  source \"$TRIAL/walkthrough.sh\"" > "$TRIAL/output.txt" 2> "$TRIAL/errors.txt" &
runner=$!
wait "$runner" || status=$?
kill -- "-$runner" 2> /dev/null || true

report() {
  echo "--- output"; cat "$TRIAL/output.txt"
  echo "--- errors"; tail -n 40 "$TRIAL/errors.txt"
  for log in pebble caddy petstore; do
    [ -f "$TRIAL/$log.log" ] && { echo "--- $log.log"; tail -n 30 "$TRIAL/$log.log"; }
  done
}

if [ "$status" -ne 0 ]; then
  echo "tls-walkthrough: a command of the walk-through failed (exit $status)" >&2
  report >&2
  rm -rf "$TRIAL"
  exit 1
fi

# Every expected line, in order.
missing=$(node -e '
  const fs = require("node:fs");
  const [expected, output] = process.argv.slice(1).map((file) => fs.readFileSync(file, "utf8"));
  const lines = output.split("\n");
  let at = 0;
  for (const want of expected.split("\n").filter(Boolean)) {
    const found = lines.findIndex((line, index) => index >= at && line.trim() === want.trim());
    if (found === -1) { console.log(want); process.exit(0); }
    at = found + 1;
  }' "$TRIAL/expected.txt" "$TRIAL/output.txt")
if [ -n "$missing" ]; then
  echo "tls-walkthrough: the walk-through did not print: $missing" >&2
  report >&2
  rm -rf "$TRIAL"
  exit 1
fi

echo "tls-walkthrough: every step of $DOC worked as documented ($(wc -l < "$TRIAL/expected.txt") expected lines seen)"
rm -rf "$TRIAL"
