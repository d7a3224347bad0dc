# Run by tests/blender-tests.sh inside Blender (background mode):
#   blender -b --factory-startup --python tests/blender/round_trip.py -- IN.glb OUT.glb
# The modder's way back: Blender's own glTF importer opens a plumbob export,
# and Blender's own exporter writes it out again (as Blender orders things:
# the skin's joints by hierarchy, its own vertex order), for
# `plumbob gmdc import --cres` to bring back into the game's skeleton.
import sys

import numpy
# Debian's Blender 3.4 glTF importer still says numpy.bool (see check_import.py)
if "bool" not in numpy.__dict__:
    numpy.bool = bool
import bpy

src, dst = sys.argv[sys.argv.index("--") + 1:][:2]
bpy.ops.wm.read_factory_settings(use_empty=True)
bpy.ops.import_scene.gltf(filepath=src)
bpy.ops.export_scene.gltf(filepath=dst, export_format="GLB", export_animations=False, export_morph=True,
                          export_skins=True)
print("round trip: %s -> %s" % (src, dst))
