#!/usr/bin/env bash
# CI: Debian's nginx (the light build) for the club deployment's test (tests/test_club_proxy.py
# drives deploy/nginx/vigile.conf on loopback with a certificate the test makes; it fails
# under CI without nginx). The package's service is not started: the test runs nginx itself,
# on a free port, as the user running the tests. Run as root; does nothing when nginx is there.
set -euo pipefail
need=()
command -v openssl > /dev/null || need+=(openssl)  # the test makes its own certificate
if ! command -v nginx > /dev/null && [ ! -x /usr/sbin/nginx ]; then need+=(nginx-light); fi
if [ ${#need[@]} -gt 0 ]; then
  export DEBIAN_FRONTEND=noninteractive
  # No service started in a container without an init (policy-rc.d: 101, "not allowed").
  policy=/usr/sbin/policy-rc.d
  if [ ! -e "$policy" ]; then
    printf '#!/bin/sh\nexit 101\n' > "$policy" && chmod +x "$policy"
    trap 'rm -f "$policy"' EXIT
  fi
  apt-get install -y "${need[@]}" || { apt-get update && apt-get install -y "${need[@]}"; }
fi
/usr/sbin/nginx -v
