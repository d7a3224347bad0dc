/* Shared pieces of the plumbob command-line tool (hosted code): loading
 * inputs, the format registry, and every subcommand's entry point. */
#ifndef PLUMBOB_TOOL_H
#define PLUMBOB_TOOL_H

#include <stddef.h>
#include <stdio.h>
#include "plumbob.h"
#include "util/files.h"
#include "util/rig.h"
#include "plot/plot.h"
#include "util/demo_data.h"
#ifdef _WIN32
#include <direct.h>
#include <io.h>
#define mkdir(path, mode) _mkdir(path) /* Windows: no mode argument */
#endif

/* A loaded input: the bytes of a file, or of one resource in a package. */
typedef struct tool_input {
    char name[1100];      /* what to call it in messages: FILE or PACKAGE@T:G:I */
    unsigned char *data;  /* malloc'd */
    size_t size;
    int from_package;     /* 1 when FILE was PACKAGE@... */
    plumbob_package_entry entry; /* the resource's index entry, when from_package */
    unsigned char *package_data; /* the whole package, kept for name lookups */
    size_t package_size;
    /* Where a decode of this input failed, in words, when the decoder can say
     * (GMDC: "bad_index at byte 4660 (0x1234), element 4: ..."); tool_load
     * points `why` at why_text and empties it.  NULL: nobody listens. */
    char *why;
    char why_text[320];
} tool_input;

/* Reads FILE into *in.  FILE may be PACKAGE@INSTANCE or
 * PACKAGE@TYPE:GROUP:INSTANCE (hex numbers, 0x optional) to take one resource
 * out of a package (decompressed).  Prints "plumbob: WHERE: why" and
 * returns 0 on failure. */
int tool_load(const char *path, tool_input *in);
void tool_free(tool_input *in);
/* tool_load for a command that wants one kind of resource (a package type:
 * PLUMBOB_TYPE_CLIP, _GMDC, _ANIM, _CRES, _JAZZ, _RIG).  An input of another
 * kind is refused naming what it is and the command that fits; a whole
 * package stands for its only resource of that kind, and with several lists
 * them (PACKAGE@INSTANCE and name).  opt: the option that named the file
 * ("--cres"), NULL for the command's own input.  Bytes nothing recognises are loaded for
 * the decoder to say why.  Prints why and returns 0 on failure (tool_kind.c). */
int tool_load_kind(const char *path, uint32_t type, const char *opt, tool_input *in);
/* What these bytes are, in words ("Sims 3 CLIP", "DBPF package"); NULL when
 * plumbob does not recognise them. */
const char *tool_kind_name(const unsigned char *data, size_t size);
/* For an option that reads text (a rig list): 1 when in is not some binary
 * kind plumbob recognises, else prints "OPT wants WANTS; this is a KIND"
 * and returns 0. */
int tool_text_not_binary(const tool_input *in, const char *opt, const char *wants);
/* Warns when a clip does not fit a rig (tool_pairing.c): fewer than half of
 * its animated bones among bone_hash[0..bone_count), or a clip-name prefix
 * (a_, ad_, c_, o_, ...) of another species or age than rig_name (auRig,
 * adRig, ...; another name is an object's rig; NULL or "": not checked). */
void tool_warn_pairing(const plumbob_clip *clip, const char *clip_where, const uint32_t *bone_hash,
                       uint32_t bone_count, const char *rig_name);
/* "unknown format (N bytes): ..." for bytes no format plumbob reads, or
 * "is a PNG image (N bytes), ..." when they are a common non-game file. */
void tool_unknown_format(const tool_input *in);
/* tool_rig_load for option opt, refusing binary files by kind. */
int tool_rig_list_load(const char *path, const char *opt, tool_rig *rig);

/* A buffer for reading entry e with plumbob_package_read (pass e->mem_size
 * as its capacity): sized by plumbob_package_read_size, so a claim its
 * stored bytes cannot give (gigabytes from a few bytes) is refused before
 * anything is allocated.  NULL when refused or out of memory, after saying
 * why at `where` (NULL: silently, for optional lookups). */
