# Run by tests/blender-tests.sh inside Blender (background mode):
#   blender -b --factory-startup --python tests/blender/check_import.py -- CASE.json
# CASE.json: {"label", "gltf" (a plumbob export), "plumbob" (the tool),
# "clip_file" (the clip it holds), and for a rigged mesh "gmdc", "bones" (the
# rig list's names), "skin": {"frames": [...]}, "track_frames": [...];
# "unrigged": true for a clip exported without a rig, with "node_count": the
# number of bones it animates, known beforehand}.
# Imports the export with Blender's own glTF importer and checks what a
# modder sees against what plumbob itself says (it runs the tool): bone
# names, the actions' frame range (the clip's duration), every joint's rotation and translation at
# a few frames (plumbob clip sample), shape keys and their animated weights,
# and the skinned vertex positions at a few frames (plumbob gmdc skin with
# the joints as Blender poses them).  Prints one line per check and
# `N passed, N failed`.
import json
import math
import subprocess
import sys
import tempfile

import numpy
# Debian's Blender 3.4 glTF importer still says numpy.bool, which the
# packaged numpy no longer has: give it the builtin, here and not in the tool.
if "bool" not in numpy.__dict__:
    numpy.bool = bool
import bpy
from mathutils import Matrix, Quaternion, Vector

expect = json.load(open(sys.argv[sys.argv.index("--") + 1]))
passed = failed = 0

# Tolerances, a few times the worst measured with Debian's Blender 3.4.1 (which
# computes in single precision) on the two cases of tests/blender-tests.sh:
# joint rotations, as the largest quaternion component difference, 3.5e-7
# against plumbob clip sample and 1e-7 against the demo's curves (1e-6 is about
# 2e-4 degrees; the old 1-|dot| < 1e-5 allowed 0.5 degrees); translations
# 1.4e-7 m; shape key weights 4e-10; skinned vertices 2.5e-7 on a mesh 2 units
# tall; action frame ranges 7.6e-6 frames.
TOL_ROTATION = 1e-6
TOL_CURVE_ROTATION = 5e-7
TOL_TRANSLATION = 1e-6
TOL_WEIGHT = 1e-7
TOL_VERTEX = 1e-6
TOL_FRAMES = 1e-4


def plumbob(*args):
    return json.loads(subprocess.run([expect["plumbob"]] + list(args), check=True, capture_output=True, text=True).stdout)


def fnv64_low(name):
    h = 0xCBF29CE484222325
    for c in name.lower().encode():
        h = ((h * 0x100000001B3) & 0xFFFFFFFFFFFFFFFF) ^ c
    return h & 0xFFFFFFFF


# what plumbob says: the clip's duration, its nodes, and the mesh's morphs and binds
dump = plumbob("clip", "dump", expect["clip_file"], "--json")
expect["clip"] = dump["name"]
expect["duration"] = dump["duration"]
if expect.get("unrigged"):
    # nodes are named after the bone when the tool knows the name, else 0xHASH
    expect["nodes"] = sorted(set(t.get("name") or "0x%08X" % int(t["hash"], 16) for t in dump["tracks"]))
if "gmdc" in expect:
    mesh_dump = plumbob("gmdc", "dump", expect["gmdc"], "--json")
    expect["shape_keys"] = [m[1] for m in mesh_dump["morphs"] if m[1]]
    expect["skin"]["inverse_binds"] = mesh_dump["joints"]
    expect["skin"]["joint_bones"] = expect["bones"]


def check(ok, what, detail=""):
    global passed, failed
    if ok:
        passed += 1
        print("ok   " + what)
    else:
        failed += 1
        print("FAIL " + what + (": " + detail if detail else ""))


bpy.ops.wm.read_factory_settings(use_empty=True)
scene = bpy.context.scene
scene.render.fps = expect.get("fps", 24)
bpy.ops.import_scene.gltf(filepath=expect["gltf"])
fps = scene.render.fps / scene.render.fps_base
label = expect["label"]

