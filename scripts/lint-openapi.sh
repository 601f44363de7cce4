#!/usr/bin/env bash
# `npm run lint:openapi`: dumps the OpenAPI document the server serves (`bizapi openapi`, the same as
# GET /openapi.json) and lints it with Redocly CLI, configured by redocly.yaml. Fails on any error.
set -euo pipefail
cd "$(dirname "$0")/.."
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
node bin/bizapi openapi > "$work/openapi.json"
node_modules/.bin/redocly lint "$work/openapi.json" --config redocly.yaml
