#!/bin/sh
# Builds the DocC archives of every library product (`make docs`): the symbol graphs of each
# module from the debug build's module files, then `docc convert` with the module's catalog
# (Sources/MODULE/MODULE.docc), warnings as errors, into .build/docs/MODULE.doccarchive; and
# last, the public symbols without documentation (Tools/docs/undocumented.py), which fail it.
#
# Usage: Tools/docs/build.sh [--symbols-only] [MODULE...]
#   MODULE...       default: every library product's targets, as Package.swift lists them
#   --symbols-only  no docc: only the undocumented symbols (what DocumentationTests runs)
#   GPSFIX_BIN=DIR  the build's products directory (default: `swift build --show-bin-path`;
#                   a test sets it, since SwiftPM cannot be asked while `swift test` runs)
set -eu
cd "$(dirname "$0")/../.."
convert=1
if [ "${1:-}" = "--symbols-only" ]; then convert=0; shift; fi
bin=${GPSFIX_BIN:-$(swift build --show-bin-path)}
out=${GPSFIX_DOCS_OUT:-.build/docs}
graphs=$out/symbol-graphs
if [ $# -eq 0 ]; then
    # The library products' targets, from Package.swift's `.library(name:targets:)` lines.
    set -- $(python3 -c '
import re
names = []
for targets in re.findall(r"\.library\(name: \"[^\"]+\", targets: \[([^\]]*)\]", open("Package.swift").read()):
    names += [t for t in re.findall(r"\"([^\"]+)\"", targets) if t not in names]
print(" ".join(names))')
fi
triple=$(swift -print-target-info | python3 -c 'import json,sys; print(json.load(sys.stdin)["target"]["triple"])')
# The C modules the Swift ones import: SwiftPM's generated map for CGPS, the system libraries' own.
cflags="-Xcc -fmodule-map-file=$bin/CGPS.build/module.modulemap -Xcc -ISources/CGPS/include"
for map in Sources/*/module.modulemap; do cflags="$cflags -Xcc -fmodule-map-file=$map"; done
status=0
dirs=""
for module in "$@"; do
    rm -rf "$graphs/$module"
    mkdir -p "$graphs/$module"
    swift-symbolgraph-extract -module-name "$module" -I "$bin/Modules" -target "$triple" $cflags \
        -output-dir "$graphs/$module" -minimum-access-level public -skip-synthesized-members
    dirs="$dirs $graphs/$module"
    [ $convert -eq 1 ] || continue
    catalog=Sources/$module/$module.docc
    [ -d "$catalog" ] || { echo "docs: $module has no catalog ($catalog)" >&2; status=1; continue; }
    docc convert "$catalog" --additional-symbol-graph-dir "$graphs/$module" \
        --fallback-display-name "$module" --fallback-bundle-identifier "org.gpsfix.$module" \
        --warnings-as-errors --output-path "$out/$module.doccarchive" >"$out/$module.log" 2>&1 \
        || { cat "$out/$module.log" >&2; echo "docs: $module: docc failed" >&2; status=1; continue; }
    echo "docs: $out/$module.doccarchive"
done
python3 Tools/docs/undocumented.py $dirs || status=1
exit $status