# --- the armature's bones -------------------------------------------------------
arms = [o for o in bpy.data.objects if o.type == "ARMATURE"]
if "bones" in expect:
    names = [b.name for b in arms[0].data.bones] if arms else []
    check(names == expect["bones"], "%s: the armature's bones are %s" % (label, " ".join(expect["bones"][:6]) + (" ..." if len(expect["bones"]) > 6 else "")),
          "got %s" % names)
if "nodes" in expect:
    # without a rig the tool names each animated bone's node 0xHASH
    got = set(o.name for o in bpy.data.objects)
    missing = [n for n in expect["nodes"] if n not in got]
    # the count from the case file, so an empty track list cannot pass as "none missing"
    check(not missing and len(expect["nodes"]) == expect.get("node_count", -1),
          "%s: all %d animated bones are nodes named by name or 0xHASH" % (label, expect.get("node_count", -1)),
          "%d listed by the tool, missing %s" % (len(expect["nodes"]), missing[:5]))

# --- the action -----------------------------------------------------------------
acts = [a for a in bpy.data.actions if a.name.startswith(expect["clip"])]
check(len(acts) > 0, "%s: actions named after the clip %s" % (label, expect["clip"]), "actions %s" % [a.name for a in bpy.data.actions])
# the frame range of every one of the clip's actions: 0 to the clip's duration
# (the export holds every channel's last value to the clip's end)
lo = min([a.frame_range[0] for a in acts] or [-1])
hi_all = [a.frame_range[1] for a in acts] or [-1]
end = expect["duration"] * fps
d_frames = max([abs(lo)] + [abs(hi - end) for hi in hi_all])
check(d_frames < TOL_FRAMES,
      "%s: %d action(s) each span frames 0 to %.3f (the clip's duration, %.4f s, %g fps; off by %.2g frames at most)"
      % (label, len(acts), end, expect["duration"], fps, d_frames),
      "got %.6f to %s" % (lo, sorted(set("%.6f" % hi for hi in hi_all))))

# --- bone and node transforms at a few frames against plumbob clip sample -------
# A joint's transform relative to its parent is the clip's value for the
# bone (FNV-32 of its name; nodes of unknown names are called 0xHASH); a root also
# carries the tool's Z-up to Y-up turn, which the importer turns back.
def fnv32(name):
    h = 0x811C9DC5
    for c in name.lower().encode():
        h = ((h * 0x01000193) & 0xFFFFFFFF) ^ c
    return h


UP = Matrix.Rotation(1.5707963267948966, 4, "X")


def quat_diff(q, xyzw):
    """The largest component difference of two unit quaternions (q and -q alike)."""
    x, y, z, w = xyzw
    a = (q.w, q.x, q.y, q.z)
    b = (w, x, y, z)
    return min(max(abs(p - r) for p, r in zip(a, b)), max(abs(p + r) for p, r in zip(a, b)))


def joints():
    """(hash, function giving the parent-relative matrix) for every joint."""
    out = []
    for arm in arms:
        def world(pb, arm=arm):
            return arm.matrix_world @ pb.matrix @ pb.bone.matrix_local.inverted() @ arm.matrix_world @ pb.bone.matrix_local
        for pb in arm.pose.bones:
            out.append((fnv32(pb.name), lambda pb=pb, world=world: (world(pb.parent).inverted() if pb.parent else UP.inverted()) @ world(pb)))
    for o in bpy.data.objects:
        if o.type == "EMPTY":
            # a bone node named 0xHASH or by its name; the importer turns each
            # root node's axes Y-up to Z-up (conjugation)
            h = int(o.name[2:10], 16) if o.name.startswith("0x") else fnv32(o.name)
            out.append((h, lambda o=o: o.parent.matrix_world.inverted() @ o.matrix_world if o.parent
                        else UP.inverted() @ o.matrix_world @ UP))
    return out


