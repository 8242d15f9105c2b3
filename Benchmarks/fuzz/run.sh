#!/usr/bin/env bash
# Builds skdpack's libFuzzer targets (address sanitizer on) and runs each for SECONDS (default 600),
# seeded from the shared corpus and from Benchmarks/fuzz/seeds/TARGET (hostile template files). A crash leaves its input in Benchmarks/fuzz/crashes/ and stops the run
# with libFuzzer's report; add that input to the regression tests.
#
#   Benchmarks/fuzz/run.sh [SECONDS] [TARGET...]      TARGET: reader tags template apply mp4 fragments ts cpix (default: all)
#
# mp4 is seeded from the shared init segments (../shared/media), fragments and ts from the shared media
# segments (../shared/segments), cpix from the shared CPIX documents.
set -euo pipefail
cd "$(dirname "$0")/../.."
seconds=${1:-600}
shift || true
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(reader tags template apply mp4 fragments ts cpix)
corpus=${SKDPACK_CORPUS:-../shared/corpus}
shared=$(dirname "$corpus")
out=Benchmarks/fuzz/build
failed=()
mkdir -p "$out" Benchmarks/fuzz/crashes

# One module per target: the sources it needs, with the imports of the other skdpack modules removed.
sources() {
    local dir=$out/src-$1
    rm -rf "$dir" && mkdir -p "$dir"
    for module in "${@:2}"; do
        find "Sources/$module" -name '*.swift' | while read -r file; do
            sed -E -e '/^import (HLS|SKDTemplate|MP4|MPEGTS|CPIX|SKDXML|SKDBytes)$/d' "$file" > "$dir/${module}_$(basename "$file")"
        done
    done
    echo "$dir"
}

build() {
    local name=$1 entry=$2
    shift 2
    local dir
    dir=$(sources "$name" "$@")
    echo "building fuzz-$name ..."
    # HLS imports CLineScan, a header-only C module, and SKDXML CExpat (Expat's header): found through
    # their module maps; Expat itself is Debian's static library, as in the package.
    swiftc -sanitize=fuzzer,address -parse-as-library -O -g -module-name Fuzz -package-name skdpack \
        -I Sources/CLineScan/include -I Sources/CExpat -Xlinker -l:libexpat.a \
        "$dir"/*.swift "Benchmarks/fuzz/$entry" -o "$out/fuzz-$name"
}

for target in "${targets[@]}"; do
    case $target in
        reader) build reader ReaderFuzz.swift SKDBytes HLS ;;
        tags) build tags TagFuzz.swift SKDBytes HLS ;;
        template) build template TemplateFuzz.swift SKDBytes SKDTemplate ;;
        apply) build apply ApplyFuzz.swift SKDBytes HLS SKDTemplate MP4 MPEGTS SKDXML CPIX SKDPack ;;
        mp4) build mp4 MP4Fuzz.swift SKDBytes MP4 ;;
        fragments) build fragments FragmentFuzz.swift SKDBytes MP4 ;;
        ts) build ts TransportFuzz.swift SKDBytes MPEGTS ;;
        cpix) build cpix CPIXFuzz.swift SKDBytes SKDXML MP4 CPIX ;;
        *) echo "unknown target $target" >&2; exit 2 ;;
    esac
    work=$out/corpus-$target
    mkdir -p "$work"
    seeds=$corpus
    case $target in
        mp4) seeds=$shared/media ;;
        fragments | ts) seeds=$out/seeds-$target && mkdir -p "$seeds" && find "$shared/segments" -type f \( -name '*.m4s' -o -name '*.mp4' -o -name '*.m4v' -o -name '*.ts' -o -name '*.dec' \) -size -200k -exec cp {} "$seeds/" \; ;;
        cpix) seeds=$shared/cpix ;;
    esac
    echo "running fuzz-$target for ${seconds}s (seeds: $seeds)"
    # Leak detection off: LeakSanitizer counts Swift's lazily built globals (a `static let` table, made once
    # and kept for the process) as leaks.
    if ! ASAN_OPTIONS=detect_leaks=0 "$out/fuzz-$target" -max_total_time="$seconds" -max_len=65536 -timeout=20 \
        -rss_limit_mb=4096 -detect_leaks=0 -artifact_prefix=Benchmarks/fuzz/crashes/"$target"- -print_final_stats=1 \
        "$work" "$seeds" $( [ -d "Benchmarks/fuzz/seeds/$target" ] && echo "Benchmarks/fuzz/seeds/$target" ) > "$out/$target.log" 2>&1; then
        failed+=("$target")
    fi
    tail -8 "$out/$target.log"
done
if [ ${#failed[@]} -gt 0 ]; then
    echo "crashed: ${failed[*]} (inputs in Benchmarks/fuzz/crashes/, logs in $out/)" >&2
    exit 1
fi
echo "no crash in ${targets[*]}"
