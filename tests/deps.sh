#!/usr/bin/env bash
# The Debian packages `make test` needs, in one place.
#   tests/deps.sh install   install what is missing (as root), else print the apt-get line
#   tests/deps.sh check     print what is missing; exit 1 if anything is
#   tests/deps.sh list      print every package
set -u

PACKAGES=(
    # host: gcc and make come with the machine; clang for sanitizers and libFuzzer
    clang libclang-rt-14-dev
    # build integration: the CMake build and its consumer, pkg-config
    cmake pkgconf
    # WebAssembly: clang's wasm-ld (lld-14) and node to run the tests
    lld-14 nodejs
    # Windows: the mingw-w64 cross compiler and wine to run what it builds
    # (about 90 s and 1.2 GB installed, 210 MB downloaded, with wine's recommends)
    gcc-mingw-w64-x86-64 wine wine64
    # Blender opens the tool's glTF exports (its importer needs numpy; about
    # 110 s, 120 MB downloaded, 480 MB installed)
    blender python3-numpy
    # cross compilers with their C libraries (static test binaries)
    gcc-aarch64-linux-gnu libc6-dev-arm64-cross
    gcc-arm-linux-gnueabihf libc6-dev-armhf-cross
    gcc-s390x-linux-gnu libc6-dev-s390x-cross
    gcc-mips-linux-gnu libc6-dev-mips-cross
    gcc-powerpc-linux-gnu libc6-dev-powerpc-cross
    # emulators: user mode for the Linux targets, system mode for the Cortex-M4
    qemu-user-static qemu-system-arm
    # bare metal: compiler and newlib with semihosting
    gcc-arm-none-eabi libnewlib-arm-none-eabi
)

missing() {
    local p
    for p in "${PACKAGES[@]}"; do
        dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || echo "$p"
    done
}

case "${1:-check}" in
list)
    printf '%s\n' "${PACKAGES[@]}"
    ;;
check)
    m=$(missing)
    [ -z "$m" ] && exit 0
    echo "missing packages: $(echo $m)"
    exit 1
    ;;
install)
    if ! command -v dpkg-query >/dev/null 2>&1; then
        echo "deps: not a Debian system; install the equivalents of: ${PACKAGES[*]}"
        exit 1
    fi
    m=$(missing)
    [ -z "$m" ] && exit 0
    if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
        echo "deps: installing $(echo $m)"
        export DEBIAN_FRONTEND=noninteractive
        apt-get update -qq >/dev/null 2>&1 || true
        apt-get install -y -qq $m >/dev/null 2>&1 || apt-get install -y $m
        m=$(missing)
        [ -z "$m" ] && exit 0
        echo "deps: still missing after apt-get: $(echo $m)"
        exit 1
    fi
    echo "deps: missing packages; run as root:"
    echo "    sudo apt-get install -y $(echo $m)"
    exit 1
    ;;
*)
    echo "usage: $0 [list|check|install]" >&2
    exit 2
    ;;
esac