unsigned char *tool_entry_buffer(const plumbob_package *pkg, const plumbob_package_entry *e, const char *where);
/* Finds the resource `spec` names in a package: TYPE:GROUP:INSTANCE (TYPE in
 * hex or a name such as CLIP), INSTANCE in hex, or a name from the KEY table.
 * Several matches: the one resource of a type plumbob decodes, unless strict
 * (then any several are ambiguous).  Returns 1 with *out set, 0 when nothing
 * matches, -1 on a spec that is none of these, -2 when ambiguous (the matches
 * listed on stderr after an error line naming `where`). */
int tool_find_resource(const plumbob_package *pkg, const char *spec, const char *where, int strict,
                       plumbob_package_entry *out);
/* TYPE_GROUP_INSTANCE (8, 8 and 16 hex digits) from a path's last
 * component named exactly as extract names files: TYPE_GROUP_INSTANCE.ext
 * or TYPE_GROUP_INSTANCE.N.ext (a repeated key), ext letters and digits.
 * 0 for anything else, backups and copies too (X.clip~, X.clip.bak,
 * X.clip.tmp-..., "X - Copy.clip", "X (2).clip"): tool_bad_tgi_name says why. */
int tool_parse_tgi_name(const char *path, uint32_t *t, uint32_t *g, uint64_t *i);
/* The error line for a FILE tool_parse_tgi_name refused (the caller exits 2). */
void tool_bad_tgi_name(const char *path);
/* Resource type names and file extensions ("CLIP", "clip"); NULL if unknown. */
const char *tool_type_name(uint32_t type);
const char *tool_type_ext(uint32_t type);
/* The game whose packages hold this type: 2 (Sims 2), 3 (Sims 3), 0 unknown. */
int tool_type_game(uint32_t type);
/* A resource type from s[0..len): a name from the table above (CLIP, RIG,
 * case-insensitive; the first type of that name) or a hex number.  0 on junk. */
int tool_parse_type(const char *s, size_t len, uint64_t *out);

/* The format of a resource of this package type (CLIP, JAZZ, GMDC, ANIM),
 * or PLUMBOB_FORMAT_UNKNOWN for types the tool has no decoder for. */
plumbob_format tool_format_of_type(uint32_t type);
/* What an input is: a resource taken from a package by the index's type
 * (the index is the truth), a file by its bytes (plumbob_identify). */
plumbob_format tool_input_format(const tool_input *in);
/* "CRES (type 0xE519C933)" or "type 0x12345678" into out. */
void tool_type_label(uint32_t type, char *out, size_t cap);

/* A package's own names for its resources: the KEY table (Sims 3). */
typedef struct tool_names {
    unsigned char *buf;    /* the decompressed KEY resource */
    plumbob_key_table kt;
    int have;
} tool_names;
void tool_names_load(const plumbob_package *pkg, tool_names *names);
void tool_names_free(tool_names *names);
/* The name of a resource: its KEY entry (Sims 3) or the name inside a
 * Sims 2 RCOL.  Returns 0 when there is none. */
int tool_resource_name(const plumbob_package *pkg, const tool_names *names,
                       const plumbob_package_entry *e, char *out, size_t cap);

/* JSON output helpers. */
void json_string(FILE *out, const char *s, size_t len);
/* A float with enough digits to round-trip (%.9g); null when not finite. */
void json_float(FILE *out, float f);
/* [a, b, ...] of n floats, each as json_float. */
void json_floats(FILE *out, const float *v, unsigned n);
/* Decoded resources for the tool: a CLIP with its arena (malloc'd). */
typedef struct tool_clip {
    plumbob_clip clip;
    unsigned char *arena_mem;
} tool_clip;
/* Decodes in->data as a CLIP (arena from malloc); prints nothing. */
plumbob_result tool_clip_decode(const tool_input *in, tool_clip *tc);
void tool_clip_free(tool_clip *tc);

