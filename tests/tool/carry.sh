# Exports say what they could not carry (issue 30): a clip's glTF animation
# lasts the clip's duration, its events, unplayed morph tracks and IK slots
# ride in animations[0].extras.plumbob with a warning naming them, and OBJ
# export writes UVs.  Sourced by tool-tests.sh (bin, tmp, clip, corpus,
# expect); reads the glTF with python3.
mkdir -p "$tmp/cy"
"$bin" demo --write "$tmp/cy" >/dev/null
cy_gmdc=$(ls "$tmp"/cy/AC4F8687_*.gmdc) cy_body=$(ls "$tmp"/cy/body/AC4F8687_*.gmdc)
cat > "$tmp/cy.py" <<'PY'
import json, struct, sys

def load(path):
    """The glTF JSON and its binary buffer (.gltf data: URI or .glb BIN chunk)."""
    raw = open(path, "rb").read()
    if raw[:4] == b"glTF":
        jl = struct.unpack_from("<I", raw, 12)[0]
        g = json.loads(raw[20:20 + jl])
        rest = raw[20 + jl:]
        return g, rest[8:8 + struct.unpack_from("<I", rest, 0)[0]] if rest else b""
    g = json.loads(raw)
    import base64
    return g, base64.b64decode(g["buffers"][0]["uri"].split(",", 1)[1]) if g.get("buffers") else b""

def floats(g, buf, a):
    acc = g["accessors"][a]
    view = g["bufferViews"][acc["bufferView"]]
    n = acc["count"] * {"SCALAR": 1, "VEC2": 2, "VEC3": 3, "VEC4": 4}[acc["type"]]
    return struct.unpack_from("<%df" % n, buf, view.get("byteOffset", 0) + acc.get("byteOffset", 0))

cmd, path = sys.argv[1], sys.argv[2]
g, buf = load(path)
if cmd == "end":  # every channel's last key time, against clip dump --json's duration
    dump = json.load(open(sys.argv[3]))
    an = g["animations"][0]
    ends = set(floats(g, buf, s["input"])[-1] for s in an["samplers"])
    dur = struct.unpack("<f", struct.pack("<f", dump["duration"]))[0]
    print("%d channels end at %s; duration %.4f: %s" % (len(an["samplers"]), " ".join("%.4f" % e for e in sorted(ends)),
          dur, "same" if ends == {dur} else "differ"))
elif cmd == "extras":  # what extras.plumbob holds, against clip dump --json
    dump = json.load(open(sys.argv[3]))
    ex = (g["animations"][0] if g.get("animations") else g["scenes"][0])["extras"]["plumbob"]
    same = ex["events"] == dump["events"]  # the same objects, field for field
    mt = ex["morphTracks"]
    print("extras: %d events (clip dump: %d, %s), %d morph tracks%s, %d slots (clip dump: %d)" % (
        len(ex["events"]), len(dump["events"]), "same" if same else "differ", len(mt),
        " of %d keys ending at %.4f" % (len(mt[0]["times"]), mt[0]["times"][-1]) if mt else "",
        len(ex["slots"]), len(dump["slots"])))
