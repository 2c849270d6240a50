#!/usr/bin/env bash
# Runs the README's pip line (with only python3-venv and g++ installed:
# no LLVM, MLIR or clang), then its Quick-start commands, as written, on a freshly
# bootstrapped Debian 12: `debootstrap --variant=minbase bookworm`, a clone
# of this repository's HEAD inside it, `chroot`, and nothing installed by
# hand, so that a missing install step in utils/setup.sh fails here (CI runs
# it: .ci/run). Ends with the Quick-start's own "N passed, N failed".
#
# The bootstrapped base system is cached outside the clone, in
# $BIRSIM_FRESH_DEBIAN_CACHE (default /var/cache/birsim/fresh-debian), with
# the Debian packages the chroot downloads; every run starts from a copy of
# the base and deletes that copy after.
#   --keep   leaves the chroot (its path is printed) for a look inside.
# Needs root (chroot, mount) and Debian's debootstrap, which
# `utils/setup.sh --fresh-debian` installs.
set -euo pipefail
cd "$(dirname "$0")/.."
keep=0
case "${1:-}" in
  "") ;;
  --keep) keep=1 ;;
  *) echo "usage: $0 [--keep]" >&2; exit 2 ;;
esac
[ "$(id -u)" -eq 0 ] || { echo "fresh-debian: needs root (chroot, mount)" >&2; exit 1; }
./utils/setup.sh --fresh-debian

cache=${BIRSIM_FRESH_DEBIAN_CACHE:-/var/cache/birsim/fresh-debian}
mirror=${BIRSIM_DEBIAN_MIRROR:-http://deb.debian.org/debian}
start=$(date +%s)

# The base system, bootstrapped once and kept.
if [ ! -f "$cache/base/.bootstrapped" ]; then
  echo "fresh-debian: bootstrapping Debian 12 (minbase) into $cache/base"
  rm -rf "$cache/base.partial"
  mkdir -p "$cache"
  debootstrap --variant=minbase bookworm "$cache/base.partial" "$mirror" \
    > "$cache/debootstrap.log" 2>&1 ||
    { tail -20 "$cache/debootstrap.log" >&2; exit 1; }
  touch "$cache/base.partial/.bootstrapped"
  rm -rf "$cache/base"
  mv "$cache/base.partial" "$cache/base"
fi
mkdir -p "$cache/apt-archives/partial"
bootstrapped=$(date +%s)

root=$(mktemp -d /var/tmp/birsim-fresh-debian.XXXXXX)
cleanup() {
  local rc=$?
  umount -R "$root/var/cache/apt/archives" "$root/dev" "$root/sys" \
    "$root/proc" 2>/dev/null || true
  if [ "$keep" -eq 1 ]; then
    echo "fresh-debian: kept $root"
  elif ! grep -q " $root/" /proc/mounts; then
    rm -rf "$root"
  fi
  exit "$rc"
}
trap cleanup EXIT
cp -a "$cache/base/." "$root/"
rm -f "$root/.bootstrapped"

# What every machine here has besides its disk: the Debian archive this
# machine is configured with (the LLVM/MLIR 22 packages are in its
# bookworm-security suite) and a resolver.
rm -f "$root/etc/apt/sources.list"
for f in /etc/apt/sources.list /etc/apt/sources.list.d/*.list \
         /etc/apt/sources.list.d/*.sources; do
  [ -f "$f" ] && cp "$f" "$root$f"
done
cp -L /etc/resolv.conf "$root/etc/resolv.conf"
# ... and the TLS trust of its way out (an egress proxy may sign with its own
# CA): the CA bundle, the local CAs that ca-certificates rebuilds it from,
# and pip's configuration that points at it (PyPI, for the pip line).
mkdir -p "$root/etc/ssl/certs" "$root/usr/local/share/ca-certificates"
[ -f /etc/ssl/certs/ca-certificates.crt ] &&
  cp -L /etc/ssl/certs/ca-certificates.crt "$root/etc/ssl/certs/"
cp -a /usr/local/share/ca-certificates/. "$root/usr/local/share/ca-certificates/" 2>/dev/null || true
[ -f /etc/pip.conf ] && cp /etc/pip.conf "$root/etc/pip.conf"
mount -t proc proc "$root/proc"
mount -t sysfs sysfs "$root/sys"
mount --rbind /dev "$root/dev"
mount --make-rslave "$root/dev"
mount --bind "$cache/apt-archives" "$root/var/cache/apt/archives"

# The clone (the chroot has no git: a user's clone arrives as files).
git clone -q --no-hardlinks "$PWD" "$root/root/birsim"

# First the README's pip line, with only what it says it needs installed:
# the Python package built and installed with no LLVM, MLIR or clang.
pip_line=$(awk '/^The Python package alone/ { q = 1 } q && /^```sh/ { b = 1; next }
                b && /^```/ { exit } b' README.md)
[ -n "$pip_line" ] || { echo "fresh-debian: no pip line in README.md" >&2; exit 1; }
echo "fresh-debian: in $root, with python3-venv and g++ only, running:"
echo "  $pip_line"
in_chroot() {
  chroot "$root" /usr/bin/env -i HOME=/root LANG=C.UTF-8 TERM=dumb \
    PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
    /bin/bash -euo pipefail -c "cd /root/birsim
$1"
}
in_chroot "apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends python3-venv g++ > /dev/null"
pip_start=$(date +%s)
in_chroot "$pip_line
! dpkg-query -W -f='\${Package}\\n' | grep -E 'llvm|mlir|clang'
venv/bin/python -c 'import birsim, numpy as np; assert birsim.cast(np.float32([1, 1000]), \"float8_e4m3fn\").tolist() == [56, 126]; print(\"fresh-debian: birsim\", birsim.__version__, \"from\", birsim.__file__)'
echo \"fresh-debian: pip line \$(( \$(date +%s) - $pip_start )) s, venv \$(du -sh venv | cut -f1)\"
rm -rf venv" || { echo "fresh-debian: the pip line failed" >&2; exit 1; }
pip_end=$(date +%s)

# The README's Quick-start block, line for line.
quick_start=$(awk '/^## Quick start/ { q = 1 } q && /^```sh/ { b = 1; next }
                   b && /^```/ { exit } b' README.md)
[ -n "$quick_start" ] || { echo "fresh-debian: no Quick-start block in README.md" >&2; exit 1; }
echo "fresh-debian: in $root, running:"
echo "$quick_start" | sed 's/^/  /'
rc=0
in_chroot "$quick_start" || rc=$?
end=$(date +%s)
echo "fresh-debian: base system $((bootstrapped - start)) s, pip line (with" \
  "python3-venv and g++) $((pip_end - bootstrapped)) s, Quick start $((end - pip_end)) s"
exit "$rc"
