/* glTF in, Sims 3 CLIP out (hosted): one animation of a glTF resampled at
 * the clip's frame rate, each node's rotation and translation channel a
 * quantized track named by the node's FNV-32 (or its 0xHASH name), morph
 * weights (and the morph tracks plumbob's own export keeps in extras)
 * 16-bit morph tracks, keys reduced within a stated error. */
#ifndef PLUMBOB_GLTF_IMPORT_H
#define PLUMBOB_GLTF_IMPORT_H

#include <stdint.h>
#include "plumbob.h"
#include "gltf_read.h"

typedef struct clip_import_opts {
    const char *animation;      /* a name or an index; NULL: the first */
    double fps;                 /* ticks per second (30) */
    double max_rotation_deg;    /* key reduction bounds, on the float curve */
    double max_translation;     /* metres */
    double max_morph;
    const char *name, *source;  /* the clip's name (NULL: the animation's) and source fields */
    uint64_t max_samples;       /* tracks x ticks refused above this (0: 400 million) */
} clip_import_opts;

typedef struct clip_import_track {
    char name[96];              /* the node (or morph target) it came from */
    uint8_t target;             /* PLUMBOB_CLIP_TARGET_* */
    uint32_t samples, kept;     /* ticks sampled, keys kept */
    double worst;               /* the decoded, quantized track's worst error over the ticks */
} clip_import_track;

typedef struct clip_import {
    plumbob_clip clip;          /* ready for plumbob_clip_write */
    clip_import_track *report;  /* per clip track */
    unsigned char **keys;       /* key_slots buffers */
    uint32_t key_slots;
    char name[256], source[256];
    uint32_t skipped_channels;  /* scale channels, nodes without a name, targets without names */
    char skipped_names[160];
    plumbob_clip_event *events; /* from extras.plumbob.events (names point into the glTF's JSON) */
    unsigned char **payloads;   /* event payloads read back from hex, per event (NULL: from the fields) */
    uint32_t event_slots;
    uint32_t events_skipped;    /* of a kind plumbob cannot lay out, or malformed */
    int last_tick_kept;         /* 1 when the last glTF key was a pose of its own (one tick added) */
    /* what plumbob's export keeps in extras.plumbob, read back (1: the glTF has it) */
    int has_events, has_slots, has_header;
    plumbob_clip_slot *slots;   /* from extras.plumbob.slots (names point into the JSON) */
    unsigned char *slot_raw;    /* the hex raw name fields, 2 x 512 bytes a slot */
    uint32_t slots_skipped;     /* malformed slot records */
    /* what the import had to guess, for the command to warn of */
    uint32_t off_grid_keys, keys_checked; /* key times off the clip's frame grid, of all */
    double grid_fps;            /* the common frame rate the off-grid keys sit on (0: none found) */
    uint32_t renamed;           /* node names with a Blender duplicate suffix (.001) matched to their bone */
    char renamed_names[160];    /* the first few, "b__Head__.001 -> b__Head__" */
    uint32_t duplicate_tracks;  /* channels dropped because another already drove that bone */
    uint32_t far_translations;  /* translation tracks with a value beyond 10 m */
    char far_name[96];
    double far_max;             /* the largest translation distance seen (m) */
    char root_name[96];         /* an unanimated ancestor of animated nodes with a rotation or scale */
    double root_angle, root_scale; /* its rotation (degrees) and scale (the largest factor off 1 from 1) */
    uint32_t scaled_binds;      /* inverse bind matrices of the skin with a scale (gltf_skin_scaled_binds) */
    unsigned char end_block[16]; /* extras.plumbob.clip.endBlock */
} clip_import;

/* Builds ci->clip from the animation opts pick; the clip's event names
 * point into doc, which must outlive it.  Returns 0 with the reason in why
 * ("animations[0].channels[3]: ..."). */
int gltf_import_clip(const gltf_doc *doc, const clip_import_opts *opts, clip_import *ci, char *why, size_t why_cap);
void clip_import_free(clip_import *ci);

