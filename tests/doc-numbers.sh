#!/usr/bin/env bash
# Numbers the docs state about the code, checked against the code (issue
# 47: the sampler's bytes per track read 52 in the header, 48/40 in the
# guide).  The sampler's per-track bytes come from core/plumbob/runtime.h's
# #defines (a rotation or translation group over its four lanes, a
# constant of each kind); every place that states them must say those
# numbers; and time parameters name their unit (ticks for ANIM, seconds for
# clips).  Prints one line per check and `N passed, N failed`.
set -u
cd "$(dirname "$0")/.."
pass=0 fail=0
ok() { pass=$((pass + 1)); echo "ok   $1"; }
bad() { fail=$((fail + 1)); echo "FAIL $1"; [ -n "${2:-}" ] && printf '%s\n' "$2" | head -5 | sed 's/^/   | /'; }
def() { sed -n "s/^#define $1 \([0-9]*\)u.*/\1/p" core/plumbob/runtime.h; }
group=$(def PLUMBOB_CLIP_SAMPLER_GROUP_BYTES) vgroup=$(def PLUMBOB_CLIP_SAMPLER_VECTOR_GROUP_BYTES)
crot=$(def PLUMBOB_CLIP_SAMPLER_CONSTANT_BYTES) ctr=$(def PLUMBOB_CLIP_SAMPLER_TRANSLATION_BYTES)
if [ -z "$group" ] || [ -z "$vgroup" ] || [ -z "$crot" ] || [ -z "$ctr" ]; then
    bad "the sampler's #defines are in core/plumbob/runtime.h" "group=$group vgroup=$vgroup crot=$crot ctr=$ctr"
    echo "$pass passed, $fail failed"; exit 1
fi
rot=$((group / 4)) tr=$((vgroup / 4))
ok "the sampler's bytes per track from the header: $rot per rotation lane, $tr per translation, constants $crot and $ctr"
# file, a fixed string the file must hold (with the numbers filled in)
want() {
    if tr '\n' ' ' < "$1" | sed 's/  */ /g; s/ \* / /g' | grep -qF -- "$2"; then ok "$1 says: $2"
    else bad "$1 says: $2" "(not found; the numbers come from core/plumbob/runtime.h)"; fi
}
want core/plumbob/runtime.h "Costs $rot arena bytes per scheduled rotation track and $tr per translation"
want core/plumbob/runtime.h "$crot per constant rotation and $ctr per constant translation"
want docs/API.md "/* $rot arena bytes per moving rotation, $tr per translation, at most $crot per constant */"
want docs/API.md "($crot bytes each for a rotation, $ctr for a translation, instead of a lane's $rot or $tr)"
want docs/API.md "the sampler's $rot bytes per moving rotation track, $tr per translation and at most $crot per constant"
want docs/API.md "The cursor costs 2 bytes per track instead of $ctr–$rot"
want docs/ARCHITECTURE.md "$rot bytes per rotation track of two keys or more and $tr per translation"
want docs/ARCHITECTURE.md "at most $crot per bound rotation of one key or none and $ctr per translation"
# a per-track figure no sampler has any more
stale=$(grep -nE "(lane's|Costs) 52\b|20–52" core/plumbob/runtime.h docs/API.md docs/ARCHITECTURE.md || true)
[ -z "$stale" ] && ok "no stale per-track sampler figure (52)" || bad "no stale per-track sampler figure (52)" "$stale"
# time units in names (issue 47): ANIM calls take ticks, clip calls seconds, and no
# public prototype has a time parameter whose name hides its unit
protos=$(cat core/plumbob/sims2.h core/plumbob/sims3.h core/plumbob/runtime.h | tr '\n' ' ' |
    grep -oE 'PLUMBOB_API [^;{]*\([^;{]*\);' | sed 's/  */ /g')
vague=$(grep -E 'float (t|t0|t1|time|when|at)[,)]' <<<"$protos" || true)
[ -z "$vague" ] && ok "no public time parameter without its unit in the name (t, t0, time, ...)" ||
    bad "no public time parameter without its unit in the name (t, t0, time, ...)" "$vague"
anim=$(grep -E 'plumbob_anim_sample_[a-z]+\(' <<<"$protos")
if [ -n "$anim" ] && ! grep -vqE 'float ticks[,)]' <<<"$anim"; then ok "every plumbob_anim_sample_* call takes float ticks"
else bad "every plumbob_anim_sample_* call takes float ticks" "$anim"; fi
clip=$(grep -E 'plumbob_clip_(sampler_sample|sample_track|sample_track_cursor|sample_pose)\(' <<<"$protos")
if [ "$(grep -c . <<<"$clip")" = 4 ] && ! grep -vqE 'float seconds[,)]' <<<"$clip"; then
    ok "every clip sampling call takes float seconds"
else bad "every clip sampling call takes float seconds" "$clip"; fi
echo "$pass passed, $fail failed"
[ "$fail" = 0 ]
