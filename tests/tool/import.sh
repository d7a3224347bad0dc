# clip import: glTF in, CLIP out.  Our own exports come back within the
# quantization step with their length; glTFs written the way other programs
# write them (STEP and CUBICSPLINE samplers, sparse accessors, an external
# .bin, unnamed nodes, scale channels, several animations) import with what
# cannot be carried named; bad input is refused.  Sourced by tool-tests.sh.
mkdir -p "$tmp/im"
# the worst difference between two clips, sampled at 21 times: "rot DEG trans M morph W"
im_compare() { # plumbob clip-a clip-b seconds
    python3 - "$@" <<'PY'
import json, math, subprocess, sys
P, a, b, dur = sys.argv[1], sys.argv[2], sys.argv[3], float(sys.argv[4])
worst = {"rotation": 0.0, "translation": 0.0, "morph": 0.0}
for i in range(21):
    t = dur * i / 20
    A, B = [json.loads(subprocess.check_output([P, "clip", "sample", f, "--time", "%.6f" % t, "--json"])) for f in (a, b)]
    first = {}
    for tr in B["tracks"]:
        first.setdefault((tr["hash"], tr["target"]), tr["value"])
    seen = set()
    for tr in A["tracks"]:
        k = (tr["hash"], tr["target"])
        if k in seen or tr["target"] not in worst:
            continue
        seen.add(k)
        v, w = tr["value"], first[k]
        if tr["target"] == "rotation":
            sg = 1 if sum(x * y for x, y in zip(v, w)) >= 0 else -1
            e = 4 * math.degrees(math.asin(min(1, math.sqrt(sum((x - sg * y) ** 2 for x, y in zip(v, w))) / 2)))
        else:
            e = math.sqrt(sum((x - y) ** 2 for x, y in zip(v, w)))
        worst[tr["target"]] = max(worst[tr["target"]], e)
print("rot %.4f trans %.6f morph %.6f" % (worst["rotation"], worst["translation"], worst["morph"]))
PY
}
im_within() { # "rot R trans T morph M" and the three bounds: ok or what is over
    awk -v r="$5" -v t="$6" -v m="$7" '{ if ($2 <= r && $4 <= t && $6 <= m) print "within"; else print "over: " $0 }' <<<"$(im_compare "$1" "$2" "$3" "$4")"
}
"$bin" clip export "$clip" -o "$tmp/im/demo.glb" >/dev/null 2>&1
expect import-demo 0 '^wrote .*demo.clip \([0-9]+ bytes\): 4 tracks, 2 events, 61 ticks \(2.033 s\)' "$bin" clip import "$tmp/im/demo.glb" -o "$tmp/im/demo.clip"
expect import-demo-report 0 'b__Spine0__ +rotation +[0-9]+ of +61 keys, worst' "$bin" clip import "$tmp/im/demo.glb" -o "$tmp/im/demo.clip" --verbose
# a clip's events as clip dump --json prints them, less the names a package's dictionary adds (slot_name, bone_name)
im_events() { "$1" clip dump "$2" --json | python3 -c 'import json, sys; print(json.dumps([{k: v for k, v in e.items() if not k.endswith("_name")} for e in json.load(sys.stdin)["events"]]))'; }
export -f im_events
expect import-demo-events 0 '4 tracks, 2 events' "$bin" clip import "$tmp/im/demo.glb" -o "$tmp/im/demo.clip"
expect import-demo-events-same 0 '' bash -c '[ "$(im_events "$0" "$1")" = "$(im_events "$0" "$2")" ] && [ -n "$(im_events "$0" "$1" | grep bend_creak)" ]' \
    "$bin" "$clip" "$tmp/im/demo.clip"
expect import-demo-check 0 'round trip identical' "$bin" check "$tmp/im/demo.clip"
expect import-demo-values 0 '^within$' im_within "$bin" "$clip" "$tmp/im/demo.clip" 2.0333 0.05 0.0005 0.001
expect import-demo-morph 0 '0x84B0668E .*morph' "$bin" clip dump "$tmp/im/demo.clip"
# keys dropped within the bound asked for, as a double-precision reference (im_compare) measures
# it: a rotation about X accelerating to 90 degrees over 1 s (31 LINEAR keys), imported keeping
# every key and within 2 degrees; the two clips differ by at most 2 degrees
python3 - "$tmp/im" <<'PY'
import base64, json, math, struct, sys
n = 31
times = [i / 30 for i in range(n)]
vals = []
for t in times:
    vals += [math.sin(math.radians(90 * t * t) / 2), 0, 0, math.cos(math.radians(90 * t * t) / 2)]
blob = struct.pack("<%df" % n, *times) + struct.pack("<%df" % (4 * n), *vals)
d = {"asset": {"version": "2.0"}, "scenes": [{"nodes": [0]}], "nodes": [{"name": "b"}],
     "animations": [{"samplers": [{"input": 0, "output": 1, "interpolation": "LINEAR"}],
                     "channels": [{"sampler": 0, "target": {"node": 0, "path": "rotation"}}]}],
     "accessors": [{"bufferView": 0, "componentType": 5126, "count": n, "type": "SCALAR", "min": [0], "max": [1.0]},
                   {"bufferView": 1, "componentType": 5126, "count": n, "type": "VEC4"}],
     "bufferViews": [{"buffer": 0, "byteOffset": 0, "byteLength": 4 * n}, {"buffer": 0, "byteOffset": 4 * n, "byteLength": 16 * n}],
     "buffers": [{"byteLength": len(blob), "uri": "data:application/octet-stream;base64," + base64.b64encode(blob).decode()}]}
open(sys.argv[1] + "/accel.gltf", "w").write(json.dumps(d))
PY
"$bin" clip import "$tmp/im/accel.gltf" -o "$tmp/im/accel-all.clip" --max-error-rotation 0.001 >/dev/null 2>&1
expect import-bound-rotation 0 'rotation +[0-9]+ of +31 keys' "$bin" clip import "$tmp/im/accel.gltf" -o "$tmp/im/accel-2deg.clip" --max-error-rotation 2 --verbose
expect import-bound-rotation-held 0 '^within$' im_within "$bin" "$tmp/im/accel-all.clip" "$tmp/im/accel-2deg.clip" 1.0333 2.0 0.0001 0.001
# glTFs as other programs write them
python3 - "$tmp/im" <<'PY'
import base64, json, struct, sys
d = sys.argv[1]
def f32(xs): return struct.pack("<%df" % len(xs), *xs)
blob = b""
views, accs = [], []
def acc(data, n, typ, minmax=None, sparse=None):
    global blob
    off = len(blob); blob += data
    views.append({"buffer": 0, "byteOffset": off, "byteLength": len(data)})
    a = {"bufferView": len(views) - 1, "componentType": 5126, "count": n, "type": typ}
    if minmax: a["min"], a["max"] = minmax
    accs.append(a)
    return len(accs) - 1
t3 = acc(f32([0, 0.5, 1.0]), 3, "SCALAR", ([0], [1.0]))
# STEP translation: 0, 0.2, 0.4 in y
tr = acc(f32([0, 0, 0, 0, 0.2, 0, 0, 0.4, 0]), 3, "VEC3")
# CUBICSPLINE rotation about X to 90 degrees, zero tangents: in, value, out per key
s, c = 0.70710678, 0.70710678
cub = acc(f32([0, 0, 0, 0,  0, 0, 0, 1,  0, 0, 0, 0,
               0, 0, 0, 0,  0.38268343, 0, 0, 0.92387953,  0, 0, 0, 0,
               0, 0, 0, 0,  s, 0, 0, c,  0, 0, 0, 0]), 9, "VEC4")
# a sparse translation: zeros, key 2 replaced by (1, 0, 0)
idx_off = len(blob); blob += struct.pack("<HH", 2, 0)
views.append({"buffer": 0, "byteOffset": idx_off, "byteLength": 4}); iv = len(views) - 1
val_off = len(blob); blob += f32([1, 0, 0])
views.append({"buffer": 0, "byteOffset": val_off, "byteLength": 12}); vv = len(views) - 1
accs.append({"componentType": 5126, "count": 3, "type": "VEC3",
             "sparse": {"count": 1, "indices": {"bufferView": iv, "componentType": 5123}, "values": {"bufferView": vv}}})
sp = len(accs) - 1
sc = acc(f32([1, 1, 1, 2, 2, 2, 1, 1, 1]), 3, "VEC3")
nodes = [{"name": "b__ROOT__"}, {"name": "b__Spine0__"}, {}, {"name": "b__Head__"}]
anims = [{"name": "first", "samplers": [{"input": t3, "output": tr}], "channels": [{"sampler": 0, "target": {"node": 0, "path": "translation"}}]},
         {"name": "walk_x", "samplers": [{"input": t3, "output": tr, "interpolation": "STEP"},
                                          {"input": t3, "output": cub, "interpolation": "CUBICSPLINE"},
                                          {"input": t3, "output": cub, "interpolation": "CUBICSPLINE"},
                                          {"input": t3, "output": sc}, {"input": t3, "output": sp}],
          "channels": [{"sampler": 0, "target": {"node": 0, "path": "translation"}},
                       {"sampler": 1, "target": {"node": 1, "path": "rotation"}},
                       {"sampler": 2, "target": {"node": 2, "path": "rotation"}},
                       {"sampler": 3, "target": {"node": 1, "path": "scale"}},
                       {"sampler": 4, "target": {"node": 3, "path": "translation"}}]}]
