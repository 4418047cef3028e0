#!/usr/bin/env bash
# Fetches the Debian source packages the browser build compiles with em++ (Dear ImGui, zlib, libpng)
# into DEST, through a temporary apt configuration: the deb-src twin of every enabled `deb` entry of
# this machine, in a folder of its own. The user's apt sources and package lists are left as they were.
#   tools/web/fetch_sources.sh DEST
set -euo pipefail
DEST="$1"
# From the release suite (a security suite may list a source it no longer serves).
PACKAGES=(imgui/bookworm zlib/bookworm libpng1.6/bookworm)
mkdir -p "$DEST"
have_all=1
for p in imgui zlib libpng1.6; do compgen -G "$DEST/$p-*/" >/dev/null || have_all=0; done
[[ $have_all == 1 ]] && exit 0

APT_TMP="$(mktemp -d)"
trap 'rm -rf "$APT_TMP"' EXIT
mkdir -p "$APT_TMP/lists/partial" "$APT_TMP/cache/archives/partial"
SRC_LIST="$APT_TMP/sources.list"
: >"$SRC_LIST"
# One-line sources: "deb [opts] URI suite comp..." -> "deb-src ...".
for f in /etc/apt/sources.list /etc/apt/sources.list.d/*.list; do
  [[ -f "$f" ]] || continue
  sed -n 's/^[[:space:]]*deb[[:space:]]/deb-src /p' "$f" >>"$SRC_LIST"
done
# deb822 sources: each stanza with Types: deb, re-emitted as one-line deb-src entries.
for f in /etc/apt/sources.list.d/*.sources; do
  [[ -f "$f" ]] || continue
  awk '
    function flush() {
      if (types ~ /(^| )deb( |$)/ && uris != "" && enabled != "no") {
        n = split(uris, u, " "); m = split(suites, s, " ");
        opt = signed != "" ? "[signed-by=" signed "] " : "";
        for (i = 1; i <= n; i++) for (j = 1; j <= m; j++) print "deb-src " opt u[i] " " s[j] " " comps;
      }
      types = uris = suites = comps = signed = enabled = "";
    }
    /^[[:space:]]*#/ { next }
    /^[[:space:]]*$/ { flush(); next }
    { key = $1; sub(/:$/, "", key); $1 = ""; sub(/^ /, "");
      if (key == "Types") types = $0; else if (key == "URIs") uris = $0; else if (key == "Suites") suites = $0;
      else if (key == "Components") comps = $0; else if (key == "Signed-By") signed = $0; else if (key == "Enabled") enabled = $0 }
    END { flush() }' "$f" >>"$SRC_LIST"
done
if [[ ! -s "$SRC_LIST" ]]; then
  echo "setup: web: no Debian package source is configured on this machine (/etc/apt/sources.list*)" >&2
  exit 1
fi
APT_OPTS=(-o "Dir::Etc::SourceList=$SRC_LIST" -o "Dir::Etc::SourceParts=/dev/null"
          -o "Dir::State::Lists=$APT_TMP/lists" -o "Dir::Cache=$APT_TMP/cache" -o "APT::Sandbox::User=root")
echo "setup: web: fetching the Debian source packages ${PACKAGES[*]} (temporary apt configuration)"
apt-get "${APT_OPTS[@]}" -q update >/dev/null
(cd "$DEST" && apt-get "${APT_OPTS[@]}" -q source "${PACKAGES[@]}" >/dev/null)
