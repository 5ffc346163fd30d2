#!/usr/bin/env bash
# Install the pgvector extension for the system PostgreSQL 15 on Debian 12 (bookworm).
#
# pgvector is not packaged for bookworm, but the next Debian release (trixie) ships its
# source package. We fetch that source with apt, using a *temporary* apt configuration
# (own sources file, own lists/cache dirs) derived from the machine's own bookworm mirror,
# so the machine's global apt state is never modified. Then we build it with PGXS against
# postgresql-server-dev-15 and `make install` it.
#
# Idempotent: exits early when vector.control is already in the PG 15 extension dir.
# Must run as root (apt-get install, make install). Takes well under a minute once the
# apt packages are present.
#
# Environment knobs (all optional):
#   PG_MAJOR=15                 PostgreSQL major version to build for
#   PGVECTOR_SOURCE_SUITE=trixie  Debian suite whose pgvector source package is used
#   PGVECTOR_APT_MIRROR=<uri>   override the Debian mirror URI (default: taken from the
#                               machine's apt sources for its own release)
#   PGVECTOR_FORCE=1            rebuild/reinstall even if already installed
set -euo pipefail

PG_MAJOR="${PG_MAJOR:-15}"
SUITE="${PGVECTOR_SOURCE_SUITE:-trixie}"
PG_BINDIR="/usr/lib/postgresql/${PG_MAJOR}/bin"
PG_CONFIG="${PG_BINDIR}/pg_config"

log() { printf '[install-pgvector] %s\n' "$*" >&2; }
die() { printf '[install-pgvector] ERROR: %s\n' "$*" >&2; exit 1; }

started_at=$(date +%s)

# ---------------------------------------------------------------------------------------
# 0. Already installed?
# ---------------------------------------------------------------------------------------
ext_dir=""
if [[ -x "$PG_CONFIG" ]]; then
  ext_dir="$("$PG_CONFIG" --sharedir)/extension"
elif [[ -d "/usr/share/postgresql/${PG_MAJOR}/extension" ]]; then
  ext_dir="/usr/share/postgresql/${PG_MAJOR}/extension"
fi
if [[ -z "${PGVECTOR_FORCE:-}" && -n "$ext_dir" && -f "$ext_dir/vector.control" ]]; then
  log "pgvector already installed ($(grep -E '^default_version' "$ext_dir/vector.control" | tr -d "' " || true)) in $ext_dir - nothing to do"
  exit 0
fi

[[ "$(id -u)" == 0 ]] || die "must run as root (needs apt-get install and make install)"
command -v apt-get >/dev/null || die "apt-get not found; this script supports Debian only"

export DEBIAN_FRONTEND=noninteractive
APT_INSTALL=(apt-get install -y -q --no-install-recommends -o Dpkg::Use-Pty=0)

# ---------------------------------------------------------------------------------------
# 1. System packages: postgresql-15, matching server-dev headers, build tools.
# ---------------------------------------------------------------------------------------
pkg_version() { dpkg-query -W -f='${db:Status-Status} ${Version}\n' "$1" 2>/dev/null | awk '$1=="installed"{print $2}'; }

apt_updated=""
apt_update_once() {
  if [[ -z "$apt_updated" ]]; then
    log "apt-get update"
    apt-get update -q -o Dpkg::Use-Pty=0 >/dev/null
    apt_updated=1
  fi
}

if [[ -z "$(pkg_version "postgresql-${PG_MAJOR}")" ]]; then
  apt_update_once
  log "installing postgresql-${PG_MAJOR}"
  "${APT_INSTALL[@]}" "postgresql-${PG_MAJOR}" >/dev/null
fi

need=()
for p in build-essential dpkg-dev make gcc ca-certificates; do
  [[ -n "$(pkg_version "$p")" ]] || need+=("$p")
done
if [[ -z "$(pkg_version "postgresql-server-dev-${PG_MAJOR}")" ]]; then
  # Prefer headers matching the installed server exactly, so installing them does not
  # drag an upgrade of the server package along. Fall back to the candidate version.
  server_ver="$(pkg_version "postgresql-${PG_MAJOR}")"
  apt_update_once
  if apt-cache madison "postgresql-server-dev-${PG_MAJOR}" | awk -F'|' '{gsub(/ /,"",$2); print $2}' | grep -qxF "$server_ver"; then
    need+=("postgresql-server-dev-${PG_MAJOR}=${server_ver}")
  else
    log "postgresql-server-dev-${PG_MAJOR}=${server_ver} not available; using the candidate version"
    need+=("postgresql-server-dev-${PG_MAJOR}")
  fi