doc = {"asset": {"version": "2.0", "generator": "a test"}, "nodes": nodes, "scenes": [{"nodes": [0, 1, 2, 3]}],
       "accessors": accs, "bufferViews": views, "animations": anims,
       "buffers": [{"byteLength": len(blob), "uri": "data:application/octet-stream;base64," + base64.b64encode(blob).decode()}]}
open(d + "/other.gltf", "w").write(json.dumps(doc))
doc["buffers"] = [{"byteLength": len(blob), "uri": "other.bin"}]
open(d + "/external.gltf", "w").write(json.dumps(doc))
open(d + "/other.bin", "wb").write(blob)
doc["buffers"] = [{"byteLength": len(blob), "uri": "other%20copy.bin"}]  # RFC 3986 escapes, as glTF URIs have them
open(d + "/spaced.gltf", "w").write(json.dumps(doc))
open(d + "/other copy.bin", "wb").write(blob)
doc["buffers"] = [{"byteLength": len(blob), "uri": "other%2.bin"}]
open(d + "/badescape.gltf", "w").write(json.dumps(doc))
open(d + "/still.gltf", "w").write(json.dumps({"asset": {"version": "2.0"}, "nodes": [{"name": "a"}]}))
PY
expect import-by-name 0 'wrote .*walk.clip .*: 3 tracks, 0 events, 31 ticks \(1.033 s\)' \
    "$bin" clip import "$tmp/im/other.gltf" --animation walk_x -o "$tmp/im/walk.clip"
expect import-skipped-said 0 'warning: 2 channels not carried .*: scale, nodes\[2\] \(no name\)' \
    "$bin" clip import "$tmp/im/other.gltf" --animation 1 -o "$tmp/im/walk.clip"
# STEP holds: 0.2 from 0.5 s until 1.0 s; the cubic with zero tangents eases to 45 degrees at 0.5 s
expect import-step 0 '"b__ROOT__", "target": "translation", "value": \[0, 0.2[0-9]*, 0\]' \
    "$bin" clip sample "$tmp/im/walk.clip" --time 0.9 --json
expect import-cubic 0 '"b__Spine0__", "target": "rotation", "value": \[0.3826[0-9]*, 0, 0, 0.923[0-9]*\]' \
    "$bin" clip sample "$tmp/im/walk.clip" --time 0.5 --json
expect import-sparse 0 '"b__Head__", "target": "translation", "value": \[(1|0.99999[0-9]*), 0, 0\]' \
    "$bin" clip sample "$tmp/im/walk.clip" --time 1.0 --json
expect import-external-bin 0 'wrote .*ext.clip .*: 3 tracks' "$bin" clip import "$tmp/im/external.gltf" --animation walk_x -o "$tmp/im/ext.clip"
python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); d["extensionsRequired"]=["KHR_draco_mesh_compression"]; d["extensionsUsed"]=d["extensionsRequired"]; json.dump(d, open(sys.argv[2], "w"))' \
    "$tmp/im/other.gltf" "$tmp/im/draco.gltf"
expect import-draco-refused 1 'requires KHR_draco_mesh_compression, which plumbob cannot decode' "$bin" clip import "$tmp/im/draco.gltf" -o "$tmp/im/x.clip"
expect import-escaped-uri 0 'wrote .*spaced.clip .*: 3 tracks' "$bin" clip import "$tmp/im/spaced.gltf" --animation walk_x -o "$tmp/im/spaced.clip"
expect import-bad-escape 1 "uri 'other%2.bin' is not a plain file name" "$bin" clip import "$tmp/im/badescape.gltf" --animation walk_x -o "$tmp/im/x.clip"
expect import-external-same 0 '^same at 0.3 and 0.7$' bash -c 'for t in 0.3 0.7; do a=$("$0" clip sample "$1" --time $t) && b=$("$0" clip sample "$2" --time $t) || exit 1
    [ "$(printf "%s\n" "$a" | grep -c " b__")" = 3 ] || exit 1; [ "$(printf "%s\n" "$a" | tail -n +2)" = "$(printf "%s\n" "$b" | tail -n +2)" ] || exit 1; done
    echo "same at 0.3 and 0.7"' "$bin" "$tmp/im/walk.clip" "$tmp/im/ext.clip"
expect import-name 0 'clip +renamed_x' bash -c '"$0" clip import "$1" --name renamed_x -o "$2" >/dev/null 2>&1 && "$0" clip dump "$2"' \
    "$bin" "$tmp/im/other.gltf" "$tmp/im/renamed.clip"
expect import-fps 0 '61 ticks \(1.017 s\)' "$bin" clip import "$tmp/im/other.gltf" --animation walk_x --fps 60 -o "$tmp/im/fps.clip"
# --package: keyed by the clip's name as the game finds clips, named in the KEY table; made, then updated
expect import-package-new 0 'added 6B20C4F3:00000000:4D629E6A35B14FC3 as a2o_test_walk_x in .*im.package \(2 resources\)' \
    "$bin" clip import "$tmp/im/demo.glb" --package "$tmp/im.package" --name a2o_test_walk_x
expect import-package-listed 0 '6B20C4F3 CLIP +00000000 4D629E6A35B14FC3 .* a2o_test_walk_x$' "$bin" ls "$tmp/im.package"
expect import-package-again 0 'replaced 6B20C4F3:00000000:4D629E6A35B14FC3 .*\(2 resources\)' \
    "$bin" clip import "$tmp/im/demo.glb" --package "$tmp/im.package" --name a2o_test_walk_x
expect import-package-sims2 1 'is a Sims 2 package' "$bin" clip import "$tmp/im/demo.glb" --package "$tmp/bt/body.package"
# CUBICSPLINE morph weights of two targets, as Blender writes shape keys: a key holds every
# in-tangent, then every value, then every out-tangent (a1 a2 v1 v2 b1 b2)
python3 - "$tmp/im" <<'PY'
import base64, json, struct, sys
f32 = lambda v: struct.pack("<%df" % len(v), *v)
# times 0 and 1; key 0: smile 0, blink 1; key 1: smile 1, blink 0; zero tangents
parts = [f32([0, 1]), f32([0, 0, 0, 1, 0, 0,  0, 0, 1, 0, 0, 0]),
         f32([0, 0, 0, 1, 0, 0, 0, 1, 0]), f32([0, 0, 0.1] * 3), f32([0, 0, 0.2] * 3)]
blob, views = b"", []
for p in parts:
    views.append({"buffer": 0, "byteOffset": len(blob), "byteLength": len(p)}); blob += p
accs = [{"bufferView": 0, "componentType": 5126, "count": 2, "type": "SCALAR", "min": [0], "max": [1]},
        {"bufferView": 1, "componentType": 5126, "count": 12, "type": "SCALAR"},
        {"bufferView": 2, "componentType": 5126, "count": 3, "type": "VEC3", "min": [0, 0, 0], "max": [1, 1, 0]},
        {"bufferView": 3, "componentType": 5126, "count": 3, "type": "VEC3"},
        {"bufferView": 4, "componentType": 5126, "count": 3, "type": "VEC3"}]
mesh = {"name": "face", "primitives": [{"attributes": {"POSITION": 2}, "targets": [{"POSITION": 3}, {"POSITION": 4}]}],
        "extras": {"targetNames": ["smile", "blink"]}}
doc = {"asset": {"version": "2.0"}, "nodes": [{"name": "face", "mesh": 0}], "scenes": [{"nodes": [0]}], "meshes": [mesh],
       "animations": [{"name": "faces", "samplers": [{"input": 0, "output": 1, "interpolation": "CUBICSPLINE"}],
                       "channels": [{"sampler": 0, "target": {"node": 0, "path": "weights"}}]}],
       "accessors": accs, "bufferViews": views,
       "buffers": [{"byteLength": len(blob), "uri": "data:application/octet-stream;base64," + base64.b64encode(blob).decode()}]}
open(sys.argv[1] + "/cubicw.gltf", "w").write(json.dumps(doc))
PY
expect import-cubic-weights 0 'wrote .*cubicw.clip .*: 2 tracks' "$bin" clip import "$tmp/im/cubicw.gltf" -o "$tmp/im/cubicw.clip"
# zero tangents ease from (0, 1) to (1, 0): at a quarter 3/16 - 2/64 = 0.156 (0.157 between the ticks)
expect import-cubic-weights-values 0 '^0.15[67] 0.84[34]$' sh -c "\"$bin\" clip sample \"$tmp/im/cubicw.clip\" --time 0.25 --json |
    python3 -c 'import json,sys; d=json.load(sys.stdin); print(\" \".join(\"%.3f\" % t[\"value\"][0] for t in d[\"tracks\"]))'"
# CUBICSPLINE with unequal, non-zero tangents (key 0's in-tangent and key 1's out-tangent, which
# glTF's Hermite never uses, set far off): p(u) = h00 v0 + h10 b0 + h01 v1 + h11 a1 over 1 s,
# with v0 (0, 0, 1), out b0 (3, 0, -2), v1 (1, 0, 1), in a1 (-1, 4, 0); worked by hand:
# u = 0.2: h = 0.896, 0.128, 0.104, -0.032 -> (0.52, -0.128, 0.744);
# u = 0.5: h = 0.5, 0.125, 0.5, -0.125 -> (1, -0.5, 0.75)
python3 - "$tmp/im" <<'PY'
import base64, json, struct, sys
f32 = lambda v: struct.pack("<%df" % len(v), *v)
parts = [f32([0, 1]), f32([10, 10, 10,  0, 0, 1,  3, 0, -2,     # key 0: in (unused), value, out
                           -1, 4, 0,    1, 0, 1,  20, 20, 20])]  # key 1: in, value, out (unused)
