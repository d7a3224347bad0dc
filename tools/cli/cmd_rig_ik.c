/* plumbob rig ik RIG: one IK solve on a Sims 3 rig with the core's jobs
 * (plumbob_ik_two_bone on a rig chain or three named bones, plumbob_ik_aim
 * on one bone), at the rest pose or a clip's pose, with the targets given
 * on the command line; what moved as text or JSON, the pose before and
 * after as a two-tick clip or glTF. */
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
#include "tool_pose.h"

static plumbob_vec3 pos_of(const plumbob_mat34 *m) {
    plumbob_vec3 v;
    v.x = m->m[0][3];
    v.y = m->m[1][3];
    v.z = m->m[2][3];
    return v;
}

static double dist(plumbob_vec3 a, plumbob_vec3 b) {
    double x = (double)a.x - b.x, y = (double)a.y - b.y, z = (double)a.z - b.z;
    return sqrt(x * x + y * y + z * z);
}

static plumbob_vec3 sub(plumbob_vec3 a, plumbob_vec3 b) {
    plumbob_vec3 v;
    v.x = a.x - b.x;
    v.y = a.y - b.y;
    v.z = a.z - b.z;
    return v;
}

static void json_vec(plumbob_vec3 v) {
    float f[3];
    f[0] = v.x; f[1] = v.y; f[2] = v.z;
    json_floats(stdout, f, 3);
}

static void json_quat(plumbob_quat q) {
    float f[4];
    f[0] = q.x; f[1] = q.y; f[2] = q.z; f[3] = q.w;
    json_floats(stdout, f, 4);
}

static void json_name(const plumbob_rig *rig, uint32_t k) {
    json_string(stdout, rig->skeleton.name[k].ptr, rig->skeleton.name[k].len);
}

/* The angle in degrees between the aimed axis of joint m (its local
 * `forward`, turned into model space) and the direction to the target. */
static double aim_error(const plumbob_mat34 *m, plumbob_vec3 forward, plumbob_vec3 target) {
    plumbob_vec3 f = plumbob_mat34_transform_vector(m, forward), d = sub(target, pos_of(m));
    double lf = sqrt((double)f.x * f.x + (double)f.y * f.y + (double)f.z * f.z);
    double ld = sqrt((double)d.x * d.x + (double)d.y * d.y + (double)d.z * d.z), c;
    if (lf == 0 || ld == 0) return 0;
    c = ((double)f.x * d.x + (double)f.y * d.y + (double)f.z * d.z) / (lf * ld);
    c = c > 1 ? 1 : c < -1 ? -1 : c;
    return acos(c) * 57.29577951308232;
}

static int usage(FILE *f, int rc) {
    fprintf(f,
            "usage: plumbob rig ik RIG (--chain N | --bones START,MID,END) --target X,Y,Z [--pole X,Y,Z]\n"
            "              [--weight W] [--soften S] [--twist DEG] [--clip CLIP --time S|--frame N]\n"
            "              [--json] [-o OUT.glb|OUT.gltf|OUT.clip]\n"
            "       plumbob rig ik RIG --aim BONE --target X,Y,Z [--forward X,Y,Z] [--up X,Y,Z --pole X,Y,Z]\n"
            "              [--weight W] [--twist DEG] [--clip CLIP --time S|--frame N] [--json] [-o OUT]\n"
            "  One IK solve on a Sims 3 rig (a rig resource or PACKAGE@INSTANCE) in its rest\n"
            "  pose, or in CLIP's pose at --time (the clip sampled over the rest pose).\n"
            "  Positions are model-space metres, Y up.\n"
            "  --chain N: two-bone IK on rig IK chain N (rig dump lists them: its first,\n"
            "        second and last bones); its pole bone, when it has one, is the pole.\n"
            "  --bones START,MID,END: the same on three bones named (or 0xHASH), each below\n"
            "        the one before; no pole unless --pole (the chain keeps its bend plane).\n"
            "  --pole X,Y,Z: the point the middle joint bends toward (for --aim: the point\n"
            "        the joint's --up axis turns toward).\n"
            "  --aim BONE: turns BONE so its local --forward axis (default 0,1,0) points at\n"
            "        the target.\n"
            "  --weight W (0..1, default 1), --soften S (0..1, default 1: none), --twist DEG\n"
            "        as the core's jobs take them (docs/API.md).\n"
            "  Prints what moved: the end joint (or the aimed axis) before and after, its\n"
            "  distance (angle) to the target, the bone lengths before and after, and with\n"
            "  --json also every bone's pose after the solve, as clip sample --rig --json.\n"
            "  -o: a two-tick clip, tick 0 the pose before the solve, tick 1 after (.clip,\n"
            "        or a glTF animation on the rig's skeleton).\n"
            "  example: plumbob rig ik auRig.rig --chain 0 --target 0.2,0.3,0.25 --json\n"
            "  example: plumbob rig ik auRig.rig --aim b__Head__ --forward 0,0,1 --target 1,1.6,2 -o look.glb\n");
    return rc;
}

