#!/bin/sh
# Install the guard binary for this machine.
#
#   curl -fsSL <base-url>/latest/install.sh | sh
#   sh install.sh [--base-url URL] [--version latest|vX.Y.Z] [--prefix DIR] [--target NAME] [--baseline]
#
# Downloads <base-url>/<version>/guard-<target>.tar.gz and <base-url>/<version>/SHA256SUMS, checks the
# archive's sha256, checks that the binary starts, then puts it at <prefix>/guard (default ~/.guard/bin).
# Nothing is installed when any step fails. Environment: GUARD_BASE_URL, GUARD_VERSION, GUARD_PREFIX.
set -eu

DEFAULT_BASE_URL=""
base_url="${GUARD_BASE_URL:-$DEFAULT_BASE_URL}"
version="${GUARD_VERSION:-latest}"
prefix="${GUARD_PREFIX:-${HOME:-}/.guard/bin}"
target=""
force_baseline=""

say() { printf 'guard-install: %s\n' "$*"; }
die() { printf 'guard-install: %s\n' "$*" >&2; exit 1; }

usage() {
  cat <<'EOF'
Install guard, one file, for this machine.

Usage: install.sh [options]
  --base-url URL   where releases live: URL/<version>/guard-<target>.tar.gz (env GUARD_BASE_URL)
  --version V      latest (default) or a release such as v0.1.0 (env GUARD_VERSION)
  --prefix DIR     install into DIR (default ~/.guard/bin; env GUARD_PREFIX)
  --target NAME    skip detection, e.g. linux-arm64-musl
  --baseline       on x64 Linux, take the build for CPUs without AVX2
  -h, --help       show this

Example: sh install.sh --base-url https://example.org/guard --prefix "$HOME/.local/bin"
EOF
}

while [ $# -gt 0 ]; do
  case "$1" in
    --base-url) [ $# -ge 2 ] || die "--base-url needs a value"; base_url="$2"; shift 2 ;;
    --base-url=*) base_url="${1#*=}"; shift ;;
    --version) [ $# -ge 2 ] || die "--version needs a value"; version="$2"; shift 2 ;;
    --version=*) version="${1#*=}"; shift ;;
    --prefix) [ $# -ge 2 ] || die "--prefix needs a value"; prefix="$2"; shift 2 ;;
    --prefix=*) prefix="${1#*=}"; shift ;;
    --target) [ $# -ge 2 ] || die "--target needs a value"; target="$2"; shift 2 ;;
    --target=*) target="${1#*=}"; shift ;;
    --baseline) force_baseline=1; shift ;;
    -h|--help) usage; exit 0 ;;
    *) die "unknown option: $1; run with --help for the list" ;;
  esac
done

[ -n "$base_url" ] || die "no download address: set GUARD_BASE_URL or pass --base-url URL"
[ -n "$prefix" ] || die "no install folder: HOME is not set; pass --prefix DIR"
base_url="${base_url%/}"
case "$version" in
  latest | v*) ;;
  [0-9]*) version="v$version" ;;
  *) die "bad version '$version': expected latest or vX.Y.Z" ;;
esac

# --- what this machine is -------------------------------------------------------------------------

detect_os() {
  case "$(uname -s)" in
    Linux) echo linux ;;
    Darwin) echo darwin ;;
    MINGW* | MSYS* | CYGWIN* | Windows_NT) die "this script installs on Linux and macOS; on Windows download guard-windows-x64.zip from $base_url/$version/" ;;
    *) die "unsupported operating system '$(uname -s)': guard is built for Linux, macOS and Windows" ;;
  esac
}

detect_arch() {
  case "$(uname -m)" in
    x86_64 | amd64) arch=x64 ;;
    aarch64 | arm64) arch=arm64 ;;
    *) die "unsupported CPU '$(uname -m)': guard is built for x64 and arm64" ;;
  esac
  # An x64 shell under Rosetta on an Apple-silicon Mac: take the native build.
  if [ "$1" = darwin ] && [ "$arch" = x64 ] && [ "$(sysctl -n sysctl.proc_translated 2>/dev/null || echo 0)" = 1 ]; then
    arch=arm64
  fi
  echo "$arch"
}

detect_libc() {
  # A glibc system answers getconf; musl's ldd names itself. A musl loader alone can sit on a glibc system.
  if getconf GNU_LIBC_VERSION >/dev/null 2>&1; then
    echo glibc
  elif ldd --version 2>&1 | grep -qi musl; then
    echo musl
  elif ls /lib/ld-musl-* >/dev/null 2>&1; then
    echo musl
  else
    echo glibc
  fi
}