if "track_frames" in expect:
    js = joints()
    for frame in expect["track_frames"]:
        scene.frame_set(frame)
        t = frame / fps
        sample = plumbob("clip", "sample", expect["clip_file"], "--time", "%.9g" % t, "--json")
        by_hash = {}
        for tr in sample["tracks"]:
            by_hash.setdefault(int(tr["hash"], 16), {})[tr["target"]] = tr["value"]
        compared = worst_r = worst_t = 0.0
        bad = []
        for h, local in js:
            tr = by_hash.get(h)
            if not tr:
                continue
            m = local()
            if "rotation" in tr:
                d = quat_diff(m.to_quaternion(), tr["rotation"])
                worst_r = max(worst_r, d)
                if d > TOL_ROTATION:
                    bad.append("0x%08X rotation %.2g" % (h, d))
            if "translation" in tr:
                d = (m.to_translation() - Vector(tr["translation"])).length
                worst_t = max(worst_t, d)
                if d > TOL_TRANSLATION:
                    bad.append("0x%08X translation %.2g" % (h, d))
            compared += 1
        check(compared > 0 and not bad,
              "%s: frame %d (%.4f s): %d joints' rotations and translations are plumbob clip sample's (worst quaternion component %.2g, distance %.2g)"
              % (label, frame, t, compared, worst_r, worst_t), "differ: %s" % bad[:6])

# --- the demo's joints at its key times against the curves it was made from --------
# Independent of plumbob's sampler: tools/util/demo_data.c keys b__Spine0__ every
# 2 ticks (1/15 s) at a rotation about Z of 0 -> 90 -> 0 degrees and b__ROOT__ at a
# rise of 0 -> 0.5 m, and holds b__ROOT__'s rotation at identity.  At a frame on a
# key Blender must show those values as the CLIP format stores them (docs/FORMATS.md:
# a component is +-raw/max * scale + offset, max 4095 for 12-bit quaternions and
# 1023 for 10-bit vectors, with the offset and scale the track's header holds), a
# rotation made unit; all computed here in double precision with math.
def quantized(v, track, top):
    u = (v - track["offset"]) / track["scale"]
    return math.copysign(round(abs(u) * top) / top, u) * track["scale"] + track["offset"]


if expect.get("demo_curves"):
    js = dict(joints())
    tracks = dict(((t.get("name"), t["target"]), t) for t in dump["tracks"])
    for frame in expect["demo_curves"]:
        scene.frame_set(frame)
        k = frame / fps * 15.0  # the key index (frames on keys only)
        a = (k / 30.0 if k <= 15.0 else 1.0 - k / 30.0) * 2.0
        q = [quantized(c, tracks[("b__Spine0__", "rotation")], 4095)
             for c in (0.0, 0.0, math.sin(a * math.pi / 4), math.cos(a * math.pi / 4))]
        n = math.sqrt(sum(c * c for c in q))
        want_spine = [c / n for c in q]
        want_root = [quantized(c, tracks[("b__ROOT__", "translation")], 1023) for c in (0.0, 0.5 * k / 30.0, 0.0)]
        spine = js[fnv32("b__Spine0__")]().to_quaternion()
        root = js[fnv32("b__ROOT__")]()
        d_r = max(quat_diff(spine, want_spine), quat_diff(root.to_quaternion(), [0.0, 0.0, 0.0, 1.0]))
        d_t = (root.to_translation() - Vector(want_root)).length
        check(abs(k - round(k)) < 1e-9 and d_r <= TOL_CURVE_ROTATION and d_t <= TOL_TRANSLATION,
              "%s: frame %d (key %g): b__Spine0__ turned %.1f degrees about Z, b__ROOT__ at (0, %.6f, 0), as the demo's curves say "
              "(worst quaternion component %.2g, distance %.2g)" % (label, frame, k, a * 90.0, 0.5 * k / 30.0, d_r, d_t))

