#!/usr/bin/env bash
# Installs what the tests need from Debian when it is missing: Chromium (browser tests),
# PostgreSQL (the PostgreSQL run), a CJK font (Chinese names in the browser screenshots), nginx,
# caddy and libnss3-tools (certutil) for the HTTPS deployment tests (tests/deploy: deploy/nginx.conf
# and deploy/Caddyfile in front of gunicorn, Chromium trusting a test CA), and wrk (make load; the
# suite runs every bench script at a tiny size). Without root or apt it says what is missing and
# goes on; those tests then skip with that reason (never in CI, where CI=true makes them fail).
# With arguments only those are checked: `make load` runs `scripts/system_deps.sh wrk`.
set -u
need=()
wanted=("$@")
[ ${#wanted[@]} -eq 0 ] && wanted=(chromium postgresql fonts-noto-cjk nginx caddy libnss3-tools wrk)
for package in "${wanted[@]}"; do
  case "$package" in
    chromium) [ -x /usr/lib/chromium/chromium ] || [ -x /usr/bin/chromium ] || need+=(chromium) ;;
    postgresql) ls -d /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 || need+=(postgresql) ;;
    fonts-*) dpkg -s "$package" >/dev/null 2>&1 || need+=("$package") ;;  # Chinese in screenshots
    nginx) [ -x /usr/sbin/nginx ] || command -v nginx >/dev/null || need+=(nginx) ;;
    libnss3-tools) command -v certutil >/dev/null || need+=(libnss3-tools) ;;
    *) command -v "$package" >/dev/null || need+=("$package") ;;
  esac
done
[ ${#need[@]} -eq 0 ] && exit 0
if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
  echo "Installing ${need[*]} from Debian (once)…"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -q >/dev/null && apt-get install -y -q "${need[@]}" >/dev/null \
    || { echo "apt-get install ${need[*]} failed" >&2; exit 1; }
else
  echo "Not installed: ${need[*]}. Install them with your package manager (e.g. sudo apt-get install ${need[*]})." >&2
fi
