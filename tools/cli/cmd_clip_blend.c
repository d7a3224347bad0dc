/* plumbob clip blend A B --rig RIG: two clips mixed on a rig with the
 * core's pose jobs (plumbob_pose_blend, plumbob_pose_additive_*,
 * plumbob_pose_mirror, plumbob_bone_weights_subtrees, plumbob_root_motion_*),
 * sampled at A's frame rate into a new clip (CLIP or glTF), or one pose as
 * JSON.  The rules (weights, fade times, lengths, root motion) are
 * docs/TOOL.md's "Blending two clips"; this file follows them. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "plumbob.h"
#include "util/files.h"
#include "commands.h"
#include "tool_args.h"
#include "tool_decode.h"
#include "tool_input.h"
#include "tool_kind.h"
#include "tool_output.h"
#include "tool_pairing.h"
#include "tool_pose.h"

/* One input clip, decoded and bound to the rig's skeleton view. */
typedef struct blend_clip {
    tool_input in;
    tool_clip tc;
    unsigned char *bind_mem;
    plumbob_clip_binding bind;
    int loaded, decoded;
} blend_clip;

typedef struct blend_job {
    const plumbob_rig *rig;
    uint32_t n;                      /* bones (skeleton view) */
    blend_clip *a, *b;
    float weight;                    /* --weight, or the fade's target weight */
    int fade;                        /* --fade given */
    float fade_start, fade_len;      /* seconds of the output's loop */
    int additive, mirror, root_motion;
    const float *mask;               /* NULL: every bone */
    const int32_t *opposite;         /* mirror table, when mirror */
    int32_t motion_bone, motion_parent;
    float frame;                     /* seconds per output tick (A's) */
    uint32_t loop_ticks;             /* ticks of one pass of the blend */
    uint32_t loops;
    /* scratch, n poses each */
    plumbob_bone_pose *pa, *pb, *ref_b, *tmp;
    float *wa, *wb;
    plumbob_root_motion f0, loop_delta; /* root motion: the start's frame, one pass's motion */
} blend_job;

static void blend_clip_free(blend_clip *c) {
    free(c->bind_mem);
    if (c->decoded) tool_clip_free(&c->tc);
    if (c->loaded) tool_free(&c->in);
    memset(c, 0, sizeof *c);
}

/* Loads and binds one input; 0 after saying why. */
static int blend_clip_load(const char *path, const tool_rig_res *tr, blend_clip *c) {
    plumbob_result r;
    plumbob_arena arena;
    size_t need;
    uint32_t k, unbound = 0, morphs = 0;
    memset(c, 0, sizeof *c);
    if (!tool_load_kind(path, PLUMBOB_TYPE_CLIP, NULL, &c->in)) return 0;
    c->loaded = 1;
    r = tool_clip_decode(&c->in, &c->tc);
    if (r != PLUMBOB_OK) {
        tool_error(c->in.name, "not a valid CLIP: %s", tool_why(&c->in, r));
        return 0;
    }
    c->decoded = 1;
    need = plumbob_rig_bind_size(&c->tc.clip, &tr->rig);
    c->bind_mem = need != SIZE_MAX ? (unsigned char *)malloc(need ? need : 1) : NULL;
    if (!c->bind_mem) {
        tool_error(c->in.name, "out of memory");
        return 0;
    }
    plumbob_arena_init(&arena, c->bind_mem, need);
    if (plumbob_rig_bind(&c->tc.clip, &tr->rig, NULL, 0, &arena, &c->bind) != PLUMBOB_OK) {
        tool_error(c->in.name, "cannot bind the clip to the rig");
        return 0;
    }
    {
        char rn[64];
        snprintf(rn, sizeof rn, "%.*s", (int)tr->rig.skeleton_name.len, tr->rig.skeleton_name.ptr);
        tool_warn_pairing(&c->tc.clip, c->in.name, tr->rig.skeleton.name_hash, tr->rig.skeleton.bone_count, rn);
    }
    /* what the blend cannot carry: said, not dropped silently */
    for (k = 0; k < c->tc.clip.track_count; k++) {
        uint8_t t = c->tc.clip.tracks[k].target;
        if (t == PLUMBOB_CLIP_TARGET_MORPH) morphs++;
        else if (c->bind.bone_of_track[k] < 0) unbound++;
    }
    if (unbound)
        tool_warning(c->in.name, "%u %s of bones the rig lacks %s not in the blend", (unsigned)unbound,
                     unbound == 1 ? "track" : "tracks", unbound == 1 ? "is" : "are");
    if (morphs)
        tool_warning(c->in.name, "%u morph %s not in the blend (it mixes bones only)", (unsigned)morphs,
                     morphs == 1 ? "track is" : "tracks are");
    if (c->tc.clip.events_decoded)
        tool_warning(c->in.name, "%u %s not in the blend", (unsigned)c->tc.clip.events_decoded,
                     c->tc.clip.events_decoded == 1 ? "event is" : "events are");
    if (c->tc.clip.slot_count)
        tool_warning(c->in.name, "%u IK %s not in the blend", (unsigned)c->tc.clip.slot_count,
                     c->tc.clip.slot_count == 1 ? "slot is" : "slots are");
    return 1;
}