elif cmd == "uv":  # OBJ vt lines against the first primitive's TEXCOORD_0
    obj = sys.argv[3]
    vt = [tuple(float(x) for x in l.split()[1:3]) for l in open(obj) if l.startswith("vt ")]
    tc = floats(g, buf, g["meshes"][0]["primitives"][0]["attributes"]["TEXCOORD_0"])
    worst = max(max(abs(tc[2 * i] - u), abs(1.0 - tc[2 * i + 1] - v)) for i, (u, v) in enumerate(vt))
    faces = [l.split()[1] for l in open(obj) if l.startswith("f ")]
    print("%d vt, %d TEXCOORD_0; vt 1 = %.6f %.6f = TEXCOORD_0[0] %.6f %.6f with v flipped; %s; face 1 %s" % (
        len(vt), len(tc) // 2, vt[0][0], vt[0][1], tc[0], tc[1], "all within 1e-6" if worst < 1e-6 else "worst %g" % worst, faces[0]))
PY
cy() { python3 "$tmp/cy.py" "$@"; }
"$bin" clip dump "$clip" --json > "$tmp/cy-demo.json"

# --- the demo clip alone: 61 ticks (2.033 s), keys to tick 60, 2 events, 1 morph track
expect carry-demo-warning 0 "clip export: .*$(basename "$clip"): warning: 1 morph track and 2 events are in the animation's extras, not animated \(glTF animates morph weights only on a mesh; glTF has no events or IK slots\)" \
    "$bin" clip export "$clip" -o "$tmp/cy-demo.gltf"
expect carry-demo-checks 0 'ok: valid glTF 2.0 \(JSON' "$bin" check "$tmp/cy-demo.gltf"
expect carry-demo-info-duration 0 'a_demo_bend_x, 2.033 s' "$bin" info "$clip"
expect carry-demo-end 0 '^3 channels end at 2.0333; duration 2.0333: same$' cy end "$tmp/cy-demo.gltf" "$tmp/cy-demo.json"
# the events are clip dump's, field for field; the morph track's 31 keys and one holding to the end
expect carry-demo-extras 0 '^extras: 2 events \(clip dump: 2, same\), 1 morph tracks of 32 keys ending at 2.0333, 0 slots \(clip dump: 0\)$' \
    cy extras "$tmp/cy-demo.gltf" "$tmp/cy-demo.json"
expect carry-demo-extras-json 0 '^ok 2 1 0$' "${1:-build}/json-check" "$tmp/cy-demo.gltf" animations.0.extras.plumbob.duration \
    animations.0.extras.plumbob.eventsComplete 'animations.0.extras.plumbob.events.*.time' \
    'animations.0.extras.plumbob.morphTracks.*.times' '#animations.0.extras.plumbob.events' \
    '#animations.0.extras.plumbob.morphTracks' '#animations.0.extras.plumbob.slots'
# with the mesh the morph track plays its "bulge" target: only the events are left for extras
expect carry-demo-mesh-warning 0 "warning: 2 events are in the animation's extras, not animated \(glTF has no events or IK slots\)$" \
    "$bin" clip export "$clip" --rig "$cy_gmdc" -o "$tmp/cy-mesh.glb"
expect carry-demo-mesh-no-morph-warning 0 '^written, no morph track warning$' bash -c 'out=$("$0" clip export "$1" --rig "$2" -o "$3" 2>&1) || exit 1
    printf "%s\n" "$out" | grep -q "^wrote .*cy-mesh.glb" || exit 1
    printf "%s\n" "$out" | grep -q "morph track" && exit 1; echo "written, no morph track warning"' "$bin" "$clip" "$cy_gmdc" "$tmp/cy-mesh.glb"
expect carry-demo-mesh-checks 0 'ok: valid glTF 2.0 \(GLB' "$bin" check "$tmp/cy-mesh.glb"
expect carry-demo-mesh-end 0 '^4 channels end at 2.0333; duration 2.0333: same$' cy end "$tmp/cy-mesh.glb" "$tmp/cy-demo.json"
expect carry-demo-mesh-extras 0 '^extras: 2 events \(clip dump: 2, same\), 0 morph tracks, 0 slots' cy extras "$tmp/cy-mesh.glb" "$tmp/cy-demo.json"
# the Sims 2 ANIM path samples to its duration already (1000 ms: 0, 1/30, ... 1)
expect carry-anim-export 0 'wrote .*cy-anim.glb' "$bin" anim export "$tmp"/cy/body.package@00F0E1D2C3B4A5A2 -o "$tmp/cy-anim.glb"
"$bin" anim dump "$tmp"/cy/body.package@00F0E1D2C3B4A5A2 --json | python3 -c 'import json, sys; print(json.dumps({"duration": json.load(sys.stdin)["duration_ms"] / 1000}))' > "$tmp/cy-anim.json"
# its morph channel "fat" plays only on the mesh: said without it, silent with it
expect carry-anim-unplayed 0 "anim export: .*@FB00791E:1C0532FA:00F0E1D2C3B4A5A2: warning: 1 channel of the animation plays nothing in the file \(no bone of that name, IK, a second one for a bone, or a morph with no mesh target of its name\): fat$" \
    "$bin" anim export "$tmp"/cy/body.package@00F0E1D2C3B4A5A2 -o "$tmp/cy-anim.glb"
expect carry-anim-mesh-silent 0 '^written, no warning$' bash -c 'out=$("$0" anim export "$1@00F0E1D2C3B4A5A2" --mesh "$1@00F0E1D2C3B4A5A1" -o "$2" 2>&1) || exit 1
    printf "%s\n" "$out" | grep -q "^wrote .*cy-anim-mesh.glb" || exit 1
    printf "%s\n" "$out" | grep -q warning && exit 1; echo "written, no warning"' "$bin" "$tmp/cy/body.package" "$tmp/cy-anim-mesh.glb"
expect carry-anim-end 0 '^3 channels end at 1.0000; duration 1.0000: same$' cy end "$tmp/cy-anim.glb" "$tmp/cy-anim.json"

# --- OBJ UVs: the demo body has a UV set, the cylinder none -------------------------
"$bin" gmdc export "$cy_body" -o "$tmp/cy-body.gltf" >/dev/null
expect carry-obj-uv-export 0 'wrote .*cy-body.obj' "$bin" gmdc export "$cy_body" -o "$tmp/cy-body.obj"
expect carry-obj-uv-vertices 0 '1 groups, 1400 vertices' "$bin" info "$cy_body"
expect carry-obj-uv 0 '^1400 vt, 1400 TEXCOORD_0; vt 1 = [-0-9.]+ [-0-9.]+ = TEXCOORD_0\[0\] .* with v flipped; all within 1e-6; face 1 ([0-9]+)/\1/\1$' \
    cy uv "$tmp/cy-body.gltf" "$tmp/cy-body.obj"
expect carry-obj-no-uv 0 '^0$' sh -c "\"$bin\" gmdc export \"$cy_gmdc\" -o \"$tmp/cy-cyl.obj\" >/dev/null && grep -c '^vt ' \"$tmp/cy-cyl.obj\"; true"
expect carry-obj-no-uv-faces 0 '^f 1//1 2//2 13//13$' sh -c "grep -m1 '^f ' \"$tmp/cy-cyl.obj\""

# --- corpus clips: 1.433 s with keys to 1.400 s; 16 events and 17 IK slots -----------
if [ -d "$corpus" ]; then
    stop="$corpus/sims3/EWBreastfeed.package@7B3E677B55DC6E2A" birth="$corpus/sims3/EWBreastfeed.package@096265A2AD5D5C9A"
    "$bin" clip dump "$stop" --json > "$tmp/cy-stop.json"
    "$bin" clip dump "$birth" --json > "$tmp/cy-birth.json"
    expect carry-corpus-info 0 'a2o_bassinet_feed_stop_x, 1.433 s, 282 tracks, 1 events' "$bin" info "$stop"
    expect carry-corpus-warning 0 "warning: 1 event and 14 IK slots are in the animation's extras, not animated \(glTF has no events or IK slots\)" \
        "$bin" clip export "$stop" -o "$tmp/cy-stop.glb"
    expect carry-corpus-checks 0 'ok: valid glTF 2.0 \(GLB' "$bin" check "$tmp/cy-stop.glb"
    expect carry-corpus-end 0 '^282 channels end at 1.4333; duration 1.4333: same$' cy end "$tmp/cy-stop.glb" "$tmp/cy-stop.json"
    expect carry-corpus-extras 0 '^extras: 1 events \(clip dump: 1, same\), 0 morph tracks, 14 slots \(clip dump: 14\)$' \
        cy extras "$tmp/cy-stop.glb" "$tmp/cy-stop.json"
    expect carry-corpus-birth-warning 0 "warning: 16 events and 17 IK slots are in the animation's extras" \
        "$bin" clip export "$birth" --rig "$corpus/sims3/EWWheatAndFlour.package@023ECBDB12A4B889" -o "$tmp/cy-birth.gltf"
    expect carry-corpus-birth-unmatched 0 '143 animated bones are not in the rig: root nodes, 85 named from the name dictionary, 58 named 0xHASH \(b__ROOT_bind__, b__Pelvis__, b__R_Thigh__, ...\)' \
        "$bin" clip export "$birth" --rig "$corpus/sims3/EWWheatAndFlour.package@023ECBDB12A4B889" -o "$tmp/cy-birth.gltf"
    expect carry-corpus-birth-checks 0 'ok: valid glTF 2.0 \(JSON' "$bin" check "$tmp/cy-birth.gltf"
    expect carry-corpus-birth-end 0 '^288 channels end at 11.6333; duration 11.6333: same$' cy end "$tmp/cy-birth.gltf" "$tmp/cy-birth.json"
    expect carry-corpus-birth-extras 0 '^extras: 16 events \(clip dump: 16, same\), 0 morph tracks, 17 slots \(clip dump: 17\)$' \
        cy extras "$tmp/cy-birth.gltf" "$tmp/cy-birth.json"
    "$bin" gmdc export "$corpus/sims2/teapot_model.package@3AFDFD2CFF515126" -o "$tmp/cy-teapot.glb" >/dev/null
    "$bin" gmdc export "$corpus/sims2/teapot_model.package@3AFDFD2CFF515126" -o "$tmp/cy-teapot.obj" >/dev/null
    expect carry-corpus-obj-uv 0 '^13248 vt, 13248 TEXCOORD_0; vt 1 = -0.109561 1.717610 = TEXCOORD_0\[0\] -0.109561 -0.717610 with v flipped; all within 1e-6; face 1 1/1/1$' \
        cy uv "$tmp/cy-teapot.glb" "$tmp/cy-teapot.obj"
fi

# --- the Khronos validator on these exports, when tests/gltf-validator.sh installed it
cy_npm="$(dirname "$bin")/npm/node_modules"
if command -v node >/dev/null 2>&1 && NODE_PATH=$cy_npm node -e "require('gltf-validator')" 2>/dev/null; then
    for f in "$tmp"/cy-*.gltf "$tmp"/cy-*.glb; do
        expect "carry-khronos-$(basename "$f")" 0 ' 0 errors' env NODE_PATH="$cy_npm" node "$(dirname "$0")/gltf-validate.js" "$f"
    done
fi