/* A decoded Sims 3 rig with its arena (malloc'd). */
typedef struct tool_rig_res {
    plumbob_rig rig;
    unsigned char *arena_mem;
} tool_rig_res;
/* Decodes in->data as a rig; prints nothing. */
plumbob_result tool_rig_decode(const tool_input *in, tool_rig_res *tr);
/* The same, saying why on failure (Granny rigs by name); 0 then. */
int tool_rig_decode_or_say(const tool_input *in, tool_rig_res *tr);
void tool_rig_res_free(tool_rig_res *tr);
/* Model matrices (plumbob_skeleton_model) and model rotations (the
 * normalized local rotations composed along the chain) of a skeleton in
 * pose `local` (NULL: rest).  0 when the skeleton is refused. */
int tool_skeleton_pose(const plumbob_skeleton *sk, const plumbob_bone_pose *local, plumbob_mat34 *model,
                       plumbob_quat *model_rotation);
/* "translation", "rotation", "scale", "model_translation", "model_rotation"
 * members (no braces) of one bone. */
void json_bone_pose(FILE *out, const plumbob_bone_pose *local, const plumbob_mat34 *model, const plumbob_quat *mq);

/* Batch work (tool_batch.c): fn(input, out_path, ctx) once per resource of
 * `type` in the inputs (a package: each such resource, as PACKAGE@T:G:I; any
 * other file: itself), out_path = DIR/NAME.EXT named by the resource's KEY
 * name, else its instance (a taken name gets the instance appended).  fn
 * returns 0, or 1 after saying why; the others still run.  A progress line on
 * a terminal, then "DONE_VERB N of M KIND to DIR" on stdout.  Returns 0 when
 * every one succeeded, 1 otherwise (also when there was none). */
typedef struct tool_batch {
    uint32_t type;
    const char *kind;      /* "clips" */
    const char *verb;      /* "exporting" (progress line) */
    const char *done_verb; /* "exported" (summary) */
    const char *dir, *ext;
    int (*fn)(const char *input, const char *out_path, void *ctx);
    void *ctx;
} tool_batch;
int tool_batch_run(const tool_batch *job, const char *const *inputs, int n);
/* An export command's --all (or several inputs, or --gltf): checks that --all
 * was given and -o names a directory (exit 2 after saying why), then exports
 * every resource of `type` in the inputs to DIR/NAME.glb (.gltf with
 * gltf_text) with tool_batch_run.  one/many: "clip"/"clips". */
int tool_batch_export(uint32_t type, const char *one, const char *many, const char *const *inputs, int n, int all,
                      int gltf_text, const char *dir, int (*fn)(const char *, const char *, void *), void *ctx);
/* What the tool knows about one format: each format issue adds an entry. */
typedef struct tool_format {
    plumbob_format format;
    /* One short human summary of a resource of this format. */
    int (*info)(const tool_input *in, FILE *out);
    /* Decode, validate, re-encode into a malloc'd buffer (*out, *out_size). */
    plumbob_result (*reencode)(const tool_input *in, unsigned char **out, size_t *out_size);
} tool_format;

/* The entry for a format, or NULL when the tool has no decoder for it yet. */
const tool_format *tool_format_for(plumbob_format f);

/* glTF output (cmd_export.c): writes the scene to PATH (.glb: binary,
 * otherwise .gltf), checks the bytes with plumbob's glTF checker and says
 * what it wrote.  Returns 0, or 1 after printing why. */

struct gltf_export_src;
/* What --rig takes, for messages. */
#define RIG_ARG_WANTS "a Sims 3 rig, a GMDC mesh or a `NAME [PARENT]` list"
/* With `source` (the input's name, or NULL) it also warns of what the file
 * does not carry in glTF proper (a clip's extras) or at all. */
int tool_write_gltf(const char *path, const struct gltf_export_src *src, const char *source);
/* --rig FILE for exports: a GMDC mesh (then *mesh is decoded, *mesh_mem
 * to free), a Sims 3 rig resource or a rig list (then *rig is filled).  Returns 0 after printing why. */