int rig_ik(int argc, char **argv) {
    const char *rig_path = NULL, *chain_arg = NULL, *bones_arg = NULL, *aim_arg = NULL, *target_arg = NULL;
    const char *pole_arg = NULL, *forward_arg = NULL, *up_arg = NULL, *weight_arg = NULL, *soften_arg = NULL;
    const char *twist_arg = NULL, *clip_path = NULL, *time_arg = NULL, *frame_arg = NULL, *out_path = NULL;
    int json = 0, i, rc = 1, reached = 0, have_clip = 0, loaded_clip = 0;
    tool_input rin, cin;
    tool_rig_res tr;
    tool_clip tc;
    plumbob_bone_pose *frames = NULL, *before, *after;
    plumbob_mat34 *m0 = NULL, *m1 = NULL;
    plumbob_vec3 target, pole = {0, 0, 0}, forward = {0, 1, 0}, up = {0, 0, 0};
    double weight = 1, soften = 1, twist = 0, t = 0, chain_d = 0;
    uint32_t n, k, joint[3] = {0, 0, 0}, njoints;
    int32_t pole_bone = -1;
    plumbob_quat corr[2];
    plumbob_result r;
    memset(&cin, 0, sizeof cin);
    memset(&tc, 0, sizeof tc);
    for (i = 2; i < argc; i++) {
        if (strcmp(argv[i], "--help") == 0) return usage(stdout, 0);
        else if (strcmp(argv[i], "--json") == 0) json = 1;
        else if (strcmp(argv[i], "--chain") == 0 && i + 1 < argc && !chain_arg) chain_arg = argv[++i];
        else if (strcmp(argv[i], "--bones") == 0 && i + 1 < argc && !bones_arg) bones_arg = argv[++i];
        else if (strcmp(argv[i], "--aim") == 0 && i + 1 < argc && !aim_arg) aim_arg = argv[++i];
        else if (strcmp(argv[i], "--target") == 0 && i + 1 < argc && !target_arg) target_arg = argv[++i];
        else if (strcmp(argv[i], "--pole") == 0 && i + 1 < argc && !pole_arg) pole_arg = argv[++i];
        else if (strcmp(argv[i], "--forward") == 0 && i + 1 < argc && !forward_arg) forward_arg = argv[++i];
        else if (strcmp(argv[i], "--up") == 0 && i + 1 < argc && !up_arg) up_arg = argv[++i];
        else if (strcmp(argv[i], "--weight") == 0 && i + 1 < argc && !weight_arg) weight_arg = argv[++i];
        else if (strcmp(argv[i], "--soften") == 0 && i + 1 < argc && !soften_arg) soften_arg = argv[++i];
        else if (strcmp(argv[i], "--twist") == 0 && i + 1 < argc && !twist_arg) twist_arg = argv[++i];
        else if (strcmp(argv[i], "--clip") == 0 && i + 1 < argc && !clip_path) clip_path = argv[++i];
        else if (strcmp(argv[i], "--time") == 0 && i + 1 < argc && !time_arg) time_arg = argv[++i];
        else if (strcmp(argv[i], "--frame") == 0 && i + 1 < argc && !frame_arg) frame_arg = argv[++i];
        else if (strcmp(argv[i], "-o") == 0 && i + 1 < argc && !out_path) out_path = argv[++i];
        else if (argv[i][0] != '-' && !rig_path) rig_path = argv[i];
        else return tool_bad_argument(argc, argv, i);
    }
    if (!rig_path) {
        tool_error(NULL, "which rig? (plumbob rig ik RIG ...)");
        return usage(stderr, 2);
    }
    if ((chain_arg != NULL) + (bones_arg != NULL) + (aim_arg != NULL) != 1) {
        tool_error(NULL, "give one of --chain N, --bones START,MID,END or --aim BONE");
        return 2;
    }
    if (!target_arg) {
        tool_error(NULL, "--target X,Y,Z is required");
        return 2;
    }
    if (!aim_arg && (forward_arg || up_arg)) {
        tool_error(NULL, "--forward and --up go with --aim");
        return 2;
    }
    if (aim_arg && soften_arg) {
        tool_error(NULL, "--soften goes with a two-bone solve (--chain or --bones)");
        return 2;
    }
    if (aim_arg && !up_arg != !pole_arg) {
        tool_error(NULL, "--up and --pole go together with --aim");
        return 2;
    }
    if (!clip_path != (!time_arg && !frame_arg)) {
        tool_error(NULL, clip_path ? "--clip needs --time SECONDS or --frame N" : "--time and --frame go with --clip");
        return 2;
    }
    if (!tool_pose_vec3("--target", target_arg, &target) || (pole_arg && !tool_pose_vec3("--pole", pole_arg, &pole)) ||
        (forward_arg && !tool_pose_vec3("--forward", forward_arg, &forward)) ||
        (up_arg && !tool_pose_vec3("--up", up_arg, &up)))
        return 2;
    if (forward_arg && forward.x == 0 && forward.y == 0 && forward.z == 0) {
        tool_error(NULL, "--forward must not be 0,0,0");
        return 2;
    }
    if ((weight_arg && !tool_arg_number("--weight", weight_arg, 0, 1, &weight)) ||
        (soften_arg && !tool_arg_number("--soften", soften_arg, 0, 1, &soften)) ||
        (twist_arg && !tool_arg_number("--twist", twist_arg, -36000, 36000, &twist)) ||
        (chain_arg && !tool_arg_number("--chain", chain_arg, 0, 65535, &chain_d)))
        return 2;
    if (chain_arg && chain_d != floor(chain_d)) {
        tool_error(NULL, "--chain needs a chain number, not '%s'", chain_arg);
        return 2;
    }
    if (out_path && !tool_arg_extension(out_path, ".glb", ".gltf", ".clip")) return 2;
    if (!tool_load_kind(rig_path, PLUMBOB_TYPE_RIG, "--rig", &rin)) return 1;
    if (!tool_rig_decode_or_say(&rin, &tr)) {
        tool_free(&rin);
        return 1;
    }
    n = tr.rig.skeleton.bone_count;
    frames = (plumbob_bone_pose *)calloc(2u * n + 1u, sizeof *frames);
    m0 = (plumbob_mat34 *)calloc(n + 1u, sizeof *m0);
    m1 = (plumbob_mat34 *)calloc(n + 1u, sizeof *m1);
    if (!frames || !m0 || !m1) {
        tool_error(NULL, "out of memory");
        goto done;
    }
    before = frames;
    after = frames + n;
    if (!tr.rig.skeleton.name_hash || !tr.rig.skeleton.name || n == 0) {
        tool_error(rin.name, "the rig has no named bones");
        goto done;
    }
    /* which joints */
    if (chain_arg) {
        plumbob_ik_chain_bones cb;
        r = plumbob_rig_ik_chain_bones(&tr.rig, (uint32_t)chain_d, &cb);
        if (r != PLUMBOB_OK) {
            if (r == PLUMBOB_ERR_BAD_INDEX && (uint32_t)chain_d >= tr.rig.ik_chain_count)
                tool_error(rin.name, "--chain %s: the rig has %u IK chains (0 to %u)", chain_arg,
                           (unsigned)tr.rig.ik_chain_count, (unsigned)(tr.rig.ik_chain_count ? tr.rig.ik_chain_count - 1 : 0));
            else
                tool_error(rin.name, "--chain %s: %s", chain_arg,
                           r == PLUMBOB_ERR_UNSUPPORTED ? "not a chain of three bones or more (no two-bone solve)"
                                                        : "the chain names a bone outside the rig");
            goto done;
        }
        joint[0] = cb.start;
        joint[1] = cb.mid;
        joint[2] = cb.end;
        pole_bone = cb.pole;
        njoints = 3;
    } else {
        const char *p = bones_arg ? bones_arg : aim_arg;
        njoints = 0;
        while (*p) {
            const char *e = strchr(p, ',');
            size_t len = e ? (size_t)(e - p) : strlen(p);
            int32_t b = tool_pose_find_bone(&tr.rig, p, len);
            if (b < 0) { /* a bone this rig lacks: exit 1, as a resource a package lacks */
                tool_error(rin.name, "%s: no bone '%.*s' in rig %.*s", bones_arg ? "--bones" : "--aim", (int)len, p,
                           (int)tr.rig.skeleton_name.len, tr.rig.skeleton_name.ptr);
                goto done;
            }
            if (njoints == (bones_arg ? 3u : 1u)) {
                tool_error(NULL, bones_arg ? "--bones names three bones: START,MID,END" : "--aim names one bone");
                rc = 2;
                goto done;
            }
            joint[njoints++] = (uint32_t)b;
            if (!e) break;
            p = e + 1;
        }
        if (njoints != (bones_arg ? 3u : 1u)) {
            tool_error(NULL, bones_arg ? "--bones names three bones: START,MID,END" : "--aim names one bone");
            rc = 2;
            goto done;
        }
        for (k = 1; k < njoints; k++) { /* each below the one before */
            int32_t a = (int32_t)joint[k];
            while (a >= 0 && a != (int32_t)joint[k - 1]) a = tr.rig.skeleton.parent[a];
            if (a < 0) {
                tool_error(rin.name, "--bones: %.*s is not below %.*s", (int)tr.rig.skeleton.name[joint[k]].len,
                           tr.rig.skeleton.name[joint[k]].ptr, (int)tr.rig.skeleton.name[joint[k - 1]].len,
                           tr.rig.skeleton.name[joint[k - 1]].ptr);
                goto done; /* the rig's hierarchy says no: exit 1 */
            }
        }
    }
    /* the pose before: rest, or the clip at t over it */
    (void)plumbob_skeleton_rest_pose(&tr.rig.skeleton, 0, n, before, n);
    if (clip_path) {
        plumbob_result cr;
        if (!tool_load_kind(clip_path, PLUMBOB_TYPE_CLIP, "--clip", &cin)) goto done;
        loaded_clip = 1;
        cr = tool_clip_decode(&cin, &tc);
        if (cr != PLUMBOB_OK) {
            tool_error(cin.name, "not a valid CLIP: %s", tool_why(&cin, cr));
            goto done;
        }
        have_clip = 1;
        if (!tool_arg_time(time_arg, frame_arg, (double)tc.clip.frame_duration, (double)plumbob_clip_duration(&tc.clip),
                           &t)) {
            rc = 2;
            goto done;
        }
        if (tool_rig_sample(&tc.clip, &tr.rig, (float)t, before, m0, NULL, NULL) != 1) {
            tool_error(cin.name, "cannot sample the clip on this rig");
            goto done;
        }
    }
    if (plumbob_skeleton_model(&tr.rig.skeleton, before, m0, n) != PLUMBOB_OK) {
        tool_error(rin.name, "the rig's skeleton is refused");
        goto done;
    }
    memcpy(after, before, n * sizeof *after);
    if (!aim_arg) {
        plumbob_ik_two_bone_job job;
        plumbob_ik_two_bone_result res;
        memset(&job, 0, sizeof job);
        job.start = &m0[joint[0]];
        job.mid = &m0[joint[1]];
        job.end = &m0[joint[2]];
        job.target = target;
        if (pole_arg) job.pole = sub(pole, pos_of(&m0[joint[0]]));
        else if (pole_bone >= 0) job.pole = sub(pos_of(&m0[pole_bone]), pos_of(&m0[joint[0]]));
        job.weight = (float)weight;
        job.soften = (float)soften;
        job.twist_angle = (float)(twist / 57.29577951308232);
        r = plumbob_ik_two_bone(&job, &res);
        if (r != PLUMBOB_OK) {
            tool_error(rin.name, "the two-bone solve refused the chain: %s (a joint's transform not finite or too large?)",
                       plumbob_result_str(r));
            goto done;
        }
        corr[0] = res.start_correction;
        corr[1] = res.mid_correction;
        reached = res.reached;
        after[joint[0]].rotation = plumbob_quat_mul(after[joint[0]].rotation, corr[0]);
        after[joint[1]].rotation = plumbob_quat_mul(after[joint[1]].rotation, corr[1]);
    } else {
        plumbob_ik_aim_job job;
        plumbob_ik_aim_result res;
        memset(&job, 0, sizeof job);
        job.joint = &m0[joint[0]];
        job.target = target;
        job.forward = forward;
        job.up = up;
        if (pole_arg) job.pole = sub(pole, pos_of(&m0[joint[0]]));
        job.weight = (float)weight;
        job.twist_angle = (float)(twist / 57.29577951308232);
        r = plumbob_ik_aim(&job, &res);
        if (r != PLUMBOB_OK) {
            tool_error(rin.name, "the aim solve refused the joint: %s", plumbob_result_str(r));
            goto done;
        }
        corr[0] = res.correction;
        reached = res.reached;
        after[joint[0]].rotation = plumbob_quat_mul(after[joint[0]].rotation, corr[0]);
    }
    if (plumbob_skeleton_model(&tr.rig.skeleton, after, m1, n) != PLUMBOB_OK) {
        tool_error(rin.name, "the rig's skeleton is refused");
        goto done;
    }
    if (out_path) {
        unsigned char *bytes = NULL;
        size_t size = 0;
        char name[256];
        int ok;
        tool_pose_clip_name(out_path, NULL, name, sizeof name);
        if (json) tool_set_quiet(1); /* stdout holds the JSON alone */
        ok = tool_pose_clip(&tr.rig, frames, 2, 1.0f / 30.0f, name, "plumbob rig ik", have_clip ? &tc.clip : NULL,
                            &bytes, &size) &&
             tool_pose_write(out_path, &tr.rig, bytes, size);
        free(bytes);
        if (!ok) goto done;
    }
    if (json) {
        printf("{\"rig\": ");
        json_string(stdout, tr.rig.skeleton_name.ptr, tr.rig.skeleton_name.len);
        printf(", \"time\": ");
        if (have_clip) json_float(stdout, (float)t); else printf("null");
        printf(", \"solver\": \"%s\", \"chain\": ", aim_arg ? "aim" : "two_bone");
        if (chain_arg) printf("%u", (unsigned)chain_d); else printf("null");
        printf(", \"joints\": [");
        for (k = 0; k < njoints; k++) {
            if (k) printf(", ");
            json_name(&tr.rig, joint[k]);
        }
        printf("], \"target\": ");
        json_vec(target);
        printf(", \"reached\": %s", reached ? "true" : "false");
        if (!aim_arg) {
            uint32_t e = joint[2];
            printf(", \"pole\": ");
            if (pole_arg) json_vec(pole);
            else if (pole_bone >= 0) json_vec(pos_of(&m0[pole_bone]));
            else printf("null");
            printf(", \"end_before\": ");
            json_vec(pos_of(&m0[e]));
            printf(", \"end_after\": ");
            json_vec(pos_of(&m1[e]));
            printf(", \"distance\": %.9g", dist(pos_of(&m1[e]), target));
            printf(", \"lengths_before\": [%.9g, %.9g], \"lengths_after\": [%.9g, %.9g]",
                   dist(pos_of(&m0[joint[0]]), pos_of(&m0[joint[1]])), dist(pos_of(&m0[joint[1]]), pos_of(&m0[e])),
                   dist(pos_of(&m1[joint[0]]), pos_of(&m1[joint[1]])), dist(pos_of(&m1[joint[1]]), pos_of(&m1[e])));
            printf(", \"corrections\": [");
            json_quat(corr[0]);
            printf(", ");
            json_quat(corr[1]);
            printf("]");
        } else {
            printf(", \"forward\": ");
            json_vec(forward);
            printf(", \"angle_before\": %.9g, \"angle_after\": %.9g", aim_error(&m0[joint[0]], forward, target),
                   aim_error(&m1[joint[0]], forward, target));
            printf(", \"corrections\": [");
            json_quat(corr[0]);
            printf("]");
        }
        printf(", \"bones\": ");
        tool_pose_json_bones(&tr.rig, after);
        printf("}\n");
    } else if (!aim_arg) {
        uint32_t e = joint[2];
        plumbob_vec3 p0 = pos_of(&m0[e]), p1 = pos_of(&m1[e]);
        printf("two-bone IK on %.*s -> %.*s -> %.*s of %.*s%s: target (%.6f %.6f %.6f) %s\n",
               (int)tr.rig.skeleton.name[joint[0]].len, tr.rig.skeleton.name[joint[0]].ptr,
               (int)tr.rig.skeleton.name[joint[1]].len, tr.rig.skeleton.name[joint[1]].ptr,
               (int)tr.rig.skeleton.name[e].len, tr.rig.skeleton.name[e].ptr, (int)tr.rig.skeleton_name.len,
               tr.rig.skeleton_name.ptr, have_clip ? " (clip pose)" : " (rest pose)", (double)target.x,
               (double)target.y, (double)target.z, reached ? "reached" : "not reached");
        printf("  end      (%.6f %.6f %.6f) -> (%.6f %.6f %.6f), %.6f m from the target\n", (double)p0.x, (double)p0.y,
               (double)p0.z, (double)p1.x, (double)p1.y, (double)p1.z, dist(p1, target));
        printf("  lengths  %.6f %.6f -> %.6f %.6f m\n", dist(pos_of(&m0[joint[0]]), pos_of(&m0[joint[1]])),
               dist(pos_of(&m0[joint[1]]), p0), dist(pos_of(&m1[joint[0]]), pos_of(&m1[joint[1]])),
               dist(pos_of(&m1[joint[1]]), p1));
    } else {
        printf("aim IK on %.*s of %.*s%s: target (%.6f %.6f %.6f) %s\n", (int)tr.rig.skeleton.name[joint[0]].len,
               tr.rig.skeleton.name[joint[0]].ptr, (int)tr.rig.skeleton_name.len, tr.rig.skeleton_name.ptr,
               have_clip ? " (clip pose)" : " (rest pose)", (double)target.x, (double)target.y, (double)target.z,
               reached ? "reached" : "not reached");
        printf("  forward axis %.6f -> %.6f degrees off the target\n", aim_error(&m0[joint[0]], forward, target),
               aim_error(&m1[joint[0]], forward, target));
    }
    rc = 0;
done:
    if (have_clip) tool_clip_free(&tc);
    if (loaded_clip) tool_free(&cin);
    free(frames); free(m0); free(m1);
    tool_rig_res_free(&tr);
    tool_free(&rin);
    return rc;
}
