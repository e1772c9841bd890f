#!/usr/bin/env bash
# Downloads the Debian packages that tools/gpu_run.sh may need on a GPU
# machine that has CUDA and CMake but no network and no cmocka/cJSON:
# libcmocka0 libcmocka-dev libcjson1 libcjson-dev, as .deb files, into .debs/
# at the repository root (ignored by git: carry it to the GPU machine, e.g.
# the device tool's carry [".debs"]). Run it here, on a machine with apt.
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
pkgs=(libcmocka0 libcmocka-dev libcjson1 libcjson-dev)
mkdir -p "$root/.debs"
cd "$root/.debs"

if ! apt-get download "${pkgs[@]}"; then
    # Stale or missing package lists: refresh them (root only) and retry.
    if [ "$(id -u)" -ne 0 ]; then
        echo "fetch_gpu_debs: apt-get download failed; run 'apt-get update' as root, then again" >&2
        exit 1
    fi
    apt-get update
    apt-get download "${pkgs[@]}"
fi
ls -l "$root/.debs"
