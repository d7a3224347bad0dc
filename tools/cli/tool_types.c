/* Names and file extensions of resource types a modder meets in packages. */
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