int tool_load_rig_arg(const char *path, tool_rig *rig, int *have_rig, plumbob_gmdc *mesh,
                      unsigned char **mesh_mem, tool_input *mesh_in);

/* The import commands' input: checks IN and -o OUT (ending in ext, ".clip";
 * out_path may be NULL when package is not), loads IN and reads it as glTF
 * into *doc.  0, or the exit status after saying why (nothing to free then). */
struct gltf_doc;
int tool_load_gltf(const char *in_path, const char *out_path, const char *package, const char *ext, tool_input *in,
                   struct gltf_doc *doc);
/* glTF input (cmd_check.c): is it one (GLB magic or a .gltf name), and
 * the checker's verdict printed as one line; 0 when valid. */
int tool_is_gltf(const tool_input *in);
int tool_check_gltf(const tool_input *in, FILE *out);

/* A decoded CRES with its skeleton (tool_cres.c): mem holds the decode's
 * arena, sk_mem the skeleton's. */
typedef struct tool_cres {
    tool_input in;
    unsigned char *mem, *sk_mem;
    plumbob_cres cres;
    plumbob_cres_skeleton sk;
} tool_cres;
/* Decodes in->data as a CRES and builds its skeleton; prints nothing. */
plumbob_result tool_cres_decode(const tool_input *in, tool_cres *tc);
/* Loads FILE or PACKAGE@KEY as a CRES; prints why and returns 0 on failure. */
int tool_cres_load(const char *path, const char *opt, tool_cres *tc);
/* The CRES of the package `from` came from that fits best: maps the most of
 * joint_count mesh joints plus the most of anim's channels (anim may be
 * NULL).  Returns 0 (silently) when there is none that fits at all. */
int tool_cres_find(const tool_input *from, uint32_t joint_count, const plumbob_anim *anim, tool_cres *tc);
void tool_cres_free(tool_cres *tc);
int cres_info(const tool_input *in, FILE *out);
plumbob_result cres_reencode(const tool_input *in, unsigned char **out, size_t *out_size);
int cmd_cres(int argc, char **argv);
/* The format entry for a loaded input: identify, and a Sims 2 RCOL whose
 * first block is a resource node is a CRES. */
const tool_format *tool_format_of(const tool_input *in, plumbob_format *f);
/* The format entry for a package resource of this type (CRES included). */
const tool_format *tool_format_for_type(uint32_t type);

/* Option values (tool_args.c).  argv[i] was taken by no option: prints
 * "OPT needs a value" when it is a value option at the end of the line, else
 * "unexpected argument"; returns 2 (the usage exit status). */
int tool_bad_argument(int argc, char **argv, int i);
/* Does the output name end in one of the extensions (".gltf"; b, c may be
 * NULL)?  Else prints what the command writes and returns 0. */
int tool_arg_extension(const char *path, const char *a, const char *b, const char *c);
/* Parses s as a number in [lo, hi] for option opt; prints why (naming opt)
 * and returns 0 on junk, NaN or out of range. */
int tool_arg_number(const char *opt, const char *s, double lo, double hi, double *out);
/* --time SECONDS or --frame N (exactly one given) as seconds within [0,
 * duration]; frames are frame_seconds long.  Prints why and returns 0. */
int tool_arg_time(const char *time_arg, const char *frame_arg, double frame_seconds, double duration, double *seconds);

/* Does command family `family` ("clip") have subcommand `sub` (tool_families.c)? */
int tool_family_has(const char *family, const char *sub);

/* Subcommands: argc/argv start at the subcommand's own name. */
int cmd_info(int argc, char **argv);
int cmd_check(int argc, char **argv);
int cmd_demo(int argc, char **argv);
int cmd_ls(int argc, char **argv);
int cmd_extract(int argc, char **argv);
int cmd_pack(int argc, char **argv);
/* Resources for tool_package_put_all: key, bytes, and a name for the KEY
 * table (NULL: none; Sims 2 packages have no KEY table). */
