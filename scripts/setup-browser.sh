#!/usr/bin/env bash
# Installs Debian's chromium when it is missing, for the test that opens the HTML report in
# a real browser (tests/html.rs; it says skipped, with the reason, where no browser can be
# installed). Used by test.sh.
set -euo pipefail
exec bash "$(dirname "$0")/install-missing.sh" chromium
