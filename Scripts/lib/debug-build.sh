# What every script that makes a debug build of this package shares (sourced by test, demo, chaos,
# replay, hostile and pictures), so that one build serves them all:
# - the app library (QuakeBundleKit) compiled optimised, as the pipeline is (Package.swift says why
#   only here);
# - swift-argument-parser compiled without its debug-only checks of every parse (Scripts/lib/swiftc
#   says why), through SWIFT_EXEC; a SWIFT_EXEC already set is the compiler it calls.
export QUAKE_BAKE_OPTIMISE_APP_LIBRARY=1
if [ -z "${QUAKE_BAKE_SWIFTC:-}" ]; then
  QUAKE_BAKE_SWIFTC=${SWIFT_EXEC:-$(command -v swiftc)}
  case $QUAKE_BAKE_SWIFTC in */.build/swiftc/bin/swiftc) QUAKE_BAKE_SWIFTC=$(command -v swiftc) ;; esac
  export QUAKE_BAKE_SWIFTC
fi
# SwiftPM looks for the toolchain's libraries (libIndexStore.so, with which it finds the tests) in
# ../lib of the compiler it is given: the wrapper goes into .build/swiftc/bin, beside a link to the
# real compiler's lib.
quake_bake_wrapper="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)/.build/swiftc"
mkdir -p "$quake_bake_wrapper/bin"
ln -sfn "$(dirname "$(readlink -f "$QUAKE_BAKE_SWIFTC")")/../lib" "$quake_bake_wrapper/lib"
cmp -s "$(dirname "${BASH_SOURCE[0]}")/swiftc" "$quake_bake_wrapper/bin/swiftc" \
  || cp "$(dirname "${BASH_SOURCE[0]}")/swiftc" "$quake_bake_wrapper/bin/swiftc"
export SWIFT_EXEC="$quake_bake_wrapper/bin/swiftc"
unset quake_bake_wrapper
