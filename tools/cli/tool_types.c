/* Names and file extensions of resource types a modder meets in packages. */
#include <stdio.h>
#include "tool.h"

static const struct {
    uint32_t type;
    const char *name, *ext;
} types[] = {
    {0x6B20C4F3u, "CLIP", "clip"}, {0x02D5DF13u, "JAZZ", "jazz"}, {0x0166038Cu, "KEY", "key"},
    {0x220557DAu, "STBL", "stbl"}, {0x0333406Cu, "XML", "xml"},   {0x03B33DDFu, "ITUN", "itun"},
    {0x073FAA07u, "S3SA", "s3sa"}, {0x2F7D0004u, "IMAG", "png"},  {0xA8D58BE5u, "SKIL", "skil"},
    {0xAC4F8687u, "GMDC", "gmdc"}, {0xFB00791Eu, "ANIM", "anim"}, {0xE519C933u, "CRES", "cres"},
    {0x7BA3838Cu, "GMND", "gmnd"}, {0xFC6EB1F7u, "SHPE", "shpe"}, {0x49596978u, "TXMT", "txmt"},
    {0x1C4A276Cu, "TXTR", "txtr"}, {0xE86B1EEFu, "DIR", "dir"},
};

const char *tool_type_name(uint32_t type) {
    size_t i;
    for (i = 0; i < sizeof types / sizeof types[0]; i++)
        if (types[i].type == type) return types[i].name;
    return NULL;
}

const char *tool_type_ext(uint32_t type) {
    size_t i;
    for (i = 0; i < sizeof types / sizeof types[0]; i++)
        if (types[i].type == type) return types[i].ext;
    return NULL;
}

plumbob_format tool_format_of_type(uint32_t type) {
    switch (type) {
    case PLUMBOB_TYPE_CLIP: return PLUMBOB_FORMAT_CLIP;
    case PLUMBOB_TYPE_JAZZ: return PLUMBOB_FORMAT_JAZZ;
    case PLUMBOB_TYPE_GMDC: return PLUMBOB_FORMAT_GMDC;
    case PLUMBOB_TYPE_ANIM: return PLUMBOB_FORMAT_ANIM;
    }
    return PLUMBOB_FORMAT_UNKNOWN;
}

plumbob_format tool_input_format(const tool_input *in) {
    return in->from_package ? tool_format_of_type(in->entry.type) : plumbob_identify(in->data, in->size);
}

void tool_type_label(uint32_t type, char *out, size_t cap) {
    const char *tn = tool_type_name(type);
    if (tn) snprintf(out, cap, "%s (type 0x%08X)", tn, (unsigned)type);
    else snprintf(out, cap, "type 0x%08X", (unsigned)type);
}
