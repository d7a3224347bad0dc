# Round trips that lose nothing (issue 44): clip export -> (Blender) -> clip
# import keeps every event and IK slot, carries what Blender drops from the
# original (--like, --package by default), says what it would otherwise
# guess (frame rate, .001 names, armature transforms, huge translations),
# and clip diff shows how two clips differ.  Blender is simulated by
# editing the glTF with python3 (stdlib): extras dropped, nodes renamed
# NAME.001, keys resampled at 24 fps, an armature node or an applied scale.
# Sourced by tool-tests.sh (bin, tmp, clip, corpus, expect).
rt="$tmp/rt"
mkdir -p "$rt"
cat > "$rt/bl.py" <<'PY'
import base64, json, math, struct, sys

def load(path):
    raw = open(path, "rb").read()
    if raw[:4] == b"glTF":
        jl = struct.unpack_from("<I", raw, 12)[0]
        g = json.loads(raw[20:20 + jl]); rest = raw[20 + jl:]
        buf = rest[8:8 + struct.unpack_from("<I", rest, 0)[0]] if rest else b""
    else:
        g = json.loads(raw)
        buf = base64.b64decode(g["buffers"][0]["uri"].split(",", 1)[1]) if g.get("buffers") else b""
    N = {"SCALAR": 1, "VEC2": 2, "VEC3": 3, "VEC4": 4, "MAT4": 16}
    data = []
    for acc in g.get("accessors", []):
        v = g["bufferViews"][acc["bufferView"]]; n = N[acc["type"]]
        f = struct.unpack_from("<%df" % (acc["count"] * n), buf, v.get("byteOffset", 0) + acc.get("byteOffset", 0))
        data.append([list(f[i * n:i * n + n]) for i in range(acc["count"])])
    return g, data

def save(g, data, path):
    """Every accessor re-encoded as FLOAT into one data: URI buffer."""
    T = {1: "SCALAR", 2: "VEC2", 3: "VEC3", 4: "VEC4", 16: "MAT4"}
    blob = b""; views = []; accs = []
    for i, rows in enumerate(data):
        n = len(rows[0])
        raw = struct.pack("<%df" % (len(rows) * n), *[x for r in rows for x in r])
        views.append({"buffer": 0, "byteOffset": len(blob), "byteLength": len(raw)})
        a = {"bufferView": i, "componentType": 5126, "count": len(rows), "type": T[n]}
        if n == 1: a["min"] = [min(r[0] for r in rows)]; a["max"] = [max(r[0] for r in rows)]
        accs.append(a); blob += raw
    g["accessors"] = accs; g["bufferViews"] = views
    g["buffers"] = [{"byteLength": len(blob), "uri": "data:application/octet-stream;base64," + base64.b64encode(blob).decode()}]
    json.dump(g, open(path, "w"))

def qmul(a, b):
    ax, ay, az, aw = a; bx, by, bz, bw = b
    return [aw*bx + ax*bw + ay*bz - az*by, aw*by - ax*bz + ay*bw + az*bx, aw*bz + ax*by - ay*bx + az*bw, aw*bw - ax*bx - ay*by - az*bz]

def sample(times, vals, t, rot):
    if t <= times[0]: return vals[0][:]
    if t >= times[-1]: return vals[-1][:]
    k = max(i for i in range(len(times)) if times[i] <= t)
    u = (t - times[k]) / (times[k + 1] - times[k]); a, b = vals[k], vals[k + 1]
    if rot and sum(x * y for x, y in zip(a, b)) < 0: b = [-x for x in b]
    r = [x + (y - x) * u for x, y in zip(a, b)]
    if rot:
        l = math.sqrt(sum(x * x for x in r)); r = [x / l for x in r]
    return r

