#!/bin/sh
# Tools/deb/build.sh BINARY WORKDIR OUTDIR [REVISION]: gpsfix_VERSION-REVISION_ARCH.deb in OUTDIR
# from a built gpsfix (make deb runs it on the release binary).
#
# The tree is what `make install DESTDIR=... PREFIX=/usr` stages, with Debian's directories
# (vendor zsh completions, /usr/lib for udev and systemd), so there is one copy of the install
# logic; this adds what a .deb has beyond it: a stripped binary, the man page gzipped, the
# copyright and changelog, and DEBIAN/ with control (Depends from dpkg-shlibdeps, that is from
# what the binary links), the maintainer scripts, conffiles and md5sums. The version is the one
# the binary prints, so it is said in one place (GPSFixCLI.version).
set -eu

binary=$1
work=$2
out=$3
revision=${4:-1}
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)

case $binary in /*) ;; *) binary=$(pwd)/$binary ;; esac
[ -x "$binary" ] || { echo "deb: no binary at $binary (make release first)" >&2; exit 1; }
for tool in dpkg-deb dpkg-shlibdeps strip readelf; do
    command -v $tool >/dev/null || { echo "deb: $tool is missing (apt-get install dpkg-dev binutils)" >&2; exit 1; }
done

# The release binary has the Swift runtime linked in; one that needs the toolchain's shared
# runtime would not run where the package is installed (a test may allow it, to check the layout).
if [ -z "${DEB_ALLOW_SHARED_SWIFT:-}" ] && LC_ALL=C readelf -d "$binary" | grep -q 'NEEDED.*libswiftCore'; then
    echo "deb: $binary links the Swift runtime as a shared library: build it with --static-swift-stdlib (make release, with libstdc++'s development files installed)" >&2
    exit 1
fi

upstream=$("$binary" --version | sed -n 's/^gpsfix //p')
[ -n "$upstream" ] || { echo "deb: $binary --version printed no version" >&2; exit 1; }
version=$upstream-$revision
arch=$(dpkg --print-architecture)
# Named, so dpkg-shlibdeps need not ask a C compiler (a root may have none) what it builds for.
export DEB_HOST_ARCH="$arch" DEB_BUILD_ARCH="$arch"
# Every date in the package (changelog, file times) is the last commit's when there is one,
# so the same tree makes the same .deb.
if [ -z "${SOURCE_DATE_EPOCH:-}" ]; then
    SOURCE_DATE_EPOCH=$(git -C "$top" log -1 --format=%ct 2>/dev/null || stat -c %Y "$binary")
fi
export SOURCE_DATE_EPOCH

mkdir -p "$work" "$out"
work=$(cd "$work" && pwd)
# The package's tree where dpkg-shlibdeps expects one (debian/PACKAGE beside debian/control).
root=$work/debian/gpsfix
rm -rf "$work/debian"

# The files, where `make install` puts them under Debian's directories.
env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL make --no-print-directory -C "$top" install \
    DESTDIR="$root" PREFIX=/usr SYSCONFDIR=/etc BINARY="$binary" GENERATED="$work/generated" \
    ZSHCOMPDIR=/usr/share/zsh/vendor-completions \
    UDEVRULESDIR=/usr/lib/udev/rules.d SYSTEMDUNITDIR=/usr/lib/systemd/system

# What dh_strip and dh_compress would do.
strip --remove-section=.comment --remove-section=.note "$root/usr/bin/gpsfix"
gzip -9n "$root/usr/share/man/man1/gpsfix.1"
doc=$root/usr/share/doc/gpsfix
install -d "$doc"
install -m 0644 "$here/copyright" "$doc/copyright"
install -D -m 0644 "$here/lintian-overrides" "$root/usr/share/lintian/overrides/gpsfix"
date=$(date -R -u -d "@$SOURCE_DATE_EPOCH")
sed -e "s/@VERSION@/$version/" -e "s/@DATE@/$date/" "$here/changelog" | gzip -9n > "$doc/changelog.Debian.gz"

# Depends: the packages of the libraries the binary links, at the versions their symbols need.
# dpkg-shlibdeps reads debian/control (a minimal one will do) and finds the package's own
# directory by its DEBIAN/.
control=$root/DEBIAN
install -d "$control"
printf 'Source: gpsfix\n\nPackage: gpsfix\nArchitecture: any\n' > "$work/debian/control"
depends=$(cd "$work" && dpkg-shlibdeps -O "debian/gpsfix/usr/bin/gpsfix" | sed -n 's/^shlibs:Depends=//p')
[ -n "$depends" ] || { echo "deb: dpkg-shlibdeps found no dependencies" >&2; exit 1; }

# DEBIAN/: control, the maintainer scripts, the conffile, checksums.
size=$(du -sk --apparent-size --exclude=DEBIAN "$root" | cut -f1)
sed -e "s/@VERSION@/$version/" -e "s/@ARCH@/$arch/" -e "s/@SIZE@/$size/" -e "s/@DEPENDS@/$depends/" \
    "$here/control" > "$control/control"
for script in postinst prerm postrm; do install -m 0755 "$here/$script" "$control/$script"; done
(cd "$root" && find etc -type f | sed 's#^#/#' | sort) > "$control/conffiles"
(cd "$root" && find . -path ./DEBIAN -prune -o -type f -print | sed 's#^\./##' | LC_ALL=C sort | xargs md5sum) > "$control/md5sums"

# Modes as dpkg-deb and lintian expect, whatever the umask; times clamped to the commit.
find "$root" -type d -exec chmod 0755 {} +
find "$root" -type f ! -path "$root/usr/bin/*" ! -path "$control/p*" -exec chmod 0644 {} +
chmod 0644 "$control/control" "$control/conffiles" "$control/md5sums"
find "$root" -newermt "@$SOURCE_DATE_EPOCH" -exec touch -h -d "@$SOURCE_DATE_EPOCH" {} +

deb=$out/gpsfix_${version}_${arch}.deb
dpkg-deb --root-owner-group -Zxz --build "$root" "$deb"
echo "deb: $deb"
echo "deb: Depends: $depends"
