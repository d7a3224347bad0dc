# Run by tests/blender-tests.sh inside Blender (background mode):
#   blender -b --factory-startup --python tests/blender/clip_round_trip.py -- IN.glb OUT.glb FPS
# The modder's clip round trip (issue 44): Blender's own glTF importer opens
# a plumbob clip export in a scene of FPS frames per second (24 is Blender's
# default) and Blender's own exporter writes it out again, animation extras
# gone, keys on Blender's frames, for `plumbob clip import` to bring back.
import sys

import numpy
# Debian's Blender 3.4 glTF importer still says numpy.bool (see check_import.py)
if "bool" not in numpy.__dict__:
    numpy.bool = bool
import bpy

src, dst, fps = sys.argv[sys.argv.index("--") + 1:][:3]
bpy.ops.wm.read_factory_settings(use_empty=True)
bpy.context.scene.render.fps = int(fps)
bpy.ops.import_scene.gltf(filepath=src)
bpy.ops.export_scene.gltf(filepath=dst, export_format="GLB")
print("clip round trip at %s fps: %s -> %s" % (fps, src, dst))