# --- shape keys -------------------------------------------------------------------
meshes = [o for o in bpy.data.objects if o.type == "MESH"]
if "shape_keys" in expect:
    keys = []
    for o in meshes:
        if o.data.shape_keys:
            keys = [k.name for k in o.data.shape_keys.key_blocks]
    check(keys == ["Basis"] + expect["shape_keys"], "%s: shape keys Basis %s" % (label, " ".join(expect["shape_keys"])), "got %s" % keys)

# --- skinned vertices at a few frames against plumbob gmdc skin -----------------------
if "skin" in expect:
    sk = expect["skin"]
    mesh = meshes[0]
    arm = arms[0]
    # the bind pose: GMDC joints hold inverse binds (rotation x y z w, translation)
    binds = []
    for j in sk["inverse_binds"]:
        x, y, z, w = j["rotation"]
        ib = Matrix.Translation(Vector(j["translation"])) @ Quaternion((w, x, y, z)).to_matrix().to_4x4()
        binds.append(ib.inverted())
    for frame in sk["frames"]:
        scene.frame_set(frame)
        dg = bpy.context.evaluated_depsgraph_get()
        # the morph weights Blender plays at this frame, against plumbob clip sample
        weights = {}
        if mesh.data.shape_keys:
            for k in mesh.data.shape_keys.key_blocks[1:]:
                weights[k.name] = k.value
        sample = plumbob("clip", "sample", expect["clip_file"], "--time", "%.9g" % (frame / fps), "--json")
        morphs = dict((int(t["hash"], 16), t["value"][0]) for t in sample["tracks"] if t["target"] == "morph")
        for name, got in weights.items():
            want = morphs.get(fnv64_low(name))
            if want is None:
                continue
            check(abs(got - want) <= TOL_WEIGHT,
                  "%s: frame %d: shape key %s = %.6f (plumbob clip sample: %.6f, off by %.2g)" % (label, frame, name, got, want, abs(got - want)))
        # each joint's model transform as Blender poses it: its deformation
        # (posed x rest^-1, world space) times the GMDC bind
        pose = []
        for i, bname in enumerate(sk["joint_bones"]):
            pb = arm.pose.bones[bname]
            deform = arm.matrix_world @ pb.matrix @ pb.bone.matrix_local.inverted() @ arm.matrix_world.inverted()
            m = deform @ binds[i]
            q = m.to_quaternion()
            t = m.to_translation()
            pose.append({"rotation": [q.x, q.y, q.z, q.w], "translation": [t.x, t.y, t.z]})
        with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as f:
            json.dump({"joints": pose}, f)
            pose_path = f.name
        cmd = [expect["plumbob"], "gmdc", "skin", expect["gmdc"], "--pose", pose_path, "--json"]
        for name, w in weights.items():
            cmd += ["--morph", "%s=%.9g" % (name, w)]
        out = json.loads(subprocess.run(cmd, check=True, capture_output=True, text=True).stdout)
        want = [Vector(p) for g in out["groups"] for p in g["positions"]]
        ev = mesh.evaluated_get(dg)
        me = ev.to_mesh()
        got = [ev.matrix_world @ v.co for v in me.vertices]
        ev.to_mesh_clear()
        # the importer may reorder vertices: match each to its nearest
        worst = 0.0
        for p in want:
            worst = max(worst, min((p - q).length for q in got))
        for q in got:
            worst = max(worst, min((p - q).length for p in want))
        check(len(got) == len(want) and worst <= TOL_VERTEX,
              "%s: frame %d: the %d skinned vertices Blender shows are plumbob gmdc skin's (worst distance %.2g)" % (label, frame, len(want), worst),
              "%d vs %d vertices" % (len(got), len(want)))

print("%d passed, %d failed" % (passed, failed))
sys.stdout.flush()