def synth(path):
    """A clip's glTF as plumbob's export writes one: 3 bones, 31 keys at 30 fps, events of three kinds, an IK
    slot table of 4 chains (chain 2 empty, one slot with unusual raw padding)."""
    times = [[k / 30.0] for k in range(31)]
    head = [[0, math.sin(math.radians(20 * math.sin(k / 5.0)) / 2), 0, math.cos(math.radians(20 * math.sin(k / 5.0)) / 2)] for k in range(31)]
    spine = [[math.sin(math.radians(5 * k / 30.0)), 0, 0, math.cos(math.radians(5 * k / 30.0))] for k in range(31)]
    root = [[0.01 * k, 0.9, 0.0] for k in range(31)]
    raw = (b"b__L_Hand__slot\0" + b"\x7e" * 20).ljust(512, b"\0").hex()
    g = {"asset": {"version": "2.0"}, "scene": 0, "scenes": [{"nodes": [0]}],
         "nodes": [{"name": "b__ROOT__", "children": [1]}, {"name": "b__Spine0__", "children": [2]}, {"name": "b__Head__"}],
         "animations": [{"name": "a_synth_roundtrip_x",
            "samplers": [{"input": 0, "output": 1}, {"input": 0, "output": 2}, {"input": 0, "output": 3}],
            "channels": [{"sampler": 0, "target": {"node": 2, "path": "rotation"}},
                         {"sampler": 1, "target": {"node": 1, "path": "rotation"}},
                         {"sampler": 2, "target": {"node": 0, "path": "translation"}}],
            "extras": {"plumbob": {"events": [
                {"type": 3, "time": 0.5, "name": "sfx_step", "sound": "sfx_step", "id": 7},
                {"type": 6, "time": 0.2, "name": "hide", "visibility": 0.25, "id": 8, "unknown": [-1, -1]},
                {"type": 5, "time": 0.9, "name": "fx_sparkle", "effect": "0x11223344", "actor": "0x55667788", "bone": "0x0F97B21B"}],
                "slotTable": True, "slotChains": 4, "slots": [
                {"chain": 0, "index": 0, "actor": "x", "slot": "b__L_ThighTarget_slot"},
                {"chain": 0, "index": 1, "actor": "y", "slot": "IKtarget_y"},
                {"chain": 1, "index": 0, "actor": "x", "slot": "b__R_carry_slot"},
                {"chain": 3, "index": 2, "actor": "x", "slot": "b__L_Hand__slot", "slotRaw": raw}],
                "clip": {"source": "synth.ma", "actor": "x", "flags": 0, "headerUnknown": [0, 1], "eventVersion": 259}}}}]}
    save(g, [times, head, spine, root], path)

