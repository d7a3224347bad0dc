/* A clip on a rig it was not made for: said as a warning (issue 44).  The
 * core's binding report (plumbob_clip_binding_report) decides: fewer than
 * half of the clip's animated bones are bones of the rig, or the clip
 * name's actor prefix (a_, ad_, c_, ...) names another species or age than
 * the rig's name (auRig, adRig, cuRig; any other name is taken for an
 * object's rig, and a Sim's clip on it said only when few bones bind).
 * This file only words it. */
#include <stdlib.h>
#include <string.h>
#include "plumbob.h"
#include "util/files.h"
#include "tool_pairing.h"

/* Words for a clip's actor: by body, and for adult-sized humans by the
 * prefix letter (a teen's, an elder's clip). */
static const char *clip_words(int body, const char *name, size_t len) {
    static const char *const bodies[] = {
        NULL, "an object's clip", "a human clip", "a child's clip", "a toddler's clip", "a baby's clip",
        "a dog's clip", "a puppy's clip", "a small dog's clip", "a cat's clip", "a kitten's clip",
        "a horse's clip", "a foal's clip",
    };
    if (body == PLUMBOB_BODY_HUMAN && len > 1 && (name[1] == '_' || name[1] == '2')) {
        switch (name[0] | 0x20) {
        case 't': return "a teen's clip";
        case 'y': return "a young adult's clip";
        case 'h': return "an adult's clip";
        case 'e': return "an elder's clip";
        default: break;
        }
    }
    return body > 0 && body < (int)(sizeof bodies / sizeof bodies[0]) ? bodies[body] : "a clip";
}

static const char *rig_words(int body) {
    static const char *const bodies[] = {
        NULL, "an object's rig", "an adult human rig", "a child's rig", "a toddler's rig", "a baby's rig",
        "a dog's rig", "a puppy's rig", "a small dog's rig", "a cat's rig", "a kitten's rig",
        "a horse's rig", "a foal's rig",
    };
    return body > 0 && body < (int)(sizeof bodies / sizeof bodies[0]) ? bodies[body] : "a rig";
}

void tool_warn_pairing(const plumbob_clip *clip, const char *clip_where, const uint32_t *bone_hash,
                       uint32_t bone_count, const char *rig_name) {
    plumbob_clip_binding bind;
    plumbob_clip_bind_report rep;
    plumbob_arena a;
    size_t bind_size = plumbob_clip_bind_size(clip), need;
    unsigned char *mem;
    if (bind_size == SIZE_MAX) return;
    need = bind_size + PLUMBOB_CLIP_BIND_REPORT_SIZE(clip->track_count);
    mem = (unsigned char *)malloc(need);
    if (!mem) return;
    plumbob_arena_init(&a, mem, need);
    if (plumbob_clip_bind(clip, bone_hash, bone_count, NULL, 0, &a, &bind) != PLUMBOB_OK ||
        plumbob_clip_binding_report(&bind, rig_name, rig_name ? strlen(rig_name) : 0, &a, NULL, 0, &rep) !=
            PLUMBOB_OK) {
        free(mem);
        return;
    }
    free(mem);
    if (rep.fit & (PLUMBOB_FIT_OTHER_SPECIES | PLUMBOB_FIT_OTHER_AGE)) {
        size_t pl = 0;
        while (pl < clip->name.len && clip->name.ptr[pl] != '_') pl++;
        tool_warning(clip_where, "%.*s is %s (prefix %.*s_) and %s is %s: the wrong rig?", (int)clip->name.len,
                     clip->name.ptr, clip_words(rep.clip_body, clip->name.ptr, clip->name.len), (int)pl,
                     clip->name.ptr, rig_name, rig_words(rep.rig_body));
    }
    if (rep.fit & PLUMBOB_FIT_FEW_BONES)
        tool_warning(clip_where, "only %u of the clip's %u animated bones are bones of the rig%s%s: the wrong rig?",
                     (unsigned)rep.bound_bones, (unsigned)rep.bone_count, rig_name && rig_name[0] ? " " : "",
                     rig_name ? rig_name : "");
}
