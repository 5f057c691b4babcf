#!/bin/sh
# Creates the units' system user and tells systemd of the new units. The
# package never starts a unit: the feed and the hub need a profile first.
set -e
if command -v systemd-sysusers >/dev/null 2>&1; then
  systemd-sysusers /usr/lib/sysusers.d/vaultdeck.conf || true
fi
if ! getent passwd vaultdeck >/dev/null 2>&1; then
  useradd --system --home-dir /var/lib/vaultdeck --no-create-home --shell /usr/sbin/nologin vaultdeck 2>/dev/null ||
    adduser --system --home /var/lib/vaultdeck --no-create-home --group vaultdeck
fi
if [ -d /run/systemd/system ]; then
  systemctl daemon-reload || true
fi
exit 0