/* A clip's pose at t (clamped to its keys) over the rest pose. */
static void sample_clip(const blend_job *j, const blend_clip *c, float t, plumbob_bone_pose *out) {
    (void)plumbob_skeleton_rest_pose(&j->rig->skeleton, 0, j->n, out, j->n);
    (void)plumbob_clip_sample_pose(&c->tc.clip, &c->bind, NULL, t < 0 ? 0 : t, out, NULL);
}

/* B's weight at the loop's local time tl: --weight, or the fade's ramp. */
static float b_weight(const blend_job *j, float tl) {
    float f;
    if (!j->fade) return j->weight;
    f = (tl - j->fade_start) / j->fade_len;
    return f <= 0 ? 0.0f : f >= 1 ? 1.0f : f;
}

/* The blend at one pass's local time tl, before root motion.  0 when a
 * core job refused (never with the arrays sized here). */
static int blend_local(const blend_job *j, float tl, plumbob_bone_pose *out) {
    plumbob_bone_pose *res = j->mirror ? j->tmp : out;
    float f = b_weight(j, tl), tb = j->fade ? tl - j->fade_start : tl;
    uint32_t k;
    sample_clip(j, j->a, tl, j->pa);
    sample_clip(j, j->b, tb, j->pb);
    if (j->additive) {
        if (plumbob_pose_additive_delta(j->ref_b, j->pb, j->n, j->pb, j->n) != PLUMBOB_OK ||
            plumbob_pose_additive_apply(j->pa, j->pb, f, j->mask, j->n, res, j->n) != PLUMBOB_OK)
            return 0;
    } else {
        plumbob_blend_layer layers[2];
        for (k = 0; k < j->n; k++) { /* A keeps what B's masked layer does not take: the weights sum to 1 */
            float m = j->mask ? j->mask[k] : 1.0f;
            j->wa[k] = 1.0f - f * m;
            j->wb[k] = m;
        }
        layers[0].poses = j->pa;
        layers[0].weight = 1.0f;
        layers[0].bone_weights = j->wa;
        layers[1].poses = j->pb;
        layers[1].weight = f;
        layers[1].bone_weights = j->wb;
        if (plumbob_pose_blend(layers, 2, j->rig->skeleton.rest, j->n, PLUMBOB_BLEND_THRESHOLD, res, j->n) != PLUMBOB_OK)
            return 0;
    }
    if (j->mirror && plumbob_pose_mirror(j->opposite, j->tmp, j->n, out, j->n) != PLUMBOB_OK) return 0;
    return 1;
}

/* The output at tick i (t = i * frame): pass i / loop_ticks at local tick
 * i % loop_ticks, and with root motion the body's ground motion moved from
 * the motion bone onto its parent, accumulated over the passes.  *motion
 * (may be NULL) gets the object's ground frame. */
/* Which pass of --loops time t falls in, and the time in that pass. */
static uint32_t pass_of(const blend_job *j, double t, float *tl) {
    double pass_len = (double)j->loop_ticks * j->frame, q;
    uint32_t pass = 0;
    if (j->root_motion && j->loops > 1) {
        q = floor(t / pass_len + 1e-9);
        pass = q < 0 ? 0 : q >= (double)j->loops ? j->loops - 1u : (uint32_t)q;
    }
    *tl = (float)(t - pass * pass_len);
    if (*tl < 0) *tl = 0;
    return pass;
}