def main():
    op, src = sys.argv[1], sys.argv[2]
    if op == "synth": synth(src); return
    dst = sys.argv[3]; g, data = load(src); arg = sys.argv[4] if len(sys.argv) > 4 else None
    an = g["animations"][0]
    if op == "drop-extras":      # Blender keeps no animation extras
        an.pop("extras", None); g.get("scenes", [{}])[0].pop("extras", None)
    elif op == "suffix":         # a second import: every node renamed NAME.001
        for n in g["nodes"]: n["name"] = n.get("name", "") + ".001"
    elif op == "resample":       # exported at another frame rate: keys at k / fps, values interpolated
        fps = float(arg); new = []
        for s in an["samplers"]:
            t = [r[0] for r in data[s["input"]]]; v = data[s["output"]]; rot = len(v[0]) == 4
            n = int(math.ceil(t[-1] * fps - 1e-6)); ts = [k / fps for k in range(n + 1)]  # whole frames, as Blender
            data.append([[x] for x in ts]); data.append([sample(t, v, x, rot) for x in ts])
            s["input"], s["output"] = len(data) - 2, len(data) - 1
    elif op == "armature":       # the bones under an Armature node with a scale and a rotation (degrees about X)
        sc, deg = float(arg), float(sys.argv[5])
        roots = g["scenes"][0]["nodes"]; h = math.radians(deg) / 2
        g["nodes"].append({"name": "Armature", "children": roots, "scale": [sc] * 3, "rotation": [math.sin(h), 0, 0, math.cos(h)]})
        g["scenes"][0]["nodes"] = [len(g["nodes"]) - 1]
    elif op == "apply-scale":    # an armature scale applied: every translation times it, and a skin with scaled binds
        sc = float(arg)
        for c in an["channels"]:
            if c["target"]["path"] == "translation":
                o = an["samplers"][c["sampler"]]["output"]; data[o] = [[x * sc for x in r] for r in data[o]]
        data.append([[sc, 0, 0, 0, 0, sc, 0, 0, 0, 0, sc, 0, 0, 0, 0, 1] for _ in g["nodes"]])
        g["skins"] = [{"joints": list(range(len(g["nodes"]))), "inverseBindMatrices": len(data) - 1}]
    elif op == "dup-node":       # both imports exported: NAME and NAME.001 animated
        i = [n.get("name") for n in g["nodes"]].index(arg)
        g["nodes"].append({"name": arg + ".001"}); g["scenes"][0]["nodes"].append(len(g["nodes"]) - 1)
        an["channels"] += [dict(c, target=dict(c["target"], node=len(g["nodes"]) - 1)) for c in an["channels"] if c["target"]["node"] == i]
    elif op == "drop-node":      # a bone's channels left out
        an["channels"] = [c for c in an["channels"] if g["nodes"][c["target"]["node"]].get("name") != arg]
    elif op == "turn":           # turn a node's rotation by degrees about Y at every key
        name, deg = arg, float(sys.argv[5]); h = math.radians(deg) / 2
        for c in an["channels"]:
            if c["target"]["path"] == "rotation" and g["nodes"][c["target"]["node"]].get("name") == name:
                o = an["samplers"][c["sampler"]]["output"]; data[o] = [qmul([0, math.sin(h), 0, math.cos(h)], r) for r in data[o]]
    else:
        sys.exit("unknown op " + op)
    save(g, data, dst)

main()
PY
# the events and IK slots of a clip as clip dump --json prints them, for exact comparison
cat > "$rt/same.py" <<'PY'
import json, subprocess, sys
P, a, b = sys.argv[1:4]
A, B = [json.loads(subprocess.check_output([P, "clip", "dump", f, "--json"])) for f in (a, b)]
print("slots %d %s, events %d %s" % (len(A["slots"]), "same" if A["slots"] == B["slots"] else "differ",
      len(A["events"]), "same" if A["events"] == B["events"] else "differ"))
PY
rt_bl() { python3 "$rt/bl.py" "$@"; }

# --- synthetic: a clip our writer makes (through clip import) with 4 IK chains (one empty, one slot
# with unusual raw padding) and 3 events of three kinds
rt_bl synth "$rt/syn.gltf"
expect rt-synth-import 0 'wrote .*a.clip \([0-9]+ bytes\): 3 tracks, 3 events, 31 ticks' "$bin" clip import "$rt/syn.gltf" -o "$rt/a.clip"
expect rt-synth-slots 0 'slots    4 in 4 IK chains' "$bin" clip dump "$rt/a.clip"
expect rt-synth-source 0 'source   synth\.ma' "$bin" clip dump "$rt/a.clip"
expect rt-synth-export 0 '3 events and 4 IK slots are in the animation' "$bin" clip export "$rt/a.clip" -o "$rt/a.gltf"
expect rt-synth-export-extras 0 '^slotTable True slotChains 4 slots 4 raw 3 source synth\.ma$' python3 -c "
import json; e = json.load(open('$rt/a.gltf'))['animations'][0]['extras']['plumbob']
print('slotTable', e['slotTable'], 'slotChains', e['slotChains'], 'slots', len(e['slots']),
      'raw', ''.join(str(i) for i, s in enumerate(e['slots']) if 'slotRaw' in s or 'actorRaw' in s), 'source', e['clip']['source'])"
