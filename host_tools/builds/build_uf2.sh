#!/usr/bin/env bash
# Builds MicroPython v1.28.0 for the Raspberry Pi Pico, reproducibly:
#   host_tools/builds/build_uf2.sh stock    the stock UF2 (host_tools/emulator/images: the same
#                                           bytes but the build date in the banner)
#   host_tools/builds/build_uf2.sh frozen   (make uf2-frozen) with the firmware frozen in (the
#                                           manifest uf2_manifest.py): build/uf2/chromawheel-RPI_PICO.uf2,
#                                           one file for makers (its first boot writes
#                                           boards/pico.json and the default set to the drive)
# Needs: gcc-arm-none-eabi libnewlib-arm-none-eabi libstdc++-arm-none-eabi-dev cmake python3
# git (Debian; the C++ headers serve one SDK file, and an empty libstdc++.a stands in for the
# large libstdc++-arm-none-eabi-newlib, which nothing links from).
# Sources: the pinned commits below, cloned from their public GitHub repositories into
# build/uf2/repos. MIRROR=DIR (optional) takes them from a folder of local git copies
# instead, each as DIR/<owner>+<name> or DIR/<owner>+<name>/repo (for offline builds).
# picotool is not needed: the UF2 is made by MicroPython's uf2conv.py.
set -euo pipefail
KIND=${1:-frozen}
case "$KIND" in stock|frozen) ;; *) echo "usage: $0 stock|frozen" >&2; exit 2;; esac
HERE=$(cd "$(dirname "$0")/../.." && pwd)
OUT=$HERE/build/uf2
MIRROR=${MIRROR:-}
MICROPYTHON=e0e9fbb17ed6            # v1.28.0
declare -A PINS=(
  [lib/pico-sdk]="raspberrypi/pico-sdk a1438dff1d38bd9c65dbd693f0e5db4b9ae91779"
  [lib/tinyusb]="hathach/tinyusb aa0fc2e08f1c2dd6f026a431e8989357fbb4c5bf"
  [lib/micropython-lib]="micropython/micropython-lib 8380c7bb8f9e5e5260e9539156742925e00366b2"
  [lib/mbedtls]="Mbed-TLS/mbedtls 107ea89daaefb9867ea9121002fbbdf926780e98"
)

repo() {   # owner/name -> a git directory holding it
  local slug=${1/\//+}
  if [ -n "$MIRROR" ]; then
    for mirrored in "$MIRROR/$slug/repo" "$MIRROR/$slug"; do
      if [ -d "$mirrored" ]; then echo "$mirrored"; return; fi
    done
    echo "MIRROR=$MIRROR has no copy of $1 (looked for $slug/repo and $slug)" >&2; exit 1
  fi
  local cloned="$OUT/repos/$slug"
  if [ ! -d "$cloned" ]; then
    echo "cloning $1 (blobs on demand) into $cloned" >&2
    git clone --quiet --filter=blob:none --no-checkout "https://github.com/$1.git" "$cloned"
  fi
  echo "$cloned"
}

command -v arm-none-eabi-gcc >/dev/null || {
  echo "needs the ARM toolchain: apt-get install gcc-arm-none-eabi libnewlib-arm-none-eabi" \
       "libstdc++-arm-none-eabi-dev cmake" >&2; exit 1; }
SRC=$OUT/micropython
if [ ! -f "$SRC/.complete" ]; then
  rm -rf "$SRC" && mkdir -p "$SRC"
  from=$(repo micropython/micropython)
  python3 "$HERE/host_tools/builds/git_export.py" "$from" "$MICROPYTHON" "$SRC"
  for path in "${!PINS[@]}"; do
    read -r name commit <<<"${PINS[$path]}"
    from=$(repo "$name")
    echo "exporting $name $commit into $path" >&2
    python3 "$HERE/host_tools/builds/git_export.py" "$from" "$commit" "$SRC/$path"
  done
  # The pico-sdk's own tinyusb submodule is the same code MicroPython pins.
  mkdir -p "$SRC/lib/pico-sdk/lib" && rmdir "$SRC/lib/pico-sdk/lib/tinyusb" 2>/dev/null || true
  ln -sfn ../../tinyusb "$SRC/lib/pico-sdk/lib/tinyusb"
  touch "$SRC/.complete"
fi
make -s -C "$SRC/mpy-cross" -j"$(nproc)"
BUILD=build-RPI_PICO-$KIND
mkdir -p "$OUT/empty-libstdcxx"
[ -f "$OUT/empty-libstdcxx/libstdc++.a" ] || arm-none-eabi-ar rc "$OUT/empty-libstdcxx/libstdc++.a"
# CMAKE_ARGS on the command line overrides the port Makefile's own additions to it (its
# FROZEN_MANIFEST handling among them), so the manifest goes in here too.
CMAKE="-DPICO_NO_PICOTOOL=1 -DCMAKE_EXE_LINKER_FLAGS=-L$OUT/empty-libstdcxx"
if [ "$KIND" = frozen ]; then
  CMAKE="$CMAKE -DMICROPY_FROZEN_MANIFEST=$HERE/host_tools/builds/uf2_manifest.py"
  export CHROMAWHEEL_ROOT=$HERE CHROMAWHEEL_DEFAULTS=$OUT/defaults
  mkdir -p "$OUT/defaults"
  # The files a first boot writes, as a frozen module: with them the UF2 alone is a wheel.
  (cd "$HERE" && python3 -c "
from host_tools.device.files import data_files, python_files
files = [(rel, data) for data, rel in data_files('pico')]
files += [(rel, open(src, 'rb').read()) for src, rel in python_files() if '/' not in rel]
print('FILES = %r' % (tuple(files),))") > "$OUT/defaults/chromawheel_defaults.py"
  cp "$SRC/ports/rp2/modules/_boot.py" "$OUT/defaults/_rp2_boot.py"
  cat > "$OUT/defaults/_boot.py" <<'PY'
# The port's _boot.py (mounts the flash), then, on a board without main.py, the firmware's
# files from the frozen chromawheel_defaults: one UF2 makes a working wheel. A file that is
# already there is never replaced.
import _rp2_boot
import os
try:
    os.stat("main.py")
except OSError:
    from chromawheel_defaults import FILES
    for path, data in FILES:
        if "/" in path:
            try:
                os.mkdir(path.rsplit("/", 1)[0])
            except OSError:
                pass
        try:
            os.stat(path)
        except OSError:
            with open(path + ".tmp", "wb") as f:
                f.write(data)
            os.rename(path + ".tmp", path)
    print("first boot: wrote main.py, boot.py, board.json (pico) and the default meld set")
    del FILES
del os
PY
fi
ARGS=(BOARD=RPI_PICO BUILD="$BUILD" CMAKE_ARGS="$CMAKE")
make -s -C "$SRC/ports/rp2" "${ARGS[@]}" -j"$(nproc)" submodules >/dev/null 2>&1 || true
make -C "$SRC/ports/rp2" "${ARGS[@]}" -j"$(nproc)"
NAME=$([ "$KIND" = frozen ] && echo chromawheel-RPI_PICO || echo micropython-RPI_PICO)
python3 "$SRC/tools/uf2conv.py" -f RP2040 -b 0x10000000 -c \
  -o "$OUT/$NAME.uf2" "$SRC/ports/rp2/$BUILD/firmware.bin" >/dev/null
sha256sum "$OUT/$NAME.uf2"