/* The key reduction import uses, for one track sampled at every tick
 * (n samples of comps floats: 4 rotation, 3 translation, 1 morph): keeps
 * the fewest keys whose straight segments (nlerp for rotations) stay within
 * bound of every sample, a key at least every 256 ticks; writes their ticks
 * and values and returns how many (bench/bench_import.c measures it). */
uint32_t clip_import_reduce(const float *samples, uint32_t n, uint32_t comps, double bound, uint16_t *kept_ticks,
                            float *kept_values);
/* The error between two values of a track: degrees between rotations,
 * distance between translations, difference of morph weights. */
double clip_import_error(const float *a, const float *b, uint32_t comps);

/* An attribute accessor of a primitive (attrs: its "attributes" or a
 * target), as n items of comps floats; 1 when absent (*out NULL), 0 on a
 * malformed one or another count (why says so, naming `what`). */
int gltf_attribute(const gltf_doc *doc, const json_value *attrs, const char *key, uint32_t comps, uint32_t n,
                   float **out, const char *what, char *why, size_t cap);
/* Eight influences a vertex (JOINTS_0/WEIGHTS_0 in jnt, w; JOINTS_1/
 * WEIGHTS_1 in j1, w1) to the four heaviest, into jnt and w; returns how
 * many vertices lost a weight above 0. */
uint32_t gltf_heaviest_four(uint32_t *jnt, float *w, const uint32_t *j1, const float *w1, uint32_t n);

/* A node's local matrix: its "matrix" (column-major), else T R S. */
plumbob_mat34 gltf_node_local(const json_value *node);
/* Each node's parent (the first node listing it as a child), UINT32_MAX
 * for roots; NULL when out of memory. */
uint32_t *gltf_node_parents(const json_value *nodes);
/* Inverse bind matrices of the skin that carry a scale (gltf_matrix_scaled). */
uint32_t gltf_skin_scaled_binds(const gltf_doc *doc, const json_value *skin);

/* glTF in, Sims 2 GMDC out: every triangle primitive of every mesh a GMDC
 * group with its own linkage (positions and normals converted from Y-up to
 * Z-up, UVs as they are), the first skin's joints the joint table (inverse
 * binds from inverseBindMatrices), JOINTS_0 / WEIGHTS_0 as each group's bone
 * list, assignments and weights (at most 4 influences, the smallest dropped
 * beyond), up to 4 morph targets a primitive as morph deltas named from
 * mesh.extras.targetNames, and the bounding mesh: every position once
 * (unskinned), or per joint in its bone space (skinned: the subsets). */
typedef struct gmdc_import {
    plumbob_gmdc gmdc;          /* ready for plumbob_gmdc_write */
    void **owned;               /* buffers the mesh points into */
    uint32_t owned_n, owned_cap;
    char name[256];
    uint32_t skipped;           /* primitives not carried (not triangles, no POSITION) */
    char skipped_names[160];
    uint32_t dropped_influences, dropped_targets, vertices, triangles;
    uint32_t unweighted;        /* skinned vertices with no weight above 0: written with no bone */
    uint32_t scaled_binds;      /* inverse bind matrices with a scale (or a mirror): rotation kept, scale not */
    uint32_t bounding_too_big;  /* bounding meshes left empty: over 65535 positions */
} gmdc_import;

/* The skin gmdc import carries: that of the first node with a mesh and a
 * skin (NULL: none). */
const json_value *gltf_first_skin(const gltf_doc *doc);

/* Where the skin's joints go in the GMDC's joint table (gmdc import
 * --cres, gltf_match_cres): skin joint k is entry of_skin_joint[k] of a
 * table of table_count entries; the entries no skin joint fills take
 * bind[7 i ..]: the table's own form (inverse bind rotation x y z w, then
 * translation; Z-up). */
typedef struct gmdc_import_joints {
    uint32_t skin_count, table_count;
    uint32_t *of_skin_joint;
    float *bind;
} gmdc_import_joints;