expect rt-synth-reimport 0 'wrote .*b.clip \([0-9]+ bytes\): 3 tracks, 3 events, 31 ticks' "$bin" clip import "$rt/a.gltf" -o "$rt/b.clip"
expect rt-synth-reimport-quiet 0 '^0$' sh -c "\"$bin\" clip import \"$rt/a.gltf\" -o \"$rt/b2.clip\" 2>&1 >/dev/null | grep -c .; exit 0"
expect rt-synth-exact 0 '^slots 4 same, events 3 same$' python3 "$rt/same.py" "$bin" "$rt/a.clip" "$rt/b.clip"
expect rt-synth-diff-events 1 'events: the same, 3' "$bin" clip diff "$rt/a.clip" "$rt/b.clip"
expect rt-synth-diff-slots 1 'IK slots: the same, 4 in 4 chains' "$bin" clip diff "$rt/a.clip" "$rt/b.clip"
expect rt-synth-diff-rest 1 'rest \(IK slot table, actor, event list, end block, outer header\): the same bytes' "$bin" clip diff "$rt/a.clip" "$rt/b.clip"
expect rt-synth-diff-tracks 1 'tracks: 3 in A, 3 in B: [0-9] the same, [0-9] differ, 0 only in A, 0 only in B; worst 0\.00[0-9]+ deg, 0 m, 0$' "$bin" clip diff "$rt/a.clip" "$rt/b.clip"
expect rt-synth-check 0 'round trip identical' "$bin" check "$rt/b.clip"

# clip diff itself: identical, json, trouble
expect rt-diff-identical 0 'the clips are identical' "$bin" clip diff "$rt/a.clip" "$rt/a.clip"
expect rt-diff-identical-summary 0 'tracks: 3 in A, 3 in B: 3 the same, 0 differ, 0 only in A, 0 only in B; worst 0 deg, 0 m, 0' "$bin" clip diff "$rt/a.clip" "$rt/a.clip"
expect rt-diff-json 1 '^tracks 3 same False events_same True slots_same True rest_same True$' sh -c "\"$bin\" clip diff \"$rt/a.clip\" \"$rt/b.clip\" --json > \"$rt/d.json\"; rc=\$?; python3 -c \"
import json; d = json.load(open('$rt/d.json')); print('tracks', len(d['tracks']), 'same', d['same'], 'events_same', d['events_same'], 'slots_same', d['slots_same'], 'rest_same', d['rest_same'])\"; exit \$rc"
expect rt-diff-missing 2 'cannot open' "$bin" clip diff "$rt/a.clip" "$rt/none.clip"
expect rt-diff-one 2 'which two clips' "$bin" clip diff "$rt/a.clip"
rt_bl drop-node "$rt/a.gltf" "$rt/nohead.gltf" b__Head__
"$bin" clip import "$rt/nohead.gltf" -o "$rt/nohead.clip" >/dev/null 2>&1
expect rt-diff-only 1 'tracks: 3 in A, 2 in B: 2 the same, 0 differ, 1 only in A, 0 only in B' "$bin" clip diff "$rt/a.clip" "$rt/nohead.clip"
expect rt-diff-only-named 1 '^only in A: track 0x0F97B21B b__Head__ rotation$' "$bin" clip diff "$rt/a.clip" "$rt/nohead.clip"
expect rt-diff-only-json 1 '"hash": "0x0F97B21B", "name": "b__Head__", "target": "rotation", "in": "a"}' "$bin" clip diff "$rt/a.clip" "$rt/nohead.clip" --json