blob, views = b"", []
for p in parts:
    views.append({"buffer": 0, "byteOffset": len(blob), "byteLength": len(p)}); blob += p
accs = [{"bufferView": 0, "componentType": 5126, "count": 2, "type": "SCALAR", "min": [0], "max": [1]},
        {"bufferView": 1, "componentType": 5126, "count": 6, "type": "VEC3"}]
doc = {"asset": {"version": "2.0"}, "nodes": [{"name": "b__ROOT__"}], "scenes": [{"nodes": [0]}],
       "animations": [{"name": "hermite", "samplers": [{"input": 0, "output": 1, "interpolation": "CUBICSPLINE"}],
                       "channels": [{"sampler": 0, "target": {"node": 0, "path": "translation"}}]}],
       "accessors": accs, "bufferViews": views,
       "buffers": [{"byteLength": len(blob), "uri": "data:application/octet-stream;base64," + base64.b64encode(blob).decode()}]}
open(sys.argv[1] + "/hermite.gltf", "w").write(json.dumps(doc))
PY
expect import-cubic-tangents 0 'wrote .*hermite.clip .*: 1 tracks' "$bin" clip import "$tmp/im/hermite.gltf" -o "$tmp/im/hermite.clip"
im_near() { # plumbob clip seconds x y z: "near" when the first track's value is within 0.005 of (x, y, z)
    "$1" clip sample "$2" --time "$3" --json | python3 -c 'import json, sys
v = json.load(sys.stdin)["tracks"][0]["value"]; w = [float(a) for a in sys.argv[1:4]]
print("near" if len(v) == 3 and max(abs(a - b) for a, b in zip(v, w)) <= 0.005 else "off: %s" % v)' "$4" "$5" "$6"
}
expect import-cubic-tangents-0.2 0 '^near$' im_near "$bin" "$tmp/im/hermite.clip" 0.2 0.52 -0.128 0.744
expect import-cubic-tangents-0.5 0 '^near$' im_near "$bin" "$tmp/im/hermite.clip" 0.5 1 -0.5 0.75
# refusals
expect import-no-animation 1 'still.gltf: the glTF has no animation' "$bin" clip import "$tmp/im/still.gltf" -o "$tmp/im/x.clip"
expect import-unknown-animation 1 "no animation named or numbered 'run' \(it has 2\)" "$bin" clip import "$tmp/im/other.gltf" --animation run -o "$tmp/im/x.clip"
expect import-not-gltf 1 'is a Sims 3 CLIP, not a glTF' "$bin" clip import "$clip" -o "$tmp/im/x.clip"
expect import-bad-fps 2 '--fps needs a number from 1 to 1000' "$bin" clip import "$tmp/im/other.gltf" --fps 0 -o "$tmp/im/x.clip"
expect import-bad-output 2 '^plumbob: clip import: .*/x\.glb: clip import writes \.clip; name the output with one of those$' "$bin" clip import "$tmp/im/other.gltf" -o "$tmp/im/x.glb"
expect import-refused-nothing-written 1 '' test -e "$tmp/im/x.clip"
# the real clips: each export imported back with its length, within the quantization step
if [ -f "$corpus/sims3/EWBreastfeed.package" ]; then
    for inst in 7B3E677B55DC6E2A 3D40CC19DAAFD164 096265A2AD5D5C9A; do
        src="$corpus/sims3/EWBreastfeed.package@$inst"
        len=$("$bin" info "$src" | sed -n 's/.*, \([0-9.]*\) s, .*/\1/p')
        "$bin" clip export "$src" -o "$tmp/im/$inst.glb" >/dev/null 2>&1
        expect "corpus-import-$inst" 0 "tracks, [0-9]+ events, [0-9]+ ticks \($len s\)" "$bin" clip import "$tmp/im/$inst.glb" -o "$tmp/im/$inst.clip"
        expect "corpus-import-check-$inst" 0 'round trip identical' "$bin" check "$tmp/im/$inst.clip"
        expect "corpus-import-events-$inst" 0 '' bash -c '[ "$(im_events "$0" "$1")" = "$(im_events "$0" "$2")" ]' "$bin" "$src" "$tmp/im/$inst.clip"
        # between ticks glTF's LINEAR rotations slerp where the game's clips nlerp: a tenth of a degree on long arcs
        [ "$inst" = 7B3E677B55DC6E2A ] && { cp "$corpus/sims3/EWBreastfeed.package" "$tmp/im/ew.package" && chmod u+w "$tmp/im/ew.package"
            expect corpus-import-package-replaces 0 'replaced 6B20C4F3:00000000:7B3E677B55DC6E2A as a2o_bassinet_feed_stop_x .*\(40 resources\)' \
                "$bin" clip import "$tmp/im/$inst.glb" --package "$tmp/im/ew.package"; }
        expect "corpus-import-values-$inst" 0 '^within$' im_within "$bin" "$src" "$tmp/im/$inst.clip" "$len" 0.15 0.0005 0.001
    done
fi

# gmdc import: glTF meshes back into a Sims 2 GMDC
im_skin_diff() { # plumbob a.json b.json: the largest coordinate difference of their skinned positions, then normals
    python3 - "$1" "$2" <<'PY'
import json, sys
a, b = [json.load(open(f)) for f in sys.argv[1:3]]
pa = [p for g in a["groups"] for p in g["positions"]]
pb = [p for g in b["groups"] for p in g["positions"]]
print("vertices %d %d diff %.2g" % (len(pa), len(pb), max((abs(x - y) for p, q in zip(pa, pb) for x, y in zip(p, q)), default=0)))
na = [n for g in a["groups"] for n in g.get("normals", [])]
nb = [n for g in b["groups"] for n in g.get("normals", [])]
print("normals %d %d diff %.2g" % (len(na), len(nb), max((abs(x - y) for p, q in zip(na, nb) for x, y in zip(p, q)), default=0)))
PY
}
im_body="$tmp/bt/body.package"
[ -f "$im_body" ] || { mkdir -p "$tmp/bt"; "$bin" demo --write "$tmp/bt" >/dev/null; }
"$bin" gmdc export "$im_body@AC4F8687:1C0532FA:00F0E1D2C3B4A5A1" -o "$tmp/im/body.glb" >/dev/null
expect gmdc-import 0 '^wrote .*body.gmdc \([0-9]+ bytes\): 1 groups, 260 vertices, 130 triangles, 65 joints, 2 morphs' \
    "$bin" gmdc import "$tmp/im/body.glb" -o "$tmp/im/body.gmdc"
expect gmdc-import-check 0 'round trip identical' "$bin" check "$tmp/im/body.gmdc"
# the bounding mesh of a skinned mesh: per-joint subsets in bone space (the GMDC page's
# "Subset"); posed at the bind pose they land on the mesh's own vertices
expect gmdc-import-subsets 0 'bounding mesh: 0 vertices, 0 triangles; subsets: 65 of 65 with vertices, 260 vertices, 130 triangles' \
    "$bin" gmdc dump "$tmp/im/body.gmdc"
im_bounding() { # skin.json: how far the posed bounding vertices are from the nearest mesh vertex
    python3 - "$1" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
mesh = [p for g in d["groups"] for p in g["positions"]]
far = max(min(max(abs(x - y) for x, y in zip(b, p)) for p in mesh) for b in d["bounding"])
print("bounding %d vertices, %.2g from the mesh" % (len(d["bounding"]), far))
PY
}
"$bin" gmdc skin "$tmp/im/body.gmdc" --json > "$tmp/im/bind.json"
expect gmdc-import-subsets-bind 0 '^bounding 260 vertices, ([0-9](\.[0-9]+)?e-0[6-9]|0) from the mesh$' im_bounding "$tmp/im/bind.json"
expect gmdc-import-name 0 'GMDC demo_skel_tslocator_gmdc, version 4' "$bin" info "$tmp/im/body.gmdc"
expect gmdc-import-morphs 0 '"morphs": \[\["", ""\], \["demo_skel_tslocator_gmdc", "fat"\], \["demo_skel_tslocator_gmdc", "thin"\]' "$bin" gmdc dump "$tmp/im/body.gmdc" --json
# skinned and morphed by the demo ANIM on the demo CRES: the same positions as the original mesh
im_pose=(--cres "$im_body@E519C933:1C0532FA:00F0E1D2C3B4A5A0" --anim "$im_body@FB00791E:1C0532FA:00F0E1D2C3B4A5A2" --time 0.5 --json)
"$bin" gmdc skin "$im_body@AC4F8687:1C0532FA:00F0E1D2C3B4A5A1" "${im_pose[@]}" > "$tmp/im/skin-a.json" 2>/dev/null
"$bin" gmdc skin "$tmp/im/body.gmdc" "${im_pose[@]}" > "$tmp/im/skin-b.json" 2>/dev/null
expect gmdc-import-skinned 0 '^vertices 260 260 diff ([0-9](\.[0-9]+)?e-0[6-9]|0)$' im_skin_diff "$tmp/im/skin-a.json" "$tmp/im/skin-b.json"
expect gmdc-import-skinned-normals 0 '^normals 260 260 diff ([0-9](\.[0-9]+)?e-0[6-9]|0)$' im_skin_diff "$tmp/im/skin-a.json" "$tmp/im/skin-b.json"
# morph normals (the 1,400-vertex body's fatbot and pregbot move normals too): exported and
# imported back, the mesh morphs to the same positions and normals
im_big=$(ls "$tmp"/bt/body/AC4F8687_*.gmdc | head -1)
"$bin" gmdc export "$im_big" -o "$tmp/im/big.glb" >/dev/null 2>&1
# a target that moves few vertices is a sparse delta set: an item per moved vertex (94 of 1,400)
expect gmdc-import-morph-sparse 0 'morph_vertex_deltas  format 2 set 0 group 1 count 1400, sparse: 94 items' \
    sh -c '"$1" gmdc import "$2" -o "$3" >/dev/null && "$1" gmdc dump "$3"' _ "$bin" "$tmp/im/big.glb" "$tmp/im/big.gmdc"
