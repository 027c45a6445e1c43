#!/usr/bin/env bash
# Tools the tests call besides the servers: Debian's Chromium (Playwright drives /usr/bin/chromium,
# no browser is downloaded) and Python's own Fernet and BSON, which decode an upload in a test:
# proof of the wire format that does not rely on our implementation; Python's prometheus_client
# parses GET /metrics the way a Prometheus server would; pandas (with openpyxl and lxml) reads the
# Excel, JSON and XML files the document parsers are compared with.
# Debian packages: chromium python3-cryptography python3-bson python3-prometheus-client python3-pandas python3-openpyxl python3-lxml
set -euo pipefail
[ -x /usr/bin/chromium ] || { echo "tools: /usr/bin/chromium is missing (apt-get install chromium)" >&2; exit 1; }
/usr/bin/python3 -c 'import cryptography, bson, prometheus_client, pandas, openpyxl, lxml' || { echo "tools: Python's cryptography, bson, prometheus_client, pandas, openpyxl or lxml is missing (apt-get install python3-cryptography python3-bson python3-prometheus-client python3-pandas python3-openpyxl python3-lxml)" >&2; exit 1; }
echo "tools: chromium and python3 cryptography, bson, prometheus_client, pandas, openpyxl, lxml present"