static int blend_at(const blend_job *j, double t, plumbob_bone_pose *out, plumbob_root_motion *motion) {
    uint32_t pass, p;
    float tl;
    plumbob_root_motion obj, fr, d;
    pass = pass_of(j, t, &tl);
    if (!blend_local(j, tl, out)) return 0;
    if (!j->root_motion) return 1;
    /* object = F0, then one pass's motion per pass before, then this pass's so far */
    obj = j->f0;
    for (p = 0; p < pass; p++) plumbob_root_motion_accumulate(&obj, &j->loop_delta);
    plumbob_root_motion_frame(&out[j->motion_bone], &fr);
    plumbob_root_motion_delta(&j->f0, &fr, &d);
    plumbob_root_motion_accumulate(&obj, &d);
    plumbob_root_motion_remove(&j->f0, &out[j->motion_bone]);
    plumbob_root_motion_apply(&obj, &j->f0, &out[j->motion_parent]); /* the parent carries the motion */
    if (motion) *motion = obj;
    return 1;
}

/* Every tick of the output, as a clip (tool_pose_clip). */
static int build_clip(const blend_job *j, uint32_t ticks, const char *name, const plumbob_clip *like,
                      unsigned char **bytes, size_t *size) {
    plumbob_bone_pose *frames = (plumbob_bone_pose *)malloc((size_t)ticks * j->n * sizeof *frames);
    uint32_t i;
    int ok;
    *bytes = NULL;
    if (!frames) {
        tool_error(NULL, "out of memory");
        return 0;
    }
    for (i = 0; i < ticks; i++)
        if (!blend_at(j, (double)i * j->frame, frames + (size_t)i * j->n, NULL)) {
            tool_error(NULL, "internal error: a pose job refused the blend at tick %u", (unsigned)i);
            free(frames);
            return 0;
        }
    ok = tool_pose_clip(j->rig, frames, ticks, j->frame, name, "plumbob clip blend", like, bytes, size);
    free(frames);
    return ok;
}

/* The pose at t as clip sample --rig --json prints one, with the blend's
 * own fields. */
static void print_json(const blend_job *j, const tool_rig_res *tr, double t, uint32_t ticks, const plumbob_bone_pose *pose,
                       const plumbob_root_motion *motion) {
    float tl;
    (void)pass_of(j, t, &tl);
    printf("{\"time\": ");
    json_float(stdout, (float)t);
    printf(", \"frame_duration\": ");
    json_float(stdout, j->frame);
    printf(", \"ticks\": %u, \"duration\": ", (unsigned)ticks);
    json_float(stdout, (float)((double)ticks * j->frame));
    printf(", \"weight\": ");
    json_float(stdout, b_weight(j, tl));
    printf(", \"rig\": ");
    json_string(stdout, tr->rig.skeleton_name.ptr, tr->rig.skeleton_name.len);
    if (motion) {
        float v[4];
        v[0] = motion->translation.x; v[1] = motion->translation.y; v[2] = motion->translation.z;
        printf(", \"root_motion\": {\"translation\": ");
        json_floats(stdout, v, 3);
        v[0] = motion->yaw.x; v[1] = motion->yaw.y; v[2] = motion->yaw.z; v[3] = motion->yaw.w;
        printf(", \"yaw\": ");
        json_floats(stdout, v, 4);
        printf("}");
    }
    printf(", \"bones\": ");
    tool_pose_json_bones(&tr->rig, pose);
    printf("}\n");
}

/* --mask NAME[,NAME...] as bone hashes: each a rig bone's name (any case)
 * or 0xHASH.  0 after saying which one is not in the rig. */
static int mask_hashes(const char *list, const plumbob_rig *rig, uint32_t *hashes, uint32_t *count) {
    const char *p = list;
    *count = 0;
    while (*p) {
        const char *e = strchr(p, ',');
        size_t len = e ? (size_t)(e - p) : strlen(p);
        int32_t k = tool_pose_find_bone(rig, p, len);
        if (k < 0) {
            tool_error(NULL, "--mask: no bone '%.*s' in rig %.*s", (int)len, p, (int)rig->skeleton_name.len,
                       rig->skeleton_name.ptr);
            return 0;
        }
        hashes[(*count)++] = rig->skeleton.name_hash[k];
        if (!e) break;
        p = e + 1;
    }
    if (*count == 0) {
        tool_error(NULL, "--mask needs bone names (BONE[,BONE...])");
        return 0;
    }
    return 1;
}

