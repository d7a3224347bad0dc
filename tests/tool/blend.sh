# clip blend and rig ik (issue 50): poses asserted against clip sample
# --rig --json and against what the jobs promise, on the demo's rig and
# clip (a mirrored copy made by clip blend itself is the second clip) and,
# with the corpus, on auRig and two EWBreastfeed clips.  Every glTF written
# here passes plumbob check (and the validator stage, which collects them).
# Sourced by tool-tests.sh with bin, tmp, corpus and expect().
mkdir -p "$tmp/bl"
"$bin" demo --out "$tmp/bl/demo" >/dev/null 2>&1
bl_rig=$(ls "$tmp"/bl/demo/*.rig | head -1)
bl_a=$(ls "$tmp"/bl/demo/*.clip | head -1)
# bl_cmp MODE FILE1 FILE2 [ARGS]: compares two pose JSONs (clip sample --rig
# --json or clip blend --json); prints ok or what differs
cat > "$tmp/bl/cmp.py" <<'PY'
import json, sys
mode, f1, f2 = sys.argv[1], sys.argv[2], sys.argv[3]
a = json.load(open(f1)); b = json.load(open(f2))
tol = float(sys.argv[4]) if len(sys.argv) > 4 else 1e-6
def bones(d): return {x["name"]: x for x in d["bones"]}
A, B = bones(a), bones(b)
worst = (0, "")
def close(u, v, what):
    global worst
    for x, y in zip(u, v):
        if abs(x - y) > worst[0]: worst = (abs(x - y), what)
def qclose(u, v, what):  # q and -q are one rotation
    s = 1 if sum(x * y for x, y in zip(u, v)) >= 0 else -1
    close(u, [s * y for y in v], what)
if mode == "same":  # every bone's local and model transform
    for n in A:
        qclose(A[n]["rotation"], B[n]["rotation"], n + " rotation")
        close(A[n]["translation"], B[n]["translation"], n + " translation")
        close(A[n]["model_translation"], B[n]["model_translation"], n + " model")
elif mode == "mirror":  # b = a mirrored: bone k of b is M(a's bone k's opposite, from rig dump --json)
    rig = json.load(open(sys.argv[5]))["bones"]
    names = [r["name"] for r in rig]
    for r in rig:
        n = r["name"]; o = A[names[r["opposite"]]] if 0 <= r["opposite"] < len(rig) else A[n]
        t = o["translation"]; q = o["rotation"]
        qclose(B[n]["rotation"], [q[0], -q[1], -q[2], q[3]], n + " rotation")
        close(B[n]["translation"], [-t[0], t[1], t[2]], n + " translation")
elif mode == "bone":  # one bone's local rotation and translation
    n = sys.argv[5]
    qclose(A[n]["rotation"], B[n]["rotation"], n + " rotation")
    close(A[n]["translation"], B[n]["translation"], n + " translation")
print("ok" if worst[0] <= tol else "differ by %g at %s" % worst)
PY
bl_cmp() { python3 "$tmp/bl/cmp.py" "$@"; }
bl_sample() { "$bin" clip sample "$1" --rig "$2" --time "$3" --json 2>/dev/null; }
bl_blend() { "$bin" clip blend "$@" 2>/dev/null; }
bl_field() { python3 -c 'import json, sys; d = json.load(open(sys.argv[1])); print(eval(sys.argv[2]))' "$@"; }

# B: the demo clip mirrored, as a CLIP (b__Spine0__ bends the other way)
expect blend-write-clip 0 '^wrote .*/m\.clip \([0-9]+ bytes\)' "$bin" clip blend "$bl_a" "$bl_a" --rig "$bl_rig" --weight 0 --mirror -o "$tmp/bl/m.clip"
expect blend-clip-checks 0 'ok: ' "$bin" check "$tmp/bl/m.clip"
expect blend-clip-dump 0 'tracks +8 \(4 rotation, 4 translation, 0 scale, 0 morph\)' "$bin" clip dump "$tmp/bl/m.clip"
expect blend-says-dropped 0 'warning: 1 morph track is not in the blend' "$bin" clip blend "$bl_a" "$tmp/bl/m.clip" --rig "$bl_rig" --weight 0.5 -o "$tmp/bl/half.clip"
bl_b="$tmp/bl/m.clip"
"$bin" rig dump "$bl_rig" --json > "$tmp/bl/rig.json"
for t in 0.5 1.3; do
    bl_sample "$bl_a" "$bl_rig" $t > "$tmp/bl/a$t.json"
    bl_sample "$bl_b" "$bl_rig" $t > "$tmp/bl/b$t.json"
    bl_blend "$bl_a" "$bl_b" --rig "$bl_rig" --weight 0 --json --time $t > "$tmp/bl/w0-$t.json"
    bl_blend "$bl_a" "$bl_b" --rig "$bl_rig" --weight 1 --json --time $t > "$tmp/bl/w1-$t.json"
    bl_blend "$bl_a" "$bl_a" --rig "$bl_rig" --weight 0 --mirror --json --time $t > "$tmp/bl/mir-$t.json"
    bl_blend "$bl_b" "$bl_b" --rig "$bl_rig" --weight 0 --mirror --json --time $t > "$tmp/bl/mir2-$t.json"
    expect "blend-weight0-is-a-$t" 0 '^ok$' bl_cmp same "$tmp/bl/a$t.json" "$tmp/bl/w0-$t.json"
    expect "blend-weight1-is-b-$t" 0 '^ok$' bl_cmp same "$tmp/bl/b$t.json" "$tmp/bl/w1-$t.json"
    expect "blend-mirror-$t" 0 '^ok$' bl_cmp mirror "$tmp/bl/a$t.json" "$tmp/bl/mir-$t.json" 1e-6 "$tmp/bl/rig.json"
    # mirrored into a CLIP (12-bit rotations, 10-bit translations), then mirrored back
    expect "blend-mirror-twice-$t" 0 '^ok$' bl_cmp same "$tmp/bl/a$t.json" "$tmp/bl/mir2-$t.json" 2e-3
done
# B really differs from A: a half blend is neither
expect blend-b-differs 0 '^differ' bl_cmp same "$tmp/bl/a0.5.json" "$tmp/bl/b0.5.json"
# the halfway blend of a bend and its mirror: b__Spine0__'s z rotation cancels
bl_blend "$bl_a" "$bl_b" --rig "$bl_rig" --weight 0.5 --json --time 0.5 > "$tmp/bl/half.json"
expect blend-half-cancels 0 '^ok$' bl_field "$tmp/bl/half.json" '"ok" if abs([b for b in d["bones"] if b["name"] == "b__Spine0__"][0]["rotation"][2]) < 2e-3 else d["bones"][1]'
# --mask: B only on the bone and its children
bl_blend "$bl_a" "$bl_b" --rig "$bl_rig" --weight 1 --mask b__Spine1__ --json --time 0.5 > "$tmp/bl/mask1.json"
bl_blend "$bl_a" "$bl_b" --rig "$bl_rig" --weight 1 --mask B__SPINE0__ --json --time 0.5 > "$tmp/bl/mask0.json"
expect blend-mask-outside-is-a 0 '^ok$' bl_cmp bone "$tmp/bl/a0.5.json" "$tmp/bl/mask1.json" 1e-6 b__Spine0__
expect blend-mask-inside-is-b 0 '^ok$' bl_cmp bone "$tmp/bl/b0.5.json" "$tmp/bl/mask0.json" 1e-6 b__Spine0__
expect blend-mask-unknown 1 "--mask: no bone 'b__Tail__' in rig demo_spine" "$bin" clip blend "$bl_a" "$bl_b" --rig "$bl_rig" --weight 1 --mask b__Spine0__,b__Tail__ --json --time 0
# --fade 0.5: A (2.0333 s) then B over 15 frames from 1.5333 s; 3.5667 s, 107 ticks
bl_blend "$bl_a" "$bl_b" --rig "$bl_rig" --fade 0.5 --json --time 0 > "$tmp/bl/f0.json"
expect blend-fade-length 0 '^107 3.56667$' bl_field "$tmp/bl/f0.json" '"%d %.5f" % (d["ticks"], d["duration"])'
expect blend-fade-starts-with-a 0 '^ok$' bl_cmp same "$(bl_sample "$bl_a" "$bl_rig" 0 > "$tmp/bl/a0.json"; echo "$tmp/bl/a0.json")" "$tmp/bl/f0.json"
bl_blend "$bl_a" "$bl_b" --rig "$bl_rig" --fade 0.5 --json --time 1.5333333 > "$tmp/bl/fs.json"
bl_sample "$bl_a" "$bl_rig" 1.5333333 > "$tmp/bl/afs.json"
expect blend-fade-start-weight 0 '^0.0000$' bl_field "$tmp/bl/fs.json" '"%.4f" % d["weight"]'
expect blend-fade-start-is-a 0 '^ok$' bl_cmp same "$tmp/bl/afs.json" "$tmp/bl/fs.json" 1e-5
bl_blend "$bl_a" "$bl_b" --rig "$bl_rig" --fade 0.5 --json --time 1.7833333 > "$tmp/bl/fm.json"
expect blend-fade-middle-weight 0 '^0.5000$' bl_field "$tmp/bl/fm.json" '"%.4f" % d["weight"]'
bl_blend "$bl_a" "$bl_b" --rig "$bl_rig" --fade 0.5 --json --time 2.0333333 > "$tmp/bl/fe.json"
bl_sample "$bl_b" "$bl_rig" 0.5 > "$tmp/bl/bfe.json"
expect blend-fade-end-weight 0 '^1.0000$' bl_field "$tmp/bl/fe.json" '"%.4f" % d["weight"]'
expect blend-fade-end-is-b 0 '^ok$' bl_cmp same "$tmp/bl/bfe.json" "$tmp/bl/fe.json" 1e-5
bl_blend "$bl_a" "$bl_b" --rig "$bl_rig" --fade 0.5 --json --time 3.5666667 > "$tmp/bl/fz.json"
bl_sample "$bl_b" "$bl_rig" 2.0333333 > "$tmp/bl/bz.json"
expect blend-fade-ends-with-b 0 '^ok$' bl_cmp same "$tmp/bl/bz.json" "$tmp/bl/fz.json" 1e-5
expect blend-fade-too-long 1 'fade 3 is longer than A \(2.0333 s\)' "$bin" clip blend "$bl_a" "$bl_b" --rig "$bl_rig" --fade 3 -o "$tmp/bl/never.glb"
expect blend-fade-not-written 1 '' test -e "$tmp/bl/never.glb"
# --additive: B = A adds A's own change since its first frame: 45 degrees at 0.5 s become 90
bl_blend "$bl_a" "$bl_a" --rig "$bl_rig" --additive --json --time 0.5 > "$tmp/bl/add.json"
expect blend-additive-doubles 0 '^0.7071 0.7071$' bl_field "$tmp/bl/add.json" '"%.4f %.4f" % tuple([b for b in d["bones"] if b["name"] == "b__Spine0__"][0]["rotation"][2:])'
bl_blend "$bl_a" "$bl_a" --rig "$bl_rig" --additive --weight 0 --json --time 0.5 > "$tmp/bl/add0.json"
expect blend-additive-weight0-is-a 0 '^ok$' bl_cmp same "$tmp/bl/a0.5.json" "$tmp/bl/add0.json"
# the written clip plays what --json says (within the CLIP's quantization)
expect blend-fade-clip 0 'wrote' "$bin" clip blend "$bl_a" "$bl_b" --rig "$bl_rig" --fade 0.5 -o "$tmp/bl/fade.clip"
expect blend-fade-clip-length 0 'length +3.567 s \(107 ticks of 0.0333 s\)' "$bin" clip dump "$tmp/bl/fade.clip"
bl_sample "$tmp/bl/fade.clip" "$bl_rig" 1.7833333 > "$tmp/bl/fmc.json"
expect blend-clip-plays-json 0 '^ok$' bl_cmp same "$tmp/bl/fm.json" "$tmp/bl/fmc.json" 2e-3
# glTF: checked, the animation as long as the blend
expect blend-gltf 0 'wrote .*fade\.gltf \([0-9]+ bytes\): 4 nodes, 8 animation channels' "$bin" clip blend "$bl_a" "$bl_b" --rig "$bl_rig" --fade 0.5 -o "$tmp/bl/fade.gltf"
expect blend-gltf-checks 0 'ok: valid glTF 2.0 \(JSON' "$bin" check "$tmp/bl/fade.gltf"
expect blend-gltf-range 0 '^0.0000 3.5667$' python3 -c '
import json, sys
g = json.load(open(sys.argv[1]))
ins = [g["accessors"][s["input"]] for a in g["animations"] for s in a["samplers"]]
print("%.4f %.4f" % (min(a["min"][0] for a in ins), max(a["max"][0] for a in ins)))' "$tmp/bl/fade.gltf"
expect blend-glb 0 'wrote .*mask\.glb' "$bin" clip blend "$bl_a" "$bl_b" --rig "$bl_rig" --weight 0.3 --mask b__Spine0__ --mirror -o "$tmp/bl/mask.glb"
expect blend-glb-checks 0 'ok: valid glTF 2.0 \(GLB' "$bin" check "$tmp/bl/mask.glb"
# mistakes, said, nothing written
expect blend-help 0 'example' "$bin" clip blend --help
expect blend-no-rig 2 '--rig RIG is required' "$bin" clip blend "$bl_a" "$bl_b" --weight 1 -o "$tmp/bl/x.glb"
expect blend-weight-and-fade 2 '--weight and --fade: give one' "$bin" clip blend "$bl_a" "$bl_b" --rig "$bl_rig" --weight 1 --fade 1 -o "$tmp/bl/x.glb"
expect blend-weight-range 2 'weight' "$bin" clip blend "$bl_a" "$bl_b" --rig "$bl_rig" --weight 2 -o "$tmp/bl/x.glb"
expect blend-no-output 2 '-o OUT.glb\|OUT.gltf\|OUT.clip or --json is required' "$bin" clip blend "$bl_a" "$bl_b" --rig "$bl_rig" --weight 1
expect blend-json-time 2 '--time SECONDS or --frame N is required' "$bin" clip blend "$bl_a" "$bl_b" --rig "$bl_rig" --weight 1 --json
expect blend-bad-extension 2 '' "$bin" clip blend "$bl_a" "$bl_b" --rig "$bl_rig" --weight 1 -o "$tmp/bl/x.svg"
expect blend-rig-is-clip 1 'rig' "$bin" clip blend "$bl_a" "$bl_b" --rig "$bl_a" --weight 1 -o "$tmp/bl/x.glb"
expect blend-no-root-bind 1 'the rig has no b__ROOT_bind__' "$bin" clip blend "$bl_a" "$bl_b" --rig "$bl_rig" --weight 1 --root-motion -o "$tmp/bl/x.glb"
expect blend-loops-alone 2 '--loops goes with --root-motion' "$bin" clip blend "$bl_a" "$bl_b" --rig "$bl_rig" --weight 1 --loops 2 -o "$tmp/bl/x.glb"
expect blend-nothing-written 1 '' test -e "$tmp/bl/x.glb"
expect blend-bad-time 2 '--time 9 is outside the animation: it lasts 2.0333 s' "$bin" clip blend "$bl_a" "$bl_b" --rig "$bl_rig" --weight 1 --json --time 9 -o "$tmp/bl/t.glb"
expect blend-bad-time-not-written 1 '' test -e "$tmp/bl/t.glb"
# --json with -o: the file written, and stdout the JSON alone
expect blend-json-and-file 0 '^0.25 written$' sh -c "\"$bin\" clip blend \"$bl_a\" \"$bl_b\" --rig \"$bl_rig\" --weight 0.25 --json --time 1 -o \"$tmp/bl/jo.glb\" 2>/dev/null | python3 -c 'import json, sys; print(json.load(sys.stdin)[\"weight\"], \"written\")' && test -s \"$tmp/bl/jo.glb\""

# --- rig ik on the demo rig: chain 0 is b__Spine0__ -> b__Spine1__ -> b__Head__ (1 m and 0.5 m)
bl_ik() { "$bin" rig ik "$@" 2>/dev/null; }
bl_ik "$bl_rig" --chain 0 --target 0.5,1.5,0.3 --json > "$tmp/bl/ik.json"
expect ik-reached 0 '^True$' bl_field "$tmp/bl/ik.json" 'd["reached"]'
# the end joint on the target, by the bones' own model positions (not the summary)
expect ik-end-on-target 0 '^ok$' bl_field "$tmp/bl/ik.json" '"ok" if max(abs(x - y) for x, y in zip([b for b in d["bones"] if b["name"] == "b__Head__"][0]["model_translation"], d["target"])) < 1e-4 else d["end_after"]'
expect ik-lengths-kept 0 '^ok$' bl_field "$tmp/bl/ik.json" '"ok" if max(abs(x - y) for x, y in zip(d["lengths_before"], d["lengths_after"])) < 1e-5 and abs(d["lengths_before"][0] - 1) < 1e-6 else {k: d[k] for k in d if k != "bones"}'
bl_ik "$bl_rig" --chain 0 --target 0,10,0 --json > "$tmp/bl/ik-far.json"
expect ik-unreachable 0 '^False 2.5000$' bl_field "$tmp/bl/ik-far.json" '"%s %.4f" % (d["reached"], [b for b in d["bones"] if b["name"] == "b__Head__"][0]["model_translation"][1])'
expect ik-text 0 'reached' "$bin" rig ik "$bl_rig" --bones b__Spine0__,b__Spine1__,b__Head__ --target 0.5,1.5,0.3
expect ik-clip-pose 0 '\(clip pose\)' "$bin" rig ik "$bl_rig" --chain 0 --target 0.5,1.5,0.3 --clip "$bl_a" --time 1
bl_ik "$bl_rig" --aim b__Head__ --target 1,3,0 --clip "$bl_a" --time 1 --json > "$tmp/bl/aim.json"
expect ik-aim 0 '^ok$' bl_field "$tmp/bl/aim.json" '"ok" if d["reached"] and d["angle_after"] < 1e-3 and d["angle_before"] > 10 else {k: d[k] for k in d if k != "bones"}'
expect ik-glb 0 'wrote .*ik\.glb' "$bin" rig ik "$bl_rig" --chain 0 --target 0.5,1.5,0.3 -o "$tmp/bl/ik.glb"
expect ik-glb-checks 0 'ok: valid glTF 2.0 \(GLB' "$bin" check "$tmp/bl/ik.glb"
expect ik-clip 0 'wrote' "$bin" rig ik "$bl_rig" --chain 0 --target 0.5,1.5,0.3 -o "$tmp/bl/ik.clip"
bl_sample "$tmp/bl/ik.clip" "$bl_rig" 0.0333333 > "$tmp/bl/ikc.json"
expect ik-clip-tick1-is-solve 0 '^ok$' bl_cmp same "$tmp/bl/ik.json" "$tmp/bl/ikc.json" 2e-3
expect ik-help 0 'example' "$bin" rig ik --help
expect ik-no-chain 1 'the rig has 1 IK chains \(0 to 0\)' "$bin" rig ik "$bl_rig" --chain 3 --target 0,0,0
expect ik-bones-order 1 'b__Spine0__ is not below b__Head__' "$bin" rig ik "$bl_rig" --bones b__Head__,b__Spine0__,b__Spine1__ --target 0,0,0
expect ik-no-target 2 '--target X,Y,Z is required' "$bin" rig ik "$bl_rig" --chain 0
expect ik-bad-target 2 '--target needs X,Y,Z' "$bin" rig ik "$bl_rig" --chain 0 --target 1,2
expect ik-no-bone 1 "--aim: no bone 'b__Tail__' in rig demo_spine" "$bin" rig ik "$bl_rig" --aim b__Tail__ --target 0,0,0
expect ik-two-bones 2 '--bones names three bones: START,MID,END' "$bin" rig ik "$bl_rig" --bones b__Spine0__,b__Head__ --target 0,0,0
expect ik-two-solvers 2 'give one of --chain' "$bin" rig ik "$bl_rig" --chain 0 --aim b__Head__ --target 0,0,0

# --- the corpus: auRig, feed_start (A) and feed_stop (B), both 1.433 s
if [ -d "$corpus" ]; then
    bl_R="$corpus/sims3/auRig.rig"
    bl_A="$corpus/sims3/EWBreastfeed.package@4279AA053138D6E4" bl_B="$corpus/sims3/EWBreastfeed.package@7B3E677B55DC6E2A"
    bl_sample "$bl_A" "$bl_R" 0.7 > "$tmp/bl/ca.json"
    bl_sample "$bl_B" "$bl_R" 0.7 > "$tmp/bl/cb.json"
    bl_blend "$bl_A" "$bl_B" --rig "$bl_R" --weight 0 --json --time 0.7 > "$tmp/bl/cw0.json"
    bl_blend "$bl_A" "$bl_B" --rig "$bl_R" --weight 1 --json --time 0.7 > "$tmp/bl/cw1.json"
    bl_blend "$bl_A" "$bl_B" --rig "$bl_R" --weight 0 --mirror --json --time 0.7 > "$tmp/bl/cmir.json"
    expect blend-corpus-weight0-is-a 0 '^ok$' bl_cmp same "$tmp/bl/ca.json" "$tmp/bl/cw0.json" 1e-5
    expect blend-corpus-weight1-is-b 0 '^ok$' bl_cmp same "$tmp/bl/cb.json" "$tmp/bl/cw1.json" 1e-5
    "$bin" rig dump "$bl_R" --json > "$tmp/bl/crig.json"
    expect blend-corpus-mirror 0 '^ok$' bl_cmp mirror "$tmp/bl/ca.json" "$tmp/bl/cmir.json" 1e-6 "$tmp/bl/crig.json"
    expect blend-corpus-says-unbound 0 'warning: 58 tracks of bones the rig lacks are not in the blend' "$bin" clip blend "$bl_A" "$bl_B" --rig "$bl_R" --fade 0.5 -o "$tmp/bl/cfade.glb"
    expect blend-corpus-glb-checks 0 'ok: valid glTF 2.0 \(GLB, [0-9]+ bytes\): 257 nodes' "$bin" check "$tmp/bl/cfade.glb"
    # the fade's ends: A at 0, B's last key at the end (0.9333 + 1.4333 = 2.3667 s, 71 ticks)
    bl_blend "$bl_A" "$bl_B" --rig "$bl_R" --fade 0.5 --json --time 2.3666667 > "$tmp/bl/cfz.json"
    bl_sample "$bl_B" "$bl_R" 1.4333333 > "$tmp/bl/cbz.json"
    expect blend-corpus-fade-length 0 '^71$' bl_field "$tmp/bl/cfz.json" 'd["ticks"]'
    expect blend-corpus-fade-ends-with-b 0 '^ok$' bl_cmp same "$tmp/bl/cbz.json" "$tmp/bl/cfz.json" 1e-5
    # root motion: the first pass puts every bone of the body (b__ROOT_bind__ and below) where it
    # was: the motion only moved from b__ROOT_bind__ to b__ROOT__ ...
    bl_blend "$bl_A" "$bl_B" --rig "$bl_R" --weight 0.5 --json --time 0.9 > "$tmp/bl/crm0.json"
    bl_blend "$bl_A" "$bl_B" --rig "$bl_R" --weight 0.5 --root-motion --loops 3 --json --time 0.9 > "$tmp/bl/crm1.json"
    expect blend-corpus-root-motion-same-body 0 '^ok$' python3 -c '
import json, sys
a, b = (json.load(open(f)) for f in sys.argv[1:3])
bones = a["bones"]
def body(i):
    while i >= 0:
        if bones[i]["name"] == "b__ROOT_bind__": return True
        i = bones[i]["parent"]
    return False
n = sum(1 for i in range(len(bones)) if body(i))
w = max(abs(x - y) for i, (p, q) in enumerate(zip(a["bones"], b["bones"])) if body(i) for x, y in zip(p["model_translation"], q["model_translation"]))
moved = max(abs(x - y) for x, y in zip(a["bones"][0]["model_translation"], b["bones"][0]["model_translation"]))
print("ok" if w < 1e-5 and n > 150 and moved > 1e-3 else (w, n, moved))' "$tmp/bl/crm0.json" "$tmp/bl/crm1.json"
    # ... and the second pass starts where the first ended (its last tick, 42 of 43)
    bl_blend "$bl_A" "$bl_B" --rig "$bl_R" --weight 0.5 --root-motion --loops 3 --json --frame 42 > "$tmp/bl/crm42.json"
    bl_blend "$bl_A" "$bl_B" --rig "$bl_R" --weight 0.5 --root-motion --loops 3 --json --frame 43 > "$tmp/bl/crm43.json"
    expect blend-corpus-root-motion-ticks 0 '^129$' bl_field "$tmp/bl/crm43.json" 'd["ticks"]'
    expect blend-corpus-root-motion-accumulates 0 '^ok$' python3 -c '
import json, sys
a, b = (json.load(open(f)) for f in sys.argv[1:3])
d = max(abs(x - y) for x, y in zip(a["root_motion"]["translation"] + a["root_motion"]["yaw"], b["root_motion"]["translation"] + b["root_motion"]["yaw"]))
print("ok" if d < 1e-5 else d)' "$tmp/bl/crm42.json" "$tmp/bl/crm43.json"
    expect blend-corpus-root-motion-glb 0 'wrote .*crm\.glb' "$bin" clip blend "$bl_A" "$bl_B" --rig "$bl_R" --weight 0.5 --root-motion --loops 3 -o "$tmp/bl/crm.glb"
    # IK on the left arm (chain 0), its elbow toward the rig's pole bone
    bl_ik "$bl_R" --chain 0 --target 0.26,1.173,0.229 --json > "$tmp/bl/cik.json"
    expect ik-corpus-reached 0 '^ok$' bl_field "$tmp/bl/cik.json" '"ok" if d["reached"] and d["distance"] < 1e-4 and d["joints"] == ["b__L_UpperArm__", "b__L_Forearm__", "b__L_Hand__"] and max(abs(x - y) for x, y in zip(d["lengths_before"], d["lengths_after"])) < 1e-5 else {k: d[k] for k in d if k != "bones"}'
    expect ik-corpus-end-on-target 0 '^ok$' bl_field "$tmp/bl/cik.json" '"ok" if max(abs(x - y) for x, y in zip([b for b in d["bones"] if b["name"] == "b__L_Hand__"][0]["model_translation"], d["target"])) < 1e-4 else d["end_after"]'
    bl_ik "$bl_R" --chain 2 --target 0.1,0.4,0.25 --clip "$bl_A" --time 0.7 --json > "$tmp/bl/cik2.json"
    expect ik-corpus-clip-pose 0 '^ok$' bl_field "$tmp/bl/cik2.json" '"ok" if d["reached"] and d["distance"] < 1e-4 and abs(d["time"] - 0.7) < 1e-6 else {k: d[k] for k in d if k != "bones"}'
    expect ik-corpus-root-chain 1 'chain 4: not a chain of three bones' "$bin" rig ik "$bl_R" --chain 4 --target 0,0,0
    expect ik-corpus-glb 0 'wrote .*cik\.glb' "$bin" rig ik "$bl_R" --aim b__Head__ --forward 0,0,1 --target 0,1.6,2 -o "$tmp/bl/cik.glb"
fi
true
