#!/usr/bin/env bash
# Builds SST with the Q-adaptive authors' element fork [Kang 2021] from its
# public sources, for the side-by-side runs of docs/reference_simulators.md:
# the core fork SPEAR-IIT/sst-core (the 2020 sst-core that the element fork
# was written against, plus the Request fields its dragonfly needs) and the
# element fork SPEAR-IIT/sst-elements (tag q-adp_hpdc21), merlin alone.
#   bash sim/reference/build_sst.sh SST_CORE_SRC SST_ELEMENTS_SRC OUT
# The sources are read only (copied to OUT/src, where autotools write). OUT:
# a new or empty directory (or one this script made); the simulator is
# OUT/install/bin/sst.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
source "$here/common.sh"
args_or_usage 3 "build_sst.sh SST_CORE_SRC SST_ELEMENTS_SRC OUT" "$@"
core=$(realpath "$1") elements=$(realpath "$2") out=$(realpath -m "$3")
if [ ! -f "$core/src/sst/core/interfaces/simpleNetwork.h" ]; then
  echo "SST_CORE_SRC $1: not an sst-core checkout (no src/sst/core/interfaces/simpleNetwork.h)" >&2
  exit 2
fi
if ! grep -q "adp_routed" "$core/src/sst/core/interfaces/simpleNetwork.h"; then
  echo "SST_CORE_SRC $1: the Request of simpleNetwork.h has no adp_routed field, which the element fork's dragonfly" \
       "needs: use the core fork SPEAR-IIT/sst-core" >&2
  exit 2
fi
if ! grep -q "q-adaptive" "$elements/src/sst/elements/merlin/topology/dragonfly.cc" 2>/dev/null; then
  echo "SST_ELEMENTS_SRC $2: no Q-adaptive in src/sst/elements/merlin/topology/dragonfly.cc: use SPEAR-IIT/sst-elements" >&2
  exit 2
fi
claim_dir "$out"
apt_needs g++ make autoconf automake libtool libtool-bin libltdl-dev python3-dev zlib1g-dev
# Debian's tools first: a Python manager's shims (pyenv) would hand configure another python-config.
export PATH=/usr/bin:/bin
start=$(date +%s)
step() {  # step NAME DIR COMMAND...: runs COMMAND in DIR, its output in OUT/NAME.log
  local name=$1 dir=$2; shift 2
  echo "  $name"
  (cd "$dir" && "$@") > "$out/$name.log" 2>&1 || { tail -20 "$out/$name.log" >&2; echo "SST build failed at $name: $out/$name.log" >&2; exit 1; }
}
rm -rf "$out/src" "$out/build" "$out/install"
mkdir -p "$out/src" "$out/build/core" "$out/build/elements"
cp -a "$core" "$out/src/sst-core"
cp -a "$elements" "$out/src/sst-elements"
# Two changes to the copy for Debian 12's Python 3.11, which the 2020 core
# predates: a frame's code object read through PyFrame_GetCode (Python 3.9+)
# instead of directly, and no initializer for tp_print, a type slot that
# only Python 3.8 has (omitted trailing slots are zero in every version).
sed -i 's/PyUnicode_AsUTF8(ptb->tb_frame->f_code->/PyUnicode_AsUTF8(PyFrame_GetCode(ptb->tb_frame)->/' \
  "$out/src/sst-core/src/sst/core/model/element_python.cc"
sed -i 's/^   #define SST_TP_PRINT_DEP nullptr,$/   #define SST_TP_PRINT_DEP/' \
  "$out/src/sst-core/src/sst/core/model/python/pymacros.h"
# merlin alone: the other elements are skipped (their .ignore, autogen's mechanism).
for d in "$out/src/sst-elements/src/sst/elements"/*/; do
  [ "$(basename "$d")" = merlin ] || touch "$d/.ignore"
done
jobs=$(nproc)
step core-autogen "$out/src/sst-core" ./autogen.sh
step core-configure "$out/build/core" "$out/src/sst-core/configure" --prefix="$out/install" --disable-mpi \
  --with-python=/usr/bin/python3-config
step core-make "$out/build/core" make -j "$jobs"
step core-install "$out/build/core" make install
step elements-autogen "$out/src/sst-elements" ./autogen.sh
step elements-configure "$out/build/elements" "$out/src/sst-elements/configure" --prefix="$out/install" \
  --with-sst-core="$out/install"
step elements-make "$out/build/elements" make -j "$jobs"
step elements-install "$out/build/elements" make install
step check "$out" "$out/install/bin/sst-info" merlin
grep -q "dragonfly" "$out/check.log" || { echo "sst-info merlin lists no dragonfly: $out/check.log" >&2; exit 1; }
echo "built $out/install/bin/sst in $(( $(date +%s) - start )) s"