/* name: the resource name (NULL: the first mesh's name + "_tslocator_gmdc");
 * joints: where the skin's joints go (NULL: the table in the skin's order). */
int gltf_import_gmdc(const gltf_doc *doc, const char *name, const gmdc_import_joints *joints, gmdc_import *gi,
                     char *why, size_t why_cap);
void gmdc_import_free(gmdc_import *gi);

/* glTF in, Sims 2 CRES out: the skeleton of the skin gmdc import carries.
 * Each skin joint and each of its ancestor nodes is a cTransformNode (its
 * tag the node's name, else joint_N / node_N; its local rest the node's
 * rotation and translation, or its matrix, Y-up back to Z-up; its joint
 * field the joint's index in the skin, PLUMBOB_CRES_NO_JOINT for an
 * ancestor), in depth-first order under a cResourceNode (skin type 2,
 * skeleton) named `name` whose children are the roots; each joint has a
 * cBoneDataExtension (version 5: heading axis 0, no mirror axis, stretch
 * axis 1, stretch 1, identity orientation).  The CRES holds the skeleton
 * only: no shape reference node and no RCOL links. */
typedef struct cres_import {
    plumbob_cres cres;          /* ready for plumbob_cres_write */
    plumbob_cres_block *blocks;
    plumbob_cres_ref *refs;
    char *names;                /* 96 bytes a bone */
    char name[256];
    uint32_t bones, joints;
    uint32_t scaled;            /* bones whose node has a scale other than 1 (a CRES bone has none) */
} cres_import;

/* Returns 0 with the reason in why ("skins.joints[3] ..."). */
int gltf_import_cres(const gltf_doc *doc, const char *name, cres_import *ci, char *why, size_t why_cap);
void cres_import_free(cres_import *ci);

/* The skin's joints matched to a game skeleton by name (ASCII case
 * ignored): each joint node's name is a CRES bone and its index in the
 * GMDC is that bone's joint field; a name joint_N (how export names a
 * joint the skeleton lacks) is joint N when no bone claims N.  The table
 * holds every joint the CRES names; those the skin lacks get the CRES rest
 * pose's inverse as their bind.  Returns 0 with the reason in why (a
 * joint with no name, one the CRES lacks, a bone that is no joint, two
 * joints on one). */
int gltf_match_cres(const gltf_doc *doc, const plumbob_cres_skeleton *sk, gmdc_import_joints *out, char *why,
                    size_t why_cap);
void gmdc_import_joints_free(gmdc_import_joints *j);

/* glTF in, Sims 3 GEOM streams out (the command builds the GEOM): the
 * first node with a mesh, every triangle primitive of its mesh appended in
 * order (positions, normals, TEXCOORD_0, TANGENT's xyz as they are: both
 * are Y-up), JOINTS_0/WEIGHTS_0 (and _1: the four heaviest) as influences
 * on the node's skin's joints, named by their nodes' names; zero weights
 * left out, the rest renormalized to sum 1. */
typedef struct geom_import {
    char name[256];             /* the node's (else the mesh's) name */
    uint32_t n, ni;             /* vertices, indices */
    float *pos, *nrm, *uv, *tan; /* 3, 3, 2, 3 floats a vertex; nrm, uv, tan NULL when absent */
    uint32_t *idx;
    uint32_t *jnt;              /* 4 skin joint indices a vertex (NULL: no skin) */
    float *w;                   /* 4 weights a vertex, summing to 1 (or all 0: unweighted) */
    uint32_t joint_count;
    char (*joint_name)[128];    /* each skin joint's node name ("" when it has none) */
    uint32_t skipped;           /* primitives not carried (not triangles, no POSITION) */
    uint32_t dropped_influences, unweighted;
} geom_import;

/* Returns 0 with the reason in why. */
int gltf_import_geom(const gltf_doc *doc, geom_import *gi, char *why, size_t why_cap);
void geom_import_free(geom_import *gi);

#endif