expect gmdc-import-morph-sparse-check 0 'round trip identical' "$bin" check "$tmp/im/big.gmdc"
expect gmdc-import-morph-normals 0 'morph_normal_deltas  format 2 set 0 group 1 count 1400, sparse: 94 items' \
    sh -c '"$1" gmdc import "$2" -o "$3" >/dev/null && "$1" gmdc dump "$3"' _ "$bin" "$tmp/im/big.glb" "$tmp/im/big.gmdc"
"$bin" gmdc skin "$im_big" --morph fatbot=1 --morph pregbot=0.7 --json > "$tmp/im/big-a.json" 2>/dev/null
"$bin" gmdc skin "$tmp/im/big.gmdc" --morph fatbot=1 --morph pregbot=0.7 --json > "$tmp/im/big-b.json" 2>/dev/null
expect gmdc-import-morph-normals-skinned 0 '^normals 1400 1400 diff ([0-9](\.[0-9]+)?e-0[6-9]|0)$' im_skin_diff "$tmp/im/big-a.json" "$tmp/im/big-b.json"
# --write-cres: the skin's skeleton as a CRES; the demo body's own CRES comes back bone for bone
# (less its shape node, which no joint descends from), and mesh + CRES skin as the originals do
im_bones() { # plumbob a.cres b.cres: bones of b found in a with the same parent and joint, worst rest difference
    "$1" cres dump "$2" --json > "$tmp/im/bones-a.json" && "$1" cres dump "$3" --json > "$tmp/im/bones-b.json" &&
    python3 - "$tmp/im/bones-a.json" "$tmp/im/bones-b.json" <<'PY'
import json, sys
def bones(f):
    bs = json.load(open(f))["bones"]
    return {b["name"]: (bs[b["parent"]]["name"] if b["parent"] >= 0 else None, b["joint"], b["translation"] + b["rotation"]) for b in bs}
a, b = bones(sys.argv[1]), bones(sys.argv[2])
same = [n for n in b if n in a and a[n][:2] == b[n][:2]]
worst = max(abs(x - y) for n in same for x, y in zip(a[n][2], b[n][2]))
print("bones %d of %d the same, worst rest difference %.2g, missing %s" % (len(same), len(b), worst, sorted(set(a) - set(b))))
PY
}
expect gmdc-import-cres 0 '^wrote .*body-s.cres \([0-9]+ bytes\): skeleton demo_skel_cres, 66 bones, 65 of them joints' \
    "$bin" gmdc import "$tmp/im/body.glb" -o "$tmp/im/body-s.gmdc" --write-cres "$tmp/im/body-s.cres"
expect gmdc-import-cres-check 0 'round trip identical' "$bin" check "$tmp/im/body-s.cres"
expect gmdc-import-cres-info 0 'Sims 2 CRES demo_skel_cres, 132 blocks, 0 links, skin type 2, skeleton of 66 bones \(65 joints\)' "$bin" info "$tmp/im/body-s.cres"
expect gmdc-import-cres-bones 0 "^bones 66 of 66 the same, worst rest difference ([0-9](\.[0-9]+)?e-0[6-9]|0), missing \['demo_body'\]$" \
    im_bones "$bin" "$im_body@E519C933:1C0532FA:00F0E1D2C3B4A5A0" "$tmp/im/body-s.cres"
"$bin" gmdc skin "$tmp/im/body-s.gmdc" --cres "$tmp/im/body-s.cres" "${im_pose[@]:2}" > "$tmp/im/skin-c.json" 2>/dev/null
expect gmdc-import-cres-skinned 0 '^vertices 260 260 diff ([0-9](\.[0-9]+)?e-0[6-9]|0)$' im_skin_diff "$tmp/im/skin-a.json" "$tmp/im/skin-c.json"
expect gmdc-import-cres-same-file 2 '--write-cres and -o name the same file' "$bin" gmdc import "$tmp/im/body.glb" -o "$tmp/im/s.gmdc" --write-cres "$tmp/im/s.gmdc"
# --package: the GMDC and its CRES into a Sims 2 package, each under the instance its name gives
# (CRC-32/MPEG-2 and CRC-24 of the name); the mesh then finds its skeleton in its own package
rm -f "$tmp/im/body2.package"
expect gmdc-import-package 0 'added AC4F8687:1C0532FA:4165311EFFCB686E in .*body2.package' \
    "$bin" gmdc import "$tmp/im/body.glb" --package "$tmp/im/body2.package" --write-cres "$tmp/im/body2.cres"
expect gmdc-import-package-cres 0 'E519C933 CRES  1C0532FA C1820B3DFFD69A69 .* demo_skel_cres' "$bin" ls "$tmp/im/body2.package"
expect gmdc-import-package-check 0 '2 round-tripped identical, 0 not supported, 0 failed' "$bin" check "$tmp/im/body2.package"
"$bin" gmdc skin "$tmp/im/body2.package@4165311EFFCB686E" "${im_pose[@]:2}" > "$tmp/im/skin-pk.json" 2>/dev/null
expect gmdc-import-package-skinned 0 '^vertices 260 260 diff ([0-9](\.[0-9]+)?e-0[6-9]|0)$' im_skin_diff "$tmp/im/skin-a.json" "$tmp/im/skin-pk.json"
expect gmdc-import-package-sims3 1 'is a Sims 3 package; this resource belongs in a Sims 2 one' \
    "$bin" gmdc import "$tmp/im/body.glb" --package "$tmp/im.package"
expect gmdc-import-package-no-output 2 'need IN.glb or IN.gltf and -o OUT.gmdc or --package PKG' "$bin" gmdc import "$tmp/im/body.glb"
# --cres: the joints matched by name to the game's skeleton.  Another program may list the skin's
# joints in its own order (Blender lists them by hierarchy): reversed here, with JOINTS_0 and the
# inverse binds carried along.  In skin order the game would bend the mesh by the wrong bones;
# matched, it skins as the original does.
python3 - "$tmp/im/body.glb" "$tmp/im/rev.glb" <<'PY'
import json, struct, sys
# reorder a GLB's skin joints as another program might (reversed), carrying JOINTS_0 and the inverse binds
src, dst = sys.argv[1], sys.argv[2]
b = open(src, "rb").read()
jl = struct.unpack_from("<I", b, 12)[0]
doc = json.loads(b[20:20 + jl])
binoff = 20 + jl + 8
blob = bytearray(b[binoff:binoff + struct.unpack_from("<I", b, 20 + jl)[0]])
skin = doc["skins"][0]
n = len(skin["joints"])
new_of_old = [n - 1 - k for k in range(n)]
skin["joints"] = skin["joints"][::-1]
def acc(i):
    a = doc["accessors"][i]; v = doc["bufferViews"][a["bufferView"]]
    return a, v.get("byteOffset", 0) + a.get("byteOffset", 0), v.get("byteStride")
a, off, _ = acc(skin["inverseBindMatrices"])
rows = [bytes(blob[off + 64 * k: off + 64 * k + 64]) for k in range(n)]
for k in range(n): blob[off + 64 * new_of_old[k]: off + 64 * new_of_old[k] + 64] = rows[k]
for m in doc["meshes"]:
    for p in m["primitives"]:
        if "JOINTS_0" not in p["attributes"]: continue
        a, off, stride = acc(p["attributes"]["JOINTS_0"])
        size = {5121: 1, 5123: 2}[a["componentType"]]; fmt = {1: "<B", 2: "<H"}[size]
        stride = stride or 4 * size
        for v in range(a["count"]):
            for c in range(4):
                o = off + v * stride + c * size
                blob[o:o + size] = struct.pack(fmt, new_of_old[struct.unpack_from(fmt, blob, o)[0]])
js = json.dumps(doc).encode(); js += b" " * (-len(js) % 4)
out = struct.pack("<III", 0x46546C67, 2, 12 + 8 + len(js) + 8 + len(blob)) + struct.pack("<II", len(js), 0x4E4F534A) + js + struct.pack("<II", len(blob), 0x004E4942) + bytes(blob)
open(dst, "wb").write(out)
print("reversed %d joints" % n)
PY
im_cres="$im_body@E519C933:1C0532FA:00F0E1D2C3B4A5A0"
expect gmdc-import-match 0 "^joints: the skin's 65 matched by name to .*E519C933.*, a table of 65$" \
    "$bin" gmdc import "$tmp/im/rev.glb" -o "$tmp/im/rev-match.gmdc" --cres "$im_cres"
