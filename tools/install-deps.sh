#!/usr/bin/env bash
# Installs the Debian packages cuzk needs to build and test, when missing.
# As root it runs apt-get; otherwise it names what is missing and exits 1.
set -euo pipefail

need=()
have_cmd() { command -v "$1" >/dev/null 2>&1; }
have_cmd cmake || need+=(cmake)
have_cmd make || need+=(make)
have_cmd cc || need+=(gcc)
have_cmd clang || need+=(clang)
have_cmd clang-format || need+=(clang-format) # make format-check (CI)
[ -f /usr/include/cmocka.h ] || need+=(libcmocka-dev)
[ -f /usr/include/cjson/cJSON.h ] || need+=(libcjson-dev)
[ -f /usr/include/xxhash.h ] || need+=(libxxhash-dev) # the one 64-bit hash (hash.h)
[ -f /usr/include/openssl/sha.h ] || need+=(libssl-dev) # SHA-256 reference (test_cs_sha256)
have_cmd spin || need+=(spin) # model checker for model/*.pml (ctest spin_ledger)
# the daemon: SQLite journal, gRPC C core + protobuf-c, HTTP status/metrics
[ -f /usr/include/sqlite3.h ] || need+=(libsqlite3-dev)
[ -f /usr/include/grpc/grpc.h ] || need+=(libgrpc-dev)
[ -f /usr/include/protobuf-c/protobuf-c.h ] || need+=(libprotobuf-c-dev)
have_cmd protoc-c || need+=(protobuf-c-compiler)
[ -f /usr/include/microhttpd.h ] || need+=(libmicrohttpd-dev)
# the wire test's client (tests/daemon_filecoin.sh): Python gRPC, stubs
# generated from proto/cuzk/v1/proving.proto at test time
python3 -c 'import grpc' >/dev/null 2>&1 || need+=(python3-grpcio)
python3 -c 'import grpc_tools.protoc' >/dev/null 2>&1 || need+=(python3-grpc-tools)
# libFuzzer and the sanitizer runtimes for clang
ls /usr/lib/llvm-*/lib/clang/*/lib/linux/libclang_rt.fuzzer-x86_64.a >/dev/null 2>&1 ||
    need+=(libclang-rt-dev)

if [ ${#need[@]} -eq 0 ]; then
    exit 0
fi
if [ "$(id -u)" -ne 0 ]; then
    echo "cuzk: missing Debian packages: ${need[*]}" >&2
    echo "cuzk: run as root, or: sudo apt-get install -y ${need[*]}" >&2
    exit 1
fi
echo "cuzk: installing ${need[*]}"
export DEBIAN_FRONTEND=noninteractive
apt-get install -y --no-install-recommends "${need[@]}" >/dev/null 2>&1 ||
    { apt-get update >/dev/null && apt-get install -y --no-install-recommends "${need[@]}"; }