fi
if ((${#need[@]})); then
  apt_update_once
  log "installing build dependencies: ${need[*]}"
  "${APT_INSTALL[@]}" "${need[@]}" >/dev/null
fi
[[ -x "$PG_CONFIG" ]] || die "$PG_CONFIG missing after installing postgresql-server-dev-${PG_MAJOR}"
ext_dir="$("$PG_CONFIG" --sharedir)/extension"

# ---------------------------------------------------------------------------------------
# 2. Derive the Debian mirror from the machine's own apt configuration.
# ---------------------------------------------------------------------------------------
# shellcheck disable=SC1091
codename="$(. /etc/os-release 2>/dev/null && printf '%s' "${VERSION_CODENAME:-}")"
[[ -n "$codename" ]] || codename="$(lsb_release -cs 2>/dev/null || true)"
[[ -n "$codename" ]] || die "cannot determine the Debian codename from /etc/os-release"

# Print "URI<TAB>SIGNED_BY" for each source entry whose suite is exactly $codename.
find_mirrors() {
  local f
  # one-line format: deb [opts] URI SUITE COMPONENTS...
  for f in /etc/apt/sources.list /etc/apt/sources.list.d/*.list; do
    [[ -r "$f" ]] || continue
    awk -v want="$codename" '
      { sub(/#.*/, "") }
      $1 == "deb" || $1 == "deb-src" {
        signed = ""; i = 2
        if ($2 ~ /^\[/) {
          opts = ""
          for (; i <= NF; i++) { opts = opts " " $i; if ($i ~ /\]$/) { i++; break } }
          if (match(opts, /signed-by=[^] ]+/)) signed = substr(opts, RSTART + 10, RLENGTH - 10)
        }
        uri = $i; suite = $(i + 1)
        if (suite == want) print uri "\t" signed
      }' "$f"
  done
  # deb822 format: stanzas separated by blank lines
  for f in /etc/apt/sources.list.d/*.sources; do
    [[ -r "$f" ]] || continue
    awk -v want="$codename" '
      function flush() {
        if (types ~ /(^| )deb(-src)?( |$)/ && tolower(enabled) != "no" && uri != "") {
          n = split(suites, s, /[ \t]+/)
          for (k = 1; k <= n; k++) if (s[k] == want) { print uri "\t" signed; break }
        }
        types = ""; uri = ""; suites = ""; signed = ""; enabled = ""
      }
      /^[ \t]*#/ { next }
      /^[ \t]*$/ { flush(); next }
      {
        key = tolower($1); val = $0; sub(/^[^:]*:[ \t]*/, "", val)
        if (key == "types:") types = val
        else if (key == "uris:") { split(val, u, /[ \t]+/); uri = u[1] }
        else if (key == "suites:") suites = val
        else if (key == "signed-by:") signed = val
        else if (key == "enabled:") enabled = val
      }
      END { flush() }' "$f"
  done
}

mirror_uri="${PGVECTOR_APT_MIRROR:-}"
signed_by=""
if [[ -z "$mirror_uri" ]]; then
  line="$(find_mirrors | head -n1)"
  mirror_uri="${line%%$'\t'*}"
  signed_by="${line#*$'\t'}"
  [[ "$signed_by" == "$line" ]] && signed_by=""
fi
[[ -n "$mirror_uri" ]] || die "no apt source for suite '$codename' found in /etc/apt/sources.list{,.d/*}; set PGVECTOR_APT_MIRROR"
mirror_uri="${mirror_uri%/}"
# Signed-By may be a multi-line inline key in deb822; only keep it if it is a file path.
if [[ -n "$signed_by" && ! -f "$signed_by" ]]; then signed_by=""; fi
if [[ -z "$signed_by" && -f /usr/share/keyrings/debian-archive-keyring.gpg ]]; then
  signed_by=/usr/share/keyrings/debian-archive-keyring.gpg