static int usage(FILE *f, int rc) {
    fprintf(f,
            "usage: plumbob clip blend A B --rig RIG (--weight W | --fade SECONDS) [--additive] [--mirror]\n"
            "              [--mask BONE[,BONE...]] [--root-motion [--loops N]] [--name NAME]\n"
            "              (-o OUT.glb|OUT.gltf|OUT.clip | --json --time SECONDS|--frame N)\n"
            "  Mixes clip B into clip A on RIG (a Sims 3 rig resource or PACKAGE@INSTANCE;\n"
            "  A and B are CLIP resources or PACKAGE@INSTANCE), frame by frame at A's frame\n"
            "  rate, both sampled over the rig's rest pose (bones a clip has no track for\n"
            "  stay at rest).\n"
            "  --weight W: B's weight, 0 to 1, all along; the output is as long as the\n"
            "        longer clip (the shorter holds its last key).\n"
            "  --fade S: a cross-fade: A plays from 0; S seconds (whole frames) before A's\n"
            "        end B starts from its own 0 and its weight ramps linearly 0 -> 1 over S;\n"
            "        the output ends with B (A's length - S + B's length).  S at most\n"
            "        either clip's length.\n"
            "  --additive: B is applied additively on A instead: its difference from its\n"
            "        own first frame, at B's weight (default 1).\n"
            "  --mask BONE[,BONE...]: B acts only on these bones and the bones below them\n"
            "        (names as the rig has them, or 0xHASH); A keeps the rest.\n"
            "  --mirror: the result mirrored across the rig's plane (left and right bones\n"
            "        swapped by the rig's mirror table).\n"
            "  --root-motion: the ground motion (x, z and yaw) of b__ROOT_bind__ moves to\n"
            "        its parent, b__ROOT__, and with --loops N the blend plays N times,\n"
            "        each pass starting where the last one ended.\n"
            "  -o: .glb/.gltf writes a glTF animation on the rig's skeleton (as clip export\n"
            "        --rig), .clip a CLIP resource (named --name, default the file's name).\n"
            "  --json: the pose at --time/--frame of the output, as clip sample --rig --json\n"
            "        prints one, with the output's length, B's weight and the root motion.\n"
            "  example: plumbob clip blend walk.clip run.clip --rig auRig.rig --fade 0.5 -o walk-run.glb\n"
            "  example: plumbob clip blend idle.clip wave.clip --rig auRig.rig --weight 1 --mask b__R_Clavicle__ --json --time 1\n");
    return rc;
}

