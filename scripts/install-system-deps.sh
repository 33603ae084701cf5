#!/usr/bin/env bash
# Debian packages the dashboard and its tests need: Qt's xcb/EGL runtime libraries, a CJK
# font (without it Chinese renders as boxes), Xvfb for a real window on a headless box, and
# the validators of the desktop metadata (desktop-file-validate, appstreamcli), and the
# PostgreSQL server the store tests start a throwaway cluster of (scripts/pg_cluster.py), and
# openssl, which makes that cluster's throwaway CA and certificate for the TLS tests, and
# Node.js with npm (only when no node is on PATH) for the real agent clients (package.json).
# Installs only what is missing; without root it says what to install and carries on.
set -euo pipefail
packages=(libegl1 libgl1 libxkbcommon0 libxkbcommon-x11-0 libfontconfig1 libdbus-1-3 libglib2.0-0
          libxcb-cursor0 libxcb-icccm4 libxcb-keysyms1 libxcb-shape0 libxcb-xinerama0 libxcb-randr0
          libxcb-render-util0 libxcb-image0 fonts-wqy-microhei xvfb xauth xdotool desktop-file-utils appstream
          postgresql openssl)
command -v npm >/dev/null || packages+=(nodejs npm)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0
if [ "$(id -u)" -eq 0 ]; then
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
elif command -v sudo >/dev/null && sudo -n true 2>/dev/null; then
  sudo apt-get update -qq
  sudo DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
else
  echo "note: missing system packages (install them with apt-get): ${missing[*]}" >&2
fi