# Blender keeps no extras: without a source the clip has none (a note), --like carries them back
rt_bl drop-extras "$rt/a.gltf" "$rt/n.gltf"
expect rt-blender-bare 0 'note: the glTF has no plumbob extras .*--like ORIGINAL' "$bin" clip import "$rt/n.gltf" -o "$rt/n.clip"
expect rt-blender-bare-counts 0 '3 tracks, 0 events' "$bin" clip import "$rt/n.gltf" -o "$rt/n.clip"
expect rt-like 0 '^carried 3 events, 4 IK slots in 4 chains and the source, actor and header fields from .*a\.clip$' "$bin" clip import "$rt/n.gltf" -o "$rt/like.clip" --like "$rt/a.clip"
expect rt-like-exact 0 '^slots 4 same, events 3 same$' python3 "$rt/same.py" "$bin" "$rt/a.clip" "$rt/like.clip"
expect rt-like-rest 1 'rest \(IK slot table, actor, event list, end block, outer header\): the same bytes' "$bin" clip diff "$rt/a.clip" "$rt/like.clip"
expect rt-like-nothing 0 '^carried nothing from .*a\.clip: the glTF has its own events, IK slots and clip fields$' "$bin" clip import "$rt/a.gltf" -o "$rt/like2.clip" --like "$rt/a.clip"
expect rt-like-no-carry 2 '--like and --no-carry contradict' "$bin" clip import "$rt/n.gltf" -o "$rt/x.clip" --like "$rt/a.clip" --no-carry
expect rt-like-not-clip 1 'a\.gltf: not a valid CLIP' "$bin" clip import "$rt/n.gltf" -o "$rt/x.clip" --like "$rt/a.gltf"
# --package carries from the clip it replaces by default; --no-carry is a loud warning
expect rt-package-new 0 'wrote a_synth_roundtrip_x .*3 tracks, 3 events' "$bin" clip import "$rt/a.gltf" --package "$rt/p.package"
expect rt-package-carry 0 '^carried 3 events, 4 IK slots in 4 chains and the source, actor and header fields from the replaced clip$' "$bin" clip import "$rt/n.gltf" --package "$rt/p.package"
expect rt-package-carry-diff 1 'IK slots: the same, 4 in 4 chains' "$bin" clip diff "$rt/a.clip" "$rt/p.package@a_synth_roundtrip_x"
expect rt-package-carry-events 1 'events: the same, 3' "$bin" clip diff "$rt/a.clip" "$rt/p.package@a_synth_roundtrip_x"
expect rt-package-no-carry 0 'warning: REPLACED BY A CLIP WITHOUT EVENTS AND IK SLOTS: it had 3 events and 4 IK slots the game needs, the new clip has none \(--no-carry' "$bin" clip import "$rt/n.gltf" --package "$rt/p.package" --no-carry
expect rt-package-no-carry-lost 1 'events: 3 in A, 0 in B' "$bin" clip diff "$rt/a.clip" "$rt/p.package@a_synth_roundtrip_x"
expect rt-package-after-no-carry 0 '^carried the source, actor and header fields from the replaced clip$' "$bin" clip import "$rt/n.gltf" --package "$rt/p.package"
# a replaced clip that does not decode is replaced, with a warning, nothing carried
rt_key=$("$bin" ls "$rt/p.package" | awk '$2 == "CLIP" {print $3 "_" $4}')
mkdir -p "$rt/bad"
printf '\363\304\040\153 broken clip' > "$rt/bad/6B20C4F3_$rt_key.clip"
"$bin" replace "$rt/p.package" "$rt/bad/6B20C4F3_$rt_key.clip" >/dev/null 2>&1
expect rt-package-broken 0 'warning: the clip this replaces does not decode \(truncated\): nothing carried from it' "$bin" clip import "$rt/n.gltf" --package "$rt/p.package"
expect rt-package-broken-replaced 0 'tracks   3 ' "$bin" clip dump "$rt/p.package@a_synth_roundtrip_x"
# a clip whose first event is of a type plumbob does not know: diff compares its bytes as they
# are; --like cannot carry its events and says so
python3 -c "
d = bytearray(open('$rt/a.clip', 'rb').read()); i = d.index(b'=CE=') + 20; d[i:i + 2] = b'\x77\x00'
open('$rt/unknown.clip', 'wb').write(d)"
expect rt-diff-unknown-event 0 'the clips are identical' "$bin" clip diff "$rt/unknown.clip" "$rt/unknown.clip"
expect rt-diff-unknown-event-differs 1 'events: 0 in A, 3 in B' "$bin" clip diff "$rt/unknown.clip" "$rt/a.clip"
expect rt-like-unknown-event 0 'unknown.clip: warning: 3 events cannot be carried: the list stops at one of a type plumbob does not know' "$bin" clip import "$rt/n.gltf" -o "$rt/x.clip" --like "$rt/unknown.clip"

