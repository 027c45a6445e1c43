#!/usr/bin/env bash
# Tools the tests call besides the servers: Debian's Chromium (Playwright drives /usr/bin/chromium,
# no browser is downloaded) and Python's own Fernet and BSON, which decode an upload in a test:
# proof of the wire format that does not rely on our implementation.
# Debian packages: chromium python3-cryptography python3-bson
set -euo pipefail
[ -x /usr/bin/chromium ] || { echo "tools: /usr/bin/chromium is missing (apt-get install chromium)" >&2; exit 1; }
/usr/bin/python3 -c 'import cryptography, bson' || { echo "tools: Python's cryptography and bson are missing (apt-get install python3-cryptography python3-bson)" >&2; exit 1; }
echo "tools: chromium and python3 cryptography, bson present"