expect gmdc-import-match-check 0 'round trip identical' "$bin" check "$tmp/im/rev-match.gmdc"
"$bin" gmdc import "$tmp/im/rev.glb" -o "$tmp/im/rev-plain.gmdc" >/dev/null
"$bin" gmdc skin "$tmp/im/rev-plain.gmdc" "${im_pose[@]}" > "$tmp/im/skin-rp.json" 2>/dev/null
"$bin" gmdc skin "$tmp/im/rev-match.gmdc" "${im_pose[@]}" > "$tmp/im/skin-rm.json" 2>/dev/null
expect gmdc-import-match-needed 0 '^vertices 260 260 diff 0\.[1-9]' im_skin_diff "$tmp/im/skin-a.json" "$tmp/im/skin-rp.json"
expect gmdc-import-match-skinned 0 '^vertices 260 260 diff ([0-9](\.[0-9]+)?e-0[6-9]|0)$' im_skin_diff "$tmp/im/skin-a.json" "$tmp/im/skin-rm.json"
expect gmdc-import-match-not-both 2 'give --cres .* or --write-cres .*, not both' \
    "$bin" gmdc import "$tmp/im/rev.glb" -o "$tmp/im/z.gmdc" --cres "$im_cres" --write-cres "$tmp/im/z.cres"
# glTF as others write it: an unindexed triangle, a POINTS primitive, five morph targets
python3 - "$tmp/im" <<'PY'
import base64, json, struct, sys
pos = [0, 0, 0, 1, 0, 0, 0, 1, 0]
blob = struct.pack("<9f", *pos) + struct.pack("<9f", *([0.0] * 6 + [0, 0.5, 0]))
views = [{"buffer": 0, "byteOffset": 0, "byteLength": 36}, {"buffer": 0, "byteOffset": 36, "byteLength": 36}]
accs = [{"bufferView": 0, "componentType": 5126, "count": 3, "type": "VEC3", "min": [0, 0, 0], "max": [1, 1, 0]},
        {"bufferView": 1, "componentType": 5126, "count": 3, "type": "VEC3"}]
mesh = {"name": "tri", "primitives": [{"attributes": {"POSITION": 0}, "targets": [{"POSITION": 1}] * 5},
                                      {"attributes": {"POSITION": 0}, "mode": 0}],
        "extras": {"targetNames": ["a", "b", "c", "d", "e"]}}
doc = {"asset": {"version": "2.0"}, "nodes": [{"mesh": 0}], "meshes": [mesh], "accessors": accs, "bufferViews": views,
       "buffers": [{"byteLength": len(blob), "uri": "data:application/octet-stream;base64," + base64.b64encode(blob).decode()}]}
open(sys.argv[1] + "/tri.gltf", "w").write(json.dumps(doc))
PY
expect gmdc-import-other 0 'wrote .*tri.gmdc .*: 1 groups, 3 vertices, 1 triangles, 0 joints, 4 morphs' "$bin" gmdc import "$tmp/im/tri.gltf" -o "$tmp/im/tri.gmdc"
expect gmdc-import-points-said 0 'warning: 1 primitive not carried .*meshes\[0\].primitives\[1\] \(not triangles\)' "$bin" gmdc import "$tmp/im/tri.gltf" -o "$tmp/im/tri.gmdc"
expect gmdc-import-targets-said 0 'warning: 1 morph target past the fourth' "$bin" gmdc import "$tmp/im/tri.gltf" -o "$tmp/im/tri.gmdc"
expect gmdc-import-other-check 0 'round trip identical' "$bin" check "$tmp/im/tri.gmdc"
expect gmdc-import-bounding 0 'bounding mesh: 3 vertices, 1 triangles; subsets: 0 of 0' "$bin" gmdc dump "$tmp/im/tri.gmdc"
# an RCOL of two GMDC blocks (the page: "1 (or larger if more than one GMDC)"): the first is
# read, and the tool says so; the second rides along as bytes
python3 - "$tmp/im/tri.gmdc" "$tmp/im/two.gmdc" <<'PY'
import struct, sys
d = open(sys.argv[1], "rb").read()
at = 4 if struct.unpack_from("<I", d, 0)[0] == 0xFFFF0001 else 0
links = struct.unpack_from("<I", d, at)[0]
at += 4 + links * (16 if at else 12)
blocks, first = struct.unpack_from("<II", d, at)
assert blocks == 1
body = d[at + 8:]
open(sys.argv[2], "wb").write(d[:at] + struct.pack("<III", 2, first, first) + body + body)
PY
expect gmdc-two-blocks-said 0 'two.gmdc: warning: the RCOL holds 2 blocks; only the first \(this GMDC\) is read' "$bin" gmdc dump "$tmp/im/two.gmdc"
expect gmdc-two-blocks-kept 0 'round trip identical' "$bin" check "$tmp/im/two.gmdc"
# subsets that are all empty (VCount 0) beside a model mesh: skin --json poses the model mesh
python3 - "$tmp/im/tri.gmdc" "$tmp/im/subs.gmdc" <<'PY'
import struct, sys
d = open(sys.argv[1], "rb").read()
assert d[-4:] == b"\0\0\0\0"  # the subset count, last
open(sys.argv[2], "wb").write(d[:-4] + struct.pack("<III", 2, 0, 0))
PY
expect gmdc-empty-subsets 0 'bounding mesh: 3 vertices, 1 triangles; subsets: 0 of 2' "$bin" gmdc dump "$tmp/im/subs.gmdc"
expect gmdc-empty-subsets-bounding 0 '"bounding": \[\[-?0, -?0, -?0\], \[-?0, -?0, 1\], \[1, -?0, -?0\]\]' "$bin" gmdc skin "$tmp/im/subs.gmdc" --json
# Y-up back to Z-up: the glTF's (0, 1, 0) is the game's (0, 0, 1)
expect gmdc-import-z-up 0 '\[0, -?0, 1\]' "$bin" gmdc skin "$tmp/im/tri.gmdc" --json
# a skinned triangle with eight influences a vertex (JOINTS_1/WEIGHTS_1, as Blender writes them)
python3 - "$tmp/im" <<'PY'
import base64, json, struct, sys
ident = [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1]
parts = [struct.pack("<9f", 0, 0, 0, 1, 0, 0, 0, 1, 0),
         bytes([0, 1, 2, 3, 0, 1, 0, 0, 0, 0, 0, 0]),
         struct.pack("<12f", 0.3, 0.2, 0.15, 0.15, 0.5, 0.5, 0, 0, 1, 0, 0, 0),
         bytes([4, 5, 0, 0] + [0] * 8),
         struct.pack("<12f", 0.1, 0.1, 0, 0, *([0] * 8)),
         struct.pack("<96f", *(ident * 6))]
blob, views, off = b"", [], 0
for p in parts:
    views.append({"buffer": 0, "byteOffset": len(blob), "byteLength": len(p)}); blob += p
accs = [{"bufferView": 0, "componentType": 5126, "count": 3, "type": "VEC3", "min": [0, 0, 0], "max": [1, 1, 0]},
        {"bufferView": 1, "componentType": 5121, "count": 3, "type": "VEC4"},
        {"bufferView": 2, "componentType": 5126, "count": 3, "type": "VEC4"},
        {"bufferView": 3, "componentType": 5121, "count": 3, "type": "VEC4"},
        {"bufferView": 4, "componentType": 5126, "count": 3, "type": "VEC4"},
        {"bufferView": 5, "componentType": 5126, "count": 6, "type": "MAT4"}]
nodes = [{"name": "j%d" % i} for i in range(6)] + [{"name": "skinned", "mesh": 0, "skin": 0}]
nodes[0]["children"] = [1, 2, 3, 4, 5]  # the joints' common root (glTF validators want one)
doc = {"asset": {"version": "2.0"}, "nodes": nodes, "scenes": [{"nodes": [0, 6]}],
       "skins": [{"joints": [0, 1, 2, 3, 4, 5], "inverseBindMatrices": 5}],
       "meshes": [{"name": "eight", "primitives": [{"attributes": {"POSITION": 0, "JOINTS_0": 1, "WEIGHTS_0": 2, "JOINTS_1": 3, "WEIGHTS_1": 4}}]}],
       "accessors": accs, "bufferViews": views,
       "buffers": [{"byteLength": len(blob), "uri": "data:application/octet-stream;base64," + base64.b64encode(blob).decode()}]}
