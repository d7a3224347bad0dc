# Run by tests/blender-tests.sh inside Blender (background mode):
#   blender -b --factory-startup --python tests/blender/blend_check.py -- CASE.json
# CASE.json: {"label", "gltf" (a `plumbob clip blend` or `rig ik` glTF),
# "plumbob" (the tool), "clip_file" (the same output written as .clip),
# "rig", "bones" (names that must be there), "check_bones" (bones whose
# position is checked), "frames"}.
# Imports the export with Blender's own glTF importer and checks what a
# modder sees against what plumbob says: the bones by name, the action's
# frame range (the blend's length), and at each frame the world position
# Blender shows for each checked bone against `plumbob clip sample CLIP
# --rig RIG --json`'s model_translation (Y-up turned to Blender's Z-up as
# the importer does).  Prints one line per check and `N passed, N failed`.
import json
import subprocess
import sys

import numpy
if "bool" not in numpy.__dict__:  # Debian's Blender 3.4 importer says numpy.bool
    numpy.bool = bool
import bpy

expect = json.load(open(sys.argv[sys.argv.index("--") + 1]))
passed = failed = 0
# Blender computes in single precision, through a chain of ~10 bones
TOL_POSITION = 2e-5
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
arms = [o for o in bpy.data.objects if o.type == "ARMATURE"]

names = set(o.name for o in bpy.data.objects)
for arm in arms:
    names |= set(b.name for b in arm.data.bones)
missing = [n for n in expect["bones"] if n not in names]
check(not missing, "%s: the rig's %d bones are there by name" % (label, len(expect["bones"])), "missing %s" % missing[:6])

acts = [a for a in bpy.data.actions if a.name.startswith(dump["name"])]
lo = min([a.frame_range[0] for a in acts] or [-1])
hi = max([a.frame_range[1] for a in acts] or [-1])
end = dump["duration"] * fps
check(acts and abs(lo) < TOL_FRAMES and abs(hi - end) < TOL_FRAMES,
      "%s: the action %s spans frames 0 to %.3f (%.4f s at %g fps)" % (label, dump["name"], end, dump["duration"], fps),
      "got %s to %s" % (lo, hi))


def world_position(name):
    for arm in arms:
        if name in arm.pose.bones:
            return tuple(arm.matrix_world @ arm.pose.bones[name].head)
    o = bpy.data.objects.get(name)
    return tuple(o.matrix_world.translation) if o else None


for frame in expect["frames"]:
    scene.frame_set(frame)
    bpy.context.view_layer.update()
    out = plumbob("clip", "sample", expect["clip_file"], "--rig", expect["rig"], "--time", "%.9g" % (frame / fps), "--json")
    bones = {b["name"]: b for b in out["bones"]}
    worst, where = 0.0, ""
    for n in expect["check_bones"]:
        x, y, z = bones[n]["model_translation"]
        got = world_position(n)
        if got is None:
            worst, where = float("inf"), n + " not found"
            break
        d = max(abs(a - b) for a, b in zip(got, (x, -z, y)))  # glTF Y-up -> Blender Z-up
        if d > worst:
            worst, where = d, n
    check(worst <= TOL_POSITION, "%s: frame %d: %s where plumbob clip sample puts them (worst %.2g at %s)"
          % (label, frame, ", ".join(expect["check_bones"]), worst, where))

print("%d passed, %d failed" % (passed, failed))
sys.stdout.flush()