has_avx2() {
  grep -qw avx2 /proc/cpuinfo 2>/dev/null
}

if [ -z "$target" ]; then
  os="$(detect_os)"
  arch="$(detect_arch "$os")"
  target="$os-$arch"
  if [ "$os" = linux ]; then
    libc="$(detect_libc)"
    baseline=""
    if [ "$arch" = x64 ] && { [ -n "$force_baseline" ] || ! has_avx2; }; then baseline=1; fi
    if [ "$libc" = musl ]; then
      [ -z "$baseline" ] || die "no build for x64 musl CPUs without AVX2; try --target linux-x64-musl, or use a glibc system"
      target="$target-musl"
    elif [ -n "$baseline" ]; then
      target="$target-baseline"
    fi
  fi
  say "this machine: $target"
fi

case "$target" in
  windows-*) archive="guard-$target.zip" ;;
  *) archive="guard-$target.tar.gz" ;;
esac

# --- download and check ---------------------------------------------------------------------------

release_url="$base_url/$version"
# A GitHub-style base (…/releases/download) names its newest release …/releases/latest/download.
case "$base_url" in
  */releases/download) [ "$version" != latest ] || release_url="${base_url%/download}/latest/download" ;;
esac

fetch() { # fetch URL FILE
  if command -v curl >/dev/null 2>&1; then
    curl -fsSL --retry 2 -o "$2" "$1" 2>/dev/null
  elif command -v wget >/dev/null 2>&1; then
    wget -q -O "$2" "$1"
  else
    die "neither curl nor wget is installed; install one and run this again"
  fi
}

sha256_of() {
  if command -v sha256sum >/dev/null 2>&1; then
    sha256sum "$1" | cut -d' ' -f1
  elif command -v shasum >/dev/null 2>&1; then
    shasum -a 256 "$1" | cut -d' ' -f1
  else
    die "neither sha256sum nor shasum is installed: cannot check the download, so nothing was installed"
  fi
}

tmp="$(mktemp -d 2>/dev/null || mktemp -d -t guard-install)"
trap 'rm -rf "$tmp"' EXIT
trap 'exit 130' INT TERM

say "downloading $release_url/$archive"
fetch "$release_url/$archive" "$tmp/$archive" || die "could not download $release_url/$archive: check the address, the version ($version) and the network"
fetch "$release_url/SHA256SUMS" "$tmp/SHA256SUMS" || die "could not download $release_url/SHA256SUMS: cannot check the archive, so nothing was installed"

expected="$(awk -v f="$archive" '$2 == f || $2 == "*" f { print $1; exit }' "$tmp/SHA256SUMS")"
[ -n "$expected" ] || die "SHA256SUMS has no line for $archive: nothing was installed"
actual="$(sha256_of "$tmp/$archive")"
[ "$expected" = "$actual" ] || die "checksum mismatch for $archive: expected $expected, got $actual; nothing was installed"
say "sha256 ok"

case "$archive" in
  *.zip) (cd "$tmp" && unzip -q "$archive") || die "could not unpack $archive" ;;
  *) tar xzf "$tmp/$archive" -C "$tmp" || die "could not unpack $archive" ;;
esac
exe=guard
case "$target" in windows-*) exe=guard.exe ;; esac
[ -f "$tmp/$exe" ] || die "$archive holds no $exe: nothing was installed"
chmod 755 "$tmp/$exe"

# --- install --------------------------------------------------------------------------------------

if ! installed_version="$("$tmp/$exe" --version 2>&1)"; then
  hint=""
  case "$target" in *-musl) hint=" (on Alpine: apk add libstdc++)" ;; esac
  die "the downloaded guard does not start here$hint: $(printf '%s' "$installed_version" | head -n 1); nothing was installed"
fi

mkdir -p "$prefix" || die "cannot create $prefix: pass a writable --prefix"
cp "$tmp/$exe" "$prefix/.$exe.new.$$" || die "cannot write to $prefix: pass a writable --prefix"
mv -f "$prefix/.$exe.new.$$" "$prefix/$exe"
say "installed $installed_version at $prefix/$exe"

case ":${PATH:-}:" in
  *":$prefix:"*) say "$prefix is on your PATH: run 'guard --help'" ;;
  *)
    say "$prefix is not on your PATH; add it with:"
    say "  echo 'export PATH=\"$prefix:\$PATH\"' >> ~/.profile    # sh, bash"
    say "  echo 'export PATH=\"$prefix:\$PATH\"' >> ~/.zshrc      # zsh"
    say "then open a new shell and run 'guard --help'"
    ;;
esac
