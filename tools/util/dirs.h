/* mkdir(path, mode) everywhere: Windows' has no mode argument.  Include it
 * after the system headers. */
#ifndef PLUMBOB_TOOL_DIRS_H
#define PLUMBOB_TOOL_DIRS_H

#include <sys/stat.h>
#ifdef _WIN32
#include <direct.h>
#include <io.h>
#define mkdir(path, mode) _mkdir(path) /* Windows: no mode argument */
#endif

#endif