typedef struct tool_put {
    uint32_t type, group;
    uint64_t instance;
    const unsigned char *data;
    size_t size;
    const char *name;
} tool_put;
#define TOOL_PUT_MAX 8
/* Puts n (at most TOOL_PUT_MAX) resources into the package at pkg_path, a
 * Sims 2 one (major 1) or a Sims 3 one (major 2), made when there is none:
 * each added, or replacing the resource of its key, compressed as the
 * package has it, in one safe edit (all or none).  0, or 1 after saying
 * why (cmd_edit.c). */
int tool_package_put_all(const char *pkg_path, uint32_t major, const tool_put *items, uint32_t n);
/* One resource into a Sims 3 package, name into its KEY table. */
int tool_package_put(const char *pkg_path, uint32_t type, uint32_t group, uint64_t instance, const unsigned char *data,
                     size_t size, const char *name);
int cmd_add(int argc, char **argv);     /* cmd_edit.c: package editing in place */
int cmd_replace(int argc, char **argv);
int cmd_remove(int argc, char **argv);
int package_info(const tool_input *in, FILE *out);
int cmd_clip(int argc, char **argv);
int clip_info(const tool_input *in, FILE *out);
/* The warning gmdc import and clip import give for a skin whose n inverse
 * binds carry a scale, with what that does to the output (cmd_gmdc.c). */
void tool_warn_scaled_binds(const char *where, uint32_t n, const char *effect);
/* plumbob clip diff A B [--json] (cmd_clip_diff.c): 0 identical, 1 differ, 2 trouble. */
int clip_diff(int argc, char **argv);
plumbob_result clip_reencode(const tool_input *in, unsigned char **out, size_t *out_size);
int gmdc_info(const tool_input *in, FILE *out);
/* Decodes in->data as a GMDC; the arena (*mem, free it) comes from malloc.
 * Prints nothing; on failure in->why (when set) says where and why. */
plumbob_result tool_gmdc_decode(const tool_input *in, plumbob_gmdc *g, unsigned char **mem);
/* 1 when every group is a triangle list (what skinning and export draw);
 * else prints which group is not, naming `where`, and returns 0. */
int tool_gmdc_drawable(const plumbob_gmdc *g, const char *where);
/* A decode error's detail as one line: "RESULT at byte N (0xN), TABLE I: REASON". */
void tool_error_detail(const plumbob_error *e, char *out, size_t cap);
int cmd_gmdc(int argc, char **argv);
/* Decodes in->data as a Sims 2 ANIM (arena from malloc, *mem); prints nothing. */
plumbob_result tool_anim_decode(const tool_input *in, plumbob_anim *a, unsigned char **mem);
/* The skeleton for a mesh (cmd_gmdc.c): --cres FILE, else the best-fitting
 * CRES of the mesh's package when the mesh has joints.  Says which on `note`;
 * returns 0 after printing why when --cres does not load. */
int gmdc_skeleton(const tool_input *mesh_in, const plumbob_gmdc *g, const char *cres_path, tool_cres *tc, int *have,
                  FILE *note);
plumbob_result gmdc_reencode(const tool_input *in, unsigned char **out, size_t *out_size);
int anim_info(const tool_input *in, FILE *out);
int cmd_anim(int argc, char **argv);
plumbob_result anim_reencode(const tool_input *in, unsigned char **out, size_t *out_size);
int rig_info(const tool_input *in, FILE *out);
int cmd_rig(int argc, char **argv);
plumbob_result rig_reencode(const tool_input *in, unsigned char **out, size_t *out_size);
int jazz_info(const tool_input *in, FILE *out);
int cmd_jazz(int argc, char **argv);
/* jazz decompile / compile (cmd_smooth_jazz.c). */
int jazz_decompile(const tool_input *in, const plumbob_jazz *jazz, const tool_names *names, const char *out_path);
int jazz_compile(int argc, char **argv);
plumbob_result jazz_reencode(const tool_input *in, unsigned char **out, size_t *out_size);

#endif