open(sys.argv[1] + "/eight.gltf", "w").write(json.dumps(doc))
PY
expect gmdc-import-eight 0 '1 groups, 3 vertices, 1 triangles, 6 joints' "$bin" gmdc import "$tmp/im/eight.gltf" -o "$tmp/im/eight.gmdc"
# its weights sum to 1 over both sets (0.8 in WEIGHTS_0): valid glTF
expect gmdc-import-eight-valid 0 '^ok: valid glTF 2.0' "$bin" check "$tmp/im/eight.gltf"
expect gmdc-import-eight-said 0 'warning: 1 vertices had more than 4 influences' "$bin" gmdc import "$tmp/im/eight.gltf" -o "$tmp/im/eight.gmdc"
expect gmdc-import-eight-check 0 'round trip identical' "$bin" check "$tmp/im/eight.gmdc"
# the bone list holds the four heaviest of vertex 0 (joints 0..3), not 4 and 5 (0.1 each)
expect gmdc-import-eight-bones 0 'eight: linkage 0, 1 triangles, 4 bones' "$bin" gmdc dump "$tmp/im/eight.gmdc"
# the four kept weights of vertex 0 (0.3, 0.2, 0.15, 0.15 of 0.8) weighed to sum 1: the stored three
# are 0.375, 0.25, 0.1875 (read from the file's bone-weights element by its layout: u32 count,
# identity 0x3BD70105, group, format 2, set, byte size 36, then 3 floats a vertex)
im_weights() { python3 -c 'import struct, sys
d = open(sys.argv[1], "rb").read(); at = d.find(struct.pack("<I", 0x3BD70105))
count, ident, group, fmt, st, size = struct.unpack_from("<6I", d, at - 4)
w = struct.unpack_from("<9f", d, at + 20) if (ident, fmt, size) == (0x3BD70105, 2, 36) else ()
print(" ".join("%.4f" % x for x in w))' "$1"; }
expect gmdc-import-eight-weights 0 '^0\.3750 0\.2500 0\.1875 0\.5000 0\.5000 0\.0000 1\.0000 0\.0000 0\.0000$' im_weights "$tmp/im/eight.gmdc"
# linkage alias lists {1}, {2, 0}, {} laid into that file by hand (in place of its three empty
# lists, after the linkage's refs 0 1 2 and its counts 3 3): listed and written back in that order
python3 - "$tmp/im/eight.gmdc" "$tmp/im/alias.gmdc" <<'PY'
import struct, sys
d = open(sys.argv[1], "rb").read()
head = struct.pack("<I3HII", 3, 0, 1, 2, 3, 3)
at = d.find(head + struct.pack("<3I", 0, 0, 0))
lists = struct.pack("<IH", 1, 1) + struct.pack("<IHH", 2, 2, 0) + struct.pack("<I", 0)
open(sys.argv[2], "wb").write(d[:at] + head + lists + d[at + len(head) + 12:] if at >= 0 else b"")
PY
expect gmdc-aliases-json 0 '"elements": \[0, 1, 2\], "vertices": 3, "active": 3, "aliases": \[\[1\], \[2, 0\], \[\]\]\}' "$bin" gmdc dump "$tmp/im/alias.gmdc" --json
expect gmdc-aliases-round-trip 0 '^ok: round trip identical \(600 bytes\)' "$bin" check "$tmp/im/alias.gmdc"
# --write-cres from a rig as Blender writes one: an Armature node above the joints, a joint
# with a matrix and no name, one with a scale (not carried, said)
im_skinned_tri() { # OUT NAME NODES SKIN_JOINTS JOINTS_0 WEIGHTS_0 [IBMS] (the rest JSON): a triangle named NAME
    # skinned with one JOINTS_0 / WEIGHTS_0 item for all three vertices, inverse binds IBMS or the identity;
    # the skinned node is appended to NODES and the scene holds the roots
    python3 - "$@" <<'PY'
import base64, json, struct, sys
out, name = sys.argv[1:3]
nodes, joints, j0, w0 = (json.loads(a) for a in sys.argv[3:7])
ident = [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1]
ibms = json.loads(sys.argv[7]) if len(sys.argv) > 7 else [ident] * len(joints)
parts = [struct.pack("<9f", 0, 0, 0, 1, 0, 0, 0, 1, 0), bytes(j0 * 3), struct.pack("<12f", *(w0 * 3)),
         struct.pack("<%df" % (16 * len(joints)), *sum(ibms, []))]
blob, views = b"", []
for p in parts:
    views.append({"buffer": 0, "byteOffset": len(blob), "byteLength": len(p)}); blob += p
accs = [{"bufferView": 0, "componentType": 5126, "count": 3, "type": "VEC3", "min": [0, 0, 0], "max": [1, 1, 0]},
        {"bufferView": 1, "componentType": 5121, "count": 3, "type": "VEC4"},
        {"bufferView": 2, "componentType": 5126, "count": 3, "type": "VEC4"},
        {"bufferView": 3, "componentType": 5126, "count": len(joints), "type": "MAT4"}]
nodes.append({"name": "skinned", "mesh": 0, "skin": 0})
children = {c for n in nodes for c in n.get("children", [])}
doc = {"asset": {"version": "2.0"}, "scenes": [{"nodes": [i for i in range(len(nodes)) if i not in children]}], "nodes": nodes,
       "skins": [{"joints": joints, "inverseBindMatrices": 3}],
       "meshes": [{"name": name, "primitives": [{"attributes": {"POSITION": 0, "JOINTS_0": 1, "WEIGHTS_0": 2}}]}],
       "accessors": accs, "bufferViews": views,
       "buffers": [{"byteLength": len(blob), "uri": "data:application/octet-stream;base64," + base64.b64encode(blob).decode()}]}
open(out, "w").write(json.dumps(doc))
PY
}
im_skinned_tri "$tmp/im/rigged.gltf" rigged '[{"name": "Armature", "translation": [0, 0, 1], "children": [1]},
    {"name": "hip", "rotation": [0, 0.6, 0, 0.8], "translation": [0, 1, 0], "children": [2, 3]},
    {"matrix": [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0.5, 0, 0, 1]}, {"name": "tail", "scale": [1, 2, 1]}]' \
    '[2, 1, 3]' '[0, 0, 0, 0]' '[1, 0, 0, 0]'
# inverse bind matrices with a scale (an armature scale not applied in Blender): the joint keeps
# the rotation (90 degrees about glTF's Y, the game's Z), the scale is said not carried
# S(2, 1, 1) . R_y(90): column-major, scale on the left as in an inverse bind (T R S)^-1
im_skinned_tri "$tmp/im/scaledbind.gltf" scaled '[{"name": "hip"}]' '[0]' '[0, 0, 0, 0]' '[1, 0, 0, 0]' \
    '[[0, 0, -2, 0, 0, 1, 0, 0, 2, 0, 0, 0, 0, 0, 0, 1]]'
expect gmdc-import-scaled-bind-said 0 'warning: 1 inverse bind matrix carries a scale .*the joints keep their rotation' \
    "$bin" gmdc import "$tmp/im/scaledbind.gltf" -o "$tmp/im/scaledbind.gmdc"
expect gmdc-import-scaled-bind-rotation 0 '"rotation": \[-?0, -?0, 0.70710[0-9]*, 0.70710[0-9]*\]' "$bin" gmdc dump "$tmp/im/scaledbind.gmdc" --json
# an unskinned mesh lies where its node puts it (glTF: vertices are in the node's space), and a
# mesh two nodes use is imported twice; a skinned mesh of a second skin keeps its own joints
python3 - "$tmp/im" <<'PY'
import base64, json, struct, sys
def doc_of(parts, accs, **kw):
    blob, views = b"", []
    for p in parts:
        views.append({"buffer": 0, "byteOffset": len(blob), "byteLength": len(p)}); blob += p
    d = {"asset": {"version": "2.0"}, "accessors": accs, "bufferViews": views,
         "buffers": [{"byteLength": len(blob), "uri": "data:application/octet-stream;base64," + base64.b64encode(blob).decode()}]}
    d.update(kw)
    return d
tri = [struct.pack("<9f", 0, 0, 0, 1, 0, 0, 0, 1, 0), struct.pack("<9f", *([0, 0, 1] * 3))]
accs = [{"bufferView": 0, "componentType": 5126, "count": 3, "type": "VEC3", "min": [0, 0, 0], "max": [1, 1, 0]},
        {"bufferView": 1, "componentType": 5126, "count": 3, "type": "VEC3"}]
d = doc_of(tri, accs, meshes=[{"name": "tri", "primitives": [{"attributes": {"POSITION": 0, "NORMAL": 1}}]}],
           nodes=[{"name": "up", "children": [1], "translation": [1, 2, 3]}, {"name": "a", "mesh": 0},
                  {"name": "b", "mesh": 0, "scale": [2, 2, 2]}], scenes=[{"nodes": [0, 2]}])
open(sys.argv[1] + "/placed.gltf", "w").write(json.dumps(d))
ident = [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1]
sk = tri[:1] + [bytes([0, 0, 0, 0] * 3), struct.pack("<12f", *([1, 0, 0, 0] * 3)), struct.pack("<32f", *(ident * 2))]
accs = [accs[0], {"bufferView": 1, "componentType": 5121, "count": 3, "type": "VEC4"},
        {"bufferView": 2, "componentType": 5126, "count": 3, "type": "VEC4"},
        {"bufferView": 3, "componentType": 5126, "count": 2, "type": "MAT4"}]
prim = {"attributes": {"POSITION": 0, "JOINTS_0": 1, "WEIGHTS_0": 2}}
d = doc_of(sk, accs, meshes=[{"name": "left", "primitives": [prim]}, {"name": "right", "primitives": [prim]}],
           skins=[{"joints": [0, 1], "inverseBindMatrices": 3}, {"joints": [1, 0], "inverseBindMatrices": 3}],
           nodes=[{"name": "j0", "children": [1]}, {"name": "j1"}, {"name": "l", "mesh": 0, "skin": 0},
                  {"name": "r", "mesh": 1, "skin": 1}], scenes=[{"nodes": [0, 2, 3]}])
open(sys.argv[1] + "/twoskins.gltf", "w").write(json.dumps(d))
PY
# KHR_mesh_quantization (gltfpack): positions as plain shorts, the node's scale making them sizes
python3 - "$tmp/im" <<'PY'
import base64, json, struct, sys
blob = struct.pack("<9h", 0, 0, 0, 100, 0, 0, 0, 100, 0) + b"\0\0"
doc = {"asset": {"version": "2.0"}, "extensionsUsed": ["KHR_mesh_quantization"], "extensionsRequired": ["KHR_mesh_quantization"],
       "nodes": [{"name": "q", "mesh": 0, "scale": [0.01, 0.01, 0.01]}], "scenes": [{"nodes": [0]}],
       "meshes": [{"name": "quant", "primitives": [{"attributes": {"POSITION": 0}}]}],
       "accessors": [{"bufferView": 0, "componentType": 5122, "count": 3, "type": "VEC3", "min": [0, 0, 0], "max": [100, 100, 0]}],
       "bufferViews": [{"buffer": 0, "byteOffset": 0, "byteLength": 18}],
       "buffers": [{"byteLength": len(blob), "uri": "data:application/octet-stream;base64," + base64.b64encode(blob).decode()}]}
