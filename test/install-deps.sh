#!/usr/bin/env bash
# Installs the servers the integration tests start: Weaviate and nats-server
# (built from their Go modules, cached in $(go env GOPATH)/bin), ClickHouse
# (Debian package) and Chromium for the console's browser tests (Debian package).
# Idempotent: a second run finds both and does nothing.
set -euo pipefail

WEAVIATE_VERSION=v1.35.2
gobin="$(go env GOPATH)/bin"

if ! command -v weaviate-server >/dev/null 2>&1 && [ ! -x "$gobin/weaviate-server" ]; then
  echo ">> building weaviate-server $WEAVIATE_VERSION (a few minutes, once)"
  GOFLAGS=-mod=mod go install "github.com/weaviate/weaviate/cmd/weaviate-server@$WEAVIATE_VERSION"
fi

NATS_SERVER_VERSION=v2.15.2
if ! command -v nats-server >/dev/null 2>&1 && [ ! -x "$gobin/nats-server" ]; then
  echo ">> installing nats-server $NATS_SERVER_VERSION (the cluster tests run three)"
  go install "github.com/nats-io/nats-server/v2@$NATS_SERVER_VERSION"
fi

if ! command -v clickhouse-server >/dev/null 2>&1; then
  echo ">> installing clickhouse-server (Debian package)"
  sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq clickhouse-server clickhouse-client >/dev/null
fi
if ! command -v chromium >/dev/null 2>&1; then
  echo ">> installing chromium (Debian package, for the console's browser tests)"
  sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq chromium >/dev/null
fi
if ! command -v npx >/dev/null 2>&1; then
  echo ">> installing node and npm (Debian packages, for Redocly's lint of the OpenAPI document)"
  sudo=""; [ "$(id -u)" -eq 0 ] || sudo=sudo
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq nodejs npm >/dev/null
fi
echo ">> test dependencies present: weaviate-server, nats-server, clickhouse-server, chromium, npx"
