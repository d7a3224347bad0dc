/* The format registry: what `info` and `check` do with each format.  It
 * names every command file's info and re-encode, so it sits at the top with
 * the command table (plumbob.c); no helper below calls it. */
#include <stdio.h>
#include "plumbob.h"
#include "commands.h"
#include "formats.h"
#include "tool_input.h"
#include "tool_types.h"

/* Formats the tool can decode; filled in as each format lands. */
static const tool_format formats[] = {
    {PLUMBOB_FORMAT_DBPF, package_info, NULL},
    {PLUMBOB_FORMAT_CLIP, clip_info, clip_reencode},
    {PLUMBOB_FORMAT_GMDC, gmdc_info, gmdc_reencode},
    {PLUMBOB_FORMAT_ANIM, anim_info, anim_reencode},
    {PLUMBOB_FORMAT_JAZZ, jazz_info, jazz_reencode},
    {PLUMBOB_FORMAT_RIG, rig_info, rig_reencode},
    {PLUMBOB_FORMAT_CRES, cres_info, cres_reencode},
    {PLUMBOB_FORMAT_KEY, key_info, key_reencode},
    {PLUMBOB_FORMAT_GEOM, geom_info, geom_reencode},
    {PLUMBOB_FORMAT_TRACK_MASK, track_mask_info, track_mask_reencode},
};

const tool_format *tool_format_for_type(uint32_t type) {
    return tool_format_for(tool_format_of_type(type));
}

const tool_format *tool_format_of(const tool_input *in, plumbob_format *f) {
    *f = tool_input_format(in); /* a package resource by the index's type, a file by its bytes */
    return tool_format_for(*f);
}

const tool_format *tool_format_for(plumbob_format f) {
    size_t i;
    for (i = 0; i < sizeof formats / sizeof formats[0]; i++)
        if (formats[i].format == f && formats[i].info) return &formats[i];
    return NULL;
}
