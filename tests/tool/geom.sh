# Sims 3 GEOM body meshes: info / check / ls / extract, geom dump, skin,
# export, import, on a GEOM built here byte by byte (on the demo's rig and
# clip) and, when the corpus is there, on a real top and auRig.  Sourced by
# tool-tests.sh with bin, tmp, corpus and expect().
mkdir -p "$tmp/geom"
"$bin" demo --out "$tmp/geom/demo" >/dev/null 2>&1
grig=$(ls "$tmp"/geom/demo/*.rig | head -1)
gclip=$(ls "$tmp"/geom/demo/*.clip | head -1)
# a GEOM by hand: RCOL 3 wrapper, GEOM 5, no material, 4 vertices of the 7
# elements real files hold (68 bytes), 2 triangles, bones b__Spine0__,
# b__Spine1__ and 0xDEADBEEF (no bone of the demo rig), one TGI
python3 - "$tmp/geom/quad.simgeom" "$tmp/geom/quad-morph.simgeom" <<'PY'
import struct, sys
def fnv32(s):
    h = 0x811C9DC5
    for c in s.lower().encode():
        h = (h * 0x01000193) & 0xFFFFFFFF
        h ^= c
    return h
def geom(elements, verts, indices, bones, tgis):
    body = struct.pack("<4I", 0, 0, len(verts), len(elements))
    for u, t, s in elements:
        body += struct.pack("<2IB", u, t, s)
    body += b"".join(verts)
    body += struct.pack("<IBI", 1, 2, len(indices)) + struct.pack("<%dH" % len(indices), *indices)
    body += struct.pack("<I", 0) + struct.pack("<I", len(bones)) + struct.pack("<%dI" % len(bones), *bones)
    tgi = struct.pack("<I", len(tgis)) + b"".join(struct.pack("<IIQ", *t) for t in tgis)
    # the TGI offset counts from the end of its own field: embedded id + body follow it
    head_after_offset = 4 + 4  # the size field, the embedded id
    chunk = b"GEOM" + struct.pack("<I", 5) + struct.pack("<II", head_after_offset + len(body), len(tgi)) + \
        struct.pack("<I", 0) + body + tgi
    rcol = struct.pack("<5I", 3, 0, 0, 0, 1) + struct.pack("<QII", 0, 0, 0) + struct.pack("<II", 44, len(chunk))
    return rcol + chunk
P = [(0.0, 1.0, 0.0), (0.0, 1.5, 0.1), (0.2, 2.0, 0.0), (0.1, 2.5, 0.0)]
W = [((0, 0, 0, 0), (1, 0, 0, 0)), ((0, 1, 0, 0), (0.5, 0.5, 0, 0)), ((1, 0, 0, 0), (1, 0, 0, 0)),
     ((2, 1, 0, 0), (0.25, 0.75, 0, 0))]
els = [(1, 1, 12), (2, 1, 12), (3, 1, 8), (4, 2, 4), (5, 1, 16), (10, 4, 4), (6, 1, 12)]
verts = []
for i, p in enumerate(P):
    verts.append(struct.pack("<3f", *p) + struct.pack("<3f", 0, 0, 1) + struct.pack("<2f", 0.25 * i, 1 - 0.25 * i) +
                 bytes(W[i][0]) + struct.pack("<4f", *W[i][1]) + struct.pack("<I", 100 + i) + struct.pack("<3f", 1, 0, 0))
bones = [fnv32("b__Spine0__"), fnv32("b__Spine1__"), 0xDEADBEEF]
open(sys.argv[1], "wb").write(geom(els, verts, [0, 1, 2, 0, 2, 3], bones, [(0x00AE6C67, 0, 0x1122334455667788)]))
# a morph: position, normal, vertex id; moves vertex id 101 by (0.5, 0, 0)
mv = [struct.pack("<3f", 0.5, 0, 0) + struct.pack("<3f", 0, 0, 0) + struct.pack("<I", 101)]
open(sys.argv[2], "wb").write(geom([(1, 1, 12), (2, 1, 12), (10, 4, 4)], mv, [0, 0, 0], [], [(0x00AE6C67, 0, 0)]))
PY
quad="$tmp/geom/quad.simgeom"
expect geom-help 0 'usage: plumbob geom dump' "$bin" geom --help
expect geom-info 0 'quad.simgeom: Sims 3 GEOM, version 5, 4 vertices, 2 triangles, 7 elements, 3 bones, 1 TGIs, material 0 bytes' "$bin" info "$quad"
expect geom-check 0 'round trip identical' "$bin" check "$quad"
expect geom-dump 0 'element  4 weights +usage 5, type 1, 16 bytes at offset 36' "$bin" geom dump "$quad"
expect geom-dump-tgi 0 'tgi +0 00AE6C67:00000000:1122334455667788' "$bin" geom dump "$quad"
expect geom-dump-rig-name 0 'bone +1 0x[0-9A-F]{8} b__Spine1__' "$bin" geom dump "$quad" --rig "$grig"
expect geom-dump-rig-unbound 0 'bone +2 0xDEADBEEF \(not in the rig\)' "$bin" geom dump "$quad" --rig "$grig"
expect geom-dump-json 0 '^ok 7 3 1$' sh -c "\"$bin\" geom dump \"$quad\" --rig \"$grig\" --json | \"${1:-build}/json-check\" - '#elements' '#bones' '#tgis' vertex_count index_size"
expect geom-dump-json-values 0 '^ok$' sh -c "\"$bin\" geom dump \"$quad\" --rig \"$grig\" --json | python3 -c '
import json, sys
d = json.load(sys.stdin)
assert d[\"version\"] == 5 and d[\"vertex_stride\"] == 68 and d[\"index_count\"] == 6 and d[\"material_size\"] == 0
assert [e[\"name\"] for e in d[\"elements\"]] == [\"position\", \"normal\", \"uv\", \"assignment\", \"weights\", \"vertex_id\", \"tangent\"]
assert [e[\"offset\"] for e in d[\"elements\"]] == [0, 12, 24, 32, 36, 52, 56]
assert d[\"bones\"][0][\"name\"] == \"b__Spine0__\" and d[\"bones\"][2] == {\"hash\": \"0xDEADBEEF\", \"name\": None, \"bound\": False}
print(\"ok\")'"
# skin: the rest pose gives the file's positions; a clip moves them; the unbound bone is named
geom_same() { # JSON A, JSON B, bound: "same" when positions and normals agree within the bound
    python3 - "$@" <<'PY'
import json, sys
a, b = (json.load(open(f)) for f in sys.argv[1:3])
if isinstance(b, list):
    b = {"positions": b, "normals": a["normals"]}
bound = float(sys.argv[3])
worst = max([abs(x - y) for k in ("positions", "normals") for p, q in zip(a[k], b[k]) for x, y in zip(p, q)] + [0])
ok = len(a["positions"]) == len(b["positions"]) and len(a["positions"]) > 0
print("same" if ok and worst <= bound else "differ by %g (%d vs %d vertices)" % (worst, len(a["positions"]), len(b["positions"])))
PY
}
geom_file_positions() { # GEOM -> its positions as a JSON list (by a reader of its own)
    python3 - "$1" <<'PY'
import json, struct, sys
d = open(sys.argv[1], "rb").read()
o, = struct.unpack_from("<I", d, 36)
emb, = struct.unpack_from("<I", d, o + 16)
p = o + 20 + (4 + struct.unpack_from("<I", d, o + 20)[0] if emb else 0)
vc, ec = struct.unpack_from("<2I", d, p + 8); p += 16
els, off = [], 0
for i in range(ec):
    u, t = struct.unpack_from("<2I", d, p); s = d[p + 8]; p += 9
    els.append((u, off)); off += s
pos = [off_ for u, off_ in els if u == 1][0]
print(json.dumps([list(struct.unpack_from("<3f", d, p + v * off + pos)) for v in range(vc)]))
PY
}
export -f geom_same geom_file_positions 2>/dev/null
"$bin" geom skin "$quad" --rig "$grig" --json > "$tmp/geom/rest.json" 2>"$tmp/geom/rest.err"
geom_file_positions "$quad" > "$tmp/geom/quad-pos.json"
expect geom-skin-rest 0 '^same$' geom_same "$tmp/geom/rest.json" "$tmp/geom/quad-pos.json" 1e-5
expect geom-skin-unbound-warning 0 'warning: 1 of the mesh.s 3 bone hashes is not in the rig .*0xDEADBEEF' "$bin" geom skin "$quad" --rig "$grig" --json
expect geom-skin-json-parses 0 '^ok 4 4$' sh -c "\"$bin\" geom skin \"$quad\" --rig \"$grig\" --json 2>/dev/null | \"${1:-build}/json-check\" - '#positions' '#normals'"
"$bin" geom skin "$quad" --rig "$grig" --clip "$gclip" --time 1.0 --json > "$tmp/geom/posed.json" 2>/dev/null
expect geom-skin-clip-moves 0 '^differ' geom_same "$tmp/geom/posed.json" "$tmp/geom/quad-pos.json" 1e-3
# vertex 0 sits at b__Spine0__'s origin, weighted to it alone: turning the bone leaves it on the Y axis
expect geom-skin-clip-pivot 0 '^on the axis$' python3 -c 'import json, sys; p = json.load(open(sys.argv[1]))["positions"][0]; print("on the axis" if abs(p[0]) < 1e-5 and abs(p[2]) < 1e-5 and p[1] >= 1 - 1e-5 else p)' "$tmp/geom/posed.json"
expect geom-skin-morph 0 '^moved$' sh -c "\"$bin\" geom skin \"$quad\" --rig \"$grig\" --morph \"$tmp/geom/quad-morph.simgeom=0.5\" --json 2>/dev/null | python3 -c 'import json, sys; p = json.load(sys.stdin)[\"positions\"]; print(\"moved\" if abs(p[1][0] - 0.25) < 1e-5 and abs(p[0][0]) < 1e-6 else p)'"
# export: the rig's skeleton, the skin, the clip; our checker; import back
expect geom-export 0 'wrote .*quad.glb \([0-9]+ bytes\): 7 nodes, 1 primitives with 4 vertices and 0 morph targets, 3 joints' "$bin" geom export "$quad" --rig "$grig" -o "$tmp/geom/quad.glb"
expect geom-export-check 0 'ok: valid glTF 2.0 \(GLB, [0-9]+ bytes\): 7 nodes, 1 meshes \(1 primitives, 4 vertices, 0 morph targets\), 1 skins \(3 joints\)' "$bin" check "$tmp/geom/quad.glb"
expect geom-export-clip 0 'animation channels' "$bin" geom export "$quad" --rig "$grig" --clip "$gclip" -o "$tmp/geom/quad-clip.gltf"
expect geom-export-clip-check 0 '1 animations' "$bin" check "$tmp/geom/quad-clip.gltf"
expect geom-export-from-clip 0 'animation channels' "$bin" clip export "$gclip" --rig "$grig" --geom "$quad" -o "$tmp/geom/clip-quad.glb"
expect geom-export-from-clip-same 0 '' cmp <("$bin" check "$tmp/geom/clip-quad.glb" | sed 's/([^)]*bytes)//') <("$bin" check "$tmp/geom/quad-clip.gltf" | sed 's/([^)]*bytes)//')
expect geom-export-bone-names 0 '"name": ?"b__Spine1__"' sh -c "python3 -c 'import json,sys; print(json.dumps(json.load(open(sys.argv[1]))[\"nodes\"]))' \"$tmp/geom/quad-clip.gltf\""
expect geom-export-two 0 '2 primitives with 8 vertices' "$bin" geom export "$quad" "$quad" --rig "$grig" -o "$tmp/geom/two.glb"
expect geom-import-like 0 'wrote .*quad2.simgeom \([0-9]+ bytes\): 4 vertices, 2 triangles, 7 elements, 3 bones, the rest as the original' "$bin" geom import "$tmp/geom/quad.glb" --rig "$grig" --like "$quad" -o "$tmp/geom/quad2.simgeom"
expect geom-import-like-same-bytes 0 '' cmp "$quad" "$tmp/geom/quad2.simgeom"
expect geom-import-plain 0 'wrote .*quad3.simgeom .*: 4 vertices, 2 triangles, 6 elements, 3 bones \(no material' "$bin" geom import "$tmp/geom/quad.glb" --rig "$grig" -o "$tmp/geom/quad3.simgeom"
expect geom-import-plain-check 0 'round trip identical' "$bin" check "$tmp/geom/quad3.simgeom"
"$bin" geom skin "$tmp/geom/quad3.simgeom" --rig "$grig" --clip "$gclip" --time 1.0 --json > "$tmp/geom/posed3.json" 2>/dev/null
expect geom-import-plain-skins-same 0 '^same$' geom_same "$tmp/geom/posed3.json" "$tmp/geom/posed.json" 1e-5
# packages: ls names it, extract writes .simgeom, info and check read it from the package
mkdir -p "$tmp/geom/res"
cp "$quad" "$tmp/geom/res/015A1849_00000000_0000000000ABCDEF.simgeom"
expect geom-pack 0 'packed 1 resources' "$bin" pack -o "$tmp/geom/quad.package" "$tmp/geom/res/015A1849_00000000_0000000000ABCDEF.simgeom"
expect geom-ls 0 '015A1849 GEOM  00000000 0000000000ABCDEF' "$bin" ls "$tmp/geom/quad.package"
expect geom-extract 0 'extracted 1 of 1 resources' "$bin" extract "$tmp/geom/quad.package" -o "$tmp/geom/x"
expect geom-extract-name 0 '' cmp "$tmp/geom/x/015A1849_00000000_0000000000ABCDEF.simgeom" "$quad"
expect geom-info-package 0 '@015A1849:00000000:0000000000ABCDEF: Sims 3 GEOM, version 5' "$bin" info "$tmp/geom/quad.package@ABCDEF"
expect geom-check-package 0 '1 resources: 1 decoded, 1 round-tripped identical' "$bin" check "$tmp/geom/quad.package"
expect geom-dump-package 0 'Sims 3 GEOM, version 5, 4 vertices' "$bin" geom dump "$tmp/geom/quad.package"
# errors: exit codes and messages
expect geom-no-mesh 2 'which mesh\?' "$bin" geom dump
expect geom-skin-no-rig 2 '--rig RIG is required' "$bin" geom skin "$quad" --json
expect geom-skin-no-json 2 'give --json' "$bin" geom skin "$quad" --rig "$grig"
expect geom-time-no-clip 2 '--time needs --clip' "$bin" geom skin "$quad" --rig "$grig" --time 1 --json
expect geom-export-no-out 2 '-o OUT.glb or OUT.gltf is required' "$bin" geom export "$quad" --rig "$grig"
expect geom-export-bad-ext 2 '' "$bin" geom export "$quad" --rig "$grig" -o "$tmp/geom/x.obj"
expect geom-unknown-sub 2 "unknown subcommand 'frob'" "$bin" geom frob
expect geom-wrong-kind 1 'is a Sims 3 CLIP, not a Sims 3 GEOM mesh; try plumbob clip dump' "$bin" geom dump "$gclip"
expect geom-rig-wrong-kind 1 '--rig wants a Sims 3 rig; this is a Sims 3 GEOM mesh' "$bin" geom dump "$quad" --rig "$quad"
head -c 100 "$quad" > "$tmp/geom/short.simgeom"
expect geom-truncated 1 'not a valid GEOM: truncated' "$bin" geom dump "$tmp/geom/short.simgeom"
expect geom-bad-morph-arg 2 '--morph needs MORPH=WEIGHT' "$bin" geom skin "$quad" --rig "$grig" --morph nothing --json
expect geom-import-no-rig 2 '--rig RIG is required' "$bin" geom import "$tmp/geom/quad.glb" -o "$tmp/geom/q4.simgeom"
expect geom-import-not-gltf 1 'not a glTF' "$bin" geom import "$quad" --rig "$grig" -o "$tmp/geom/q5.simgeom"
expect geom-import-bad-ext 2 '' "$bin" geom import "$tmp/geom/quad.glb" --rig "$grig" -o "$tmp/geom/q6.glb"
expect geom-clip-export-geom-no-rig 2 '--geom needs one --rig RIG' "$bin" clip export "$gclip" --geom "$quad" -o "$tmp/geom/q7.glb"

# the real top on auRig, when the corpus is there
top="$corpus/sims3/afTopBlouseOffShoulder_lod1.simgeom"
aurig="$corpus/sims3/auRig.rig"
feed="$corpus/sims3/EWBreastfeed.package@7B3E677B55DC6E2A"
if [ -f "$top" ] && [ -f "$aurig" ]; then
    expect geom-corpus-info 0 'Sims 3 GEOM, version 5, 2011 vertices, [0-9]+ triangles, 7 elements, 51 bones' "$bin" info "$top"
    expect geom-corpus-check 0 'round trip identical' "$bin" check "$top"
    expect geom-corpus-dump-rig 0 '51 of 51 bones in the rig, 0 not' "$bin" geom dump "$top" --rig "$aurig"
    expect geom-corpus-dump-pelvis 0 '0x556B181A b__[Pp]elvis__' "$bin" geom dump "$top" --rig "$aurig"
    "$bin" geom skin "$top" --rig "$aurig" --json > "$tmp/geom/top-rest.json" 2>/dev/null
    geom_file_positions "$top" > "$tmp/geom/top-pos.json"
    expect geom-corpus-skin-rest 0 '^same$' geom_same "$tmp/geom/top-rest.json" "$tmp/geom/top-pos.json" 1e-5
    expect geom-corpus-export 0 'wrote .*top.glb .*1 primitives with 2011 vertices' "$bin" geom export "$top" --rig "$aurig" --clip "$feed" -o "$tmp/geom/top.glb"
    expect geom-corpus-export-check 0 'valid glTF 2.0 .*1 skins \(51 joints\), 1 animations' "$bin" check "$tmp/geom/top.glb"
    expect geom-corpus-import 0 'the rest as the original$' "$bin" geom import "$tmp/geom/top.glb" --rig "$aurig" --like "$top" -o "$tmp/geom/top2.simgeom"
    expect geom-corpus-import-check 0 'round trip identical' "$bin" check "$tmp/geom/top2.simgeom"
    "$bin" geom skin "$top" --rig "$aurig" --clip "$feed" --time 0.5 --json > "$tmp/geom/top-posed.json" 2>/dev/null
    "$bin" geom skin "$tmp/geom/top2.simgeom" --rig "$aurig" --clip "$feed" --time 0.5 --json > "$tmp/geom/top2-posed.json" 2>/dev/null
    expect geom-corpus-roundtrip-skins-same 0 '^same$' geom_same "$tmp/geom/top2-posed.json" "$tmp/geom/top-posed.json" 1e-5
    expect geom-corpus-clip-export-geom 0 '1 primitives with 2011 vertices' "$bin" clip export "$feed" --rig "$aurig" --geom "$top" -o "$tmp/geom/feed-top.glb"
    expect geom-corpus-pairing 0 "warning: .*al2a_.*small dog's clip" "$bin" geom skin "$top" --rig "$aurig" --clip "$corpus/sims3/PetFightingSkill.package@C06363A8DEA2048E" --json
fi
true
