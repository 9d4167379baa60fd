#!/bin/sh
# Install the Debian packages nndb needs to build and test. Idempotent: it
# installs only what is missing, says what it installs, and runs apt-get
# update first. Needs root (or sudo) only when something is missing.
set -eu

PKGS="build-essential python3.11-dev python3-matplotlib python3-tqdm python3-graphviz python3-ipython python3-torchvision pkg-config libopenblas-dev libsleef3 libreadline-dev libzmq3-dev libcjson-dev uuid-dev libssl-dev python3-numpy python3-torch python3-pexpect python3-jupyter-client python3-nbclient python3-nbformat python3-ipykernel jupyter-console python3-pytest pci.ids clang clang-format wamerican libgvc6 python3-jsonschema jupyterhub node-configurable-http-proxy librsvg2-2 libcairo2 fonts-dejavu-core chromium chromium-driver python3-selenium jupyter-notebook openmpi-bin libopenmpi-dev python3-pil dataset-fashion-mnist python3-ipywidgets jupyter-nbextension-jupyter-js-widgets libfftw3-dev"

missing=""
for p in $PKGS; do
    if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
        missing="$missing $p"
    fi
done

if [ -z "$missing" ]; then
    exit 0
fi

echo "setup/deps.sh: installing:$missing"
SUDO=""
if [ "$(id -u)" != 0 ]; then
    if command -v sudo >/dev/null 2>&1; then SUDO=sudo; else
        echo "setup/deps.sh: need root to install:$missing" >&2
        exit 1
    fi
fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
# shellcheck disable=SC2086
$SUDO apt-get install -y -qq --no-install-recommends $missing
echo "setup/deps.sh: done"