int clip_blend(int argc, char **argv) {
    const char *pa = NULL, *pb = NULL, *rig_path = NULL, *weight_arg = NULL, *fade_arg = NULL, *mask_arg = NULL;
    const char *out_path = NULL, *time_arg = NULL, *frame_arg = NULL, *loops_arg = NULL, *name_arg = NULL;
    int json = 0, i, rc = 1, additive = 0, mirror = 0, root_motion = 0;
    tool_input rin;
    tool_rig_res tr;
    blend_clip ca, cb;
    blend_job j;
    uint32_t *hashes = NULL, nh = 0, ticks, n, k;
    float *mask = NULL;
    int32_t *opposite = NULL;
    plumbob_bone_pose *out = NULL;
    double wv = 1, fv = 0, lv = 1, t = 0;
    memset(&j, 0, sizeof j);
    memset(&ca, 0, sizeof ca);
    memset(&cb, 0, sizeof cb);
    for (i = 2; i < argc; i++) {
        if (strcmp(argv[i], "--help") == 0) return usage(stdout, 0);
        else if (strcmp(argv[i], "--json") == 0) json = 1;
        else if (strcmp(argv[i], "--additive") == 0) additive = 1;
        else if (strcmp(argv[i], "--mirror") == 0) mirror = 1;
        else if (strcmp(argv[i], "--root-motion") == 0) root_motion = 1;
        else if (strcmp(argv[i], "--rig") == 0 && i + 1 < argc && !rig_path) rig_path = argv[++i];
        else if (strcmp(argv[i], "--weight") == 0 && i + 1 < argc && !weight_arg) weight_arg = argv[++i];
        else if (strcmp(argv[i], "--fade") == 0 && i + 1 < argc && !fade_arg) fade_arg = argv[++i];
        else if (strcmp(argv[i], "--mask") == 0 && i + 1 < argc && !mask_arg) mask_arg = argv[++i];
        else if (strcmp(argv[i], "--loops") == 0 && i + 1 < argc && !loops_arg) loops_arg = argv[++i];
        else if (strcmp(argv[i], "--name") == 0 && i + 1 < argc && !name_arg) name_arg = argv[++i];
        else if (strcmp(argv[i], "--time") == 0 && i + 1 < argc && !time_arg) time_arg = argv[++i];
        else if (strcmp(argv[i], "--frame") == 0 && i + 1 < argc && !frame_arg) frame_arg = argv[++i];
        else if (strcmp(argv[i], "-o") == 0 && i + 1 < argc && !out_path) out_path = argv[++i];
        else if (argv[i][0] != '-' && !pa) pa = argv[i];
        else if (argv[i][0] != '-' && !pb) pb = argv[i];
        else return tool_bad_argument(argc, argv, i);
    }
    if (!pa || !pb || !rig_path) {
        tool_error(NULL, !pa || !pb ? "which clips? (plumbob clip blend A B --rig RIG ...)" : "--rig RIG is required (the Sims 3 rig both clips play on)");
        return usage(stderr, 2);
    }
    if (!!weight_arg == !!fade_arg && !(additive && !fade_arg)) {
        tool_error(NULL, weight_arg ? "--weight and --fade: give one" : "--weight W or --fade SECONDS is required");
        return 2;
    }
    if (!out_path && !json) {
        tool_error(NULL, "-o OUT.glb|OUT.gltf|OUT.clip or --json is required");
        return 2;
    }
    if (json && !time_arg && !frame_arg) {
        tool_error(NULL, "--json prints one pose: --time SECONDS or --frame N is required");
        return 2;
    }
    if (!json && (time_arg || frame_arg)) {
        tool_error(NULL, "--time and --frame go with --json");
        return 2;
    }
    if (loops_arg && !root_motion) {
        tool_error(NULL, "--loops goes with --root-motion");
        return 2;
    }
    if (out_path && !tool_arg_extension(out_path, ".glb", ".gltf", ".clip")) return 2;
    if (weight_arg && !tool_arg_number("--weight", weight_arg, 0, 1, &wv)) return 2;
    if (fade_arg && !tool_arg_number("--fade", fade_arg, 1e-6, 1e6, &fv)) return 2;
    if (loops_arg && !tool_arg_number("--loops", loops_arg, 1, 1000, &lv)) return 2;
    if (loops_arg && lv != floor(lv)) {
        tool_error(NULL, "--loops needs a whole number, not '%s'", loops_arg);
        return 2;
    }
    if (!tool_load_kind(rig_path, PLUMBOB_TYPE_RIG, "--rig", &rin)) return 1;
    if (!tool_rig_decode_or_say(&rin, &tr)) {
        tool_free(&rin);
        return 1;
    }
    n = tr.rig.skeleton.bone_count;
    if (!tr.rig.skeleton.name_hash || n == 0) {
        tool_error(rin.name, "the rig has no bones with name hashes to bind clips to");
        goto done;
    }
    if (!blend_clip_load(pa, &tr, &ca) || !blend_clip_load(pb, &tr, &cb)) goto done;
    j.rig = &tr.rig;
    j.n = n;
    j.a = &ca;
    j.b = &cb;
    j.weight = (float)wv;
    j.additive = additive;
    j.mirror = mirror;
    j.root_motion = root_motion;
    j.loops = (uint32_t)lv;
    j.frame = ca.tc.clip.frame_duration;
    if (!(j.frame > 0) || !(j.frame < 1e3f)) {
        tool_error(ca.in.name, "a frame duration of %g s: cannot sample at that rate", (double)j.frame);
        goto done;
    }
    {
        double da = plumbob_clip_duration(&ca.tc.clip), db = plumbob_clip_duration(&cb.tc.clip), len;
        if (fade_arg) {
            double frames = floor(fv / j.frame + 0.5);
            if (frames < 1) frames = 1;
            if (frames * j.frame > da + 1e-6 || frames * j.frame > db + 1e-6) {
                tool_error(NULL, "--fade %s is longer than %s (%.4f s)", fade_arg, da <= db ? "A" : "B", da <= db ? da : db);
                goto done;
            }
            j.fade = 1;
            j.fade_len = (float)(frames * j.frame);
            j.fade_start = (float)(da - frames * j.frame);
            len = da - frames * j.frame + db;
        } else {
            len = da > db ? da : db;
        }
        {
            double nt = ceil(len / j.frame - 1e-4), all;
            if (nt < 1) nt = 1;
            all = root_motion ? nt * j.loops : nt;
            if (!(all <= 65535)) { /* also a frame so short that the count is beyond any clip */
                tool_error(NULL, "the blend would be %.0f ticks of %g s long; a clip holds at most 65535", all, (double)j.frame);
                goto done;
            }
            j.loop_ticks = (uint32_t)nt;
            ticks = (uint32_t)all;
        }
    }
    j.pa = (plumbob_bone_pose *)calloc(n, sizeof *j.pa);
    j.pb = (plumbob_bone_pose *)calloc(n, sizeof *j.pb);
    j.ref_b = (plumbob_bone_pose *)calloc(n, sizeof *j.ref_b);
    j.tmp = (plumbob_bone_pose *)calloc(n, sizeof *j.tmp);
    j.wa = (float *)calloc(n, sizeof *j.wa);
    j.wb = (float *)calloc(n, sizeof *j.wb);
    out = (plumbob_bone_pose *)calloc(n, sizeof *out);
    if (!j.pa || !j.pb || !j.ref_b || !j.tmp || !j.wa || !j.wb || !out) {
        tool_error(NULL, "out of memory");
        goto done;
    }
    sample_clip(&j, &cb, 0, j.ref_b); /* --additive: B's difference from its first frame */
    if (mask_arg) {
        plumbob_result r;
        hashes = (uint32_t *)calloc(strlen(mask_arg) + 1u, sizeof *hashes);
        mask = (float *)calloc(n, sizeof *mask);
        if (!hashes || !mask) {
            tool_error(NULL, "out of memory");
            goto done;
        }
        if (!mask_hashes(mask_arg, &tr.rig, hashes, &nh)) goto done; /* a bone this rig lacks: exit 1, as a resource a package lacks */
        r = plumbob_bone_weights_subtrees(&tr.rig.skeleton, hashes, nh, 1.0f, 0.0f, mask, n);
        if (r != PLUMBOB_OK) {
            tool_error(rin.name, "the mask: %s", plumbob_result_str(r));
            goto done;
        }
        j.mask = mask;
    }
    if (mirror) {
        opposite = (int32_t *)calloc(n, sizeof *opposite);
        if (!opposite || plumbob_rig_mirror_table(&tr.rig, opposite, n) != PLUMBOB_OK) {
            tool_error(rin.name, "cannot make the rig's mirror table");
            goto done;
        }
        j.opposite = opposite;
    }
    if (root_motion) {
        plumbob_root_motion fe;
        j.motion_bone = j.motion_parent = -1;
        for (k = 0; k < n; k++)
            if (tr.rig.skeleton.name_hash[k] == PLUMBOB_ROOT_MOTION_BONE_SIMS3) j.motion_bone = (int32_t)k;
        if (j.motion_bone < 0 || tr.rig.skeleton.parent[j.motion_bone] < 0) {
            tool_error(rin.name, j.motion_bone < 0 ? "--root-motion: the rig has no b__ROOT_bind__ (the bone that carries a Sim's motion)"
                                                   : "--root-motion: b__ROOT_bind__ has no parent bone to carry the motion");
            goto done;
        }
        j.motion_parent = tr.rig.skeleton.parent[j.motion_bone];
        if (!blend_local(&j, 0, out)) goto refused;
        plumbob_root_motion_frame(&out[j.motion_bone], &j.f0);
        if (!blend_local(&j, (float)((double)j.loop_ticks * j.frame), out)) goto refused;
        plumbob_root_motion_frame(&out[j.motion_bone], &fe);
        plumbob_root_motion_delta(&j.f0, &fe, &j.loop_delta);
    }
    if (json && !tool_arg_time(time_arg, frame_arg, (double)j.frame, (double)ticks * j.frame, &t)) { /* before any write */
        rc = 2;
        goto done;
    }
    if (out_path) {
        unsigned char *bytes = NULL;
        size_t size = 0;
        char name[256];
        tool_pose_clip_name(out_path, name_arg, name, sizeof name);
        if (!build_clip(&j, ticks, name, &ca.tc.clip, &bytes, &size)) goto done;
        if (json) tool_set_quiet(1); /* stdout holds the JSON alone */
        if (!tool_pose_write(out_path, &tr.rig, bytes, size)) {
            free(bytes);
            goto done;
        }
        free(bytes);
    }
    if (json) {
        plumbob_root_motion motion;
        if (!blend_at(&j, t, out, &motion)) goto refused;
        print_json(&j, &tr, t, ticks, out, root_motion ? &motion : NULL);
    }
    rc = 0;
    goto done;
refused:
    tool_error(NULL, "internal error: a pose job refused the blend");
done:
    blend_clip_free(&ca);
    blend_clip_free(&cb);
    free(j.pa); free(j.pb); free(j.ref_b); free(j.tmp); free(j.wa); free(j.wb);
    free(out); free(hashes); free(mask); free(opposite);
    tool_rig_res_free(&tr);
    tool_free(&rin);
    return rc;
}
