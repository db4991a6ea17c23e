# Cross-building the native host for arm64 (aarch64) on a Debian or Ubuntu x86-64 machine with
# Debian's cross toolchain and the arm64 (multiarch) -dev packages: crossbuild-essential-arm64,
# libgstreamer1.0-dev:arm64, libgstreamer-plugins-base1.0-dev:arm64, libnode-dev:arm64, ...
# (scripts/platforms/arm64.sh installs them in a root of its own; docs/platforms.md).
#
#   cmake -S native-host -B native-host/build-arm64 \
#     -DCMAKE_TOOLCHAIN_FILE=native-host/cmake/aarch64-linux-gnu.cmake
#
# The arm64 libraries and headers are where multiarch puts them (/usr/lib/aarch64-linux-gnu,
# /usr/include): no sysroot. Programs the build runs (node for the bootstrap bundle) are the
# build machine's.
set(CMAKE_SYSTEM_NAME Linux)
set(CMAKE_SYSTEM_PROCESSOR aarch64)
set(CMAKE_C_COMPILER aarch64-linux-gnu-gcc)
set(CMAKE_CXX_COMPILER aarch64-linux-gnu-g++)
set(CMAKE_LIBRARY_ARCHITECTURE aarch64-linux-gnu)
# pkg-config reads the arm64 .pc files only (GStreamer, Cairo, Pango), never the build machine's.
set(ENV{PKG_CONFIG_LIBDIR} /usr/lib/aarch64-linux-gnu/pkgconfig:/usr/share/pkgconfig)
set(ENV{PKG_CONFIG_PATH} "")