# 24 fps: the keys off the 30 fps grid are a warning naming the cause and both fixes; --fps 24 keeps them
rt_bl resample "$rt/n.gltf" "$rt/r24.gltf" 24
expect rt-fps-warning 0 "warning: 57 of 78 key times are off the clip's 30 fps frame grid \(they sit on a 24 fps grid, Blender's default frame rate\).*set the scene's frame rate to 30 in Blender.*or import with --fps 24$" "$bin" clip import "$rt/r24.gltf" -o "$rt/r24.clip"
expect rt-fps-24-quiet 0 '^0$' sh -c "\"$bin\" clip import \"$rt/r24.gltf\" -o \"$rt/r24b.clip\" --fps 24 2>&1 | grep -c 'frame grid'; exit 0"
expect rt-fps-24-ticks 0 '3 tracks, 0 events, 25 ticks \(1\.042 s\)' "$bin" clip import "$rt/r24.gltf" -o "$rt/r24b.clip" --fps 24
expect rt-fps-other-way 0 "warning: 28 of 38 key times are off the clip's 25 fps frame grid \(they sit on a 30 fps grid\).*or import with --fps 30$" "$bin" clip import "$rt/n.gltf" -o "$rt/n25.clip" --fps 25
expect rt-fps-30-quiet 0 '^0$' sh -c "\"$bin\" clip import \"$rt/n.gltf\" -o \"$rt/n2.clip\" 2>&1 | grep -c 'frame grid'; exit 0"
# a second import in Blender: NAME.001 nodes drive their bones, with a note
rt_bl suffix "$rt/n.gltf" "$rt/s.gltf"
expect rt-suffix-note 0 "^note: 3 node names carry Blender's duplicate suffix, matched to the bone without it: b__Head__\.001 -> b__Head__, b__Spine0__\.001 -> b__Spine0__, \.\.\.$" "$bin" clip import "$rt/s.gltf" -o "$rt/s.clip"
expect rt-suffix-bones 1 'tracks: 3 in A, 3 in B: [0-9] the same, [0-9] differ, 0 only in A, 0 only in B; worst 0\.00[0-9]+ deg' "$bin" clip diff "$rt/a.clip" "$rt/s.clip"
rt_bl dup-node "$rt/n.gltf" "$rt/dup.gltf" b__Head__
expect rt-suffix-duplicate 0 'warning: 1 channel not carried .*: b__Head__\.001 \(rotation of that bone twice\)$' "$bin" clip import "$rt/dup.gltf" -o "$rt/dup.clip"
expect rt-suffix-duplicate-tracks 0 'wrote .*dup.clip .*: 3 tracks' "$bin" clip import "$rt/dup.gltf" -o "$rt/dup.clip"
# an armature rotated and scaled, an applied scale (scaled binds, translations x100)
rt_bl armature "$rt/n.gltf" "$rt/arm.gltf" 100 90
expect rt-armature 0 'warning: node Armature above the animated bones has a rotation of 90\.0 deg and a scale of 100 that no channel animates' "$bin" clip import "$rt/arm.gltf" -o "$rt/arm.clip"
rt_bl apply-scale "$rt/n.gltf" "$rt/ap.gltf" 100
expect rt-scaled-binds 0 'warning: 3 inverse bind matrices carry a scale \(an armature scale not applied\?\): a clip holds no scale' "$bin" clip import "$rt/ap.gltf" -o "$rt/ap.clip"
expect rt-far-translation 0 'warning: 1 translation track moves a bone more than 10 m from its parent \(b__ROOT__: 94\.87 m\)' "$bin" clip import "$rt/ap.gltf" -o "$rt/ap.clip"
expect rt-no-false-warnings 0 '^0$' sh -c "\"$bin\" clip import \"$rt/n.gltf\" -o \"$rt/n3.clip\" 2>&1 | grep -c 'warning'; exit 0"
# an edit: the head turned 30 degrees; clip diff names that track alone, by how much
rt_bl turn "$rt/n.gltf" "$rt/turn.gltf" b__Head__ 30
expect rt-turn-import 0 'carried 3 events' "$bin" clip import "$rt/turn.gltf" -o "$rt/turn.clip" --like "$rt/a.clip"
expect rt-turn-diff 1 'track 0x0F97B21B b__Head__ +rotation +differs: max 30\.0[0-9]* deg' "$bin" clip diff "$rt/a.clip" "$rt/turn.clip"
expect rt-turn-diff-count 1 'tracks: 3 in A, 3 in B: 2 the same, 1 differ' "$bin" clip diff "$rt/a.clip" "$rt/turn.clip"