fi
log "mirror derived from apt config ($codename): $mirror_uri"

# ---------------------------------------------------------------------------------------
# 3. Fetch the pgvector source package from $SUITE with a private apt state.
# ---------------------------------------------------------------------------------------
work="$(mktemp -d -t pgvector-build.XXXXXX)"
cleanup() { rm -rf "$work"; }
trap cleanup EXIT

mkdir -p "$work/apt/lists/partial" "$work/apt/cache/archives/partial" "$work/apt/sources.list.d" "$work/src"
# Let apt's unprivileged download sandbox user write into our private dirs (avoids the
# "Download is performed unsandboxed as root" warning).
chmod 755 "$work" "$work/apt" "$work/apt/lists" "$work/apt/cache" "$work/apt/cache/archives" "$work/src"
if id _apt >/dev/null 2>&1; then
  chown _apt "$work/apt/lists/partial" "$work/apt/cache/archives/partial" "$work/src"
fi
{
  printf 'deb-src '
  [[ -n "$signed_by" ]] && printf '[signed-by=%s] ' "$signed_by"
  printf '%s %s main\n' "$mirror_uri" "$SUITE"
} > "$work/apt/sources.list"
log "temporary apt source: $(cat "$work/apt/sources.list")"

APT_PRIVATE=(
  -o "Dir::Etc::SourceList=$work/apt/sources.list"
  -o "Dir::Etc::SourceParts=$work/apt/sources.list.d"
  -o "Dir::State::Lists=$work/apt/lists"
  -o "Dir::Cache=$work/apt/cache"
  -o "Dir::Cache::pkgcache="
  -o "Dir::Cache::srcpkgcache="
  -o "APT::Get::List-Cleanup=0"
  -o "Acquire::Languages=none"
)

log "fetching $SUITE source index"
apt-get -q "${APT_PRIVATE[@]}" update >"$work/apt-update.log" 2>&1 \
  || { cat "$work/apt-update.log" >&2; die "apt-get update for the temporary $SUITE deb-src source failed"; }

log "downloading pgvector source package from $SUITE"
(cd "$work/src" && apt-get -q "${APT_PRIVATE[@]}" source --download-only pgvector) >"$work/apt-source.log" 2>&1 \
  || { cat "$work/apt-source.log" >&2; die "apt-get source pgvector failed"; }

# Surface apt warnings (e.g. signature problems) instead of hiding them in the logs.
grep -hE '^(W|E):' "$work/apt-update.log" "$work/apt-source.log" >&2 || true

dsc="$(find "$work/src" -maxdepth 1 -name 'pgvector_*.dsc' | head -n1)"
[[ -n "$dsc" ]] || die "no pgvector .dsc downloaded"
log "unpacking $(basename "$dsc")"
(cd "$work/src" && dpkg-source --no-check -x "$(basename "$dsc")" pgvector) >/dev/null
srcdir="$work/src/pgvector"
[[ -f "$srcdir/Makefile" && -f "$srcdir/vector.control" ]] || die "unexpected source layout in $srcdir"

# ---------------------------------------------------------------------------------------
# 4. Build and install with PGXS.
# ---------------------------------------------------------------------------------------
# OPTFLAGS= disables pgvector's default -march=native (as Debian's own build does), so the
# result does not depend on the exact CPU of the build host.
log "building pgvector $(grep -E '^default_version' "$srcdir/vector.control" | tr -d "' " | cut -d= -f2) against $("$PG_CONFIG" --version)"
make -C "$srcdir" -j"$(nproc 2>/dev/null || echo 2)" USE_PGXS=1 PG_CONFIG="$PG_CONFIG" OPTFLAGS= >"$work/build.log" 2>&1 \
  || { tail -n 50 "$work/build.log" >&2; die "pgvector build failed"; }
make -C "$srcdir" USE_PGXS=1 PG_CONFIG="$PG_CONFIG" OPTFLAGS= install >"$work/install.log" 2>&1 \
  || { tail -n 50 "$work/install.log" >&2; die "pgvector make install failed"; }

[[ -f "$ext_dir/vector.control" ]] || die "vector.control not found in $ext_dir after make install"
log "installed pgvector into $ext_dir and $("$PG_CONFIG" --pkglibdir) in $(( $(date +%s) - started_at ))s"
