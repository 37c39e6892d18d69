# Sourced by the reference-simulator build scripts.

# Installs the Debian packages named in "$@" that are missing (as
# scripts/setup.sh does).
apt_needs() {
  local missing=() p
  for p in "$@"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
  done
  [ ${#missing[@]} -eq 0 ] && return 0
  echo "installing ${missing[*]}"
  local sudo=""; [ "$(id -u)" -ne 0 ] && sudo=sudo
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" > /dev/null
}

# A build directory this script may fill: absent, empty, or made by it before
# (its marker inside); anything else is the user's and is refused.
claim_dir() {
  local dir=$1 marker=$1/.rlroute-reference-build
  if [ -e "$dir" ] && [ ! -f "$marker" ] && [ -n "$(ls -A "$dir" 2>/dev/null)" ]; then
    echo "$dir: exists and was not made by this script; give a new or empty directory" >&2
    return 1
  fi
  mkdir -p "$dir" && touch "$marker"
}

# args_or_usage COUNT USAGE ARGS...: exits 2 with the usage line unless
# there are COUNT arguments.
args_or_usage() {
  local count=$1 usage=$2; shift 2
  if [ $# -ne "$count" ]; then
    echo "usage: $usage" >&2
    exit 2
  fi
}
