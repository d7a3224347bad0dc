#!/usr/bin/env bash
# Proves the core is freestanding: compiled with -ffreestanding -nostdlib for
# a Cortex-M4 (thumbv7em) with gcc and with clang, and for the host, the only
# undefined symbols may be memcpy, memmove, memset, memcmp and the compiler's
# own helpers (__aeabi_*), and none of those may be a double-precision one
# (__aeabi_dadd, __muldf3, ...).  No object may name malloc, free, calloc,
# realloc, stdio or libm.  Prints one line per check and `freestanding: ok` at the end.
set -u
cd "$(dirname "$0")/.."
out=build/freestanding
rm -rf "$out"
mkdir -p "$out"
src=$(ls core/*/*.c ports/*.c ports/*/*.c)
inc="-DPLUMBOB_TOOLS_API -Icore $(for d in core/*/; do printf -- '-I%s ' "${d%/}"; done)-Iports"
warn="-std=c99 -Wall -Wextra -Wpedantic -Wshadow -Wcast-align -Wconversion -Werror"
allowed='^(memcpy|memmove|memset|memcmp|__aeabi_[A-Za-z0-9_]+)$'
# double-precision helpers (ARM EABI and libgcc's generic names): a chip with a
# single-precision FPU would pay a library call per operation, so the core has none
double_helpers='^(__aeabi_(dadd|dsub|drsub|dmul|ddiv|drdiv|dneg|dcmp[a-z]+|cdcmp[a-z]+|cdrcmp[a-z]+|d2[a-z0-9]+|[a-z0-9]+2d)|__([a-z]+df[23]|extendsfdf2|truncdfsf2|fix(uns)?df[a-z]+|float(un)?[a-z]*idf))$'
forbidden='^(malloc|free|calloc|realloc|aligned_alloc|printf|fprintf|sprintf|snprintf|puts|putchar|fopen|fclose|fread|fwrite|fputs|fputc|exit|abort|atexit|sqrt|sqrtf|sin|sinf|cos|cosf|tan|tanf|atan2|atan2f|asin|asinf|acos|acosf|pow|powf|exp|expf|log|logf|floor|floorf|ceil|ceilf|fabs|fabsf|fmod|fmodf|round|roundf|lrintf)$'
fail=0

check() { # name, nm tool, ld tool, compile command prefix...
    local name=$1 nm=$2 ld=$3; shift 3
    local dir="$out/$name" f o bad undef
    mkdir -p "$dir"
    for f in $src; do
        o="$dir/$(basename "${f%.c}").o"
        if ! "$@" $warn -O2 -ffreestanding -nostdlib -fno-stack-protector $inc -c "$f" -o "$o"; then
            echo "freestanding: $name: $f does not compile"; fail=1; return
        fi
        bad=$("$nm" -u "$o" | awk '{print $NF}' | grep -E "$forbidden" || true)
        if [ -n "$bad" ]; then echo "freestanding: $name: $f references $(echo $bad)"; fail=1; fi
    done
    "$ld" -r -o "$dir/core.o" "$dir"/*.o 2>/dev/null || { echo "freestanding: $name: partial link failed"; fail=1; return; }
    undef=$("$nm" -u "$dir/core.o" | awk '{print $NF}' | sort -u)
    bad=$(echo "$undef" | grep -E "$double_helpers" || true)
    if [ -n "$bad" ]; then
        echo "freestanding: $name: double-precision helpers: $(echo $bad)"; fail=1
        for f in "$dir"/*.o; do
            [ "$f" = "$dir/core.o" ] && continue
            bad=$("$nm" -u "$f" | awk '{print $NF}' | grep -E "$double_helpers" || true)
            [ -n "$bad" ] && echo "freestanding: $name:   $(basename "$f") calls $(echo $bad)"
        done
        return
    fi
    bad=$(echo "$undef" | grep -v -E "$allowed" | grep -v '^$' || true)
    if [ -n "$bad" ]; then
        echo "freestanding: $name: undefined symbols outside the allowed set: $(echo $bad)"; fail=1
    else
        echo "freestanding: $name: ok (undefined: $(echo $undef))"
    fi
}

if command -v arm-none-eabi-gcc >/dev/null 2>&1; then
    # the double-precision check can fail: a probe that uses doubles trips it
    printf 'double pb_probe(double a, long long b) { return a * (double)b + a; }\n' > "$out/probe.c"
    if arm-none-eabi-gcc -mcpu=cortex-m4 -mthumb -mfloat-abi=hard -mfpu=fpv4-sp-d16 -O2 -c "$out/probe.c" \
           -o "$out/probe.o" &&
        [ "$(arm-none-eabi-nm -u "$out/probe.o" | awk '{print $NF}' | grep -cE "$double_helpers")" -ge 2 ]; then
        echo "freestanding: the double-precision check sees a probe's __aeabi_d* calls"
    else
        echo "freestanding: the double-precision check misses a probe's double arithmetic"; fail=1
    fi
    check thumbv7em-gcc arm-none-eabi-nm arm-none-eabi-ld \
        arm-none-eabi-gcc -mcpu=cortex-m4 -mthumb -mfloat-abi=hard -mfpu=fpv4-sp-d16 -ffp-contract=off
    # soft-float Cortex-M4: float helpers must come from the compiler (__aeabi_f*), never libm
    check thumbv7em-soft arm-none-eabi-nm arm-none-eabi-ld \
        arm-none-eabi-gcc -mcpu=cortex-m4 -mthumb -mfloat-abi=soft -ffp-contract=off
else
    echo "freestanding: arm-none-eabi-gcc missing"; fail=1
fi
if command -v clang >/dev/null 2>&1; then
    check thumbv7em-clang arm-none-eabi-nm arm-none-eabi-ld \
        clang --target=thumbv7em-none-eabihf -mcpu=cortex-m4 -mfloat-abi=hard -ffp-contract=off
else
    echo "freestanding: clang missing"; fail=1
fi
check host-gcc nm ld gcc -ffp-contract=off -fexcess-precision=fast

if [ $fail = 0 ]; then echo "freestanding: ok"; exit 0; fi
echo "freestanding: FAILED"
exit 1
