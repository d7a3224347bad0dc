# Run by tests/blender-tests.sh inside Blender (background mode):
#   blender -b --factory-startup --python tests/blender/geom_check.py -- CASE.json
# CASE.json: {"label", "gltf" (a `plumbob geom export --clip` output),
# "plumbob" (the tool), "geom" (the mesh it holds), "rig", "clip_file",
# "bones" (names that must be there), "frames" (two or more frames)}.
# Imports the export with Blender's own glTF importer and checks what a
# modder sees against what plumbob says: the rig's bone names, the action's
# frame range (the clip's duration), and at each frame every skinned vertex
# Blender shows against `plumbob geom skin --clip --time` (Y-up turned to
# Blender's Z-up as the importer does).  Prints one line per check and
# `N passed, N failed`.
import json
import subprocess
import sys

import numpy
if "bool" not in numpy.__dict__:  # Debian's Blender 3.4 importer says numpy.bool
    numpy.bool = bool
import bpy

expect = json.load(open(sys.argv[sys.argv.index("--") + 1]))
passed = failed = 0
# Blender computes in single precision; a body mesh 1.8 m tall skinned through
# a deep chain of bones: a few float steps at that size
TOL_VERTEX = 2e-5
TOL_FRAMES = 1e-4


def plumbob(*args):
    return json.loads(subprocess.run([expect["plumbob"]] + list(args), check=True, capture_output=True, text=True).stdout)


def check(ok, what, detail=""):
    global passed, failed
    if ok:
        passed += 1
        print("ok   " + what)
    else:
        failed += 1
        print("FAIL " + what + (": " + detail if detail else ""))


dump = plumbob("clip", "dump", expect["clip_file"], "--json")
bpy.ops.wm.read_factory_settings(use_empty=True)
scene = bpy.context.scene
scene.render.fps = 30
bpy.ops.import_scene.gltf(filepath=expect["gltf"])
fps = scene.render.fps / scene.render.fps_base
label = expect["label"]

# --- the rig's bones, by name ------------------------------------------------------
names = set(o.name for o in bpy.data.objects)
for arm in [o for o in bpy.data.objects if o.type == "ARMATURE"]:
    names |= set(b.name for b in arm.data.bones)
missing = [n for n in expect["bones"] if n not in names]
check(not missing, "%s: the rig's bones %s are there by name" % (label, " ".join(expect["bones"][:5]) + " ..."),
      "missing %s" % missing[:6])

# --- the action ----------------------------------------------------------------------
acts = [a for a in bpy.data.actions if a.name.startswith(dump["name"])]
lo = min([a.frame_range[0] for a in acts] or [-1])
hi = max([a.frame_range[1] for a in acts] or [-1])
end = dump["duration"] * fps
check(acts and abs(lo) < TOL_FRAMES and abs(hi - end) < TOL_FRAMES,
      "%s: the action %s spans frames 0 to %.3f (the clip's %.4f s at %g fps)" % (label, dump["name"], end, dump["duration"], fps),
      "got %s to %s" % (lo, hi))

# --- skinned vertices at a few frames against plumbob geom skin --------------------------
meshes = [o for o in bpy.data.objects if o.type == "MESH"]
for frame in expect["frames"]:
    scene.frame_set(frame)
    dg = bpy.context.evaluated_depsgraph_get()
    out = plumbob("geom", "skin", expect["geom"], "--rig", expect["rig"], "--clip", expect["clip_file"],
                  "--time", "%.9g" % (frame / fps), "--json")
    want = numpy.array([(x, -z, y) for x, y, z in out["positions"]])  # glTF Y-up -> Blender Z-up
    got = []
    for o in meshes:
        ev = o.evaluated_get(dg)
        me = ev.to_mesh()
        got += [tuple(ev.matrix_world @ v.co) for v in me.vertices]
        ev.to_mesh_clear()
    got = numpy.array(got)
    # the importer may reorder or split vertices: each matched to its nearest, both ways
    worst = 0.0
    if len(got) and len(want):
        for a, b in ((want, got), (got, want)):
            for i in range(0, len(a), 256):
                d = numpy.sqrt(((a[i:i + 256, None, :] - b[None, :, :]) ** 2).sum(axis=2)).min(axis=1)
                worst = max(worst, float(d.max()))
    check(len(got) >= len(want) > 0 and worst <= TOL_VERTEX,
          "%s: frame %d: the %d skinned vertices Blender shows are plumbob geom skin's (worst distance %.2g)"
          % (label, frame, len(want), worst), "%d vs %d vertices" % (len(got), len(want)))

print("%d passed, %d failed" % (passed, failed))
sys.stdout.flush()