open(sys.argv[1] + "/quant.gltf", "w").write(json.dumps(doc))
del doc["extensionsUsed"], doc["extensionsRequired"]
open(sys.argv[1] + "/quant-undeclared.gltf", "w").write(json.dumps(doc))
PY
expect gmdc-import-quantized 0 '^\[\[-?0, -?0, -?0\], \[1, -?0, -?0\], \[-?0, -?0, 1\]\]$' \
    sh -c "\"$bin\" gmdc import \"$tmp/im/quant.gltf\" -o \"$tmp/im/quant.gmdc\" >/dev/null && \"$bin\" gmdc skin \"$tmp/im/quant.gmdc\" --json |
    python3 -c 'import json,sys; print(json.dumps([[round(x, 5) for x in p] for p in json.load(sys.stdin)[\"groups\"][0][\"positions\"]]).replace(\".0\", \"\"))'"
expect gmdc-import-quantized-undeclared 1 'componentType 5122 is not FLOAT or a normalized integer' "$bin" gmdc import "$tmp/im/quant-undeclared.gltf" -o "$tmp/im/x.gmdc"
expect gmdc-import-placed 0 '2 groups, 6 vertices, 2 triangles' "$bin" gmdc import "$tmp/im/placed.gltf" -o "$tmp/im/placed.gmdc"
# up's (1, 2, 3) under the game's axes (x, -z, y) for a; b scaled 2 at the origin
expect gmdc-import-placed-where 0 '^\[\[1, -3, 2\], \[2, -3, 2\], \[1, -3, 3\]\] \[\[0, -?0, 0\], \[2, -?0, 0\], \[0, -?0, 2\]\]$' \
    sh -c "\"$bin\" gmdc skin \"$tmp/im/placed.gmdc\" --json | python3 -c 'import json,sys; d=json.load(sys.stdin); print(\" \".join(json.dumps(g[\"positions\"]) for g in d[\"groups\"]).replace(\".0\", \"\"))'"
# neither node mirrors (determinants 1 and 8): both triangles keep glTF's winding 0 1 2
expect gmdc-import-placed-winding 0 '^f 1//1 2//2 3//3 f 4//4 5//5 6//6$' sh -c "\"$bin\" gmdc export \"$tmp/im/placed.gmdc\" -o \"$tmp/im/placed.obj\" >/dev/null &&
    grep '^f ' \"$tmp/im/placed.obj\" | tr '\\n' ' ' | sed 's/ $//'"
# a normal goes through the node's inverse transpose: (0, 0, 1) under a 90-degree turn about
# glTF's Y is (1, 0, 0), the game's (1, 0, 0) too (worked out by hand; the transpose gives -1)
python3 - "$tmp/im" <<'PY'
import base64, json, struct, sys
blob = struct.pack("<9f", 0, 0, 0, 1, 0, 0, 0, 1, 0) + struct.pack("<9f", *([0, 0, 1] * 3))
d = {"asset": {"version": "2.0"}, "scenes": [{"nodes": [0]}],
     "nodes": [{"name": "t", "mesh": 0, "rotation": [0, 0.70710678, 0, 0.70710678]}],
     "meshes": [{"name": "turned", "primitives": [{"attributes": {"POSITION": 0, "NORMAL": 1}}]}],
     "accessors": [{"bufferView": 0, "componentType": 5126, "count": 3, "type": "VEC3", "min": [0, 0, 0], "max": [1, 1, 0]},
                   {"bufferView": 1, "componentType": 5126, "count": 3, "type": "VEC3"}],
     "bufferViews": [{"buffer": 0, "byteOffset": 0, "byteLength": 36}, {"buffer": 0, "byteOffset": 36, "byteLength": 36}],
     "buffers": [{"byteLength": len(blob), "uri": "data:application/octet-stream;base64," + base64.b64encode(blob).decode()}]}
open(sys.argv[1] + "/turned.gltf", "w").write(json.dumps(d))
PY
expect gmdc-import-turned-normals 0 '^\[\[1, -?0, -?0\], \[1, -?0, -?0\], \[1, -?0, -?0\]\]$' \
    sh -c "\"$bin\" gmdc import \"$tmp/im/turned.gltf\" -o \"$tmp/im/turned.gmdc\" >/dev/null && \"$bin\" gmdc skin \"$tmp/im/turned.gmdc\" --json |
    python3 -c 'import json,sys; print(json.dumps([[round(x, 5) for x in n] for n in json.load(sys.stdin)[\"groups\"][0][\"normals\"]]).replace(\".0\", \"\"))'"
# the checker refuses a normal of length 1.1; a clip ending at 1.02 s is round(30.6) = 31 ticks
# at 30 fps, and one more as its last key is a pose of its own (1 m, where tick 30 has 0.98 m)
python3 - "$tmp/im" <<'PY'
import base64, json, struct, sys
def write(name, blob, **kw):
    d = {"asset": {"version": "2.0"}, "scenes": [{"nodes": [0]}],
         "buffers": [{"byteLength": len(blob), "uri": "data:application/octet-stream;base64," + base64.b64encode(blob).decode()}]}
    d.update(kw)
    open(sys.argv[1] + "/" + name, "w").write(json.dumps(d))
write("longnormal.gltf", struct.pack("<9f", 0, 0, 0, 1, 0, 0, 0, 1, 0) + struct.pack("<9f", *([0, 0, 1.1] * 3)),
      nodes=[{"name": "t", "mesh": 0}], meshes=[{"name": "long", "primitives": [{"attributes": {"POSITION": 0, "NORMAL": 1}}]}],
      accessors=[{"bufferView": 0, "componentType": 5126, "count": 3, "type": "VEC3", "min": [0, 0, 0], "max": [1, 1, 0]},
                 {"bufferView": 1, "componentType": 5126, "count": 3, "type": "VEC3"}],
      bufferViews=[{"buffer": 0, "byteOffset": 0, "byteLength": 36}, {"buffer": 0, "byteOffset": 36, "byteLength": 36}])
write("late.gltf", struct.pack("<2f", 0, 1.02) + struct.pack("<6f", 0, 0, 0, 0, 1, 0), nodes=[{"name": "b"}],
      animations=[{"samplers": [{"input": 0, "output": 1, "interpolation": "LINEAR"}],
                   "channels": [{"sampler": 0, "target": {"node": 0, "path": "translation"}}]}],
      accessors=[{"bufferView": 0, "componentType": 5126, "count": 2, "type": "SCALAR", "min": [0], "max": [1.02]},
                 {"bufferView": 1, "componentType": 5126, "count": 2, "type": "VEC3"}],
      bufferViews=[{"buffer": 0, "byteOffset": 0, "byteLength": 8}, {"buffer": 0, "byteOffset": 8, "byteLength": 24}])
PY
expect gltf-check-normal-length 1 'longnormal.gltf: not a valid glTF 2.0 file: meshes\[0\].primitives\[0\]: NORMAL 0 is not unit length' \
    "$bin" check "$tmp/im/longnormal.gltf"
expect import-clip-length-rounded 0 'late.clip .*: 1 tracks, 0 events, 32 ticks' "$bin" clip import "$tmp/im/late.gltf" -o "$tmp/im/late.clip"
expect gmdc-import-two-skins 0 '^\[\[0\], \[1\]\]$' sh -c "\"$bin\" gmdc import \"$tmp/im/twoskins.gltf\" -o \"$tmp/im/twoskins.gmdc\" >/dev/null &&
    \"$bin\" gmdc dump \"$tmp/im/twoskins.gmdc\" --json | python3 -c 'import json,sys; print(json.dumps([g[\"bones\"] for g in json.load(sys.stdin)[\"groups\"]]))'"
# a vertex with no weight (glTF forbids it; exporters write it): no bone assigned, and dump says
# what skinning then does
im_skinned_tri "$tmp/im/zero.gltf" zero '[{"name": "hip"}]' '[0]' '[0, 0, 0, 0]' '[0, 0, 0, 0]'
expect gmdc-import-unweighted-said 0 'warning: 3 skinned vertices have no weight above 0: written with no bone assigned' \
    "$bin" gmdc import "$tmp/im/zero.gltf" -o "$tmp/im/zero.gmdc"
expect gmdc-unassigned-said 0 '3 vertices of its triangles have no bone assigned .*at the origin' "$bin" gmdc dump "$tmp/im/zero.gmdc"
# a vertex's influences go in heaviest first: joints 0, 1, 2 weighing 0.2, 0.5, 0.3 take the
# group's bone slots in the order 1, 2, 0 (worked out by hand from that rule)
im_skinned_tri "$tmp/im/heavy.gltf" heavy '[{"name": "a"}, {"name": "b"}, {"name": "c"}]' '[0, 1, 2]' '[0, 1, 2, 0]' '[0.2, 0.5, 0.3, 0]'
expect gmdc-import-heaviest-first 0 '^\[\[1, 2, 0\]\]$' sh -c "\"$bin\" gmdc import \"$tmp/im/heavy.gltf\" -o \"$tmp/im/heavy.gmdc\" >/dev/null &&
    \"$bin\" gmdc dump \"$tmp/im/heavy.gmdc\" --json | python3 -c 'import json,sys; print(json.dumps([g[\"bones\"] for g in json.load(sys.stdin)[\"groups\"]]))'"