# --- the modder's round trip on the corpus clip a2o_bassinet_feed_stop_x (1 sound event, 14 IK slots
# in 5 chains) on the adult rig
ew="$corpus/sims3/EWBreastfeed.package"
if [ -f "$ew" ] && [ -f "$corpus/sims3/auRig.rig" ]; then
    stop="$ew@a2o_bassinet_feed_stop_x"
    expect rt-corpus-before 0 'slots    14 in 5 IK chains' "$bin" clip dump "$stop"
    expect rt-corpus-export 0 '1 event and 14 IK slots are in the animation' "$bin" clip export "$stop" --rig "$corpus/sims3/auRig.rig" -o "$rt/stop.gltf"
    expect rt-corpus-import 0 'wrote .*stop.clip \([0-9]+ bytes\): 282 tracks, 1 events, 43 ticks \(1\.433 s\)' "$bin" clip import "$rt/stop.gltf" -o "$rt/stop.clip"
    expect rt-corpus-import-slots 0 'slots    14 in 5 IK chains' "$bin" clip dump "$rt/stop.clip"
    expect rt-corpus-exact 0 '^slots 14 same, events 1 same$' python3 "$rt/same.py" "$bin" "$stop" "$rt/stop.clip"
    expect rt-corpus-diff-slots 1 'IK slots: the same, 14 in 5 chains' "$bin" clip diff "$stop" "$rt/stop.clip"
    expect rt-corpus-diff-rest 1 'rest \(IK slot table, actor, event list, end block, outer header\): the same bytes' "$bin" clip diff "$stop" "$rt/stop.clip"
    expect rt-corpus-diff-tracks 1 'tracks: 282 in A, 282 in B: [0-9]+ the same, [0-9]+ differ, 0 only in A, 0 only in B; worst 0\.01[0-9]* deg' "$bin" clip diff "$stop" "$rt/stop.clip"
    # through "Blender": extras gone, the head turned 20 degrees, imported into (a copy of) the package
    rt_bl drop-extras "$rt/stop.gltf" "$rt/stop-bare.gltf"
    rt_bl turn "$rt/stop-bare.gltf" "$rt/stop-head.gltf" b__Head__ 20
    cp "$ew" "$rt/ew.package"; chmod u+w "$rt/ew.package"  # the corpus is read-only
    expect rt-corpus-package-carry 0 '^carried 1 event, 14 IK slots in 5 chains and the source, actor and header fields from the replaced clip$' "$bin" clip import "$rt/stop-head.gltf" --package "$rt/ew.package"
    expect rt-corpus-package-after 0 'slots    14 in 5 IK chains' "$bin" clip dump "$rt/ew.package@a2o_bassinet_feed_stop_x"
    expect rt-corpus-package-events 1 'events: the same, 1' "$bin" clip diff "$stop" "$rt/ew.package@a2o_bassinet_feed_stop_x"
    expect rt-corpus-package-rest 1 'rest \(IK slot table, actor, event list, end block, outer header\): the same bytes' "$bin" clip diff "$stop" "$rt/ew.package@a2o_bassinet_feed_stop_x"
    expect rt-corpus-package-head 1 'track 0x0F97B21B b__Head__ +rotation +differs: max 20\.0[0-9]* deg' "$bin" clip diff "$stop" "$rt/ew.package@a2o_bassinet_feed_stop_x"
    cp "$ew" "$rt/ew2.package"; chmod u+w "$rt/ew2.package"  # the corpus is read-only
    expect rt-corpus-no-carry 0 'REPLACED BY A CLIP WITHOUT EVENTS AND IK SLOTS: it had 1 event and 14 IK slots the game needs' "$bin" clip import "$rt/stop-head.gltf" --package "$rt/ew2.package" --no-carry
    expect rt-corpus-like-key 0 '^carried 1 event, 14 IK slots in 5 chains and the source, actor and header fields from .*EWBreastfeed\.package@6B20C4F3:00000000:7B3E677B55DC6E2A$' "$bin" clip import "$rt/stop-bare.gltf" -o "$rt/stop-like.clip" --like "$stop"
    rt_bl suffix "$rt/stop-bare.gltf" "$rt/stop-twice.gltf"
    expect rt-corpus-suffix 0 "^note: 141 node names carry Blender's duplicate suffix, matched to the bone without it: b__ROOT_bind__\.001 -> b__ROOT_bind__, b__Pelvis__\.001 -> b__Pelvis__, \.\.\.$" "$bin" clip import "$rt/stop-twice.gltf" -o "$rt/stop-twice.clip"
    expect rt-corpus-suffix-bones 1 'tracks: 282 in A, 282 in B: [0-9]+ the same, [0-9]+ differ, 0 only in A, 0 only in B; worst 0\.01[0-9]* deg' "$bin" clip diff "$stop" "$rt/stop-twice.clip"
    expect rt-corpus-like-exact 0 '^slots 14 same, events 1 same$' python3 "$rt/same.py" "$bin" "$stop" "$rt/stop-like.clip"
    # Blender at 24 fps: the warning, and what the resampling costs (bones nobody touched ~32 degrees off)
    rt_bl resample "$rt/stop-bare.gltf" "$rt/stop24.gltf" 24
    expect rt-corpus-24fps 0 "warning: 7614 of 10152 key times are off the clip's 30 fps frame grid \(they sit on a 24 fps grid, Blender's default frame rate\)" "$bin" clip import "$rt/stop24.gltf" -o "$rt/stop24.clip" --like "$stop"
    expect rt-corpus-24fps-cost 1 'tracks: 282 in A, 282 in B: [0-9]+ the same, [0-9]+ differ, 0 only in A, 0 only in B; worst 3[01]\.[0-9]+ deg' "$bin" clip diff "$stop" "$rt/stop24.clip"
    expect rt-corpus-24fps-length 1 'duration: 1\.433 s \(43 ticks of 0\.0333 s\) in A, 1\.467 s \(44 ticks of 0\.0333 s\) in B' "$bin" clip diff "$stop" "$rt/stop24.clip"
fi
# every corpus clip (9 with IK tables and events, 10 pet clips with an empty table and effect
# events): export then import gives the events, the slot table and the rest byte for byte
for p in "$corpus"/sims3/EWBreastfeed.package "$corpus"/sims3/PetFightingSkill.package; do
    [ -f "$p" ] || continue
    for inst in $("$bin" ls "$p" | awk '$2 == "CLIP" {print $4}'); do
        "$bin" clip export "$p@$inst" -o "$rt/all-$inst.glb" >/dev/null 2>&1
        "$bin" clip import "$rt/all-$inst.glb" -o "$rt/all-$inst.clip" >/dev/null 2>&1
        n=$("$bin" clip dump "$p@$inst" --json | python3 -c "import json, sys; d = json.load(sys.stdin); print(len(d['events']), len(d['slots']))")
        expect "rt-corpus-all-$inst" 0 "^events: the same, ${n% *};IK slots: the same, ${n#* } in [0-9]+ chains;rest \(IK slot table, actor, event list, end block, outer header\): the same bytes;$" \
            sh -c "\"$bin\" clip diff \"$p@$inst\" \"$rt/all-$inst.clip\" | grep -E '^(events|IK slots|rest)' | tr '\n' ';'"
    done
done
