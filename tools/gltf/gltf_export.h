/* Builds a glTF 2.0 scene from plumbob's decoded resources (hosted). */
#ifndef PLUMBOB_GLTF_EXPORT_H
#define PLUMBOB_GLTF_EXPORT_H

#include "plumbob.h"
#include "gltf_axes.h"
#include "util/rig.h"
#include "util/tool_buf.h"
#include "util/names.h"

typedef struct gltf_export_src {
    const plumbob_gmdc *mesh;   /* Sims 2 mesh (Z-up, converted to Y-up), or NULL */
    const tool_rig *rig;        /* names and parents of the joints, or NULL */
    const plumbob_clip *clip;   /* Sims 3 clip (already Y-up), or NULL */
    const tool_dict *names;     /* names for tracks of bones not in the rig, or NULL */
    const plumbob_cres_skeleton *skeleton; /* Sims 2 CRES skeleton (Z-up), or NULL; wins over rig */
    const plumbob_anim *anim;   /* Sims 2 ANIM to put on the skeleton, or NULL */
    /* Sims 3 GEOM meshes (Y-up, at the rig's rest pose), each skinned to
     * the rig's bones by bone hash; geom_names name their mesh nodes */
    const plumbob_geom *const *geoms;
    const char *const *geom_names;
    uint32_t geom_count;
} gltf_export_src;

/* What went into the file, for the tool's message. */
typedef struct gltf_export_stats {
    uint32_t nodes, primitives, vertices, targets, channels, unmatched_tracks;
    uint32_t unmatched_named;   /* of those, named from the name dictionary */
    char unmatched_names[160];  /* the first few of those bones, ", "-separated */
    /* clip: what went into extras.plumbob rather than glTF proper */
    uint32_t extras_morph_tracks, extras_events, extras_slots;
    int extras_on_scene;        /* no channel: the extras are the scene's */
    uint32_t events_lost;       /* declared events after an unknown type: not decoded, not carried */
    uint32_t dropped_tracks;    /* tracks left out: a second track for a node and path, or an unknown target */
    uint32_t dropped_unknown_target; /* of those, of an unknown target */
    char dropped_names[160];    /* the first few, ", "-separated (ANIM: unplayed channels) */
    /* Sims 2 ANIM: channels no glTF channel plays (naming no bone, IK, a
     * second one for a bone and attribute, a morph without a mesh target of
     * its name), and its events (glTF has none) */
    uint32_t anim_unplayed, anim_events;
} gltf_export_stats;

/* The scene as .gltf (binary 0) or .glb (binary 1) bytes in *out.
 * Mesh: one primitive per group with POSITION (min/max), NORMAL,
 * TEXCOORD_0, JOINTS_0/WEIGHTS_0 (group bone lists flattened to the joint
 * table, the implied weight made explicit, weights normalized) and one
 * morph target per named morph pair (mesh.extras.targetNames); a skin with
 * the joint table's inverse bind matrices.  Joints are named and parented
 * by the rig (joint_N and flat without one).  Clip: a LINEAR animation,
 * one channel per rotation/translation/scale track (keys in seconds,
 * rotations in one hemisphere), tracks of bones not in the rig on root
 * nodes named from `names` when it knows the hash, else 0xHASH, morph tracks
 * as weights of the mesh targets whose name hashes to them; every channel
 * held to the clip's duration.  The animation's extras.plumbob holds the
 * duration, the events, the morph tracks no weights channel plays, the
 * IK slot table (slotTable, slotChains, slots; a slot's raw name fields
 * as hex when not the usual padding) and the clip's other fields (clip:
 * name, source, actor, flags, linkedOffset, headerUnknown, tickPad,
 * eventVersion, eventList, endBlock), all of which clip import reads back
 * (the scene's extras when no channel was written).  With a CRES
 * skeleton every bone is a node named after it, in its hierarchy, at its
 * rest transform; GMDC joint j is the bone whose joint field is j (joints no
 * bone claims: flat joint_N nodes at their bind pose).  ANIM: sampled at 30
 * per second over its duration, one LINEAR channel per bone and attribute
 * its channels drive (plumbob_anim_bind), and with a mesh one weights
 * channel when morph channels name its targets.  Returns 0 when memory ran
 * out. */
int gltf_export_build(const gltf_export_src *src, int binary, tool_buf *out, gltf_export_stats *stats);

/* GEOM meshes (src->geoms, with a rig resource's rest pose): each a mesh
 * node with one triangle primitive (POSITION, NORMAL, TANGENT with w = 1,
 * every UV set as TEXCOORD_n, JOINTS_0/WEIGHTS_0 from the assignment bytes
 * and the four stored weights, normalized, a joint named twice in a vertex
 * counted once) and a skin of its own: its bone list's rig bones (a hash
 * the rig lacks: a root node named 0xHASH at the origin), inverse bind
 * matrices the inverse of each bone's rest model transform. */

/* Bytes of each of a clip IK slot's two name fields (the actor, the slot). */
#define GLTF_CLIP_SLOT_FIELD 512u

/* A clip event as `clip dump --json` prints it (and the export's extras
 * carry it): type, kind, id, time, name and the type's own fields. */
void gltf_clip_event_json(tool_buf *b, const plumbob_clip_event *e, const tool_dict *names);
/* "sound", "effect", ... ("unknown" for other types). */
const char *gltf_clip_event_kind(uint16_t type);


/* Joint j's bind pose (model space, Y-up): the inverse of the joint
 * table's inverse bind transform. */
void gltf_joint_bind(const plumbob_gmdc *g, uint32_t j, plumbob_quat *q, plumbob_vec3 *t);
/* A child's transform relative to its parent's (both model space). */
void gltf_relative(plumbob_quat parent_q, plumbob_vec3 parent_t, plumbob_quat *q, plumbob_vec3 *t);

#endif
