/* Smooth Jazz keyword tables: flag, priority and operation names.  Each
 * table lists the names the decompiler prints first (in printing order) and
 * then aliases and zero values the compiler also accepts.  Flag values of
 * Play and Stop follow the public readers; the wiki's table is shifted by
 * one row from Mirror on (docs/SMOOTH-JAZZ.md). */
#include <stdio.h>
#include "smooth_jazz.h"
#include "util/ascii.h"

const sj_word sj_machine_flags[] = {
    {"UnilateralActor", 0x1}, {"PinAllResources", 0x2}, {"BlendMotionAccumulation", 0x4},
    {"HoldAllPoses", 0x8},    {"Default", 0x1},         {NULL, 0}};

const sj_word sj_state_flags[] = {
    {"Public", 0x1},        {"Entry", 0x2},  {"Exit", 0x4},      {"Loop", 0x8}, {"OneShot", 0x10},
    {"OneShotHold", 0x20},  {"Synchronized", 0x40}, {"Join", 0x80}, {"Explicit", 0x100}, {"None", 0},
    {NULL, 0}};

const sj_word sj_anim_flags[] = {
    {"AtEnd", 0x1},
    {"LoopAsNeeded", 0x2},
    {"OverridePriority", 0x4},
    {"Mirror", 0x8},
    {"OverrideMirror", 0x10},
    {"TimingIgnored", 0x60},
    {"TimingMaster", 0x20},
    {"TimingSlave", 0x40},
    {"Interruptible", 0x80},
    {"ForceBlend", 0x100},
    {"UseTimingPriority", 0x200},
    {"UseTimingPriorityAsClockMaster", 0x400},
    {"BaseClipIsSocial", 0x800},
    {"AdditiveClipIsSocial", 0x1000},
    {"BaseClipIsObjectOnly", 0x2000},
    {"AdditiveClipIsObjectOnly", 0x4000},
    {"HoldPose", 0x8000},
    {"BlendMotionAccumulation", 0x10000},
    {"OverrideTiming0", 0x20},
    {"OverrideTiming1", 0x40},
    {"Default", 0x1},
    {"TimingNormal", 0},
    {NULL, 0}};

const sj_word sj_random_flags[] = {{"AvoidRepeats", 0x1}, {"None", 0}, {NULL, 0}};

const sj_word sj_priorities[] = {
    {"Low", 6000},          {"LowPlus", 8000},         {"Normal", 10000},       {"NormalPlus", 15000},
    {"FacialIdle", 17500},  {"High", 20000},           {"HighPlus", 25000},     {"CarryRight", 30000},
    {"CarryRightPlus", 35000}, {"CarryLeft", 40000},   {"CarryLeftPlus", 45000}, {"Ultra", 50000},
    {"UltraPlus", 55000},   {"LookAt", 60000},         {"Broadcast", 0xFFFFFFFFu}, {"Default", 0xFFFFFFFEu},
    {NULL, 0}};

const sj_word sj_actor_ops[] = {{"None", 0}, {"SetMirror", 1}, {NULL, 0}};

int sj_word_is(const char *word, size_t len, const char *keyword) {
    return tool_ascii_ieq(word, len, keyword);
}

const sj_word *sj_word_find(const sj_word *table, const char *word, size_t len) {
    for (; table->name; table++)
        if (sj_word_is(word, len, table->name)) return table;
    return NULL;
}