expect gmdc-import-cres-rig 0 'skeleton rigged_cres, 4 bones, 3 of them joints' \
    "$bin" gmdc import "$tmp/im/rigged.gltf" -o "$tmp/im/rigged.gmdc" --write-cres "$tmp/im/rigged.cres"
expect gmdc-import-cres-rig-scale 0 'warning: 1 bone of the skeleton had a scale other than 1, not carried' \
    "$bin" gmdc import "$tmp/im/rigged.gltf" -o "$tmp/im/rigged.gmdc" --write-cres "$tmp/im/rigged.cres"
# parents before children, joint fields from the skin's order, Y-up back to Z-up
im_rig_bones() { # plumbob CRES: each bone's name, parent, joint, translation and rotation
    "$1" cres dump "$2" --json | python3 -c '
import json, sys
bs = json.load(sys.stdin)["bones"]
r = lambda v: [round(x, 5) + 0 for x in v]
print("; ".join("%s %s %s %s %s" % (b["name"], bs[b["parent"]]["name"] if b["parent"] >= 0 else None, b["joint"],
                                    r(b["translation"]), r(b["rotation"])) for b in bs))'
}
expect gmdc-import-cres-rig-bones 0 '^Armature None None \[0, -1, 0\] \[0, 0, 0, 1\]; hip Armature 1 \[0, 0, 1\] \[0, 0, 0.6, 0.8\]; joint_0 hip 0 \[0.5, 0, 0\] \[0, 0, 0, 1\]; tail hip 2 \[0, 0, 0\] \[0, 0, 0, 1\]$' \
    im_rig_bones "$bin" "$tmp/im/rigged.cres"
# --cres with a skin of two of the skeleton's 65 joints (names in another case): the table holds
# all 65, the other 63 the skeleton's rest pose inverted (the original mesh's binds)
im_skinned_tri "$tmp/im/two.gltf" two '[{"name": "BONE_10"}, {"name": "root_rot", "children": [0]}]' '[0, 1]' \
    '[0, 1, 0, 0]' '[0.5, 0.5, 0, 0]'
expect gmdc-import-match-two 0 "joints: the skin's 2 matched by name to .*, a table of 65" \
    "$bin" gmdc import "$tmp/im/two.gltf" -o "$tmp/im/two.gmdc" --cres "$im_cres"
im_table() { # plumbob original.gmdc new.gmdc: the new bone list, the other rows' largest difference from the original's
    "$1" gmdc dump "$2" --json > "$tmp/im/tab-a.json" && "$1" gmdc dump "$3" --json > "$tmp/im/tab-b.json" &&
    python3 - "$tmp/im/tab-a.json" "$tmp/im/tab-b.json" <<'PY'
import json, sys
a, b = [json.load(open(f)) for f in sys.argv[1:3]]
used = [j for g in b["groups"] for j in g["bones"]]
d = max(abs(x - y) for i, (p, q) in enumerate(zip(a["joints"], b["joints"])) if i not in used
        for x, y in zip(p["rotation"] + p["translation"], q["rotation"] + q["translation"]))
print("bones %s, %d rows, the others differ by %.2g" % (used, len(b["joints"]), d))
PY
}
expect gmdc-import-match-two-table 0 '^bones \[10, 1\], 65 rows, the others differ by ([0-9](\.[0-9]+)?e-0[6-9]|0)$' \
    im_table "$bin" "$im_body@AC4F8687:1C0532FA:00F0E1D2C3B4A5A1" "$tmp/im/two.gmdc"
expect gmdc-import-match-missing 1 "eight.gltf: --cres .*: joint 'j0' \(skins.joints\[0\]\) is not a bone of the CRES" \
    "$bin" gmdc import "$tmp/im/eight.gltf" -o "$tmp/im/w.gmdc" --cres "$im_cres"
expect gmdc-import-match-nothing-written 1 '' test -e "$tmp/im/w.gmdc"
expect gmdc-import-cres-no-skin 1 'tri.gltf: --write-cres: no node has a mesh and a skin' \
    "$bin" gmdc import "$tmp/im/tri.gltf" -o "$tmp/im/y.gmdc" --write-cres "$tmp/im/y.cres"
expect gmdc-import-cres-nothing-written 1 '' sh -c 'test -e "$1" || test -e "$2"' _ "$tmp/im/y.gmdc" "$tmp/im/y.cres"
expect gmdc-import-no-mesh 1 'still.gltf: the glTF has no mesh' "$bin" gmdc import "$tmp/im/still.gltf" -o "$tmp/im/x.gmdc"
expect gmdc-import-not-gltf 1 'is a Sims 2 GMDC.*, not a glTF' "$bin" gmdc import "$tmp"/bt/AC4F8687_*.gmdc -o "$tmp/im/x.gmdc"
expect gmdc-import-bad-output 2 '^plumbob: gmdc import: .*/x\.obj: gmdc import writes \.gmdc; name the output with one of those$' "$bin" gmdc import "$tmp/im/tri.gltf" -o "$tmp/im/x.obj"
expect gmdc-import-nothing-written 1 '' test -e "$tmp/im/x.gmdc"
if [ -f "$corpus/sims2/teapot_model.package" ]; then
    tp="$corpus/sims2/teapot_model.package@3AFDFD2CFF515126"
    "$bin" gmdc export "$tp" -o "$tmp/im/teapot.glb" >/dev/null
    expect corpus-gmdc-import 0 '1 groups, 13248 vertices, 6320 triangles' "$bin" gmdc import "$tmp/im/teapot.glb" -o "$tmp/im/teapot.gmdc"
    expect corpus-gmdc-import-check 0 'round trip identical' "$bin" check "$tmp/im/teapot.gmdc"
    # the bounding mesh (the GMDC page's "Model": every position once) is the game's own:
    # 3,241 positions for 13,248 vertices, the same set (its triangles are the same too, in the
    # same order, which this JSON cannot show)
    expect corpus-gmdc-import-bounding 0 'bounding mesh: 3241 vertices, 6320 triangles' "$bin" gmdc dump "$tmp/im/teapot.gmdc"
    expect corpus-gmdc-import-bounding-same 0 '^same 3241$' sh -c '"$1" gmdc skin "$2" --json > "$4/bt-a.json" && "$1" gmdc skin "$3" --json > "$4/bt-b.json" &&
        python3 -c "import json, sys; a, b = [sorted(map(tuple, json.load(open(f))[\"bounding\"])) for f in sys.argv[1:3]]; print(\"same %d\" % len(a) if a == b else \"differ\")" "$4/bt-a.json" "$4/bt-b.json"' \
        _ "$bin" "$tp" "$tmp/im/teapot.gmdc" "$tmp/im"
    # filed where the game's own package files it: the key its name gives
    tp_key=$("$bin" ls "$corpus/sims2/teapot_model.package" | awk '$2 == "GMDC" { print $4 }')
    rm -f "$tmp/im/teapot.package"
    expect corpus-gmdc-import-package-key 0 "added AC4F8687:1C0532FA:$tp_key in" \
        "$bin" gmdc import "$tmp/im/teapot.glb" --package "$tmp/im/teapot.package"
    "$bin" gmdc skin "$tp" --json > "$tmp/im/tp-a.json" 2>/dev/null
    "$bin" gmdc skin "$tmp/im/teapot.gmdc" --json > "$tmp/im/tp-b.json" 2>/dev/null
    expect corpus-gmdc-import-positions 0 '^vertices 13248 13248 diff ([0-9](\.[0-9]+)?e-0[6-9]|0)$' im_skin_diff "$tmp/im/tp-a.json" "$tmp/im/tp-b.json"
    "$bin" gmdc export "$tp" -o "$tmp/im/tp-a.obj" >/dev/null
    "$bin" gmdc export "$tmp/im/teapot.gmdc" -o "$tmp/im/tp-b.obj" >/dev/null
    expect corpus-gmdc-import-uvs 0 '' bash -c 'diff <(grep "^vt " "$0") <(grep "^vt " "$1") >/dev/null && [ "$(grep -c "^vt " "$0")" = 13248 ]' "$tmp/im/tp-a.obj" "$tmp/im/tp-b.obj"
fi

# every real clip: exported, imported back with its length and events, re-encoding identically
if [ -d "$corpus/sims3" ]; then
    n_all=0 n_ok=0 bad=""
    for p in "$corpus"/sims3/*.package; do
        for inst in $("$bin" ls "$p" | awk '$2 == "CLIP" { print $4 }'); do
            n_all=$((n_all + 1))
            src="$p@$("$bin" ls "$p" | awk -v i="$inst" '$2 == "CLIP" && $4 == i { print $1 ":" $3 ":" $4 }')"
            len=$("$bin" info "$src" | sed -n 's/.*, \([0-9.]*\) s, .*/\1/p')
            if "$bin" clip export "$src" -o "$tmp/im/all.glb" >/dev/null 2>&1 &&
                "$bin" clip import "$tmp/im/all.glb" -o "$tmp/im/all.clip" 2>/dev/null | grep -q "ticks ($len s)" &&
                "$bin" check "$tmp/im/all.clip" | grep -q 'round trip identical' &&
                [ "$(im_events "$bin" "$src")" = "$(im_events "$bin" "$tmp/im/all.clip")" ]; then
                n_ok=$((n_ok + 1))
            else
                bad="$bad $(basename "$p")@$inst"
            fi
        done
    done
    expect corpus-import-every-clip 0 "^19 of 19$" echo "$n_ok of $n_all${bad:+ (failed:$bad)}"
fi
