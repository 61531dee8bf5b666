#!/bin/sh
# SPDX-FileCopyrightText: 2026 The libonnxslim authors
# SPDX-License-Identifier: MIT
# Called by `make install`: prints where each part went and, for each part a
# prefix outside the system's search paths hides, the one line to add.
#
#   install-report.sh DESTDIR PREFIX LIBDIR INCLUDEDIR BINDIR PKGCONFIGDIR
#                     CMAKEDIR MANDIR BASHCOMPDIR PYTHONDIR PYTHON SOREAL
set -u
D=$1 PREFIX=$2 LIBDIR=$3 INCLUDEDIR=$4 BINDIR=$5 PKGCONFIGDIR=$6 CMAKEDIR=$7
MANDIR=$8 BASHCOMPDIR=$9; shift 9; PYTHONDIR=$1 PYTHON=$2 SOREAL=$3
echo "libonnxslim installed${D:+ under DESTDIR=$D}:"
printf '  %-12s %s\n' library "$LIBDIR/$SOREAL (+ .so.0, .so, libonnxslim.a)" \
  headers "$INCLUDEDIR/onnxslim.h, onnxslim.hpp, onnxslim/" \
  command "$BINDIR/libonnxslim" \
  pkg-config "$PKGCONFIGDIR/libonnxslim.pc" \
  CMake "$CMAKEDIR/libonnxslimConfig.cmake" \
  Python "$PYTHONDIR/libonnxslim (for $PYTHON)" \
  "man page" "$MANDIR/man1/libonnxslim.1" \
  completion "$BASHCOMPDIR/libonnxslim"
[ -n "$D" ] && exit 0   # a staged install: the search paths are the target's
hint() { printf '  %-12s %s\n' "$1" "$2"; n=$((n + 1)); }
n=0
out=$(
  # the dynamic loader: ldconfig's cache and its default directories
  if ! { ldconfig -p 2>/dev/null | grep -qF "$LIBDIR/libonnxslim.so.0"; } &&
     ! { ldconfig -v -N 2>/dev/null | grep -q "^$LIBDIR:"; }; then
    hint library "programs you link find it with: echo $LIBDIR > /etc/ld.so.conf.d/libonnxslim.conf && ldconfig (or LD_LIBRARY_PATH=$LIBDIR); the command and the Python package find it without"
  elif ! ldconfig -p 2>/dev/null | grep -qF "$LIBDIR/libonnxslim.so.0"; then
    hint library "run ldconfig (as root) once, so programs find libonnxslim.so.0"
  fi
  pcpath=$(pkg-config --variable pc_path pkg-config 2>/dev/null)
  case ":$pcpath:${PKG_CONFIG_PATH:-}:" in *":$PKGCONFIGDIR:"*) ;;
    *) hint pkg-config "export PKG_CONFIG_PATH=$PKGCONFIGDIR\${PKG_CONFIG_PATH:+:\$PKG_CONFIG_PATH}" ;; esac
  case $PREFIX in /usr|/usr/local) ;;
    *) hint CMake "cmake -DCMAKE_PREFIX_PATH=$PREFIX ... (or export CMAKE_PREFIX_PATH=$PREFIX)" ;; esac
  if [ "$("$PYTHON" "$(dirname "$0")/python-dir.py" "$PREFIX" 2>/dev/null | sed -n 2p)" != on-path ]; then
    hint Python "export PYTHONPATH=$PYTHONDIR\${PYTHONPATH:+:\$PYTHONPATH}"
  fi
  if command -v manpath >/dev/null 2>&1; then
    case ":$(manpath 2>/dev/null):" in *":$MANDIR:"*) ;;
      *) hint "man page" "export MANPATH=$MANDIR:" ;; esac
  fi
  data=${BASHCOMPDIR%/bash-completion/completions}
  case ":${XDG_DATA_DIRS:-/usr/local/share:/usr/share}:" in *":$data:"*) ;;
    *) hint completion "export XDG_DATA_DIRS=$data:\${XDG_DATA_DIRS:-/usr/local/share:/usr/share}" ;; esac
  case ":$PATH:" in *":$BINDIR:"*) ;;
    *) hint command "export PATH=$BINDIR:\$PATH" ;; esac
)
if [ -n "$out" ]; then
  echo "outside the system's search paths; to use it, add:"
  printf '%s\n' "$out"
fi
exit 0
